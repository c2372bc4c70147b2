"""split-words: the words of a text."""

import json
import sys

json.dump({"words": str(json.load(sys.stdin).get("text") or "").split()}, sys.stdout)
