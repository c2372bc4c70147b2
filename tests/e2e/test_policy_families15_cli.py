"""Through the real `skillweave`: the fifteenth round's recovery families as a stranger writes them.

A lab protocol's wait before each retry is the plan's list of waits; a ship's log's "instead, with
`x`" runs that skill when the step fails; a recipe card's "assume field=value" is the output the run
goes on with; a podcast run sheet's "the publish run has to be done within 20 minutes" is the run's
wall time, and its "it's done when ..." in words is warned at its line, never dropped.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import plan_json, run, script_skill

pytestmark = [pytest.mark.e2e]

_IO = "Inputs: `batch` (text). Outputs: `reading` (number), `source` (text)."


def _skill(root: Path, name: str, what: str, body: str) -> None:
    script_skill(root, name, what, _IO, body)


def _workspace(tmp_path: Path, before: str, recovery: str, after: str = "") -> Path:
    _skill(tmp_path, "probe-read", "Reads the probe for a batch.",
           "import sys\nprint('probe offline', file=sys.stderr)\nsys.exit(1)\n")
    _skill(tmp_path, "hand-read", "Takes the reading by hand for a batch.",
           "import json, sys\nd = json.load(sys.stdin)\nprint(json.dumps({'reading': 61.5, 'source': 'hand:' + d['batch']}))\n")
    spec = tmp_path / "workflow-spec.md"
    spec.write_text(f"""# Proofing card

Inputs: `batch` (text)

{before}

## Step 1: Probe

Read the dough temperature for `batch` with `probe-read`. {recovery}

## Notes

{after}
""", encoding="utf-8")
    return spec


def _run(spec: Path, tmp_path: Path) -> tuple[int, dict[str, object]]:
    given = tmp_path / "inputs.json"
    given.write_text(json.dumps({"batch": "B7"}), encoding="utf-8")
    done = run("run", str(spec), "--input-file", str(given), "--json", "--state-dir", str(tmp_path / "state"))
    return done.returncode, json.loads(done.stdout)


def test_a_wait_said_before_each_retry_is_the_plan_s_list_of_waits(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "", "If the reading fails, wait 1 s before the first retry, 3 s before the second and "
                                    "9 s before the last.")
    retry = plan_json(spec)["steps"][0]["policy"]["retry"]
    assert (retry["max_retries"], retry["delays_s"]) == (3, [1.0, 3.0, 9.0])


def test_a_skill_named_after_instead_runs_when_the_step_fails(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "", "Don't retry it. If the probe is offline, take it instead with `hand-read`.")
    code, result = _run(spec, tmp_path)
    assert (code, result["status"]) == (0, "degraded")
    assert result["outputs"]["step-1"] == {"reading": 61.5, "source": "hand:B7"}  # type: ignore[index]


def test_a_value_written_after_assume_is_what_the_run_goes_on_with(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "", "No retry. If the probe fails, assume reading=24 and carry on.")
    code, result = _run(spec, tmp_path)
    assert (code, result["status"]) == (0, "degraded")
    assert result["outputs"]["step-1"] == {"reading": 24}  # type: ignore[index]


def test_the_run_said_done_by_a_time_is_the_wall_time_and_a_done_in_words_is_warned(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "The proofing run has to be done within 20 minutes.", "No retry.",
                      "And it's done when the loaf looks right to the baker.")
    done = run("plan", str(spec), "--format", "json")  # one process: the plan on stdout, its warnings on stderr
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["limits"]["wall_time_s"] == 1200.0
    said = done.stderr
    assert "workflow-spec.md:5: warning: whole run:" in said
    assert "workflow-spec.md:13: warning:" in said and "'the loaf looks right to the baker' is not" in said


@pytest.mark.parametrize(("least", "code", "status"), [(60, 0, "succeeded"), (70, 1, "failed")])
def test_a_jq_check_of_the_output_is_the_run_s_success_check(least: int, code: int, status: str, tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "", "No retry.", f"Done when `jq -e '.reading >= {least}'` passes on the output.")
    spec.write_text(spec.read_text(encoding="utf-8").replace("`probe-read`", "`hand-read`"), encoding="utf-8")
    got, result = _run(spec, tmp_path)
    assert (got, result["status"]) == (code, status)
