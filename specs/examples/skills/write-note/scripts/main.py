import json
import sys

data = json.load(sys.stdin)
json.dump({"text": f"{data['count']} orders: {data['note']}"}, sys.stdout)
