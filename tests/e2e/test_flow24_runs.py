"""Runs that the round-24 control-flow readings change, through the real `skillweave`: the Makefile
of holdout20 123 (file targets as steps, a jq filter's inputs) runs to its author's output, and the
law memo 124 asks its partner's approval only when its condition holds ("if the rollup shows any hits
at all, OR the fee estimate is over $25,000"; `spec.approval_condition24`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import FIXTURES, expectation, final_output, run, run_to_the_end

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout20"


def test_the_makefile_runs_to_its_authors_output(tmp_path: Path) -> None:
    folder = HOLDOUT / "123-nightly-reprice"
    expected = expectation(folder)
    result = run_to_the_end(folder / "spec.mk", expected["inputs"], tmp_path, "--skills-dir", str(folder / "skills"))
    assert final_output(result) == expected["final_output"]


def _memo_run(tmp_path: Path, inputs: dict[str, object]) -> dict[str, object]:
    folder = HOLDOUT / "124-matter-intake"
    tmp_path.mkdir(parents=True, exist_ok=True)
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    ran = run("run", str(folder / "spec.txt"), "--skills-dir", str(folder / "skills"), "--input-file", str(file),
              "--json", "--state-dir", str(tmp_path / "state"))
    out = json.loads(ran.stdout)
    assert isinstance(out, dict)
    return out


def test_the_memos_approval_is_asked_only_when_its_condition_holds(tmp_path: Path) -> None:
    inputs = dict(expectation(HOLDOUT / "124-matter-intake")["inputs"])
    clean = _memo_run(tmp_path / "clean", inputs)  # no hits, fee 12000: no approval
    assert clean["status"] != "paused" and "step-4" in clean["outputs"], clean
    big = _memo_run(tmp_path / "big", {**inputs, "fee_estimate": 40000})  # over $25,000: the partner is asked
    assert big["status"] == "paused" and big["awaiting"] == ["step-4"], big
