"""Regeneration outcomes: stored, refused (budget spent, reason shown) or unavailable (nothing spent)."""

from __future__ import annotations

import pytest

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.errors import LLMAuthError, LLMError, ReplayMissError, SkillweaveError
from orchestrator.plan.model import InputBinding, PlanStep, StepPolicy
from orchestrator.policy import ErrorClass, FeedbackPolicy, RetryPolicy
from orchestrator.runner import RegenerationRequest, RegenerationResult, RunnerContext, StepRequest
from orchestrator.testing import Call, Fail, FakeRegenerator, FakeRunner, fake_plan

CODE = Fail(ErrorClass.CODE_ERROR, "KeyError: 'docs'", detail="Traceback ...")


def one_step(regenerations: int = 2) -> list[PlanStep]:
    return [PlanStep(id="fetch", name="Fetch", skill="fetcher", policy=StepPolicy(regenerations=regenerations))]


class RaisingRegenerator:
    """Raises `error` on every request, counting them."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.requests: list[RegenerationRequest] = []

    async def regenerate(self, request: RegenerationRequest) -> RegenerationResult:
        self.requests.append(request)
        raise self.error


@pytest.mark.parametrize(
    "error",
    [
        LLMAuthError("the API rejected the key (401 authentication_error: invalid x-api-key)", where="fetch/1"),
        ReplayMissError("--llm-replay calls.jsonl has no answer for request 3f2a", where="fetch/1"),
    ],
    ids=["rejected-key", "replay-miss"],
)
async def test_an_llm_that_cannot_answer_makes_regeneration_unavailable_without_spending_the_budget(
    execute, events, error: SkillweaveError
) -> None:
    regenerator = RaisingRegenerator(error)
    summary = await execute(fake_plan(one_step()), FakeRunner(default=CODE), regenerator=regenerator)

    assert summary.status is RunStatus.FAILED
    step = summary.step("fetch")
    assert (step.attempts, step.regenerations) == (1, 0)
    assert len(regenerator.requests) == 1  # unavailable: not asked again for the step
    recorded = [e for e in events(summary.run_id) if e.type in ("regeneration", "regeneration_unavailable")]
    assert [e.type for e in recorded] == ["regeneration_unavailable"]
    assert recorded[0].reason == f"regeneration is unavailable: {error.message}"
    assert step.message == f"KeyError: 'docs' (regeneration is unavailable: {error.message})"
    assert summary.error is not None and error.message in summary.error.message


async def test_any_other_llm_failure_is_a_refused_answer_that_spends_the_budget(execute) -> None:
    regenerator = RaisingRegenerator(LLMError("the model API failed with 529 overloaded", transient=True))
    summary = await execute(fake_plan(one_step()), FakeRunner(default=CODE), regenerator=regenerator)
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").regenerations == 2
    assert len(regenerator.requests) == 2


async def test_a_regenerator_that_crashes_is_a_refused_answer_and_the_run_still_ends(execute) -> None:
    # a bug in a regenerator must not leave the run `running` with no run_finished
    regenerator = RaisingRegenerator(RuntimeError("boom"))
    summary = await execute(fake_plan(one_step()), FakeRunner(default=CODE), regenerator=regenerator)
    assert summary.status is RunStatus.FAILED
    assert summary.step("fetch").regenerations == 2
    assert "the regenerator failed: RuntimeError: boom" in summary.step("fetch").message


async def test_a_fallback_after_refused_answers_says_why_the_last_one_was_refused(execute) -> None:
    regenerator = FakeRegenerator(
        [None, RegenerationResult(code=None, rejected="the new script does not compile: line 3")]
    )
    summary = await execute(fake_plan(one_step()), FakeRunner(default=CODE), regenerator=regenerator)
    assert summary.step("fetch").message == (
        "KeyError: 'docs' (regeneration refused: the new script does not compile: line 3)"
    )


def producer_and_validator() -> list[PlanStep]:
    return [
        PlanStep(id="generate", name="Generate", skill="writer", policy=StepPolicy(regenerations=1)),
        PlanStep(
            id="validate",
            name="Validate",
            skill="checker",
            inputs={"doc": InputBinding(source="step", step="generate", pointer="/doc")},
            policy=StepPolicy(feedback=FeedbackPolicy(target_step="generate", max_attempts=2)),
        ),
    ]


def checker(request: StepRequest) -> object:
    return Fail(ErrorClass.CODE_ERROR, "missing required section: ## Classes")


def no_regenerator(ctx: RunnerContext) -> object:
    raise LLMAuthError("no API key: set ANTHROPIC_API_KEY")


async def test_findings_that_cannot_go_back_to_the_producer_fail_the_validator_saying_why(
    execute, events, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("orchestrator.engine.runtime.REGENERATOR_FACTORY", f"{__name__}:no_regenerator")
    runner = FakeRunner({"generate": [{"doc": "# t"}], "validate": [Call(checker)]})
    summary = await execute(fake_plan(producer_and_validator()), runner)

    assert summary.status is RunStatus.FAILED
    assert summary.step("generate").status is StepStatus.SUCCEEDED
    assert summary.step("validate").message == (
        "missing required section: ## Classes (the findings could not go back to step generate: "
        "regeneration is unavailable: no API key: set ANTHROPIC_API_KEY)"
    )
    unavailable = [e for e in events(summary.run_id) if e.type == "regeneration_unavailable"]
    assert [(e.step, e.reason) for e in unavailable] == [
        ("generate", "regeneration is unavailable: no API key: set ANTHROPIC_API_KEY")
    ]


class ClosableClient:
    def __init__(self) -> None:
        self.closed = 0

    async def aclose(self) -> None:
        self.closed += 1


MADE: list[ClosableClient] = []


def make_client(ctx: RunnerContext) -> ClosableClient:
    MADE.append(ClosableClient())
    return MADE[-1]


def regenerator_on_the_run_client(ctx: RunnerContext) -> FakeRegenerator:
    ctx.llm()
    return FakeRegenerator(["fixed = True\n"])


async def test_the_run_closes_the_llm_client_it_created(execute, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("orchestrator.runner.LLM_FACTORY", f"{__name__}:make_client")
    monkeypatch.setattr("orchestrator.engine.runtime.REGENERATOR_FACTORY", f"{__name__}:regenerator_on_the_run_client")
    MADE.clear()
    runner = FakeRunner({"fetch": [CODE, {"docs": "ok"}]})
    summary = await execute(fake_plan(one_step()), runner)
    assert summary.status is RunStatus.SUCCEEDED
    assert [c.closed for c in MADE] == [1]


async def test_an_injected_llm_client_is_left_to_its_owner(execute) -> None:
    client = ClosableClient()
    summary = await execute(fake_plan(one_step()), FakeRunner(default={"docs": "ok"}), llm_client=client)
    assert summary.status is RunStatus.SUCCEEDED
    assert client.closed == 0


async def test_regenerated_code_that_times_out_is_regenerated_again_not_rerun(execute) -> None:
    # v1 raises, v2 loops (times out), v3 works: the loop is not run again under a retry
    timeout = Fail(ErrorClass.TIMEOUT, "script ran past its wall-clock limit of 60 s and was killed")
    runner = FakeRunner({"fetch": [CODE, timeout, {"ok": True}]})
    regenerator = FakeRegenerator()
    summary = await execute(fake_plan(one_step(regenerations=3)), runner, regenerator=regenerator)
    assert summary.status is RunStatus.SUCCEEDED
    step = summary.step("fetch")
    assert (step.attempts, step.regenerations, step.retries) == (3, 2, 0)
    second = regenerator.requests[1].failure
    assert second is not None and second.error_class is ErrorClass.CODE_ERROR
    assert second.message.startswith("the regenerated script timed out (script ran past")


async def test_the_original_script_timing_out_is_still_retried_as_a_timeout(execute) -> None:
    timeout = Fail(ErrorClass.TIMEOUT, "attempt timed out after 5s")
    runner = FakeRunner({"fetch": [timeout, {"ok": True}]})
    regenerator = FakeRegenerator()
    policy = StepPolicy(regenerations=2, retry=RetryPolicy(max_retries=1, delays_s=(0,)))
    plan = fake_plan([PlanStep(id="fetch", name="Fetch", skill="fetcher", policy=policy)])
    summary = await execute(plan, runner, regenerator=regenerator)
    assert summary.status is RunStatus.SUCCEEDED
    assert (summary.step("fetch").retries, summary.step("fetch").regenerations) == (1, 0)
    assert regenerator.requests == []


async def test_a_skill_without_its_script_gets_a_first_version_without_a_repair_budget(execute) -> None:
    missing = Fail(ErrorClass.CODE_ERROR, "skill fetcher has no script yet (scripts/main.py)", kind="missing_code")
    runner = FakeRunner({"fetch": [missing, {"ok": True}]})
    regenerator = FakeRegenerator()
    summary = await execute(fake_plan(one_step(regenerations=0)), runner, regenerator=regenerator)
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("fetch").regenerations == 1
    assert regenerator.requests[0].failure is not None and regenerator.requests[0].failure.kind == "missing_code"
    broken = FakeRunner({"fetch": [missing, CODE]})  # the first version fails: no repair budget is left
    summary = await execute(fake_plan(one_step(regenerations=0)), broken, regenerator=FakeRegenerator())
    assert summary.status is RunStatus.FAILED and summary.step("fetch").regenerations == 1
