import json
import sys

data = json.load(sys.stdin)
gross = round(data["amount"] * (1 + data["vat"]), 2)
json.dump({"order_id": data["order_id"], "gross": gross}, sys.stdout)
