import json
import sys
import time
from pathlib import Path

data = json.load(sys.stdin)
time.sleep(float(data.get("pause_s") or 0))  # lets a test stop the server mid-step
if data.get("gate"):  # a folder (mounted read-only) the test opens by creating `open` in it
    deadline = time.monotonic() + 80
    while not (Path(data["gate"]) / "open").exists():
        if time.monotonic() > deadline:
            print(f"the gate {data['gate']} was not opened within 80 s", file=sys.stderr)
            sys.exit(3)
        time.sleep(0.05)
text = str(data.get("text", ""))
json.dump({"text": text, "words": len(text.split())}, sys.stdout)
