import json
import sys

data = json.load(sys.stdin)
json.dump({"total": sum(data["number"])}, sys.stdout)
