"""measure-word: a word and its length."""

import json
import sys

word = str(json.load(sys.stdin).get("word") or "")
json.dump({"word": word, "length": len(word)}, sys.stdout)
