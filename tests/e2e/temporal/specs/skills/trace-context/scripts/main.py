import json
import os
import sys

data = json.load(sys.stdin)
json.dump({"note": data["note"], "traceparent": os.environ.get("TRACEPARENT", "")}, sys.stdout)
