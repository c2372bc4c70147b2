"""A gate said over a memo's wrapped lines (`spec.approval_words25`) pauses the real `skillweave run`
(exit 3) only when its condition holds, and the run goes on after `skillweave approve`: a CI release
memo whose clause says "Where 2.2 said "dirty", publish-image MUST NOT run until the release manager has
signed off", its time glossed "(treat as 8 hours)", what silence by then means, and that a clean scan
needs no sign-off (as holdout21 134's "Where 3.3 said "high" ... the CAB" and 132's "Hold up to 45 min")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import prose_skills, run

pytestmark = pytest.mark.e2e

MEMO = """Platform Team                                              R. Osei
Release Note: REL-0007                                     Build & Deploy

                 Publishing a Container Image from a Tag

1.  Inputs

   Each run takes one input, "tag": the git tag to release.

2.  Procedure

2.1.  Build.  The tag MUST first be passed to build-image.

2.2.  Scan.  Once 2.1 is done, image-scan is given the digest
      from build-image.

2.3.  Publish.  publish-image is given the digest from build-image.
      Where 2.2 said "dirty", publish-image MUST NOT run until the
      release manager has signed off.  The manager gets one working
      day (treat as 8 hours).  If they have not answered by then the
      release is cancelled and the run stops.
      Where 2.2 said "clean" no sign-off is needed.
"""

_SKILLS = {
    "build-image": ("`tag`", "`digest`", 'print(json.dumps({"digest": "sha256:" + d["tag"]}))'),
    "image-scan": ("`digest`", '`verdict` ("dirty" when a critical finding is open, else "clean")',
                   'print(json.dumps({"verdict": "dirty" if d["digest"].endswith("rc") else "clean"}))'),
    "publish-image": ("`digest`", "`published` (true)", 'print(json.dumps({"published": True}))'),
}


def _memo(tmp_path: Path) -> Path:
    prose_skills(tmp_path, _SKILLS, "release")
    spec = tmp_path / "release.txt"
    spec.write_text(MEMO, encoding="utf-8")
    return spec


def test_a_dirty_scan_waits_for_the_release_manager_and_a_clean_one_publishes(tmp_path: Path) -> None:
    spec = _memo(tmp_path)
    state = str(tmp_path / "state")
    ran = run("run", str(spec), "--input", "tag=v1.0", "--json", "--state-dir", state)
    result = json.loads(ran.stdout)
    assert ran.returncode == 0 and result["status"] == "succeeded", result  # clean: nobody is asked
    ran = run("run", str(spec), "--input", "tag=v1.1-rc", "--json", "--state-dir", state)
    result = json.loads(ran.stdout)
    assert ran.returncode == 3 and result["awaiting"] == ["step-3"], result
    assert run("approve", result["run_id"], "step-3", "--state-dir", state).returncode == 0
    ran = run("resume", result["run_id"], "--json", "--state-dir", state)
    result = json.loads(ran.stdout)
    assert ran.returncode == 0 and result["status"] == "succeeded", result
    assert result["outputs"]["step-3"] == {"published": True}
