"""What a spec's sentences say is what the engine does: their retry schedule, time budget,
timeout, fallback and escalation, run in virtual time from the sentence to the waits."""

from __future__ import annotations

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.plan.model import PlanStep
from orchestrator.plan.recovery import step_policy
from orchestrator.policy import ErrorClass
from orchestrator.spec import parse_spec_text
from orchestrator.testing import Fail, FakeClock, FakeRunner, Hang, fake_plan

TRANSIENT = Fail(ErrorClass.TRANSIENT, "HTTP 503 from the mirror")


def step_from(prose: str, *, output: str = "") -> PlanStep:
    """The plan step a one-step spec with `prose` under its heading compiles to."""
    text = f"# Flow\n\n## Workflow Steps\n\n### Step 1: Fetch\n- Skill: `fetcher`\n{output}\n{prose}\n"
    spec = parse_spec_text(text, "flow.md", "markdown")
    draft = step_policy(spec.steps[0], spec, None)
    return PlanStep(id="fetch", name="Fetch", skill="fetcher", policy=draft.policy)


async def test_retry_3_times_waiting_2s_between_tries_waits_2s_three_times(execute, clock: FakeClock) -> None:
    runner = FakeRunner({"fetch": [TRANSIENT, TRANSIENT, TRANSIENT, {"page": "ok"}]})
    summary = await execute(fake_plan([step_from("Retry 3 times, waiting 2s between tries")]), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert clock.slept == [2.0, 2.0, 2.0]
    assert (summary.step("fetch").attempts, summary.step("fetch").retries) == (4, 3)


async def test_a_sequence_of_waits_is_waited_in_order(execute, clock: FakeClock) -> None:
    runner = FakeRunner({"fetch": [TRANSIENT, TRANSIENT, {"page": "ok"}]})
    summary = await execute(fake_plan([step_from("retry twice (wait 5s, then 15s)")]), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert clock.slept == [5.0, 15.0]


async def test_exponential_backoff_starts_doubles_and_caps_as_written_without_jitter(execute, clock: FakeClock) -> None:
    prose = "retry 4 times with exponential backoff starting at 2s, capped at 5s, no jitter"
    runner = FakeRunner({"fetch": [TRANSIENT] * 4 + [{"page": "ok"}]})
    await execute(fake_plan([step_from(prose)]), runner)
    assert clock.slept == [2.0, 4.0, 5.0, 5.0]


async def test_jitter_on_a_fixed_wait_draws_up_to_the_wait(execute) -> None:
    clock = FakeClock(jitter=0.5)
    runner = FakeRunner({"fetch": [TRANSIENT, TRANSIENT, {"page": "ok"}]})
    await execute(fake_plan([step_from("retry every 15s with jitter, 2 times")]), runner, clock=clock)
    assert clock.slept == [7.5, 7.5]


async def test_a_time_budget_stops_the_retries_before_their_count(execute, clock: FakeClock) -> None:
    prose = "Retry 10 times, every 10 seconds, for up to 30 seconds. If it still fails, continue."
    runner = FakeRunner({"fetch": [TRANSIENT] * 20})
    summary = await execute(fake_plan([step_from(prose)]), runner)
    assert clock.slept == [10.0, 10.0, 10.0]  # a fourth wait would end past the 30 s
    step = summary.step("fetch")
    assert (step.attempts, step.status) == (4, StepStatus.CONTINUED)


async def test_never_retried_is_one_attempt_then_the_fallback(execute, clock: FakeClock) -> None:
    runner = FakeRunner({"fetch": [TRANSIENT, {"page": "never asked"}]})
    summary = await execute(fake_plan([step_from("Never retry it; if it fails, continue.")]), runner)
    assert clock.slept == []
    assert (summary.step("fetch").attempts, summary.step("fetch").status) == (1, StepStatus.CONTINUED)


async def test_a_timeout_in_prose_cuts_the_attempt_and_the_value_fallback_is_the_output(
    execute, clock: FakeClock,
) -> None:
    prose = "Give it 20 seconds. If it still fails, return `{\"page\": \"cached\"}` instead."
    runner = FakeRunner({"fetch": [Hang()]})
    summary = await execute(fake_plan([step_from(prose)]), runner)
    assert clock.slept == [20.0]
    assert summary.step("fetch").status is StepStatus.DEFAULTED
    assert summary.outputs["fetch"] == {"page": "cached"}


async def test_an_escalation_carries_who_to_tell(execute) -> None:
    runner = FakeRunner({"fetch": [TRANSIENT]})
    summary = await execute(fake_plan([step_from("If it fails, page the on-call (#ops).")]), runner)
    assert summary.status is RunStatus.ESCALATED
    message = summary.step("fetch").message
    assert message.startswith("HTTP 503 from the mirror") and message.endswith("escalated: page the on-call (#ops)")


async def test_a_success_criterion_is_checked_on_the_output_with_its_pointer(execute) -> None:
    step = step_from("", output="- Output: valid (boolean), problems (list of strings)\n"
                                "- Success criteria: valid is true and problems is empty\n")
    from orchestrator.spec import parse_spec_text as parse

    spec = parse("# F\n\n## Workflow Steps\n\n### Step 1: Fetch\n- Skill: `fetcher`\n- Output: valid (boolean), "
                 "problems (list of strings)\n- Success criteria: valid is true and problems is empty\n",
                 "flow.md", "markdown")
    (check,) = [c for c in spec.contracts if c.producer == "step-1"]
    schema = {"type": "object", **check.constraints[""]}
    runner = FakeRunner({"fetch": [{"valid": False, "problems": ["no title"]}]})
    summary = await execute(fake_plan([step.model_copy(update={"output_schema": schema})]), runner)
    assert summary.status is RunStatus.FAILED
    failed = summary.step("fetch")
    assert failed.error_class == ErrorClass.CODE_ERROR.value
    assert "/valid" in failed.message or any(v.pointer == "/valid" for v in failed.violations)
