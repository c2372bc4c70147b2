import json
import sys
import time

data = json.load(sys.stdin)
time.sleep(data.get("sleep_ms", 0) / 1000)
json.dump({"n": data["n"], "square": data["n"] * data["n"]}, sys.stdout)
