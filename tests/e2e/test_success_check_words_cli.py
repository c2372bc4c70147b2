"""A run whose steps all finish but whose success check, said in words at the end of the spec, fails
is not `succeeded`, through the real CLI (`spec.success_checks23`): the check is shown in the plan
and checked on the step's output when the run gets there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from counter_workflow import skillweave

pytestmark = pytest.mark.e2e

SKILL_MD = """\
---
name: stamp-order
description: Test skill. Stamps an order with the status it is given.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.timeout: "20"
---

Reads `{"mode": str}` and writes `{"status": mode, "order_no": "ORD-1"}`.
"""

SCRIPT = """\
import json
import sys

data = json.load(sys.stdin)
json.dump({"status": data["mode"], "order_no": "ORD-1"}, sys.stdout)
"""

SPEC = """\
# Stamp an order

## Inputs
- mode (string): what the stamper is told to say

## Steps

### Step 1: Stamp
- Skill: `stamp-order`
- Input: mode (string)
- Output: status (string), order_no (string)

---
We're finished when stamp-order has handed back an order number and a status "STAMPED".
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stamp")
    skill = folder / "skills" / "stamp-order"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD)
    (skill / "scripts" / "main.py").write_text(SCRIPT)
    (folder / "stamp.md").write_text(SPEC)
    planned = skillweave("plan", "stamp.md", "--format", "json", "-o", "plan.json", cwd=folder)
    assert planned.returncode == 0, planned.stderr
    return folder


def test_the_check_in_words_is_in_the_plan(folder: Path) -> None:
    plan = json.loads((folder / "plan.json").read_text())
    [step] = plan["steps"]
    checked = step["output_schema"]["properties"]["status"] | next(
        (c["schema"]["properties"]["status"] for c in plan.get("run_checks") or []), {})  # the run's check, after the run
    assert checked == {"const": "STAMPED", "type": "string"}
    assert any(w.get("line") == 14 and "is read as the run's success check" in w["message"] for w in plan["warnings"])


def test_a_run_that_meets_the_check_succeeds(folder: Path) -> None:
    ok = skillweave("run", "plan.json", "--input", "mode=STAMPED", "--json", "--state-dir", folder / "state", cwd=folder)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["status"] == "succeeded"


def test_a_run_that_finishes_but_fails_the_check_is_not_succeeded(folder: Path) -> None:
    bad = skillweave("run", "plan.json", "--input", "mode=HELD", "--json", "--state-dir", folder / "state", cwd=folder)
    assert bad.returncode == 1, bad.stderr
    assert json.loads(bad.stdout)["status"] != "succeeded"
