import sys

print("refusing: the input names no module", file=sys.stderr)
sys.exit(2)
