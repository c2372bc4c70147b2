"""A backend seen by the tracer: a run's spans and metrics, from the events its engine records.

`TracedBackend` wraps any backend of the seam (`orchestrator.engine.backend`).
Every event goes through `record`, after the run's state has folded it, so
the spans follow the journal exactly; each attempt, regeneration and
compensation is made inside its span's context, so what a runner does (the
sandbox, an MCP call, a model call) becomes a child span through the
context variables. Which event opens, ends or marks which span:

    run span        opened with the scope; ends with run_finished (status), run_paused, or the scope
    step span       step_ready (or the step's first event in a resumed run) → step_finished / step_skipped
    attempt span    attempt_started → output_stored (ok) / attempt_failed (ERROR, error.type = error class)
    step events     retry_scheduled, regeneration, regeneration_unavailable, feedback_sent, fallback_used,
                    approval_requested, approval_decided (also one made by `skillweave approve`
                    between two executions, at the start of the next), item_skipped, handoff_checked (inputs)
    attempt events  handoff_checked (outputs)
    run events      limit_reached, run_failing, compensation_started / _finished / _failed

Spans still open when the scope ends (a pause, Ctrl-C, a crash the process
survives) end there, marked with the state the run is in. The tracer never
fails a run: a bug here is reported once on stderr and tracing stops for the
rest of that run.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import Span, Status, StatusCode
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from orchestrator.engine.backend import (
    ApprovalWait,
    Backend,
    PartOutcome,
    RegenerationCall,
    RegenerationReply,
)
from orchestrator.engine.model import ApprovalRequest, StepStatus
from orchestrator.engine.state import RunState
from orchestrator.journal import events as ev
from orchestrator.journal.store import write_file_atomically
from orchestrator.kinds import BoundSkill
from orchestrator.runner import StepOutcome, StepRequest
from orchestrator.telemetry import TRACE_FILE, warn
from orchestrator.telemetry.setup import STATUS_TEXT_LIMIT, Telemetry, attributes_of, caller_context

W3C = TraceContextTextMapPropagator()
_FAILED_STEPS = frozenset({"failed", "escalated"})


def _fail(span: Span, error_type: str, message: str) -> None:
    span.set_attribute("error.type", error_type)
    span.set_status(Status(StatusCode.ERROR, message[:STATUS_TEXT_LIMIT] or None))


def stored_context(run_dir: Path) -> otel_context.Context | None:
    """The context the run's first traced execution kept (None: none kept, or unreadable)."""
    try:
        carrier = json.loads((run_dir / TRACE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(carrier, dict):
        return None
    found = W3C.extract({k: str(v) for k, v in carrier.items() if k in ("traceparent", "tracestate")})
    return found if trace.get_current_span(found).get_span_context().is_valid else None


class RunSpans:
    """The open spans of one execution of a run, and its metrics (see the module docstring)."""

    def __init__(self, state: RunState, run_dir: Path, telemetry: Telemetry) -> None:
        self._state = state
        self._plan = state.plan
        self._tracer = telemetry.tracer
        self._metrics = telemetry.instruments
        self._labels = {"skillweave.plan.name": self._plan.name}
        self.working = True
        resumed_from = stored_context(run_dir)
        parent = resumed_from if resumed_from is not None else caller_context()
        self.run = self._tracer.start_span(
            f"run {self._plan.name}", context=parent or otel_context.Context(),
            attributes=attributes_of({
                "skillweave.run.id": state.run_id,
                "skillweave.plan.name": self._plan.name,
                "skillweave.plan.sha256": state.plan_sha256 or None,
                "skillweave.run.execution": len(state.sessions) + 1,
            }),
        )
        self._in_run = trace.set_span_in_context(self.run)
        self._run_ended = False
        self._steps: dict[str, Span] = {}
        self._attempts: dict[tuple[str, int | None, int], Span] = {}
        for step_id, st in state.steps.items():  # decided by `skillweave approve` since the last execution
            if st.approval in ("approved", "rejected") and st.status is StepStatus.READY and st.started_at is None:
                self.step(step_id).add_event("approval_decided", attributes_of({
                    "skillweave.approved": st.approval == "approved",
                    "skillweave.comment": st.approval_comment,
                    "skillweave.between_executions": True,
                }))
        if resumed_from is None and self.run.get_span_context().is_valid:
            carrier: dict[str, str] = {}
            W3C.inject(carrier, self._in_run)
            with contextlib.suppress(OSError):  # the trace goes on; a resume starts a new one
                run_dir.mkdir(parents=True, exist_ok=True)
                write_file_atomically(run_dir / TRACE_FILE, json.dumps(carrier).encode())

    # -- spans ------------------------------------------------------------

    def _step_labels(self, step_id: str) -> dict[str, Any]:
        return {**self._labels, "skillweave.step.id": step_id}

    def step(self, step_id: str) -> Span:
        found = self._steps.get(step_id)
        if found is None:
            skill = self._plan.skills.get(self._state.plan_steps[step_id].skill) if step_id in self._state.plan_steps else None
            found = self._steps[step_id] = self._tracer.start_span(
                f"step {step_id}", context=self._in_run,
                attributes=attributes_of({
                    "skillweave.run.id": self._state.run_id,
                    "skillweave.step.id": step_id,
                    "skillweave.skill.name": skill.name if skill else None,
                    "skillweave.skill.kind": skill.kind if skill else None,
                }),
            )
        return found

    def _end_step(self, step_id: str) -> Span | None:
        found = self._steps.pop(step_id, None)
        if found is not None:
            found.end()
        return found

    def attempt_of(self, call: StepRequest) -> Span | None:
        return self._attempts.get((call.step_id, call.item_index, call.attempt))

    def compensation(self, call: StepRequest) -> Span:
        return self._tracer.start_span(
            f"compensate {call.step_id}", context=self._in_run,
            attributes=attributes_of({
                "skillweave.run.id": self._state.run_id,
                "skillweave.step.id": call.step_id,
                "skillweave.attempt": call.attempt,
                "skillweave.attempt.compensation": True,
                "skillweave.skill.name": call.skill.name,
                "skillweave.skill.kind": call.skill.kind,
            }),
        )

    def regeneration(self, call: RegenerationCall) -> Span:
        return self._tracer.start_span(
            f"regenerate {call.step_id}", context=trace.set_span_in_context(self.step(call.step_id)),
            attributes=attributes_of({
                "skillweave.step.id": call.step_id,
                "skillweave.item": call.item,
                "skillweave.attempt": call.attempt,
                "skillweave.code.version": call.version,
                "skillweave.regeneration.feedback": call.feedback is not None,
            }),
        )

    # -- events -----------------------------------------------------------

    def see(self, event: ev.Event) -> None:
        step_id = event.step
        if isinstance(event, ev.StepReady) and step_id is not None:
            self.step(step_id)
        elif isinstance(event, ev.AttemptStarted) and step_id is not None and event.attempt is not None:
            self._start_attempt(event, step_id, event.attempt)
        elif (isinstance(event, ev.OutputStored) and step_id is not None) or (isinstance(event, ev.AttemptFailed) and step_id is not None):
            self._end_attempt(event, step_id)
        elif isinstance(event, ev.HandoffChecked) and step_id is not None:
            self._handoff(event, step_id)
        elif isinstance(event, ev.StepFinished) and step_id is not None:
            self._finish_step(event, step_id)
        elif isinstance(event, ev.StepSkipped) and step_id is not None:
            span = self.step(step_id)
            span.set_attributes({"skillweave.step.status": "skipped", "skillweave.step.skip_reason": event.reason})
            self._end_step(step_id)
        elif isinstance(event, ev.RetryScheduled) and step_id is not None:
            self._metrics.retries.add(1, {**self._step_labels(step_id), "error.type": event.error_class})
            self._step_event(step_id, "retry_scheduled", event, delay_s=event.delay_s, error_class=event.error_class)
        elif isinstance(event, ev.Regeneration) and step_id is not None:
            outcome = "rejected" if event.rejected else "new_version"
            self._metrics.regenerations.add(1, {**self._step_labels(step_id), "outcome": outcome})
            self._step_event(step_id, "regeneration", event, outcome=outcome, code_sha256=event.code_sha256,
                             code_path=event.code_path, rejected=event.rejected, feedback=event.feedback,
                             input_tokens=event.usage.input_tokens, output_tokens=event.usage.output_tokens)
        elif isinstance(event, ev.RegenerationUnavailable) and step_id is not None:
            self._metrics.regenerations.add(1, {**self._step_labels(step_id), "outcome": "unavailable"})
            self._step_event(step_id, "regeneration_unavailable", event, reason=event.reason)
        elif isinstance(event, ev.FeedbackSent) and step_id is not None:
            self._step_event(step_id, "feedback_sent", event, target=event.target, detail=event.detail)
        elif isinstance(event, ev.FallbackUsed) and step_id is not None:
            self._step_event(step_id, "fallback_used", event, action=event.action, skill=event.skill,
                             reason=event.reason)
        elif isinstance(event, ev.ApprovalRequested) and step_id is not None:
            self._step_event(step_id, "approval_requested", event, timeout_s=event.timeout_s,
                             on_timeout=event.on_timeout)
        elif isinstance(event, ev.ApprovalDecided) and step_id is not None:
            self._step_event(step_id, "approval_decided", event, approved=event.approved, by=event.by,
                             comment=event.comment, timed_out=event.timed_out)
        elif isinstance(event, ev.FanOut) and step_id is not None:
            self.step(step_id).set_attribute("skillweave.step.items", event.items)
        elif isinstance(event, ev.ItemSkipped) and step_id is not None:
            self._step_event(step_id, "item_skipped", event)
        else:
            self._see_run(event)

    def _see_run(self, event: ev.Event) -> None:
        if isinstance(event, ev.RunStarted):
            self.run.set_attributes({"process.pid": event.pid, "host.name": event.host,
                                     "skillweave.run.resumed": event.resumed})
        elif isinstance(event, ev.LimitReached):
            self._run_event("limit_reached", event, limit=event.limit, message=event.message)
        elif isinstance(event, ev.RunFailing):
            self._run_event("run_failing", event, status=event.status, where=event.where, message=event.message,
                            limit=event.limit)
        elif isinstance(event, ev.CompensationStarted):
            self._run_event("compensation_started", event, skill=event.skill)
        elif isinstance(event, ev.CompensationFinished):
            self._run_event("compensation_finished", event, skill=event.skill)
        elif isinstance(event, ev.CompensationFailed):
            self._run_event("compensation_failed", event, skill=event.skill, message=event.message)
        elif isinstance(event, ev.RunPaused):
            self.run.set_attributes({"skillweave.run.status": "paused",
                                     "skillweave.run.awaiting": tuple(event.awaiting)})
            self._end_run()
        elif isinstance(event, ev.RunFinished):
            self._finish_run(event)

    def _event_fields(self, event: ev.Event, **values: Any) -> dict[str, Any]:
        return attributes_of({"skillweave.item": event.item, "skillweave.attempt": event.attempt,
                              **{f"skillweave.{k}": v for k, v in values.items()}})

    def _step_event(self, step_id: str, name: str, event: ev.Event, **values: Any) -> None:
        self.step(step_id).add_event(name, self._event_fields(event, **values))

    def _run_event(self, name: str, event: ev.Event, **values: Any) -> None:
        if not self._run_ended:
            self.run.add_event(name, attributes_of({"skillweave.step.id": event.step,
                                                    **self._event_fields(event, **values)}))

    def _start_attempt(self, event: ev.AttemptStarted, step_id: str, attempt: int) -> None:
        skill = self._plan.skills.get(event.skill)
        self._attempts[(step_id, event.item, attempt)] = self._tracer.start_span(
            f"attempt {step_id}", context=trace.set_span_in_context(self.step(step_id)),
            attributes=attributes_of({
                "skillweave.run.id": self._state.run_id,
                "skillweave.step.id": step_id,
                "skillweave.item": event.item,
                "skillweave.attempt": attempt,
                "skillweave.attempt.idempotency_key": event.idempotency_key,
                "skillweave.attempt.fallback": event.fallback,
                "skillweave.skill.name": event.skill,
                "skillweave.skill.kind": skill.kind if skill else None,
                "skillweave.code.sha256": event.code_sha256,
            }),
        )

    def _end_attempt(self, event: ev.OutputStored | ev.AttemptFailed, step_id: str) -> None:
        if event.attempt is None:
            return
        labels = self._step_labels(step_id)
        if isinstance(event, ev.AttemptFailed):
            self._metrics.attempts.add(1, {**labels, "outcome": "failed", "error.type": event.error_class})
        else:
            self._metrics.attempts.add(1, {**labels, "outcome": "succeeded"})
        span = self._attempts.pop((step_id, event.item, event.attempt), None)
        if span is None:
            return
        span.set_attributes(attributes_of({
            "skillweave.attempt.duration_s": event.duration_s,
            "skillweave.tokens.input": event.usage.input_tokens or None,
            "skillweave.tokens.output": event.usage.output_tokens or None,
        }))
        if isinstance(event, ev.AttemptFailed):
            span.set_attributes(attributes_of({
                "skillweave.error.class": event.error_class,
                "skillweave.error.kind": event.kind or None,
                "skillweave.error.pointer": event.pointer,
                "skillweave.stderr_path": event.stderr_path,
            }))
            _fail(span, event.error_class, event.message)
        elif event.path is not None:  # an output big enough to be kept as a file of the run
            span.set_attributes({"skillweave.output.path": event.path, "skillweave.output.size": event.size})
        span.end()

    def _handoff(self, event: ev.HandoffChecked, step_id: str) -> None:
        outcome = "passed" if event.ok else "failed"
        self._metrics.handoffs.add(1, {**self._step_labels(step_id), "direction": event.direction, "outcome": outcome})
        fields = self._event_fields(event, direction=event.direction, outcome=outcome,
                                    violations=len(event.violations) or None,
                                    violation=event.violations[0].render() if event.violations else None)
        span = None
        if event.attempt is not None:
            span = self._attempts.get((step_id, event.item, event.attempt))
        (span or self.step(step_id)).add_event("handoff_checked", fields)

    def _finish_step(self, event: ev.StepFinished, step_id: str) -> None:
        labels = {**self._step_labels(step_id), "skillweave.step.status": event.status}
        st = self._state.steps.get(step_id)
        if st is not None and st.started_at is not None:
            if st.finished_at is not None:
                self._metrics.step_duration.record(max(0.0, st.finished_at - st.started_at), labels)
            if st.ready_at is not None:
                self._metrics.queue_delay.record(max(0.0, st.started_at - st.ready_at), self._step_labels(step_id))
        span = self.step(step_id)
        span.set_attributes(attributes_of({"skillweave.step.status": event.status,
                                           "skillweave.step.attempts": st.attempts if st else None}))
        if event.status in _FAILED_STEPS:
            _fail(span, event.error_class or event.status, event.message)
        self._end_step(step_id)

    def _finish_run(self, event: ev.RunFinished) -> None:
        labels = {**self._labels, "skillweave.run.status": event.status}
        self._metrics.runs.add(1, labels)
        sessions = self._state.sessions
        if sessions:
            self._metrics.run_duration.record(max(0.0, event.ts - sessions[0].started), labels)
        self.run.set_attributes(attributes_of({"skillweave.run.status": event.status,
                                               "skillweave.run.error.where": event.where,
                                               "skillweave.run.error.limit": event.limit}))
        if event.status not in ("succeeded", "degraded"):  # degraded: finished, a fallback standing in
            _fail(self.run, event.status, event.message)
        self._end_run()

    def _end_run(self) -> None:
        if not self._run_ended:
            self._run_ended = True
            self.run.end()

    def close(self, error: BaseException | None) -> None:
        """End what is still open (a pause, an interruption)."""
        reason = type(error).__name__ if error is not None else None
        for span in self._attempts.values():
            span.set_attribute("skillweave.attempt.interrupted", True)
            if reason:
                _fail(span, reason, str(error))
            span.end()
        self._attempts.clear()
        for step_id in list(self._steps):
            st = self._state.steps.get(step_id)
            self._steps[step_id].set_attribute("skillweave.step.status", st.status.value if st else "unknown")
            self._end_step(step_id)
        if not self._run_ended:
            self.run.set_attribute("skillweave.run.status", self._state.status.value)
            if reason:
                _fail(self.run, reason, f"the run was interrupted: {reason} {error}".strip())
            self._end_run()


class TracedBackend:
    """`inner`, with the run's spans and metrics taken from what goes through it."""

    commit: Callable[[], Awaitable[None]]
    soon: Callable[[], None]
    next_step: Callable[[], None]
    now: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    random: Callable[[], float]
    items_per_part: int | None

    def __init__(self, inner: Backend, state: RunState, run_dir: Path, telemetry: Telemetry) -> None:
        self.inner = inner
        self.items_per_part = inner.items_per_part
        self.spans = RunSpans(state, run_dir, telemetry)
        self._record = inner.record
        self.commit = inner.commit
        self.soon = inner.soon
        self.next_step = inner.next_step
        self.now = inner.now
        self.sleep = inner.sleep
        self.random = inner.random

    def record(self, event: ev.Event) -> None:
        if self.spans.working:
            try:
                self.spans.see(event)
            except Exception as exc:  # the tracer never fails a run
                self._broken(exc)
        self._record(event)

    def _broken(self, exc: Exception) -> None:
        self.spans.working = False
        warn(f"tracing stopped for this run: {type(exc).__name__}: {exc}")

    @contextlib.contextmanager
    def _within(self, span: Span | None) -> Iterator[None]:
        if span is None:
            yield
            return
        with trace.use_span(span, end_on_exit=False, record_exception=False, set_status_on_exception=False):
            yield

    def within_run(self) -> contextlib.AbstractContextManager[None]:
        """The run's span as the current one: what starts in the background meanwhile
        (the MCP servers a run starts as it starts) traces into the run."""
        return self._within(self.spans.run)

    def origin(self) -> tuple[int, str]:
        return self.inner.origin()

    async def runner_problem(self, skill: BoundSkill) -> str | None:
        return await self.inner.runner_problem(skill)

    @property
    def run_dir(self) -> Path | None:
        return self.inner.run_dir

    async def attempt(self, call: StepRequest, code_path: str | None) -> StepOutcome:
        if not self.spans.working:
            return await self.inner.attempt(call, code_path)
        if not call.compensation:
            span = self.spans.attempt_of(call)
            with self._within(span):
                outcome = await self.inner.attempt(call, code_path)
            if span is not None and outcome.meta:
                span.set_attributes({f"skillweave.runner.{k}": v for k, v in outcome.meta.items()})
            return outcome
        span = self.spans.compensation(call)
        try:
            with self._within(span):
                outcome = await self.inner.attempt(call, code_path)
            if outcome.failure is not None:
                _fail(span, outcome.failure.error_class.value, outcome.failure.message)
            return outcome
        except BaseException as exc:
            _fail(span, type(exc).__name__, str(exc))
            raise
        finally:
            span.end()

    def keep_stderr(self, step_id: str, item: int | None, attempt: int, text: str) -> str | None:
        return self.inner.keep_stderr(step_id, item, attempt, text)

    async def regeneration_problem(self) -> str | None:
        return await self.inner.regeneration_problem()

    async def regenerate(self, call: RegenerationCall) -> RegenerationReply:
        if not self.spans.working:
            return await self.inner.regenerate(call)
        span = self.spans.regeneration(call)
        try:
            with self._within(span):
                reply = await self.inner.regenerate(call)
            if reply.rejected or reply.unavailable:
                _fail(span, "rejected" if reply.rejected else "unavailable", reply.rejected or reply.unavailable or "")
            return reply
        except BaseException as exc:
            _fail(span, type(exc).__name__, str(exc))
            raise
        finally:
            span.end()

    async def await_approval(self, request: ApprovalRequest, left: float | None) -> ApprovalWait:
        return await self.inner.await_approval(request, left)

    async def run_items(self, step_id: str, items: Sequence[tuple[int, Any]]) -> PartOutcome:
        return await self.inner.run_items(step_id, items)

    def close(self, error: BaseException | None) -> None:
        if self.spans.working:
            try:
                self.spans.close(error)
            except Exception as exc:  # the tracer never fails a run
                self._broken(exc)
