import json
import os
import sys
import time

data = json.load(sys.stdin)
if not isinstance(data.get("value"), int):
    print("value must be an integer", file=sys.stderr)
    sys.exit(2)
time.sleep(data.get("sleep_ms", 0) / 1000)
trail = [*(data.get("trail") or []), os.environ.get("SKILLWEAVE_STEP_ID", "?")]
json.dump({"value": data["value"] + data.get("add", 1), "trail": trail}, sys.stdout)
