import json
import sys
import time

data = json.load(sys.stdin)
time.sleep(float(data.get("pause_s") or 0))  # lets a test stop the server mid-step
text = str(data.get("text", ""))
json.dump({"text": text, "words": len(text.split())}, sys.stdout)
