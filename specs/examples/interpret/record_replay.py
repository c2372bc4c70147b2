"""Re-record interpret.replay.jsonl and mirror.md.lock.json: no key, no network.

Runs `skillweave plan mirror.md --interpret --llm-record ...` against a scripted
stand-in for the Messages API whose one answer is a `read_policy` tool call
reading the step's second sentence. Run it from the repository root after
changing the spec, the prompt or the request format:

    .venv/bin/python specs/examples/interpret/record_replay.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from orchestrator.config import DEFAULT_MODEL
from orchestrator.llm.fake import FakeMessagesAPI, tool_use_message
from orchestrator.lockfile import lock_path

HERE = Path(__file__).resolve().parent
SPEC = HERE / "mirror.md"
READING = {
    "statement": {"retries": 2, "wait": {"kind": "fixed", "seconds": [30]}},
    "reason": "'let it catch its breath for half a minute and knock again' is a 30 s wait before each "
              "retry; 'two more knocks at most' is 2 retries.",
}


def main() -> int:
    answer = tool_use_message("read_policy", READING, input_tokens=1210, output_tokens=96, model=DEFAULT_MODEL)
    replay = HERE / "interpret.replay.jsonl"
    lock_path(SPEC).unlink(missing_ok=True)
    skillweave = shutil.which("skillweave") or str(Path(sys.executable).with_name("skillweave"))
    with FakeMessagesAPI([answer]) as api:
        env = {
            **os.environ,
            "ANTHROPIC_BASE_URL": api.base_url,
            "ANTHROPIC_API_KEY": "fake-key-for-recording",  # never written to the recording
        }
        env.pop("SKILLWEAVE_MODEL", None)  # record with the default model, as replays use
        command = [skillweave, "plan", str(SPEC), "--interpret", "--llm-record", str(replay), "--format", "json",
                   "-o", os.devnull]
        done = subprocess.run(command, env=env, check=False, cwd=HERE)
        if done.returncode != 0 or len(api.requests) != 1:
            print(f"recording failed: exit {done.returncode}, {len(api.requests)} requests", file=sys.stderr)
            return 1
    lines = [json.loads(line) for line in replay.read_text(encoding="utf-8").splitlines()]
    print(f"recorded {len(lines)} exchange(s) to {replay} and wrote {lock_path(SPEC)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
