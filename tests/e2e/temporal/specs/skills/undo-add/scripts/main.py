import json
import sys

data = json.load(sys.stdin)
json.dump({"undone": data["step"], "value": data["output"]["value"]}, sys.stdout)
