import json
import sys

data = json.load(sys.stdin)
text = str(data.get("text", ""))
json.dump({"text": text, "words": len(text.split())}, sys.stdout)
