import json
import sys

data = json.load(sys.stdin)
json.dump({"refund_id": f"RF-{data['order_id']}", "amount": data["amount"]}, sys.stdout)
