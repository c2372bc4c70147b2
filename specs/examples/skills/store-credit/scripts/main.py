import json
import sys

data = json.load(sys.stdin)
json.dump({"credit_code": f"SC-{data['order_id']}", "valid_days": 365}, sys.stdout)
