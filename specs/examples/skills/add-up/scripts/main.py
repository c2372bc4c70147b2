import json
import sys

numbers = json.load(sys.stdin)["gross"]
json.dump({"total": round(sum(numbers), 2), "count": len(numbers)}, sys.stdout)
