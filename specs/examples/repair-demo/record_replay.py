"""Re-record repair-demo.replay.jsonl: no key, no network.

Runs `skillweave run` on the demo with `--llm-record` against a scripted
stand-in for the Messages API whose one answer is a `submit_script` tool call
carrying fix/main.py. Run it from the repository root after changing the demo,
the prompts or the request format:

    .venv/bin/python specs/examples/repair-demo/record_replay.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from orchestrator.llm.fake import FakeMessagesAPI, tool_use_message

HERE = Path(__file__).resolve().parent
SUMMARY = (
    "A contact without an email raised KeyError; such contacts now keep email and domain null."
)


def main() -> int:
    fixed = (HERE / "fix" / "main.py").read_text(encoding="utf-8")
    answer = tool_use_message(
        "submit_script",
        {"summary": SUMMARY, "code": fixed},
        input_tokens=1480,
        output_tokens=310,
        cache_write_tokens=0,
        cache_read_tokens=0,
    )
    replay = HERE / "repair-demo.replay.jsonl"
    skillweave = shutil.which("skillweave") or str(Path(sys.executable).with_name("skillweave"))
    with FakeMessagesAPI([answer]) as api, tempfile.TemporaryDirectory() as state:
        env = {
            **os.environ,
            "ANTHROPIC_BASE_URL": api.base_url,
            "ANTHROPIC_API_KEY": "fake-key-for-recording",  # never written to the recording
        }
        env.pop("SKILLWEAVE_MODEL", None)  # record with the default model, as replays use
        command = [
            skillweave, "run", str(HERE / "repair-demo.md"),
            "--input-file", str(HERE / "contacts.json"),
            "--llm-record", str(replay),
            "--state-dir", state,
        ]  # fmt: skip
        done = subprocess.run(command, env=env, check=False)
        if done.returncode != 0 or len(api.requests) != 1:
            print(
                f"recording failed: exit {done.returncode}, {len(api.requests)} requests",
                file=sys.stderr,
            )
            return 1
    lines = [json.loads(line) for line in replay.read_text(encoding="utf-8").splitlines()]
    print(f"recorded {len(lines)} exchange(s) to {replay}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
