"""The seam's Temporal implementation: the engine's decisions as a workflow, its acts as activities.

Inside the workflow (`orchestrator.temporal.workflow`) the decision code runs
unchanged over a `TemporalBackend`:

- Remembering: events are kept in the workflow's memory, in order, and read by
  queries; Temporal's history is what makes them durable (a replay rebuilds
  them), so `commit`, `soon` and `next_step` do nothing. The files events name
  (regenerated code, its diff, a failed attempt's stderr) are kept beside them.
- Time and chance: `workflow.now()`, `workflow.random()`; a sleep (a retry's
  backoff, an explicit wait, the wall-time limit) is a durable timer.
- Acting: each attempt and compensation is an activity (`skillweave.attempt`)
  whose activity id is its idempotency key (run, step, attempt), heartbeating
  while it runs, so a worker that dies mid-attempt is found out after
  `heartbeat_timeout_s` and the attempt runs again on another worker under the
  same key. A regeneration is an activity (`skillweave.regenerate`) whose
  result is the new code itself: a replay reads it from history and never asks
  the model again, and later attempts carry it to whichever worker runs them.
  Whether a runner or the regenerator can be had is asked once per run and
  kind with a local activity (`skillweave.probe`): cheap, and on the worker
  that runs the workflow, as the answer would be in a local run.
- A `for each` of more than `items_per_child` items (RunOptions, default
  1 000) runs in parts, one child workflow after the other, each running its
  items with the same decision code; the parent folds what a child recorded.
  A run's own history thus stays well under Temporal's limits.
- Approvals: nobody is asked inside the workflow; a gate pauses the run (the
  same decision as a local run without an approver) and the workflow waits for
  an `approve` update or the gate's timeout (a durable timer), then executes
  the run again, as `skillweave resume` would.

Why activities and not local activities for attempts: a local activity is
cheaper (about 3.5 ms against 50 ms on the dev server) but lives and dies with
the worker running the workflow, has no heartbeat, and is retried only when
that workflow task is; a sandboxed script of minutes must be seen to die and
run elsewhere. Probes are local activities: instant, side-effect free.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, CancelledError, ChildWorkflowError
from temporalio.workflow import ParentClosePolicy

from orchestrator.engine.backend import (
    CANCEL_GRACE_S,
    ApprovalWait,
    PartOutcome,
    RegenerationCall,
    RegenerationReply,
)
from orchestrator.engine.model import ApprovalRequest
from orchestrator.journal.events import Event
from orchestrator.kinds import BoundSkill
from orchestrator.plan.model import Plan
from orchestrator.policy import ErrorClass
from orchestrator.runner import StepFailure, StepOutcome, StepRequest
from orchestrator.temporal.messages import (
    ATTEMPT,
    ITEMS_WORKFLOW,
    PROBE,
    REGENERATE,
    AttemptTask,
    ItemsInput,
    ItemsResult,
    ProbeReply,
    ProbeTask,
    RegenerationTask,
    RunHistory,
    RunOptions,
)

# Temporal retries an activity only when a worker lost it (died, timed out, could
# not report): the step's own failures come back as outcomes and are the engine's
# to recover. After this many losses the attempt counts as a transient failure.
INFRA_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1), backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=30), maximum_attempts=5,
)
PROBE_TIMEOUT = timedelta(seconds=60)
ACTIVITY_SLACK_S = 30.0  # beyond an attempt's deadline and grace, before Temporal gives up on it
REGENERATION_TIMEOUT = timedelta(minutes=10)


class TemporalBackend:
    """The seam (`orchestrator.engine.backend.Backend`) inside a Temporal workflow."""

    def __init__(
        self, run_id: str, plan: Plan, options: RunOptions, events: list[Event], files: dict[str, str],
        *, parts: bool = True,
    ) -> None:
        self.run_id = run_id
        self.plan = plan
        self.plan_name = plan.name
        self.options = options
        self.events = events
        self.files = files
        self.items_per_part: int | None = options.items_per_child if parts else None
        self._wall_time_s = plan.limits.wall_time_s
        self._margins: dict[str, float | None] = {}  # kind -> a self-timed runner's margin
        self._probes: dict[str, asyncio.Future[ProbeReply]] = {}

    # -- remembering: the workflow's history is durable by construction ----

    def record(self, event: Event) -> None:
        self.events.append(event)

    async def commit(self) -> None:
        return None

    def soon(self) -> None:
        return None

    def next_step(self) -> None:
        return None

    # -- time and chance -------------------------------------------------

    def now(self) -> float:
        return workflow.now().timestamp()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))  # a durable timer (none for zero)

    def random(self) -> float:
        return workflow.random().random()

    def origin(self) -> tuple[int, str]:
        return 0, f"temporal:{workflow.info().task_queue}"

    # -- acting ----------------------------------------------------------

    async def _probe(self, what: str, kind: str = "") -> ProbeReply:
        """Ask once a run (concurrent askers share the one local activity)."""
        key = f"{what}:{kind}"
        asked = self._probes.get(key)
        if asked is None:
            task = ProbeTask(run_id=self.run_id, plan_name=self.plan_name, options=self.options, what=what, kind=kind)  # type: ignore[arg-type]
            asked = self._probes[key] = asyncio.ensure_future(
                workflow.execute_local_activity(PROBE, task, result_type=ProbeReply, start_to_close_timeout=PROBE_TIMEOUT)
            )
        return await asyncio.shield(asked)

    async def runner_problem(self, skill: BoundSkill) -> str | None:
        kind = skill.kind
        reply = await self._probe("runner", kind)
        self._margins[kind] = reply.timeout_margin_s
        return reply.problem

    run_dir = None  # attempts are made on workers, each in a run directory of its own

    def _deadline(self, request: StepRequest) -> timedelta:
        if request.timeout_s is None:
            return timedelta(seconds=self._wall_time_s + ACTIVITY_SLACK_S)
        margin = self._margins.get(request.skill.kind) or 0.0
        return timedelta(seconds=request.timeout_s + margin + CANCEL_GRACE_S + ACTIVITY_SLACK_S)

    async def attempt(self, request: StepRequest, code_path: str | None) -> StepOutcome:
        task = AttemptTask(
            plan_name=self.plan_name, options=self.options, request=request, code_path=code_path,
            code=self.files.get(code_path) if code_path else None,
        )
        try:
            outcome: StepOutcome = await workflow.execute_activity(
                ATTEMPT, task, result_type=StepOutcome, activity_id=request.idempotency_key,
                start_to_close_timeout=self._deadline(request),
                heartbeat_timeout=timedelta(seconds=self.options.heartbeat_timeout_s),
                retry_policy=INFRA_RETRY,
            )
            return outcome
        except ActivityError as exc:
            _reraise_cancellation(exc)
            cause = exc.cause or exc
            return StepOutcome(
                failure=StepFailure(
                    error_class=ErrorClass.TRANSIENT, kind="lost", ambiguous=True,
                    message=f"the attempt was lost by its workers ({type(cause).__name__}: {cause})",
                )
            )

    def keep_stderr(self, step_id: str, item: int | None, attempt: int, text: str) -> str | None:
        suffix = f".{item}" if item is not None else ""
        path = f"logs/{step_id}{suffix}-{attempt}.stderr"
        self.files[path] = text
        return path

    async def regeneration_problem(self) -> str | None:
        return (await self._probe("regenerator")).problem

    async def regenerate(self, call: RegenerationCall) -> RegenerationReply:
        task = RegenerationTask(
            run_id=self.run_id, plan_name=self.plan_name, options=self.options, call=call,
            code=self.files.get(call.code_path) if call.code_path else None,
        )
        try:
            reply: RegenerationReply = await workflow.execute_activity(
                REGENERATE, task, result_type=RegenerationReply,
                activity_id=f"{self.run_id}:{call.step_id}:regenerate:{call.version}",
                start_to_close_timeout=REGENERATION_TIMEOUT, retry_policy=INFRA_RETRY,
            )
        except ActivityError as exc:
            _reraise_cancellation(exc)
            return RegenerationReply(rejected=f"the regeneration was lost by its workers: {exc.cause or exc}")
        if reply.code_path is not None and reply.code is not None:
            self.files[reply.code_path] = reply.code
            if reply.diff_path is not None and reply.diff is not None:
                self.files[reply.diff_path] = reply.diff
        return reply

    async def await_approval(self, request: ApprovalRequest, left: float | None) -> ApprovalWait:
        return ApprovalWait()  # the run pauses; the workflow waits for `approve` (see the module docstring)

    async def run_items(self, step_id: str, items: Sequence[tuple[int, Any]]) -> PartOutcome:
        """A part of a big `for each`, as a child workflow that runs the same decision code."""
        task = ItemsInput(
            run_id=self.run_id, plan=self.plan, step_id=step_id, items=tuple(items),
            state=RunHistory(events=tuple(self.events), files=dict(self.files), total=len(self.events)),
            options=self.options,
        )
        try:
            result: ItemsResult = await workflow.execute_child_workflow(
                ITEMS_WORKFLOW, task, id=f"{self.run_id}:{step_id}:items:{items[0][0]}-{items[-1][0]}",
                result_type=ItemsResult, parent_close_policy=ParentClosePolicy.REQUEST_CANCEL,
            )
        except ChildWorkflowError as exc:
            _reraise_cancellation(exc)
            raise
        self.files.update(result.files)
        return PartOutcome(events=result.events, items=result.results, limit=result.limit)


def _reraise_cancellation(exc: ActivityError | ChildWorkflowError) -> None:
    """An activity or child cancelled because the run is (the workflow was cancelled): the
    decision code sees the cancellation it would see in a local run, not a failed attempt."""
    if isinstance(exc.cause, CancelledError):
        raise asyncio.CancelledError() from exc
