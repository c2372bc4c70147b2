import sys

print("refusing: nothing here is acceptable", file=sys.stderr)
sys.exit(2)
