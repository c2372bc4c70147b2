import json
import sys

data = json.load(sys.stdin)
lines = []
for part in str(data.get("orders", "")).split(","):
    order_id, sep, amount = part.strip().partition(":")
    try:
        value = float(amount)
    except ValueError:
        value = None
    if not sep or not order_id or value is None:
        print(f"not an `id:amount` pair: {part!r}", file=sys.stderr)
        sys.exit(2)
    lines.append({"order_id": order_id, "amount": value})
json.dump({"lines": lines}, sys.stdout)
