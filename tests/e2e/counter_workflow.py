"""A tiny offline workflow for report and scenario e2e tests: one test skill, one spec, a CLI runner.

`add-one` is a real script skill (run in the sandbox) that adds one to `value`
and raises ValueError on a negative value. The spec chains it twice and carries a
Testing Plan whose entries use the structured scenario form.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SKILL_MD = """\
---
name: add-one
description: Test skill. Adds one to an integer value and fails with a traceback when the value is negative.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.timeout: "20"
---

Reads `{"value": int}` and writes `{"value": value + 1}`.
"""

SCRIPT = """\
import json
import sys

data = json.load(sys.stdin)
value = data["value"]
if value < 0:
    raise ValueError(f"negative value: {value}")
json.dump({"value": value + 1}, sys.stdout)
"""

SPEC_HEAD = """\
# Counter Workflow

## Intent
Add one to a number twice, so that tests can watch real runs.

## Inputs
- value (integer): the number to start from

## Workflow Steps

### Step 1: First increment
- Skill: `add-one`
- Input: value (integer)
- Output: value (integer)
- Retries: 2
- Success criteria: the value grew by one
- Failure modes:
  - The script fails (script error)

### Step 2: Second increment
- Skill: `add-one`
- Input: value (integer)
- Output: value (integer)
- Success criteria: the value grew by one
- Failure modes:
  - The script fails (script error)

## Testing Plan
"""


def write_workflow(folder: Path, scenarios: list[str]) -> Path:
    """The `add-one` skill in `folder/skills/` and `folder/counter.md` with these Testing Plan lines."""
    skill = folder / "skills" / "add-one"
    (skill / "scripts").mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(SKILL_MD)
    (skill / "scripts" / "main.py").write_text(SCRIPT)
    spec = folder / "counter.md"
    spec.write_text(SPEC_HEAD + "".join(f"{i}. {line}\n" for i, line in enumerate(scenarios, 1)))
    return spec


def skillweave(*args: str | Path, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the installed `skillweave` in `cwd`, with no state dir inherited from the environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")}
    command = [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env, check=False)
