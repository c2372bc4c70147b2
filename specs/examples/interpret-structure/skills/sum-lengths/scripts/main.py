"""sum-lengths: the total length of measured words, and the longest word."""

import json
import sys

lengths = json.load(sys.stdin).get("lengths") or []
longest = max(lengths, key=lambda m: m["length"], default={"word": ""})
json.dump({"total": sum(m["length"] for m in lengths), "longest": longest["word"]}, sys.stdout)
