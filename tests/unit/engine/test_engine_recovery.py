"""Every recovery path, with attempt counts and waits asserted in virtual time."""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.errors import LLMAuthError
from orchestrator.kinds import GROUP, KindRegistry, KindTraits, SkillKind
from orchestrator.plan.model import InputBinding, Plan, PlanInput, PlanStep, StepPolicy
from orchestrator.policy import (
    ErrorClass,
    Fallback,
    FallbackAction,
    FeedbackPolicy,
    RecoveryRule,
    RetryPolicy,
)
from orchestrator.runner import RunnerContext, StepOutcome, StepRequest
from orchestrator.testing import (
    Call,
    Fail,
    FakeClock,
    FakeRegenerator,
    FakeRunner,
    Hang,
    Sleep,
    fake_plan,
    fake_skill,
)

TRANSIENT = Fail(ErrorClass.TRANSIENT, "connection reset")
CODE = Fail(ErrorClass.CODE_ERROR, "KeyError: 'docs'", detail="Traceback ...")


def one_step(policy: StepPolicy | None = None, **fields: object) -> list[PlanStep]:
    return [PlanStep(id="fetch", name="Fetch", skill="fetcher", policy=policy or StepPolicy(), **fields)]


def broken_regenerator(ctx: RunnerContext) -> object:
    raise LLMAuthError("no ANTHROPIC_API_KEY in the environment")


# -- transient ----------------------------------------------------------------------


async def test_transient_failures_retry_after_the_spec_s_explicit_waits(execute, clock: FakeClock) -> None:
    policy = StepPolicy(retry=RetryPolicy(max_retries=3, delays_s=(1, 2, 4)))
    runner = FakeRunner({"fetch": [TRANSIENT, TRANSIENT, TRANSIENT, {"docs": "ok"}]})
    summary = await execute(fake_plan(one_step(policy)), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert clock.slept == [1, 2, 4]
    step = summary.step("fetch")
    assert (step.attempts, step.retries) == (4, 3)
    assert [r.attempt for r in runner.requests] == [1, 2, 3, 4]


async def test_backoff_without_explicit_waits_is_exponential_capped_and_fully_jittered(execute) -> None:
    clock = FakeClock(jitter=0.5)
    policy = StepPolicy(retry=RetryPolicy(max_retries=4, initial_s=1, multiplier=2, max_delay_s=3, jitter=True))
    runner = FakeRunner({"fetch": [TRANSIENT] * 4})
    summary = await execute(fake_plan(one_step(policy)), runner, clock=clock)
    assert summary.status is RunStatus.SUCCEEDED
    assert clock.slept == [0.5, 1.0, 1.5, 1.5]  # 1, 2, 4→3, 8→3, each times the jitter draw


async def test_each_attempt_gets_its_own_idempotency_key(execute) -> None:
    policy = StepPolicy(retry=RetryPolicy(max_retries=1, delays_s=(1,)))
    runner = FakeRunner({"fetch": [TRANSIENT]})
    summary = await execute(fake_plan(one_step(policy)), runner)
    keys = [r.idempotency_key for r in runner.requests]
    assert keys == [f"{summary.run_id}:fetch:1", f"{summary.run_id}:fetch:2"]


async def test_exhausted_retries_fail_the_run_naming_the_step_and_attempt(execute, clock: FakeClock) -> None:
    policy = StepPolicy(retry=RetryPolicy(max_retries=2, delays_s=(1,)))
    runner = FakeRunner({"fetch": [TRANSIENT] * 5})
    summary = await execute(fake_plan(one_step(policy)), runner)
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").attempts == 3
    assert clock.slept == [1, 1]  # the last wait repeats
    assert summary.error is not None
    assert summary.error.where == "fetch/3"
    assert "connection reset" in summary.error.message


async def test_a_timeout_shares_the_transient_retry_budget(execute, clock: FakeClock) -> None:
    policy = StepPolicy(retry=RetryPolicy(max_retries=2, delays_s=(1,)), attempt_timeout_s=5)
    runner = FakeRunner({"fetch": [Hang(), TRANSIENT, Hang()]})
    summary = await execute(fake_plan(one_step(policy)), runner)
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").attempts == 3
    assert clock.slept == [5, 1, 1, 5]


# -- timeouts ---------------------------------------------------------------------


async def test_an_attempt_that_hangs_times_out_and_is_retried(execute, clock: FakeClock) -> None:
    policy = StepPolicy(retry=RetryPolicy(max_retries=1, delays_s=(2,)), attempt_timeout_s=5)
    runner = FakeRunner({"fetch": [Hang(), {"docs": "late"}]})
    summary = await execute(fake_plan(one_step(policy)), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert clock.slept == [5, 2]
    assert summary.outputs["fetch"] == {"docs": "late"}


class SelfTimedKind(SkillKind):
    """Like the MCP kind: its runner times its calls out itself and classifies the timeout."""

    name = "self-timed"
    traits = KindTraits(enforces_timeout=True, timeout_margin_s=30.0)


@pytest.fixture
def self_timed(monkeypatch: pytest.MonkeyPatch) -> Callable[[StepPolicy], Plan]:
    """A one-step plan whose skill is of a registered kind that enforces its own timeout."""
    from orchestrator.engine import runtime

    registry = KindRegistry(installed=[EntryPoint("self-timed", f"{__name__}:SelfTimedKind", GROUP)])
    monkeypatch.setattr(runtime, "kind_registry", lambda: registry)

    def make(policy: StepPolicy) -> Plan:
        return fake_plan(one_step(policy), skills={"fetcher": fake_skill("fetcher", kind="self-timed")})

    return make


async def test_a_runner_enforcing_its_timeout_classifies_it_itself(execute, clock: FakeClock, events, self_timed) -> None:
    own = Fail(ErrorClass.TIMEOUT, "docs/get_docs: no answer within 5s; the server answered a probe", kind="timeout")
    runner = FakeRunner({"fetch": [Sleep(6.5, then=own), {"docs": "ok"}]}, clock=clock, kind="self-timed")
    policy = StepPolicy(retry=RetryPolicy(max_retries=1, delays_s=(1,)), attempt_timeout_s=5)
    summary = await execute(self_timed(policy), runner)
    assert summary.status is RunStatus.SUCCEEDED
    failed = [e for e in events(summary.run_id) if e.type == "attempt_failed"]
    assert [(e.kind, e.message) for e in failed] == [("timeout", own.message)]
    assert runner.requests[0].timeout_s == 5  # the runner is told the attempt's own timeout


async def test_a_runner_enforcing_its_timeout_is_still_cut_off_after_its_kind_s_margin(
    execute, clock: FakeClock, self_timed
) -> None:
    runner = FakeRunner({"fetch": [Hang()]}, kind="self-timed")
    summary = await execute(self_timed(StepPolicy(attempt_timeout_s=5)), runner)
    assert summary.status is RunStatus.FAILED
    assert clock.slept == [5 + 30]
    assert summary.step("fetch").message == "the self-timed runner did not return within 35s (its own timeout: 5s)"


async def test_the_skill_s_timeout_applies_when_the_step_sets_none(execute, clock: FakeClock) -> None:
    from orchestrator.testing import fake_skill

    plan = fake_plan(one_step(), skills={"fetcher": fake_skill("fetcher", timeout_s=7)})
    summary = await execute(plan, FakeRunner({"fetch": [Hang()]}))
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").error_class == "timeout"
    assert clock.slept == [7]


async def test_the_step_timeout_stops_retrying_when_it_is_spent(execute, clock: FakeClock) -> None:
    policy = StepPolicy(
        retry=RetryPolicy(max_retries=10, delays_s=(1,)), attempt_timeout_s=4, step_timeout_s=10
    )
    runner = FakeRunner({"fetch": [Hang()] * 10})
    summary = await execute(fake_plan(one_step(policy)), runner)
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").attempts == 2
    assert clock.elapsed == 10
    assert summary.error is not None and "step timed out" in summary.error.message


# -- invalid input ------------------------------------------------------------------


async def test_invalid_input_fails_fast_without_retry(execute, clock: FakeClock) -> None:
    policy = StepPolicy(retry=RetryPolicy(max_retries=3, delays_s=(1,)), regenerations=3)
    runner = FakeRunner({"fetch": [Fail(ErrorClass.INVALID_INPUT, "module name is empty")]})
    summary = await execute(fake_plan(one_step(policy)), runner, regenerator=FakeRegenerator())
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").attempts == 1
    assert clock.slept == []


async def test_an_input_breaking_its_contract_never_reaches_the_runner(execute) -> None:
    steps = [
        PlanStep(
            id="fetch",
            name="Fetch",
            skill="fetcher",
            inputs={"limit": InputBinding(source="input", name="limit")},
            input_schema={"type": "object", "properties": {"limit": {"type": "integer"}}},
        )
    ]
    plan = fake_plan(steps, inputs=[PlanInput(name="limit")])
    runner = FakeRunner()
    summary = await execute(plan, runner, inputs={"limit": "ten"})
    assert runner.requests == []
    step = summary.step("fetch")
    assert step.status is StepStatus.FAILED
    assert step.error_class == "invalid_input"
    assert (step.handoff_passed, step.handoff_failed) == (0, 1)
    violation = step.violations[0]
    assert violation.pointer == "/limit"
    assert violation.actual == '"ten"'
    assert "integer" in violation.expected


# -- code errors and regeneration -------------------------------------------------------


def fixed_when_regenerated(request: StepRequest) -> object:
    if request.script_override is None:
        return CODE
    return {"docs": request.script_override.read_text()}


async def test_an_output_breaking_its_contract_is_a_code_error_naming_pointer_expected_actual(execute) -> None:
    schema = {"type": "object", "properties": {"docs": {"type": "string"}}, "required": ["docs"]}
    runner = FakeRunner({"fetch": [{"docs": 42}]})
    summary = await execute(fake_plan(one_step(output_schema=schema)), runner)
    step = summary.step("fetch")
    assert step.status is StepStatus.FAILED
    assert step.error_class == "code_error"
    assert (step.violations[0].pointer, step.violations[0].actual) == ("/docs", "42")
    assert step.violations[0].expected == 'type: "string"'
    assert step.handoff_failed == 1


async def test_a_code_error_is_regenerated_and_the_new_version_runs(execute, settings, events) -> None:
    regenerator = FakeRegenerator(["print('v2')\n"])
    runner = FakeRunner(default=Call(fixed_when_regenerated))
    summary = await execute(fake_plan(one_step(StepPolicy(regenerations=2))), runner, regenerator=regenerator)
    assert summary.status is RunStatus.SUCCEEDED
    step = summary.step("fetch")
    assert (step.attempts, step.regenerations) == (2, 1)
    assert summary.outputs["fetch"] == {"docs": "print('v2')\n"}
    request = regenerator.requests[0]
    assert request.failure is not None and request.failure.message == "KeyError: 'docs'"
    assert request.failing_input == {}
    regen = next(e for e in events(summary.run_id) if e.type == "regeneration")
    run_dir = settings.state_dir / "runs" / summary.run_id
    assert (run_dir / regen.code_path).read_text() == "print('v2')\n"
    assert "+print('v2')" in (run_dir / regen.diff_path).read_text()
    assert step.code_sha256 == regen.code_sha256


async def test_an_exhausted_regeneration_budget_applies_the_fallback(execute) -> None:
    regenerator = FakeRegenerator()
    runner = FakeRunner(default=CODE)
    summary = await execute(fake_plan(one_step(StepPolicy(regenerations=2))), runner, regenerator=regenerator)
    assert summary.status is RunStatus.FAILED
    assert (summary.step("fetch").attempts, summary.step("fetch").regenerations) == (3, 2)
    assert len(regenerator.requests) == 2
    assert len(regenerator.requests[1].history) == 2  # earlier failed attempts go to the prompt


async def test_a_refused_answer_spends_the_budget_and_the_next_one_is_asked(execute) -> None:
    regenerator = FakeRegenerator([None, "fixed = True\n"])
    runner = FakeRunner(default=Call(fixed_when_regenerated))
    summary = await execute(fake_plan(one_step(StepPolicy(regenerations=2))), runner, regenerator=regenerator)
    assert summary.status is RunStatus.SUCCEEDED
    assert (summary.step("fetch").attempts, summary.step("fetch").regenerations) == (2, 2)


async def test_without_a_regenerator_the_reason_is_recorded_and_the_fallback_applies(
    execute, events, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("orchestrator.engine.runtime.REGENERATOR_FACTORY", f"{__name__}:broken_regenerator")
    schema = {"type": "object", "properties": {"docs": {"type": "string"}}, "required": ["docs"]}
    policy = StepPolicy(regenerations=1, fallback=Fallback(action=FallbackAction.DEFAULT))
    summary = await execute(fake_plan(one_step(policy, output_schema=schema)), FakeRunner(default=CODE))
    assert summary.status is RunStatus.DEGRADED
    assert summary.step("fetch").status is StepStatus.DEFAULTED
    assert summary.outputs["fetch"] == {"docs": ""}
    unavailable = [e for e in events(summary.run_id) if e.type == "regeneration_unavailable"]
    assert len(unavailable) == 1
    assert "no ANTHROPIC_API_KEY" in unavailable[0].reason


async def test_a_recovery_rule_overrides_the_step_defaults_for_its_class(execute, clock: FakeClock) -> None:
    rule = RecoveryRule(on=ErrorClass.CODE_ERROR, retry=RetryPolicy(max_retries=1, delays_s=(3,)))
    runner = FakeRunner({"fetch": [CODE, {"ok": True}]})
    summary = await execute(fake_plan(one_step(StepPolicy(rules=(rule,)))), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert clock.slept == [3]


# -- unrecoverable -------------------------------------------------------------------


async def test_an_unrecoverable_failure_escalates(execute) -> None:
    runner = FakeRunner({"fetch": [Fail(ErrorClass.UNRECOVERABLE, "account suspended")]})
    summary = await execute(fake_plan(one_step(StepPolicy(retry=RetryPolicy(max_retries=3)))), runner)
    assert summary.status is RunStatus.ESCALATED
    assert summary.step("fetch").status is StepStatus.ESCALATED
    assert summary.step("fetch").attempts == 1


async def test_a_catch_all_retry_row_does_not_retry_an_unrecoverable_failure(execute) -> None:
    # "any error: retry 2 times" must not call a destructive tool again after it failed
    # in a way its runner declared unrecoverable; a row naming the class may
    catch_all = RecoveryRule(on="any", retry=RetryPolicy(max_retries=2))
    runner = FakeRunner({"fetch": [Fail(ErrorClass.UNRECOVERABLE, "deleted half the rows"), {"ok": True}]})
    summary = await execute(fake_plan(one_step(StepPolicy(rules=(catch_all,)))), runner)
    assert summary.status is RunStatus.ESCALATED
    assert summary.step("fetch").attempts == 1
    invalid = FakeRunner({"fetch": [Fail(ErrorClass.INVALID_INPUT, "no such id"), {"ok": True}]})
    summary = await execute(fake_plan(one_step(StepPolicy(rules=(catch_all,)))), invalid)
    assert summary.step("fetch").attempts == 1
    named = RecoveryRule(on=ErrorClass.UNRECOVERABLE, retry=RetryPolicy(max_retries=1, delays_s=(0,)))
    again = FakeRunner({"fetch": [Fail(ErrorClass.UNRECOVERABLE, "suspended"), {"ok": True}]})
    summary = await execute(fake_plan(one_step(StepPolicy(rules=(named,)))), again)
    assert summary.status is RunStatus.SUCCEEDED and summary.step("fetch").attempts == 2


async def test_a_runner_that_raises_becomes_an_unrecoverable_failure(execute) -> None:
    from orchestrator.testing import Raise

    summary = await execute(fake_plan(one_step()), FakeRunner({"fetch": [Raise(RuntimeError("bug"))]}))
    assert summary.status is RunStatus.ESCALATED
    assert "RuntimeError: bug" in summary.step("fetch").message


# -- fallbacks -----------------------------------------------------------------------


def three_steps(policy: StepPolicy) -> list[PlanStep]:
    return [
        PlanStep(id="fetch", name="Fetch", skill="fetcher", policy=policy),
        PlanStep(
            id="analyze",
            name="Analyze",
            skill="analyzer",
            inputs={"docs": InputBinding(source="step", step="fetch", pointer="/docs")},
        ),
        PlanStep(id="report", name="Report", skill="reporter"),
    ]


async def test_a_step_that_never_gets_its_required_input_fails_the_run_naming_the_step_and_the_input(
    execute,
) -> None:
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.CONTINUE))
    runner = FakeRunner({"fetch": [CODE]})
    summary = await execute(fake_plan(three_steps(policy)), runner)
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").status is StepStatus.CONTINUED
    analyze = summary.step("analyze")
    assert analyze.status is StepStatus.FAILED and analyze.attempts == 0
    assert "its required input `docs` comes from fetch, which has no output: fetch continued" in analyze.message
    assert summary.error is not None and summary.error.message.startswith("step analyze failed")


async def test_a_step_reading_a_continued_step_only_through_an_optional_input_runs_and_the_run_is_degraded(
    execute,
) -> None:
    steps = three_steps(StepPolicy(fallback=Fallback(action=FallbackAction.CONTINUE)))
    steps[1] = steps[1].model_copy(update={"inputs": {"docs": InputBinding(source="step", step="fetch",
                                                                            pointer="/docs", optional=True)}})
    summary = await execute(fake_plan(steps), FakeRunner({"fetch": [CODE]}))
    assert summary.status is RunStatus.DEGRADED
    assert summary.error is None
    assert {s.step_id: s.status for s in summary.steps} == {
        "fetch": StepStatus.CONTINUED, "analyze": StepStatus.SUCCEEDED, "report": StepStatus.SUCCEEDED}
    (degraded,) = summary.degraded
    assert (degraded.step_id, degraded.fallback) == ("fetch", "continue") and degraded.reason


async def test_on_error_continue_turns_a_failing_step_into_continue_and_the_run_is_degraded(execute) -> None:
    runner = FakeRunner({"fetch": [CODE]})
    steps = [s for s in three_steps(StepPolicy(on_error="continue")) if s.id != "analyze"]
    summary = await execute(fake_plan(steps), runner)
    assert summary.status is RunStatus.DEGRADED
    assert summary.step("fetch").status is StepStatus.CONTINUED
    assert [d.step_id for d in summary.degraded] == ["fetch"]


async def test_default_uses_the_plan_s_value_and_dependants_run_on_it(execute) -> None:
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value={"docs": "none found"}))
    runner = FakeRunner({"fetch": [CODE]})
    summary = await execute(fake_plan(three_steps(policy)), runner)
    assert summary.status is RunStatus.DEGRADED
    assert summary.step("fetch").status is StepStatus.DEFAULTED
    assert summary.outputs["analyze"] == {"docs": "none found"}


async def test_a_default_value_that_breaks_the_output_contract_fails_the_step_instead_of_reaching_its_dependants(
    execute,
) -> None:
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value={"docs": 7}))
    steps = [s.model_copy(update={"output_schema": {"type": "object", "properties": {"docs": {"type": "string"}},
                                                    "required": ["docs"]}}) if s.id == "fetch" else s
             for s in three_steps(policy)]
    runner = FakeRunner({"fetch": [CODE]})
    summary = await execute(fake_plan(steps), runner)
    assert summary.status is RunStatus.FAILED
    fetch = summary.step("fetch")
    assert fetch.status is StepStatus.FAILED
    assert "the fallback's default value breaks the output contract: /docs" in (fetch.message or "")
    assert fetch.handoff_failed == 1
    assert runner.calls("analyze") == []


async def test_skill_fallback_runs_another_skill_with_the_same_input(execute) -> None:
    steps = [
        PlanStep(
            id="fetch",
            name="Fetch",
            skill="fetcher",
            inputs={"module": InputBinding(source="literal", value="json")},
            policy=StepPolicy(fallback=Fallback(action=FallbackAction.SKILL, skill="cache")),
        )
    ]
    runner = FakeRunner(default=Call(lambda r: CODE if r.skill.name == "fetcher" else {"from": r.skill.name, **r.input}))
    summary = await execute(fake_plan(steps), runner)
    assert summary.status is RunStatus.DEGRADED
    assert summary.outputs["fetch"] == {"from": "cache", "module": "json"}
    assert summary.step("fetch").fallback == "skill"
    assert [r.skill.name for r in runner.requests] == ["fetcher", "cache"]


# -- feedback --------------------------------------------------------------------------


def producer_and_validator(max_attempts: int = 2) -> list[PlanStep]:
    return [
        PlanStep(id="generate", name="Generate", skill="writer", policy=StepPolicy(regenerations=1)),
        PlanStep(
            id="validate",
            name="Validate",
            skill="checker",
            inputs={"doc": InputBinding(source="step", step="generate", pointer="/doc")},
            policy=StepPolicy(feedback=FeedbackPolicy(target_step="generate", max_attempts=max_attempts)),
        ),
    ]


def writer(request: StepRequest) -> object:
    return {"doc": "fixed" if request.script_override else "broken"}


def checker(request: StepRequest) -> object:
    if request.input["doc"] == "broken":
        return Fail(ErrorClass.CODE_ERROR, "heading missing", detail="line 1: no # title")
    return {"valid": True}


async def test_a_validator_s_findings_regenerate_the_producer_and_both_run_again(execute) -> None:
    regenerator = FakeRegenerator(["# writer v2\n"])
    runner = FakeRunner({"generate": [Call(writer), Call(writer)], "validate": [Call(checker), Call(checker)]})
    summary = await execute(fake_plan(producer_and_validator()), runner, regenerator=regenerator)
    assert summary.status is RunStatus.SUCCEEDED
    assert [r.step_id for r in runner.requests] == ["generate", "validate", "generate", "validate"]
    assert regenerator.requests[0].step_id == "generate"
    assert regenerator.requests[0].feedback is not None
    assert "heading missing" in regenerator.requests[0].feedback
    assert summary.outputs == {"generate": {"doc": "fixed"}, "validate": {"valid": True}}


async def test_feedback_is_bounded_by_its_attempts(execute) -> None:
    regenerator = FakeRegenerator()
    always_broken = Call(lambda r: {"doc": "broken"})
    runner = FakeRunner({"generate": [always_broken] * 5, "validate": [Call(checker)] * 5})
    summary = await execute(fake_plan(producer_and_validator(max_attempts=2)), runner, regenerator=regenerator)
    assert summary.status is RunStatus.FAILED
    assert len(runner.calls("generate")) == 2
    assert len(runner.calls("validate")) == 2
    assert summary.error is not None and summary.error.where == "validate/2"


# -- compensation ------------------------------------------------------------------------


def saga(compensation_b: str = "undo-b") -> list[PlanStep]:
    return [
        PlanStep(id="a", name="A", skill="s", policy=StepPolicy(compensation="undo-a")),
        PlanStep(
            id="b",
            name="B",
            skill="s",
            depends_on=("a",),
            inputs={"x": InputBinding(source="step", step="a")},
            policy=StepPolicy(compensation=compensation_b),
        ),
        PlanStep(id="c", name="C", skill="s", depends_on=("b",)),
    ]


async def test_on_failure_compensations_run_in_reverse_completion_order(execute) -> None:
    runner = FakeRunner({"a": [{"id": 1}], "b": [{"id": 2}], "c": [CODE]})
    summary = await execute(fake_plan(saga()), runner)
    assert summary.status is RunStatus.FAILED
    compensations = [r for r in runner.requests if r.idempotency_key.split(":")[2] == "compensate"]
    assert [(r.skill.name, r.step_id) for r in compensations] == [("undo-b", "b"), ("undo-a", "a")]
    assert compensations[0].input == {"step": "b", "input": {"x": {"id": 1}}, "output": {"id": 2}}
    assert summary.compensations == ("b: finished", "a: finished")


async def test_a_failing_compensation_is_retried_logged_and_the_rest_still_run(execute, clock: FakeClock) -> None:
    def by_skill(request: StepRequest) -> object:
        if request.skill.name == "undo-b":
            return Fail(ErrorClass.TRANSIENT, "refund service down")
        return request.input

    runner = FakeRunner({"c": [CODE]}, default=Call(by_skill))
    summary = await execute(fake_plan(saga()), runner)
    assert summary.status is RunStatus.FAILED
    assert len([r for r in runner.requests if r.skill.name == "undo-b"]) == 3  # first try + 2 retries
    assert summary.compensations == ("b: failed", "a: finished")
    assert len(clock.slept) == 2


async def test_a_successful_run_runs_no_compensation(execute) -> None:
    runner = FakeRunner()
    summary = await execute(fake_plan(saga()), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert {r.skill.name for r in runner.requests} == {"s"}
    assert summary.compensations == ()


def test_the_run_directory_is_created_with_the_run(settings) -> None:
    from orchestrator.engine import create_run

    run_id = create_run(fake_plan(one_step()), {}, settings)
    assert Path(settings.state_dir, "runs", run_id).is_dir()


async def test_token_usage_is_counted_per_step(execute) -> None:
    from orchestrator.runner import TokenUsage

    usage = TokenUsage(input_tokens=100, output_tokens=20)
    runner = FakeRunner({"fetch": [StepOutcome(output={"ok": 1}, usage=usage)]})
    summary = await execute(fake_plan(one_step()), runner)
    assert summary.step("fetch").tokens.total == 120
    assert summary.totals.tokens.total == 120
