"""A run's spans from its events: the tree, the failures, the events, a resume, and the metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import StatusCode
from telemetry_kit import Kept

from orchestrator import telemetry
from orchestrator.config import Settings
from orchestrator.engine import RunStatus, approve_step, create_run, execute_run
from orchestrator.journal.store import Journal
from orchestrator.plan.model import ForEach, InputBinding, PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy, ErrorClass, Fallback, FallbackAction, RetryPolicy
from orchestrator.runner import StepRequest
from orchestrator.testing import (
    Call,
    Fail,
    FakeClock,
    FakeRegenerator,
    FakeRunner,
    Sleep,
    fake_plan,
)

RETRY_ONCE = StepPolicy(retry=RetryPolicy(max_retries=2, delays_s=(1.5,)))


def two_steps() -> list[PlanStep]:
    return [
        PlanStep(id="fetch", name="Fetch", skill="fetcher", policy=RETRY_ONCE),
        PlanStep(
            id="write", name="Write", skill="writer",
            inputs={"text": InputBinding(source="step", step="fetch", pointer="/text")},
        ),
    ]


def traceparent(span: ReadableSpan) -> str:
    c = span.context
    return f"00-{c.trace_id:032x}-{c.span_id:016x}-{int(c.trace_flags):02x}"


async def run(plan_steps: list[PlanStep], runner: FakeRunner, settings: Settings, clock: FakeClock, **kw: object) -> str:
    run_id = create_run(fake_plan(plan_steps), {}, settings)
    await execute_run(run_id, settings, runners={"script": runner}, clock=clock, **kw)  # type: ignore[arg-type]
    return run_id


async def test_a_run_has_a_run_span_a_span_per_step_and_one_per_attempt(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    runner = FakeRunner({"fetch": [Fail(ErrorClass.TRANSIENT, "503 from the docs server"), {"text": "hi"}]})
    run_id = await run(two_steps(), runner, settings, clock)

    root = kept.one("run test-plan")
    assert root.parent is None
    assert root.attributes is not None
    assert root.attributes["skillweave.run.id"] == run_id
    assert root.attributes["skillweave.run.status"] == "succeeded"
    steps = {s.name: s for s in kept.spans() if s.name.startswith("step ")}
    assert set(steps) == {"step fetch", "step write"}
    for step in steps.values():
        assert step.parent is not None and step.parent.span_id == root.context.span_id
        assert step.context.trace_id == root.context.trace_id
    attempts = sorted(kept.named("attempt fetch"), key=lambda s: s.start_time or 0)
    assert [a.attributes["skillweave.attempt"] for a in attempts if a.attributes] == [1, 2]
    for attempt in attempts:
        assert attempt.parent is not None and attempt.parent.span_id == steps["step fetch"].context.span_id
    failed, succeeded = attempts
    assert failed.status.status_code is StatusCode.ERROR
    assert failed.status.description == "503 from the docs server"
    assert failed.attributes is not None and failed.attributes["error.type"] == "transient"
    assert succeeded.status.status_code is StatusCode.UNSET
    retry = [e for e in steps["step fetch"].events if e.name == "retry_scheduled"]
    assert len(retry) == 1 and retry[0].attributes is not None
    assert retry[0].attributes["skillweave.delay_s"] == 1.5
    assert retry[0].attributes["skillweave.error_class"] == "transient"


async def test_an_attempt_runs_inside_its_span_so_a_runner_hands_on_that_context(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    seen: list[dict[str, str]] = []

    def look(request: StepRequest) -> dict[str, str]:
        seen.append(telemetry.environment())
        return {"text": "x"}

    await run(two_steps(), FakeRunner({"fetch": [Call(look)]}), settings, clock)

    assert seen == [{"TRACEPARENT": traceparent(kept.one("attempt fetch"))}]


async def test_a_failed_step_and_its_run_have_the_error_class_as_their_status(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    runner = FakeRunner({"fetch": [Fail(ErrorClass.INVALID_INPUT, "module name is empty")]})
    await run(two_steps(), runner, settings, clock)

    step = kept.one("step fetch")
    assert step.status.status_code is StatusCode.ERROR
    assert step.attributes is not None and step.attributes["error.type"] == "invalid_input"
    assert step.attributes["skillweave.step.status"] == "failed"
    fallback = [e for e in step.events if e.name == "fallback_used"]
    assert fallback and fallback[0].attributes is not None and fallback[0].attributes["skillweave.action"] == "fail"
    root = kept.one("run test-plan")
    assert root.status.status_code is StatusCode.ERROR
    assert root.attributes is not None and root.attributes["skillweave.run.status"] == "failed"
    assert [e.name for e in root.events] == ["run_failing"]
    assert kept.named("step write") == []  # never ready: no span


async def test_a_degraded_run_is_no_error_on_its_run_span_and_says_degraded(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    steps = two_steps()
    steps[0] = steps[0].model_copy(update={"policy": StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT,
                                                                                  value={"text": "cached"}))})
    runner = FakeRunner({"fetch": [Fail(ErrorClass.INVALID_INPUT, "module name is empty")]})
    await run(steps, runner, settings, clock)

    root = kept.one("run test-plan")
    assert root.attributes is not None and root.attributes["skillweave.run.status"] == "degraded"
    assert root.status.status_code is StatusCode.UNSET  # finished: a fallback stood in, nothing failed


async def test_a_regeneration_is_a_span_under_its_step_and_an_event_on_it(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    steps = [PlanStep(id="fetch", name="Fetch", skill="fetcher", policy=StepPolicy(regenerations=1))]
    runner = FakeRunner({"fetch": [Fail(ErrorClass.CODE_ERROR, "KeyError: 'docs'"), {"text": "ok"}]})
    await run(steps, runner, settings, clock, regenerator=FakeRegenerator(["print('{}')\n"]))

    step = kept.one("step fetch")
    regenerate = kept.one("regenerate fetch")
    assert regenerate.parent is not None and regenerate.parent.span_id == step.context.span_id
    assert regenerate.attributes is not None and regenerate.attributes["skillweave.code.version"] == 2
    events = [e for e in step.events if e.name == "regeneration"]
    assert len(events) == 1 and events[0].attributes is not None
    assert events[0].attributes["skillweave.outcome"] == "new_version"
    second = [a for a in kept.named("attempt fetch") if a.attributes and a.attributes["skillweave.attempt"] == 2]
    assert second and second[0].attributes is not None and second[0].attributes["skillweave.code.sha256"]


async def test_a_resumed_run_continues_the_trace_its_first_execution_kept(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    gate = StepPolicy(approval=ApprovalPolicy(timeout_s=None))
    steps = [PlanStep(id="draft", name="Draft", skill="s"), PlanStep(id="publish", name="Publish", skill="s",
                                                                          depends_on=("draft",), policy=gate)]
    run_id = await run(steps, FakeRunner(), settings, clock)
    first = kept.one("run test-plan")
    assert first.attributes is not None and first.attributes["skillweave.run.status"] == "paused"
    with Journal(settings.state_dir) as journal:
        kept_file = journal.run_dir(run_id) / telemetry.TRACE_FILE
    stored = json.loads(kept_file.read_text())
    assert stored["traceparent"] == traceparent(first)
    requested = [e for e in kept.one("step publish").events if e.name == "approval_requested"]
    assert len(requested) == 1

    approve_step(run_id, "publish", settings, comment="ship it", by="ana")
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)

    assert summary.status is RunStatus.SUCCEEDED
    second = [s for s in kept.named("run test-plan") if s.context.span_id != first.context.span_id]
    assert len(second) == 1
    resumed = second[0]
    assert resumed.context.trace_id == first.context.trace_id
    assert resumed.parent is not None and resumed.parent.span_id == first.context.span_id
    assert resumed.attributes is not None and resumed.attributes["skillweave.run.resumed"] is True
    assert resumed.attributes["skillweave.run.execution"] == 2
    publish = [s for s in kept.named("step publish") if s.parent and s.parent.span_id == resumed.context.span_id]
    decided = [e for e in publish[0].events if e.name == "approval_decided"]
    assert decided and decided[0].attributes is not None
    assert decided[0].attributes["skillweave.approved"] is True
    assert decided[0].attributes["skillweave.comment"] == "ship it"
    assert json.loads(kept_file.read_text()) == stored  # the first execution's context stays the run's


async def test_a_compensation_attempt_is_a_span_under_the_run_with_the_saga_as_run_events(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    steps = [
        PlanStep(id="done", name="Done", skill="s", policy=StepPolicy(compensation="undo")),
        PlanStep(id="boom", name="Boom", skill="s", depends_on=("done",)),
    ]
    runner = FakeRunner({"boom": [Fail(ErrorClass.UNRECOVERABLE, "no")]})
    await run(steps, runner, settings, clock)

    root = kept.one("run test-plan")
    compensation = kept.one("compensate done")
    assert compensation.parent is not None and compensation.parent.span_id == root.context.span_id
    assert compensation.attributes is not None and compensation.attributes["skillweave.attempt.compensation"] is True
    assert [e.name for e in root.events] == ["run_failing", "compensation_started", "compensation_finished"]


async def test_the_run_metrics_count_runs_attempts_retries_handoffs_and_time_steps(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    steps = two_steps()
    steps[1] = steps[1].model_copy(update={"output_schema": {"type": "object", "required": ["text"]}})
    runner = FakeRunner({"fetch": [Fail(ErrorClass.TRANSIENT, "503"), Fail(ErrorClass.TRANSIENT, "503"), {"text": "hi"}]})
    await run(steps, runner, settings, clock)

    def total(metric: str, **where: str) -> float:
        return sum(p.value for a, p in kept_points[metric] if all(a.get(k) == v for k, v in where.items()))

    kept_points = {m: kept.points(m) for m in ("skillweave.run.count", "skillweave.attempt.count",
                                                "skillweave.attempt.retries", "skillweave.handoff.checks")}
    assert total("skillweave.run.count", **{"skillweave.run.status": "succeeded"}) == 1
    assert total("skillweave.attempt.count", outcome="failed", **{"error.type": "transient"}) == 2
    assert total("skillweave.attempt.count", outcome="succeeded") == 2
    assert total("skillweave.attempt.retries", **{"skillweave.step.id": "fetch"}) == 2
    assert total("skillweave.handoff.checks", outcome="passed", direction="output") == 1
    durations = kept.points("skillweave.step.duration")
    by_step = {a["skillweave.step.id"]: p for a, p in durations}
    assert set(by_step) == {"fetch", "write"}
    assert by_step["fetch"].count == 1
    assert by_step["fetch"].sum >= 3.0  # two retry waits of 1.5 s in the fake clock's time
    delays = kept.points("skillweave.step.queue_delay")
    assert {a["skillweave.step.id"] for a, _ in delays} == {"fetch", "write"}
    for attributes, _ in delays:
        assert attributes["skillweave.plan.name"] == "test-plan"


async def test_a_tracer_that_breaks_stops_tracing_and_the_run_goes_on(
    kept: Kept, settings: Settings, clock: FakeClock, monkeypatch: object, capsys: object
) -> None:
    from orchestrator.telemetry import tracing

    def broken(self: object, event: object) -> None:
        raise RuntimeError("a bug in the tracer")

    monkeypatch.setattr(tracing.RunSpans, "see", broken)  # type: ignore[attr-defined]
    run_id = create_run(fake_plan(two_steps()), {}, settings)
    runner = FakeRunner({"fetch": [{"text": "hi"}]})
    summary = await execute_run(run_id, settings, runners={"script": runner}, clock=clock)

    assert summary.status is RunStatus.SUCCEEDED
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert err.count("tracing stopped for this run: RuntimeError: a bug in the tracer") == 1


async def test_without_telemetry_the_scope_keeps_the_backend_it_was_given(settings: Settings, tmp_path: Path) -> None:
    from orchestrator.engine.state import RunState
    from orchestrator.telemetry.scope import observe

    backend = object()
    with telemetry.use(None):
        async with observe(backend, RunState("r", fake_plan(two_steps())), tmp_path) as seen:  # type: ignore[arg-type]
            assert seen is backend


async def test_concurrent_items_each_run_inside_their_own_attempt_span(
    kept: Kept, settings: Settings, clock: FakeClock
) -> None:
    steps = [
        PlanStep(id="list", name="List", skill="s"),
        PlanStep(id="each", name="Each", skill="s", inputs={"name": InputBinding(source="item")},
                 for_each=ForEach(item="module", source=InputBinding(source="step", step="list", pointer="/modules"))),
    ]
    seen: dict[int, str] = {}

    def slower_first(request: StepRequest) -> object:
        index = request.item_index or 0

        def look(request: StepRequest) -> dict[str, str]:
            seen[index] = telemetry.environment()["TRACEPARENT"]
            return {"doc": request.input["name"]}

        return Sleep(3 - index, Call(look))

    runner = FakeRunner({"list": [{"modules": ["a", "b", "c"]}]}, default=Call(slower_first), clock=clock)
    await run(steps, runner, settings, clock)

    step = kept.one("step each")
    assert step.attributes is not None and step.attributes["skillweave.step.items"] == 3
    attempts = {a.attributes["skillweave.item"]: a for a in kept.named("attempt each") if a.attributes}
    assert sorted(attempts) == [0, 1, 2]
    for index, attempt in attempts.items():
        assert attempt.parent is not None and attempt.parent.span_id == step.context.span_id
        assert seen[index] == traceparent(attempt)


async def test_a_tracer_that_cannot_start_leaves_the_run_untraced_and_the_run_goes_on(
    kept: Kept, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from orchestrator.telemetry import tracing

    def broken(self: object, *args: object) -> None:
        raise OSError("run directory unreadable")

    monkeypatch.setattr(tracing.RunSpans, "__init__", broken)
    run_id = create_run(fake_plan(two_steps()), {}, settings)
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner({"fetch": [{"text": "hi"}]})},
                                clock=clock)

    assert summary.status is RunStatus.SUCCEEDED
    assert capsys.readouterr().err == (
        "skillweave: warning: tracing is off for this run: OSError: run directory unreadable\n"
    )
    assert kept.spans() == []
