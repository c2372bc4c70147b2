import json
import os
import sys
import time

data = json.load(sys.stdin)
if not isinstance(data.get("value"), int):
    print("value must be an integer", file=sys.stderr)
    sys.exit(2)
time.sleep(data.get("sleep_ms", 0) / 1000)
if data.get("gate"):  # a folder (mounted read-only) the test opens by creating `open` in it
    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(data["gate"], "open")):
        if time.monotonic() > deadline:
            print(f"the gate {data['gate']} was not opened within 60 s", file=sys.stderr)
            sys.exit(3)
        time.sleep(0.05)
trail = [*(data.get("trail") or []), os.environ.get("SKILLWEAVE_STEP_ID", "?")]
json.dump({"value": data["value"] + data.get("add", 1), "trail": trail}, sys.stdout)
