import json
import sys

data = json.load(sys.stdin)
json.dump({"value": int(data["value"]) + 1}, sys.stdout)
