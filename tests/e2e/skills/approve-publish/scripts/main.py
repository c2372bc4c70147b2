import json
import os
import sys

data = json.load(sys.stdin)
json.dump({"published": data.get("value"), "receipt": os.environ.get("SKILLWEAVE_IDEMPOTENCY_KEY", "")}, sys.stdout)
