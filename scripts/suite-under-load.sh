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
  # started in the background (`&`, nohup), this shell and its children ignore SIGINT, which the Ctrl-C
  # tests need: pytest is started with SIGINT back to its default
  .venv/bin/python -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.executable, [sys.executable, *sys.argv[1:]])' \
    -m pytest -q -p no:cacheprovider -rfE -n "${TEST_WORKERS:-auto}" --dist loadgroup > "/tmp/suite-under-load-$i.log" 2>&1
  rc=$?
  echo "run $i: rc=$rc, $(( $(date +%s) - start )) s, $(tail -1 /tmp/suite-under-load-$i.log)"
  grep -E '^(FAILED|ERROR) ' "/tmp/suite-under-load-$i.log" || true
done
