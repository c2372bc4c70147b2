"""The plan interpreter: runs a plan's DAG on asyncio, durably.

A step is ready when every step it depends on (its `depends_on` and the steps
its bindings read) is done. Ready steps start at once; concurrency slots (global,
per skill, per MCP server) are taken per attempt, so the queue delay ready →
started is measured. A ready step is then, in order:

1. skipped as a branch not taken: a routing step chose another branch (or has no
   output), or every step it depends on was skipped (it is on that branch: it
   follows only skipped steps) unless it reads them all through optional inputs;
   a step it `follows` by step order alone counts as skipped only when that one
   was skipped so in turn, not by its own condition;
2. skipped when its own `when` condition is false (a `for each` step evaluates it
   per item and leaves out the items where it is false); a condition over a value
   that does not exist is false (an `Otherwise` over it too);
3. failed (through its fallback, as an invalid input) when a required input comes
   from a step with no output: a step meant to run is never skipped quietly; a
   join's input (`any_of`) needs one of its steps to have run;
4. held at its approval gate, if it has one whose condition (if any) is true (the
   run pauses when only gates are left);
5. run: one unit, or one unit per item of its `for each` list, concurrently, the
   results fanned back in input order. Each unit goes through `recovery`.

Done steps are never run again: a resumed run starts from the replayed state.
The run ends failed (or escalated) when a step's fallback says so or a limit is
reached; compensations then run (`compensation`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from enum import Enum
from typing import Any, Literal

from orchestrator.engine.approval import Gate, pass_gate
from orchestrator.engine.compensation import compensate
from orchestrator.engine.graph import plan_graph
from orchestrator.engine.model import RunStatus, StepStatus
from orchestrator.engine.recovery import UnitResult, fallback, run_unit
from orchestrator.engine.render import RenderError
from orchestrator.engine.run_checks37 import evaluate as evaluate_run_checks
from orchestrator.engine.scope import RunAbortedError, RunScope
from orchestrator.engine.success_compare import evaluate as evaluate_compares
from orchestrator.errors import LimitExceededError
from orchestrator.journal.events import (
    FanOut,
    ItemSkipped,
    RunFailing,
    RunFinished,
    RunPaused,
    RunStarted,
    StepFinished,
    StepReady,
    StepSkipped,
)
from orchestrator.plan.model import PlanStep, ResolvedPolicy
from orchestrator.policy import ErrorClass, FallbackAction, RetryPolicy
from orchestrator.runner import StepFailure

# A task that goes on with a chain of steps lets the loop run other work at least
# this often (a step whose runner awaits something yields anyway); a chain of
# instant steps then takes no trip through the loop for each step.
YIELD_EVERY_S = 0.002


class StepEnd(Enum):
    DONE = "done"
    PAUSED = "paused"


def route_of(output: Any, on: str | None = None) -> str | None:
    """The branch a routing step chose: its output, or its `route`/`branch` field (or the
    field `on` names, when the spec said which: "depends on the category")."""
    if isinstance(output, str):
        return output
    if isinstance(output, Mapping):
        for key in ((on,) if on else ("route", "branch")):
            if isinstance(output.get(key), str | int | bool) and output.get(key) is not None:
                return str(output[key])
    return None


def routed_to(router: PlanStep, chosen: str | None) -> str | None:
    """The step a choice goes to: its branch, else (any other choice) the default route."""
    if chosen is not None and chosen in router.routes:
        return router.routes[chosen]
    if chosen is not None:
        folded = {name.casefold(): target for name, target in router.routes.items()}
        if chosen.casefold() in folded:
            return folded[chosen.casefold()]
    return router.route_default


class Scheduler:
    def __init__(self, scope: RunScope) -> None:
        self.scope = scope
        graph = plan_graph(scope.plan)
        self.deps = graph.deps
        self.required = graph.required  # sorted: skip reasons name the first
        self.dependants = graph.dependants
        self.routers = graph.routers
        # steps linked to every dependency only by optional inputs: they run when all were skipped
        self.optional_only = {sid: self._optional_only(graph.steps[sid]) for sid in graph.steps}
        self.follows = {sid: frozenset(step.follows) for sid, step in graph.steps.items() if step.follows}
        self._carried: dict[str, bool] = {}  # skipped step -> whether the step order goes on past it

    def _optional_only(self, step: PlanStep) -> bool:
        optional, required = self._read_by(step, optional=True), self._read_by(step, optional=False)
        deps = self.deps[step.id]
        return bool(deps) and all(d in optional and d not in required for d in deps)

    @staticmethod
    def _read_by(step: PlanStep, *, optional: bool) -> set[str]:
        return {sid for b in step.inputs.values() if b.source == "step" and b.optional is optional
                for sid in b.sources()}

    # -- the run ---------------------------------------------------------

    async def execute(self) -> None:
        """Run (or resume) to success, failure, or a pause; every ending is recorded."""
        scope = self.scope
        state = scope.state
        pid, host = scope.backend.origin()
        scope.emit(RunStarted(ts=scope.now(), pid=pid, host=host, resumed=len(state.sessions) > 0))
        await scope.commit()
        ended = self._ended_by_a_step()
        if ended is not None:
            await self._fail(*ended)
            return
        if state.failing is None:
            try:
                paused = await self._within_wall_time()
            except RunAbortedError as abort:
                await self._fail(abort.status, abort.message, abort.where, abort.limit)
                return
            except LimitExceededError as exc:
                self._limit_failed_step(exc.where, exc.message)
                await self._fail(RunStatus.FAILED, exc.message, exc.where, exc.limit)
                return
            if paused:
                scope.emit(RunPaused(ts=scope.now(), awaiting=tuple(paused)))
                await scope.commit()
                return
            verdict = evaluate_compares(scope.plan, state) if scope.plan.compare_checks else None
            if verdict is not None and verdict.failed is not None:  # a success check comparing two values
                await self._fail(RunStatus.FAILED, verdict.failed, None, None)
                return
            on_run = evaluate_run_checks(scope.plan, state) if scope.plan.run_checks else None
            if on_run is not None and on_run.failed is not None:  # the run's success check on a step's output
                await self._fail(RunStatus.FAILED, on_run.failed, None, None)
                return
            unchecked = "; ".join([*(verdict.not_evaluated if verdict is not None else ()),
                                   *(on_run.not_evaluated if on_run is not None else ())])
            degraded = state.degraded()
            if degraded:  # finished, but a fallback stood in: never called succeeded
                said = "; ".join(f"{d['step_id']} ({d['fallback']}): {d['reason']}" for d in degraded)
                said = f"fallbacks used: {said}" + (f"; {unchecked}" if unchecked else "")
                scope.emit(RunFinished(ts=scope.now(), status="degraded", message=said))
            else:
                scope.emit(RunFinished(ts=scope.now(), status="succeeded", message=unchecked))
            await scope.commit()
            return
        failing = state.failing
        await self._fail(state.failing_status or RunStatus.FAILED, failing.message, failing.where, failing.limit, recorded=True)

    def _ended_by_a_step(self) -> tuple[RunStatus, str, str | None, None] | None:
        """A step recorded as failed or escalated whose run was not yet recorded as failing
        (the process ended in between): the run fails as that step's end said it would,
        rather than go on as if the step had been left out."""
        state = self.scope.state
        if state.failing is not None:
            return None
        for st in state.steps.values():
            if st.status in (StepStatus.FAILED, StepStatus.ESCALATED):
                status = RunStatus.ESCALATED if st.status is StepStatus.ESCALATED else RunStatus.FAILED
                return status, f"step {st.step_id} failed: {st.message}", st.step_id, None
        return None

    def _limit_failed_step(self, step_id: str | None, message: str) -> None:
        """The step a limit stopped (its next attempt refused) failed: it is not merely cut short."""
        st = self.scope.state.steps.get(step_id) if step_id is not None else None
        if st is None or st.status.done or any(it.in_flight is not None for it in st.items.values()):
            return
        self.scope.emit(StepFinished(ts=self.scope.now(), step=st.step_id, status="failed", message=message))

    async def _fail(
        self, status: RunStatus, message: str, where: str | None, limit: str | None, *, recorded: bool = False
    ) -> None:
        scope = self.scope
        final: Literal["failed", "escalated"] = "escalated" if status is RunStatus.ESCALATED else "failed"
        if not recorded:
            scope.emit(RunFailing(ts=scope.now(), status=final, where=where, message=message, limit=limit))
            await scope.commit()
        await compensate(scope)
        scope.emit(RunFinished(ts=scope.now(), status=final, where=where, message=message, limit=limit))
        await scope.commit()

    async def _within_wall_time(self) -> list[str]:
        """Run the DAG under the wall-time limit (time waiting at approval gates excluded)."""
        scope = self.scope
        limit = scope.plan.limits.wall_time_s
        message = f"the run reached its wall time of {limit:g}s (limit wall_time_s)"
        work = asyncio.ensure_future(self.run_dag())
        try:
            while True:
                left = limit - scope.state.execution_time(scope.now())
                if left <= 0:
                    raise scope.limit_reached("wall_time_s", message)
                timer = asyncio.ensure_future(scope.sleep(left))
                try:
                    done, _ = await asyncio.wait((work, timer), return_when=asyncio.FIRST_COMPLETED)
                finally:
                    timer.cancel()
                if work in done:
                    return work.result()
        finally:
            if not work.done():
                work.cancel()
                await asyncio.wait((work,))

    async def run_dag(self) -> list[str]:
        """Run every step that can run; returns the steps left waiting at a gate.

        A task runs a step and then goes on with one of the steps that step made
        ready (a chain runs in one task, with no trip through the event loop's
        queue but every YIELD_EVERY_S); any other step it made ready gets a task
        of its own.
        """
        steps = self.scope.state.steps
        waiting = {
            sid: sum(1 for d in self.deps[sid] if not steps[d].status.done)
            for sid in self.deps
            if not steps[sid].status.done
        }
        ready = [sid for sid, n in waiting.items() if n == 0]
        for sid in ready:
            self._ready(sid)
        news: asyncio.Queue[BaseException | None] = asyncio.Queue()  # a task ended, or made steps ready
        loop = asyncio.get_running_loop()
        next_step = self.scope.backend.next_step
        tasks: dict[asyncio.Task[None], None] = {}  # in creation order: cancelled in a known order
        active = 0
        paused: list[str] = []

        def release(sid: str) -> list[str]:
            """The dependants of `sid` that are ready now that it is done."""
            now_ready = []
            for dependant in self.dependants[sid]:
                if dependant in waiting:
                    waiting[dependant] -= 1
                    if waiting[dependant] == 0:
                        self._ready(dependant)
                        now_ready.append(dependant)
            return now_ready

        async def follow(sid: str) -> None:
            nonlocal active
            failure: BaseException | None = None
            next_yield = loop.time() + YIELD_EVERY_S
            try:
                while True:
                    if await self.execute_step(sid) is StepEnd.PAUSED:
                        paused.append(sid)
                        break
                    now_ready = release(sid)
                    if not now_ready:
                        break
                    sid = now_ready[0]
                    if len(now_ready) > 1:
                        ready.extend(now_ready[1:])
                        news.put_nowait(None)
                        await asyncio.sleep(0)  # start the new tasks now
                    elif loop.time() >= next_yield:  # let other tasks have their turn
                        await asyncio.sleep(0)
                        next_yield = loop.time() + YIELD_EVERY_S
                    else:
                        next_step()
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # handed to the loop below, which re-raises it
                failure = exc
            active -= 1
            news.put_nowait(failure)

        def forget(task: asyncio.Task[None]) -> None:
            tasks.pop(task, None)

        try:
            while True:
                for sid in ready:
                    task = asyncio.ensure_future(follow(sid))
                    tasks[task] = None
                    task.add_done_callback(forget)
                    active += 1
                ready.clear()
                if not active:
                    # the tasks may all have ended before this loop read their news: a failure
                    # queued behind another task's end must not be lost
                    while not news.empty():
                        failure = news.get_nowait()
                        if failure is not None:
                            raise failure
                    break
                failure = await news.get()
                if failure is not None:
                    raise failure
        finally:
            running = [task for task in tasks if not task.done()]
            for task in running:
                task.cancel()
            if running:
                await asyncio.wait(running)
        return paused

    def _ready(self, sid: str) -> None:
        st = self.scope.state.steps[sid]
        if st.status is StepStatus.PENDING:
            self.scope.emit(StepReady(ts=self.scope.now(), step=sid))

    # -- one step --------------------------------------------------------

    def _skip_reason(self, step: PlanStep) -> str | None:
        """Why a ready step is skipped as part of a branch not taken, or None (module docstring)."""
        steps = self.scope.state.steps
        for router in self.routers[step.id]:
            st = steps[router]
            if not st.status.has_output:
                return f"branch not taken: routing step {router} has no output ({st.status.value})"
            routing = self.scope.step(router)
            chosen = route_of(st.output, routing.route_on)
            if routed_to(routing, chosen) != step.id:
                return f"branch not taken: routing step {router} chose {chosen!r}"
        deps = self.deps[step.id]
        if deps and all(self._cut_off(d, step.id) for d in deps) and not self.optional_only[step.id]:
            return "every step it depends on was skipped: it is on a branch not taken"
        return None

    def _cut_off(self, dep: str, sid: str) -> bool:
        """`dep` was skipped, and not merely by its own condition when `sid` follows it by step
        order alone (`PlanStep.follows`): then only a skip carried on to it cuts `sid` off."""
        if self.scope.state.steps[dep].status is not StepStatus.SKIPPED:
            return False
        return dep not in self.follows.get(sid, ()) or not self._carries(dep)

    def _carries(self, sid: str) -> bool:
        """Whether the step order goes on past the skipped step `sid`: some step it depends on
        was not cut off (it was skipped by its own condition). Memoised, and walked without
        recursion: a chain of 10 000 conditional steps asks it of each step once."""
        todo = [sid]
        while todo:
            top = todo[-1]
            if top in self._carried:
                todo.pop()
                continue
            waiting = [d for d in self.follows.get(top, ()) if d not in self._carried
                       and self.scope.state.steps[d].status is StepStatus.SKIPPED]
            if waiting:
                todo.extend(waiting)
                continue
            self._carried[top] = not all(self._cut_off(d, top) for d in self.deps[top])
            todo.pop()
        return self._carried[sid]

    def _starved(self, step: PlanStep) -> str | None:
        """The required input a step meant to run does not get, said with why; None when it has them all."""
        steps = self.scope.state.steps
        bindings = [(name, b) for name, b in step.inputs.items()]
        if step.for_each is not None:
            bindings.append(("(the For each list)", step.for_each.source))
        for name, b in bindings:
            if b.source != "step" or b.optional or b.step is None or b.joined:
                continue  # (a joined value is there when none of its steps ran: an empty list)
            sources = b.any_of or (b.step,)
            if any(steps[sid].status.has_output for sid in sources if sid in steps):
                continue
            why = "; ".join(f"{sid} {steps[sid].status.value}" + (f" ({steps[sid].message})" if steps[sid].message
                                                                  else "") for sid in sources if sid in steps)
            return (f"its required input `{name}` comes from {', '.join(sources)}, which has no output: {why}. "
                    "Make the input optional, give the producer's fallback a value, or give this step the "
                    "same condition")
        return None

    async def execute_step(self, sid: str) -> StepEnd:
        scope = self.scope
        step = scope.step(sid)
        st = scope.state.steps[sid]
        reason = self._skip_reason(step)
        outputs = scope.state.outputs()
        if reason is None and step.for_each is None:
            try:
                if not scope.renderer.condition(step, outputs):
                    reason = f"condition is false: {step.when}"
            except RenderError as exc:
                return await self._finish(step, await self._invalid(step, None, str(exc)))
        if reason is not None:
            scope.emit(StepSkipped(ts=scope.now(), step=sid, reason=reason))
            return StepEnd.DONE
        starved = self._starved(step)
        if starved is not None:  # meant to run, it cannot: never skipped quietly
            return await self._finish(step, await self._invalid(step, None, starved))
        if step.policy.approval is not None and st.approval != "approved" and self._gated(step, outputs):
            preview = None
            if step.for_each is None:
                try:
                    preview = scope.renderer.step_input(step, outputs)
                except RenderError:
                    preview = None
            gate, message = await pass_gate(scope, step, preview)
            if gate is Gate.PAUSED:
                return StepEnd.PAUSED
            if gate is Gate.SKIPPED:  # silence skips it: as a step skipped by its own condition
                scope.emit(StepSkipped(ts=scope.now(), step=sid, reason=message))
                return StepEnd.DONE
            if gate is Gate.REJECTED:
                failure = StepFailure(error_class=ErrorClass.UNRECOVERABLE, message=message, kind="rejected")
                resolved = ResolvedPolicy(retry=RetryPolicy(), regenerations=0, fallback=step.policy.fallback)
                # a fallback skill gets the step's own input (a for each step's has none of its own)
                return await self._finish(step, await fallback(scope, step, None, preview, failure, resolved=resolved))
        if step.for_each is not None:
            return await self._finish(step, await self._fan_out(step))
        while True:
            try:
                payload = scope.renderer.step_input(step, scope.state.outputs())
            except RenderError as exc:
                return await self._finish(step, await self._invalid(step, None, str(exc)))
            result = await run_unit(scope, step, None, payload)
            if result.feedback_target is None:
                return await self._finish(step, result)
            await self.execute_step(result.feedback_target)  # the producer, with the findings

    def _gated(self, step: PlanStep, outputs: Mapping[str, Any]) -> bool:
        """Whether the step's approval gate holds now: a conditional gate ("required if amount >
        1000") only when its condition is true; once asked, a gate stays asked."""
        if self.scope.state.steps[step.id].approval is not None:
            return True
        try:
            return self.scope.renderer.gate(step, outputs)
        except RenderError:
            return True  # a condition that cannot be evaluated asks a person rather than passing by

    async def _invalid(self, step: PlanStep, item: int | None, message: str) -> UnitResult:
        failure = StepFailure(error_class=ErrorClass.INVALID_INPUT, message=message, kind="render")
        return await fallback(self.scope, step, item, None, failure)

    async def _fan_out(self, step: PlanStep) -> UnitResult:
        scope = self.scope
        st = scope.state.steps[step.id]
        outputs = scope.state.outputs()
        try:
            items = scope.renderer.items(step, outputs)
        except RenderError as exc:
            return await self._invalid(step, None, str(exc))
        if st.item_count is None:
            scope.emit(FanOut(ts=scope.now(), step=step.id, items=len(items)))
        todo: list[tuple[int, Any]] = []  # (item, input) of the items to run
        invalid: dict[int, str] = {}  # item -> why its input could not be made
        for index, value in enumerate(items):
            it = st.item(index)
            if it.has_output or it.skipped:
                continue
            try:
                if not scope.renderer.condition(step, outputs, value):
                    scope.emit(ItemSkipped(ts=scope.now(), step=step.id, item=index))
                    continue
                payload = scope.renderer.step_input(step, outputs, value)
            except RenderError as exc:
                invalid[index] = str(exc)
                todo.append((index, None))
                continue
            todo.append((index, payload))
        size = scope.backend.items_per_part
        parted = size is not None and len(todo) - len(invalid) > size
        units = [
            asyncio.ensure_future(
                self._invalid(step, index, invalid[index]) if index in invalid else run_unit(scope, step, index, payload)
            )
            for index, payload in todo
            if index in invalid or not parted
        ]
        if parted:
            todo = [(index, payload) for index, payload in todo if index not in invalid]
        results = [result for _, result in await gather_units(units)]
        if parted and not _stopped(results):
            assert size is not None
            results += await self._in_parts(step, todo, size)
        continued = [r for r in results if r.status is StepStatus.CONTINUED]  # left out; the others went on
        worst = results[-1] if _stopped(results) else None
        if worst is not None:
            return worst
        if continued and not any(it.has_output for it in st.items.values()):
            # every item failed and continued: the gathered results are an empty list, handed on
            last = continued[-1].failure
            return UnitResult(StepStatus.DEFAULTED, attempt=continued[-1].attempt,
                              note=f"every one of the {len(items)} items continued without output; the "
                                   "results are an empty list" + (f": {last.message}" if last else ""))
        defaulted = any(
            it.has_output and st.fallback == FallbackAction.DEFAULT.value for it in st.items.values()
        )
        note = ""
        if continued:
            left_out = sorted(i for i, it in st.items.items() if i is not None and not it.has_output and not it.skipped)
            last = continued[-1].failure
            note = (f"{len(left_out)} of {len(items)} items continued without output "
                    f"(items {', '.join(map(str, left_out))})" + (f": {last.message}" if last else ""))
        return UnitResult(StepStatus.DEFAULTED if defaulted else StepStatus.SUCCEEDED, note=note)

    async def _in_parts(self, step: PlanStep, todo: list[tuple[int, Any]], size: int) -> list[UnitResult]:
        """Run the items in parts of `size`, one part after the other, where the backend says
        (a child workflow); fold and record what each part recorded. Stops after a part in
        which an item failed the step; a limit reached there ends the run here too."""
        scope = self.scope
        results: list[UnitResult] = []
        for start in range(0, len(todo), size):
            part = await scope.backend.run_items(step.id, todo[start : start + size])
            for event in part.events:
                scope.emit(event)
            if part.limit is not None:
                raise LimitExceededError(part.limit.limit, part.limit.message, where=part.limit.where)
            results += [
                UnitResult(StepStatus(o.status), o.output, failure=o.failure, attempt=o.attempt) for o in part.items
            ]
            if _stopped(results):
                break
        return results

    async def _finish(self, step: PlanStep, result: UnitResult) -> StepEnd:
        scope = self.scope
        failure = result.failure
        status = result.status
        message = failure.message if failure is not None else result.note
        error_class = failure.error_class.value if failure is not None else None
        scope.emit(
            StepFinished(
                ts=scope.now(), step=step.id, attempt=result.attempt, status=status.value,  # type: ignore[arg-type]
                message=message, error_class=error_class,
            )
        )
        if status in (StepStatus.FAILED, StepStatus.ESCALATED):
            where = f"{step.id}/{result.attempt}" if result.attempt else step.id
            run_status = RunStatus.ESCALATED if status is StepStatus.ESCALATED else RunStatus.FAILED
            raise RunAbortedError(run_status, f"step {step.id} failed: {message}", where=where)
        scope.soon()  # durable within FLUSH_DELAY_S, or before an outside effect relies on it
        return StepEnd.DONE



_GOES_ON = (StepStatus.SUCCEEDED, StepStatus.DEFAULTED, StepStatus.CONTINUED)


def _stopped(results: list[UnitResult]) -> bool:
    """Whether the last result failed its step (gather_units stops at the first that does)."""
    return bool(results) and results[-1].status not in _GOES_ON


async def gather_units(units: list[asyncio.Task[UnitResult]]) -> list[tuple[int, UnitResult]]:
    """(position in `units`, result) in the order the units end, up to and including the first
    that fails the step (not succeeded, defaulted or continued); the others are then cancelled.
    An exception of a unit (a limit) is raised once every unit has ended."""
    results: list[tuple[int, UnitResult]] = []
    position = {unit: i for i, unit in enumerate(units)}
    finished: asyncio.Queue[asyncio.Task[UnitResult]] = asyncio.Queue()  # in the order they end
    for unit in units:
        unit.add_done_callback(finished.put_nowait)
    try:
        for _ in units:
            unit = await finished.get()
            result = unit.result()
            results.append((position[unit], result))
            if result.status not in _GOES_ON:
                break
    finally:
        pending = [u for u in units if not u.done()]
        for u in pending:
            u.cancel()
        if pending:
            await asyncio.wait(pending)
        for u in units:  # one item's error is raised; siblings that failed too are not lost noise
            if u.done() and not u.cancelled():
                u.exception()
    return results
