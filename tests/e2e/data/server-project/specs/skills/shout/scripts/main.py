import json
import sys

data = json.load(sys.stdin)
json.dump({"shouted": f"{str(data['text']).upper()} ({data['words']} words)"}, sys.stdout)
