"""Policy sentences, wherever a spec writes them, become the plan's policies: the issue's misreads,
prose in step sections, Error Recovery rows and bullets, extra columns, Convergence, success criteria."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.errors import PlanError
from orchestrator.plan.model import Plan, PlanStep
from orchestrator.policy import ErrorClass, Fallback, FallbackAction, RetryPolicy

PROBE = """import json, sys
json.dump({"value": 1, "valid": True, "problems": [], "confidence": 0.9}, sys.stdout)
"""
OUTPUT = {"type": "object", "properties": {"value": {"type": "integer"}, "valid": {"type": "boolean"},
                                           "problems": {"type": "array", "items": {"type": "string"}},
                                           "confidence": {"type": "number"}}}


def _skill(root: Path, name: str) -> None:
    folder = root / "skills" / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "schemas").mkdir()
    (folder / "scripts" / "main.py").write_text(PROBE)
    (folder / "schemas" / "output.json").write_text(json.dumps(OUTPUT))
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Probe {name}.\nmetadata:\n  skillweave.kind: script\n"
        "  skillweave.entry: scripts/main.py\n  skillweave.output-schema: schemas/output.json\n---\nProbe.\n")


def compile_text(tmp_path: Path, text: str, name: str = "flow.md") -> Plan:
    for skill in ("probe", "backup-mirror", "other"):
        if not (tmp_path / "skills" / skill).exists():
            _skill(tmp_path, skill)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return compile_spec(path, Settings(state_dir=tmp_path / "state"))


def one_step(body: str, *, extra: str = "") -> str:
    return f"# Flow\n\n## Workflow Steps\n\n### Step 1: Pull\n- Skill: `probe`\n\n{body}\n{extra}"


def line(where: str | None) -> int:
    assert where is not None
    return int(where.rsplit(":", 1)[1])


def warnings(plan: Plan, code: str) -> list[tuple[int | None, str]]:
    return [(w.line, w.message) for w in plan.warnings if w.code == code]


# -- the misreads, each with its exact sentence ------------------------------------


def test_retry_3_times_waiting_2s_between_tries_is_three_fixed_2s_waits(tmp_path: Path) -> None:
    step = compile_text(tmp_path, one_step("Retry 3 times, waiting 2s between tries")).steps[0]
    assert step.policy.retry == RetryPolicy(max_retries=3, delays_s=(2.0,), jitter=False)
    assert [step.policy.retry.delay(n, 0.37) for n in range(3)] == [2.0, 2.0, 2.0]  # no jitter, no growth
    assert line(step.provenance["policy.retry"].where) == 8


def test_retry_twice_with_a_5_second_delay_is_two_fixed_5s_waits(tmp_path: Path) -> None:
    step = compile_text(tmp_path, one_step("Retry twice with a 5 second delay")).steps[0]
    assert step.policy.retry == RetryPolicy(max_retries=2, delays_s=(5.0,), jitter=False)


def test_wait_5s_then_15s_in_parentheses_is_that_sequence(tmp_path: Path) -> None:
    step = compile_text(tmp_path, one_step("Retry (wait 5s, then 15s)")).steps[0]
    assert step.policy.retry == RetryPolicy(max_retries=2, delays_s=(5.0, 15.0), jitter=False)


def test_exponential_backoff_max_wait_20s_caps_at_20s_and_starts_at_1s(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, one_step("exponential backoff, max wait 20s"))
    retry = plan.steps[0].policy.retry
    assert (retry.initial_s, retry.multiplier, retry.max_delay_s, retry.jitter) == (1.0, 2.0, 20.0, True)
    assert [retry.delay(n) for n in range(6)] == [1.0, 2.0, 4.0, 8.0, 16.0, 20.0]
    # no count is written: 3 retries are assumed, and the plan says so at the sentence's line
    assert retry.max_retries == 3
    assert [(ln, m) for ln, m in warnings(plan, "spec.assumed")] == [
        (8, "step-1: 'exponential backoff, max wait 20s' gives no retry count; 3 retries assumed, waiting 1s, 2s, "
            "4s (exponential from 1s, x2, capped at 20s, with jitter: up to those); write the count to say it "
            "('retry 3 times ...')")]


def test_retry_with_exponential_backoff_and_no_count_assumes_3_retries_and_warns_once_with_the_figures(
        tmp_path: Path) -> None:
    plan = compile_text(tmp_path, one_step("Retry with exponential backoff."))
    assert plan.steps[0].policy.retry == RetryPolicy(max_retries=3)
    assumed = warnings(plan, "spec.assumed")
    assert [ln for ln, _ in assumed] == [8] and "3 retries assumed, waiting 1s, 2s, 4s" in assumed[0][1]
    assert not [m for ln, m in warnings(plan, "spec.policy-partial") if ln == 8]  # said once, with the figures


def test_retry_5x_is_five_retries(tmp_path: Path) -> None:
    assert compile_text(tmp_path, one_step("retry 5x")).steps[0].policy.retry.max_retries == 5


def test_retry_every_10_seconds_for_up_to_a_minute_is_a_time_budget(tmp_path: Path) -> None:
    retry = compile_text(tmp_path, one_step("Retry every 10 seconds for up to a minute.")).steps[0].policy.retry
    assert (retry.delays_s, retry.budget_s, retry.jitter) == ((10.0,), 60.0, False)
    assert retry.max_retries == 6  # the waits that fit in the minute; the engine also stops at the budget


def test_a_catch_all_row_on_top_never_hides_the_specific_rows_below_it(tmp_path: Path) -> None:
    table = """
## Error Recovery

| Step | Failure | Recovery | Fallback |
|------|---------|----------|----------|
| 1 | Anything else | Retry 2 times | Continue |
| 1 | Card declined (unrecoverable) | Do not retry | Escalate to #payments |
| 1 | Bad request (invalid input) | No retry | FAIL workflow |
"""
    step = compile_text(tmp_path, one_step("", extra=table)).steps[0]
    unrecoverable = step.policy_for(ErrorClass.UNRECOVERABLE)
    assert unrecoverable.retry.max_retries == 0
    assert unrecoverable.fallback == Fallback(action=FallbackAction.ESCALATE, message="to #payments")
    invalid = step.policy_for(ErrorClass.INVALID_INPUT)
    assert (invalid.retry.max_retries, invalid.fallback.action) == (0, FallbackAction.FAIL)
    other = step.policy_for(ErrorClass.CODE_ERROR)  # nothing specific: the catch-all
    assert (other.retry.max_retries, other.fallback.action) == (2, FallbackAction.CONTINUE)
    assert [r.on for r in step.policy.rules] == [ErrorClass.UNRECOVERABLE, ErrorClass.INVALID_INPUT, "any"]


def test_a_max_attempts_column_that_disagrees_with_the_recovery_cell_is_a_warning_naming_the_winner(
    tmp_path: Path,
) -> None:
    table = """
## Error Recovery

| Step | Failure | Recovery | Max Attempts |
|------|---------|----------|--------------|
| 1 | Network timeout | Retry 3 times, waiting 2s between tries | 3 |
"""
    plan = compile_text(tmp_path, one_step("", extra=table))
    assert plan.steps[0].policy.retry.max_retries == 3
    (conflict,) = warnings(plan, "policy-conflict")
    assert conflict[0] == 14
    assert "Max Attempts column says 3 attempts (2 retries)" in conflict[1]
    assert "the Recovery cell wins" in conflict[1]


def test_prose_in_a_step_section_drives_timeout_retries_fallback_and_escalation(tmp_path: Path) -> None:
    body = ("Give it 60 seconds. If the mirror is down use the backup mirror.\n"
            "When it times out, wait 30 seconds and try again, up to 4 times.\n"
            "If nothing works, page the on-call.")
    step = compile_text(tmp_path, one_step(body)).steps[0]
    assert step.policy.attempt_timeout_s == 60.0
    timeout = step.policy_for(ErrorClass.TIMEOUT)
    assert timeout.retry == RetryPolicy(max_retries=4, delays_s=(30.0,), jitter=False)
    transient = step.policy_for(ErrorClass.TRANSIENT)
    assert transient.fallback == Fallback(action=FallbackAction.SKILL, skill="backup-mirror")
    assert step.policy.fallback == Fallback(action=FallbackAction.ESCALATE, message="page the on-call")
    sentences = {k: v for k, v in step.provenance.items() if k.startswith("sentence:")}
    assert {line(v.where) for v in sentences.values()} == {8, 9, 10}
    assert all(v.source == "spec" for v in sentences.values())


def test_success_criteria_that_compare_become_checks_on_the_output(tmp_path: Path) -> None:
    text = one_step("- Output: value (integer), problems (list of strings)\n"
                    "- Success criteria: valid is true and problems is empty, "
                    "confidence >= 0.7\n")
    schema = compile_text(tmp_path, text).steps[0].output_schema
    props = schema["properties"]
    assert props["valid"]["const"] is True
    assert props["problems"]["maxItems"] == 0 and "maxLength" not in props["problems"]  # an array: its keyword only
    assert props["confidence"]["minimum"] == 0.7
    assert {"valid", "problems", "confidence"} <= set(schema["required"])


def test_a_success_criterion_that_is_not_a_comparison_is_a_warning_with_its_line(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, one_step("- Success criteria: the page reads well\n"))
    assert warnings(plan, "spec.success") == [
        (8, "step-1: success criterion 'the page reads well' is not a comparison on an output field "
            "(`valid is true`, `confidence >= 0.7`); not checked")]


# -- precedence and conflicts ----------------------------------------------------------------


def test_a_bullet_beats_the_step_prose_and_a_warning_says_which_won(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, one_step("- Retries: 2\n\nRetry 5 times, 3s apart."))
    step = plan.steps[0]
    assert step.policy.retry.max_retries == 2
    (conflict,) = warnings(plan, "policy-conflict")
    assert conflict[0] == 10
    assert conflict[1].endswith("flow.md:10) disagrees with 'Retries' "
                                f"({tmp_path / 'flow.md'}:8); 'Retries' wins")
    assert conflict[1].startswith("step-1: retry count 'Retry 5 times, 3s apart.' (")
    assert step.policy.retry.delays_s == (3.0,)  # the bullet gives the count, the sentence its waits


def test_the_step_prose_beats_a_table_row_with_a_warning(tmp_path: Path) -> None:
    table = """
## Error Recovery

| Step | Failure | Recovery |
|------|---------|----------|
| 1 | Network error | Retry 5 times |
"""
    plan = compile_text(tmp_path, one_step("Retry twice, 10 seconds apart.", extra=table))
    assert plan.steps[0].policy.retry.max_retries == 2
    assert [ln for ln, _ in warnings(plan, "policy-conflict")] == [14]


def test_an_owner_column_names_who_an_escalation_is_for(tmp_path: Path) -> None:
    table = """
## Error Recovery

| Step | Failure | Recovery | Fallback | Owner |
|------|---------|----------|----------|-------|
| 1 | Import error | No retry | Escalate | #data-eng |
"""
    plan = compile_text(tmp_path, one_step("", extra=table))
    rule = plan.steps[0].policy_for(ErrorClass.INVALID_INPUT)
    assert rule.fallback == Fallback(action=FallbackAction.ESCALATE, message="escalate to #data-eng")
    assert any("column 'Owner'" in m for _, m in warnings(plan, "spec.unread"))


def test_recovery_bullets_name_their_steps_and_a_catch_all_covers_the_rest(tmp_path: Path) -> None:
    text = """# Flow

## Workflow Steps

### Step 1: A
- Skill: `probe`

### Step 2: B
- Skill: `probe`

### Step 3: C
- Skill: `probe`

## Error Recovery

- Steps 1 and 2: if the parse fails it's the file's fault, don't retry. Stop and tell the owners.
- Step 3: retry 3 times, waiting 2s between tries.
- If anything else blows up just fail the run.
"""
    plan = compile_text(tmp_path, text)
    s1, s2, s3 = plan.steps
    for step in (s1, s2):
        invalid = step.policy_for(ErrorClass.INVALID_INPUT)
        assert invalid.retry.max_retries == 0
        assert invalid.fallback == Fallback(action=FallbackAction.ESCALATE, message="tell the owners")
    assert s3.policy.retry == RetryPolicy(max_retries=3, delays_s=(2.0,), jitter=False)
    assert s3.policy_for(ErrorClass.CODE_ERROR).fallback.action is FallbackAction.FAIL
    assert line(s3.provenance["policy.retry"].where) == 17


def test_convergence_sentences_set_every_step_s_defaults_and_the_run_s_wall_time(tmp_path: Path) -> None:
    limits = """
## Limits

- No single step should take more than 5 sec; anything slower counts as a failure.
- Whole run: 2 min max.
- If a step still fails after its retries, stop the whole workflow.
"""
    text = one_step("Timeout 10s.", extra="### Step 2: Next\n- Skill: `probe`\n" + limits)
    plan = compile_text(tmp_path, text)
    first, second = plan.steps
    assert first.policy.attempt_timeout_s == 10.0  # its own
    assert second.policy.attempt_timeout_s == 5.0  # the workflow's
    assert plan.limits.wall_time_s == 120.0
    assert line(plan.limits_provenance["wall_time_s"].where) == 15
    assert line(second.provenance["policy.fallback"].where) == 16


def test_a_fallback_to_another_step_runs_that_step_s_skill(tmp_path: Path) -> None:
    text = """# Flow

## Workflow Steps

### Step 1: Fetch
- Skill: `probe`

If the API is unreachable, run step 2 instead.

### Step 2: Cached
- Skill: `other`
"""
    step = compile_text(tmp_path, text).steps[0]
    chosen = step.policy_for(ErrorClass.TRANSIENT).fallback
    assert chosen == Fallback(action=FallbackAction.SKILL, skill="other", step="step-2")


def test_an_unread_policy_sentence_is_a_warning_with_its_line_and_plan_strict_refuses_it(tmp_path: Path) -> None:
    # a breather of a time is a wait (round 9's labelled pauses); a nap is no word for one
    plan = compile_text(tmp_path, one_step("Give it a nap of half a minute before going again."))
    ((ln, message),) = warnings(plan, "spec.policy-unread")
    assert ln == 8 and "'half a minute', 'again'" in message
    assert plan.steps[0].policy.retry == RetryPolicy()  # nothing guessed


def test_a_description_with_no_policy_words_is_no_warning(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, one_step("It reads the page and gives back its text. Nothing fancy."))
    assert plan.warnings == ()


@pytest.mark.parametrize("sentence", ["retry a few times", "wait a bit and retry", "retry 2-3 times"])
def test_vague_sentences_are_warned_not_guessed(tmp_path: Path, sentence: str) -> None:
    plan = compile_text(tmp_path, one_step(sentence + "."))
    assert plan.steps[0].policy.retry.max_retries == 0
    assert plan.warnings and all(w.line == 8 for w in plan.warnings)


def test_every_reading_is_in_the_plan_with_its_line(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, one_step("Give it 20 seconds. Never retry it. If it fails, continue."))
    step: PlanStep = plan.steps[0]
    notes = [v.note for k, v in sorted(step.provenance.items()) if k.startswith("sentence:")]
    assert notes == ["step text: 'Give it 20 seconds.'", "step text: 'Never retry it.'",
                     "step text: 'If it fails, continue.'"]


def test_a_spec_the_planner_refuses_still_names_its_errors(tmp_path: Path) -> None:
    with pytest.raises(PlanError):
        compile_text(tmp_path, "# Flow\n\n## Workflow Steps\n\n### Step 1: A\n- Skill: `nope`\n")


def _two_steps(limits: str) -> str:
    return ("# Flow\n\n## Workflow Steps\n\n### Step 1: Fetch\n- Skill: `probe`\n\n"
            "### Step 2: QA\n- Skill: `other`\n\n## Limits\n\n" + limits + "\n")


@pytest.mark.parametrize("sentence", ["QA shouldn't take longer than 5 secs per doc.",
                                      "The fetch step should never take longer than 5 seconds."])
def test_a_limits_sentence_that_names_one_step_is_that_step_s_alone(tmp_path: Path, sentence: str) -> None:
    plan = compile_text(tmp_path, _two_steps(f"- {sentence}"))
    timed = {s.id: s.policy.attempt_timeout_s for s in plan.steps}
    named = "step-2" if sentence.startswith("QA") else "step-1"
    assert timed[named] == 5 and [t for sid, t in timed.items() if sid != named] == [None]


def test_a_limits_sentence_for_every_step_is_every_step_s_even_when_it_names_one(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, _two_steps("- No single step, QA included, should take longer than 5 seconds."))
    assert [s.policy.attempt_timeout_s for s in plan.steps] == [5, 5]


def test_a_time_for_all_the_tries_bounds_the_retry_another_place_states(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, _two_steps("- Step 1 gets 2 minutes in total for all its tries.").replace(
        "- Skill: `probe`\n", "- Skill: `probe`\n\nRetry 4 times, 10 seconds apart.\n", 1))
    retry = plan.steps[0].policy.retry
    assert (retry.max_retries, retry.delays_s, retry.budget_s) == (4, (10.0,), 120.0)
    assert plan.steps[1].policy.retry.budget_s is None
    assert not warnings(plan, "policy-conflict")
