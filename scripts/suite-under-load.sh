#!/usr/bin/env bash
# The whole suite N times, as `make test` runs it (two xdist workers), while a busy loop holds every core (issue 25.5).
#   scripts/suite-under-load.sh [N]      -> one line per run: passed/failed counts, seconds
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cores=$(nproc)
loops=()
for _ in $(seq "$cores"); do python3 -c 'while True: pass' & loops+=($!); done
trap 'kill "${loops[@]}" 2>/dev/null' EXIT
for i in $(seq "$runs"); do
  start=$(date +%s)
  .venv/bin/python -m pytest -q -p no:cacheprovider -rfE -n "${TEST_WORKERS:-auto}" --dist loadgroup > "/tmp/suite-under-load-$i.log" 2>&1
  rc=$?
  echo "run $i: rc=$rc, $(( $(date +%s) - start )) s, $(tail -1 /tmp/suite-under-load-$i.log)"
  grep -E '^(FAILED|ERROR) ' "/tmp/suite-under-load-$i.log" || true
done
