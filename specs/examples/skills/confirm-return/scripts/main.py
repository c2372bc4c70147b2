import json
import sys

data = json.load(sys.stdin)
if not data.get("reference"):
    sys.exit("no reference to confirm")
json.dump({"text": f"{data['order_id']} is settled: {data['reference']}"}, sys.stdout)
