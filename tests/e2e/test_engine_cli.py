"""`skillweave run`, `approve` and `resume` as real processes over real sandboxed scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from engine_plans import approval_plan, chaos_plan, read_events, skill, skillweave, write_plan

from orchestrator.plan.model import InputBinding, Plan, PlanStep, SpecRef, StepPolicy
from orchestrator.policy import RetryPolicy

pytestmark = pytest.mark.e2e


def test_a_sandboxed_plan_runs_to_success_and_prints_its_summary_as_json(tmp_path: Path) -> None:
    plan_file = write_plan(chaos_plan(chain=3, sleep_ms=0), tmp_path)
    result = skillweave(
        "run", plan_file, "--input", "start=10", "--input", "numbers=[2, 3]", "--json", "--state-dir", tmp_path / "s"
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["status"] == "succeeded"
    assert summary["outputs"]["c03"] == {"value": 16, "trail": ["c01", "c02", "c03"]}
    assert summary["outputs"]["squares"] == [{"n": 2, "square": 4}, {"n": 3, "square": 9}]
    assert summary["outputs"]["merge"] == {"total": 29, "count": 2}
    calc = next(s for s in summary["steps"] if s["step_id"] == "c02")
    assert calc["attempts"] == 1
    assert calc["handoff_passed"] == 1
    assert "attempt_started" in result.stderr  # the plain progress log, not a terminal
    run_dir = tmp_path / "s" / "runs" / summary["run_id"]
    assert summary["run_dir"] == str(run_dir)
    assert summary["report"] == str(run_dir / "report.md")
    assert (run_dir / "report.md").read_text().startswith(f"# Run {summary['run_id']}: SUCCEEDED")


def test_the_human_summary_lists_every_step(tmp_path: Path) -> None:
    plan_file = write_plan(chaos_plan(chain=2, sleep_ms=0), tmp_path)
    result = skillweave("run", plan_file, "-i", "start=1", "-i", "numbers=[]", "--state-dir", tmp_path / "s")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^run \S+  succeeded  \(chaos\)$", result.stdout, re.M)
    for step in ("c01", "c02", "squares", "merge"):
        assert re.search(rf"^  {step}\s+succeeded", result.stdout, re.M), result.stdout


def test_a_gate_pauses_the_run_until_approved_then_resume_finishes_it(tmp_path: Path) -> None:
    plan_file = write_plan(approval_plan(), tmp_path)
    state = tmp_path / "state"
    first = skillweave("run", plan_file, "--input", "start=41", "--state-dir", state)
    assert first.returncode == 3, first.stderr
    match = re.search(r"skillweave approve (\S+) publish", first.stdout)
    assert match, first.stdout
    run_id = match.group(1)
    assert f"skillweave resume {run_id}" in first.stdout
    report = state / "runs" / run_id / "report.md"
    assert f"report:    {report}" in first.stdout  # written for a paused run too
    assert report.read_text().startswith(f"# Run {run_id}: PAUSED")

    early = skillweave("resume", run_id, "--json", "--state-dir", state)
    assert early.returncode == 3  # still waiting: nothing decided yet
    assert json.loads(early.stdout)["awaiting"] == ["publish"]

    approved = skillweave("approve", run_id, "publish", "--comment", "looks right", "--state-dir", state)
    assert approved.returncode == 0, approved.stderr
    assert f"skillweave resume {run_id}" in approved.stdout

    done = skillweave("resume", run_id, "--json", "--state-dir", state)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["outputs"]["publish"] == {"published": 42, "receipt": f"{run_id}:publish:1"}
    decided = [data for _, kind, _, _, data in read_events(state, run_id) if kind == "approval_decided"]
    assert decided[0]["approved"] is True and decided[0]["comment"] == "looks right"
    prepare_attempts = [d for _, k, step, _, d in read_events(state, run_id) if k == "attempt_started" and step == "prepare"]
    assert len(prepare_attempts) == 1  # the step before the gate did not run again

    again = skillweave("resume", run_id, "--state-dir", state)
    assert again.returncode == 2
    assert "already succeeded" in again.stderr


def test_a_rejected_gate_fails_the_run(tmp_path: Path) -> None:
    plan_file = write_plan(approval_plan(), tmp_path)
    state = tmp_path / "state"
    first = skillweave("run", plan_file, "--input", "start=1", "--json", "--state-dir", state)
    assert first.returncode == 3
    run_id = json.loads(first.stdout)["run_id"]
    rejected = skillweave("approve", run_id, "publish", "--reject", "--json", "--state-dir", state)
    assert json.loads(rejected.stdout) == {"run_id": run_id, "step": "publish", "approved": False, "comment": None}
    done = skillweave("resume", run_id, "--json", "--state-dir", state)
    assert done.returncode == 1
    summary = json.loads(done.stdout)
    assert summary["status"] == "failed"
    assert "approval rejected" in summary["error"]["message"]


def test_approving_a_step_that_is_not_waiting_is_a_usage_error(tmp_path: Path) -> None:
    plan_file = write_plan(approval_plan(), tmp_path)
    state = tmp_path / "state"
    run_id = json.loads(skillweave("run", plan_file, "-i", "start=1", "--json", "--state-dir", state).stdout)["run_id"]
    result = skillweave("approve", run_id, "prepare", "--state-dir", state)
    assert result.returncode == 2
    assert "not awaiting approval" in result.stderr
    missing = skillweave("approve", "no-such-run", "publish", "--state-dir", state)
    assert missing.returncode == 2
    assert "no run 'no-such-run'" in missing.stderr


def test_a_script_exiting_2_fails_fast_as_invalid_input(tmp_path: Path) -> None:
    plan = Plan(
        name="refuse",
        spec=SpecRef(path="<e2e>", sha256="0" * 64, format="yaml"),
        steps=(
            PlanStep(
                id="fetch",
                name="fetch",
                skill="refuse-input",
                inputs={"module": InputBinding(source="literal", value="")},
                policy=StepPolicy(retry=RetryPolicy(max_retries=3, delays_s=(0.01,)), regenerations=2),
            ),
        ),
        skills={"refuse-input": skill("refuse-input")},
    )
    result = skillweave("run", write_plan(plan, tmp_path), "--json", "--state-dir", tmp_path / "s")
    assert result.returncode == 1
    step = json.loads(result.stdout)["steps"][0]
    assert (step["attempts"], step["error_class"]) == (1, "invalid_input")
    assert "refusing: the input names no module" in step["message"]


def test_a_missing_required_input_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    plan_file = write_plan(chaos_plan(chain=2), tmp_path)
    result = skillweave("run", plan_file, "--input", "start=1", "--state-dir", tmp_path / "s")
    assert result.returncode == 2
    assert "missing required input 'numbers'" in result.stderr
    assert "Traceback" not in result.stderr
    bad = skillweave("run", plan_file, "-i", "start=one", "-i", "numbers=[]", "--state-dir", tmp_path / "s")
    assert bad.returncode == 2
    assert "input 'start' is invalid" in bad.stderr


_FAN_OUT_SPEC = """name: fan
description: square each number of a list
inputs:
  nums: {type: array}
steps:
  - id: sq
    skill: fan-square
    for_each: "LOOP in nums"
    input:
      n: "{{ REF }}"
      sleep_ms: 0
"""


@pytest.mark.parametrize(("loop", "ref"), [("item", "item"), ("n", "n")])
def test_a_yaml_for_each_over_integers_hands_each_step_the_integer(tmp_path: Path, loop: str, ref: str) -> None:
    spec = tmp_path / "fan.yaml"
    spec.write_text(_FAN_OUT_SPEC.replace("LOOP", loop).replace("REF", ref))
    skills = Path(__file__).resolve().parent / "skills"
    checked = skillweave("validate", spec, "--skills-dir", skills)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    result = skillweave(
        "run", spec, "--skills-dir", skills, "-i", "nums=[1, 2, 3]", "--json", "--state-dir", tmp_path / "s"
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["outputs"]["sq"] == [{"n": 1, "square": 1}, {"n": 2, "square": 4}, {"n": 3, "square": 9}]
