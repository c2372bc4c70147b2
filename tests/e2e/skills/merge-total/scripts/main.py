import json
import sys

data = json.load(sys.stdin)
squares = [s["square"] for s in data["squares"]]
json.dump({"total": sum(squares) + data.get("value", 0), "count": len(squares)}, sys.stdout)
