"""An either/or success check over two branches (`spec.success_words27`) is checked on the branch that
ran, through the real `skillweave run`: a release checklist's "done when Publish comes back
published = true, or when Hold has handed back a ticket number" succeeds whichever branch ran and
met its half, and fails when the branch that ran breaks it (as holdout22 140's Tag / Legal)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import prose_skills, run

pytestmark = pytest.mark.e2e

CHECKLIST = """# Release checklist

## Inputs
- release: the version to ship

## Steps

### Step 1: Scan
- Skill: `licence-scan`
- Output: `clean`

### Step 2: Publish
- Skill: `publish-build`
- When: clean == true
- Output: `published`

### Step 3: Hold
- Skill: `open-hold`
- Otherwise:
- Output: `ticket`

Release is done when Publish comes back published = true, or when Hold has handed back a ticket number.
"""

_SKILLS = {
    "licence-scan": ("`clean`", 'print(json.dumps({"clean": not d["release"].endswith("gpl")}))'),
    "publish-build": ("`published`", 'print(json.dumps({"published": not d["release"].endswith("broken")}))'),
    "open-hold": ("`ticket`", 'print(json.dumps({"ticket": "LEGAL-" + d["release"]}))'),
}


def _checklist(tmp_path: Path) -> Path:
    prose_skills(tmp_path, {name: ("`release`", outputs, line) for name, (outputs, line) in _SKILLS.items()},
                 "release")
    spec = tmp_path / "checklist.md"
    spec.write_text(CHECKLIST, encoding="utf-8")
    return spec


def test_either_branch_meeting_its_half_succeeds_and_a_broken_one_does_not(tmp_path: Path) -> None:
    spec = _checklist(tmp_path)
    state = str(tmp_path / "state")
    for release, meant in (("v2.0", "succeeded"), ("v2.0-gpl", "succeeded"), ("v2.0-broken", "failed")):
        ran = run("run", str(spec), "--input", f"release={release}", "--json", "--state-dir", state)
        result = json.loads(ran.stdout)
        assert result["status"] == meant, (release, result)
        assert (ran.returncode == 0) == (meant == "succeeded"), (release, result)
