"""Specs written by someone who never saw this repository run the way their author meant.

Each folder of tests/fixtures/foreign-specs/ holds the author's `expect.yaml`: the inputs of a
run and the final output they meant (`final_output`), or, for a spec whose run always waits
for a person (`final_output_after_approval`), the output once that person approved. Through
the real `skillweave` executable and the real sandbox, each runs from its spec with those
inputs and ends with that output: the output of the last step, in plan order, that has one.
Nothing here is waived; a debatable expectation would be listed in OVERRIDES with why.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from foreign_kit import FIXTURES, expectation, final_output, folders_of, run

pytestmark = pytest.mark.e2e

FOREIGN = FIXTURES / "foreign-specs"
FOLDERS = folders_of(FOREIGN)

# folder -> why its run is not compared with the author's output (none today)
OVERRIDES: dict[str, str] = {}


def skillweave(*args: str, state: Path) -> subprocess.CompletedProcess[str]:
    return run(*args, "--state-dir", str(state))


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_foreign_spec_runs_to_its_authors_final_output(folder: str, tmp_path: Path) -> None:
    if folder in OVERRIDES:
        pytest.skip(OVERRIDES[folder])
    expected = expectation(FOREIGN / folder)
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps(expected["inputs"]), encoding="utf-8")
    state = tmp_path / "state"
    ran = skillweave("run", str(FOREIGN / folder / expected["spec"]), "--input-file", str(inputs), "--json",
                     state=state)
    result = json.loads(ran.stdout)
    if expected.get("runnable", True):
        assert ran.returncode == 0, (ran.stderr, result.get("error"), result.get("steps"))
        assert result["status"] == "succeeded", result["status"]
        assert final_output(result) == expected["final_output"]
        return
    # the author's run waits for a person: it pauses (exit 3) at that step; approved, it ends as meant
    assert ran.returncode == 3, (ran.stderr, result.get("steps"))
    assert result["status"] == "paused" and len(result["awaiting"]) == 1, result
    approved = skillweave("approve", result["run_id"], result["awaiting"][0], state=state)
    assert approved.returncode == 0, approved.stderr
    resumed = skillweave("resume", result["run_id"], "--json", state=state)
    after = json.loads(resumed.stdout)
    assert resumed.returncode == 0, (resumed.stderr, after.get("error"))
    assert after["status"] == "succeeded"
    assert final_output(after) == expected["final_output_after_approval"]
