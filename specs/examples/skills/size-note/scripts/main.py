import json
import sys

data = json.load(sys.stdin)
json.dump({"note": f"{data['total']} is {data['size']}"}, sys.stdout)
