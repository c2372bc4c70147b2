"""Calling a runner for one attempt: the runner boundary and its timeouts (the acting side).

Every backend makes its attempts through `call_runner`: the local backend in
its own process, the Temporal activities on a worker. Whatever a runner raises
becomes a classified failure, and an attempt that outlives its timeout is cut
off and reported as a timeout.
"""

from __future__ import annotations

import asyncio
import errno
import traceback
from collections.abc import Awaitable, Callable

from orchestrator.engine.backend import CANCEL_GRACE_S
from orchestrator.errors import SkillweaveError
from orchestrator.kinds import BoundSkill, KindTraits
from orchestrator.policy import ErrorClass
from orchestrator.runner import ContainedRunner, StepFailure, StepOutcome, StepRequest, StepRunner

Sleep = Callable[[float], Awaitable[None]]

_DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})


async def _guarded(runner: StepRunner, request: StepRequest) -> StepOutcome:
    """The runner boundary: whatever a runner raises becomes a classified failure."""
    try:
        return await runner.run(request)
    except asyncio.CancelledError:
        raise
    except SkillweaveError as exc:
        return StepOutcome(failure=StepFailure(error_class=ErrorClass.UNRECOVERABLE, message=exc.explain(), kind="runner_error"))
    except OSError as exc:
        if exc.errno in _DISK_FULL:  # the state directory's disk (a script's artifacts): stop, resumable
            raise
        return _runner_error(runner, exc)
    except Exception as exc:  # the runner seam: a bug in a runner must not kill the run
        return _runner_error(runner, exc)


def _runner_error(runner: StepRunner, exc: Exception) -> StepOutcome:
    return StepOutcome(
        failure=StepFailure(
            error_class=ErrorClass.UNRECOVERABLE,
            message=f"the {runner.kind!r} runner raised {type(exc).__name__}: {exc}",
            detail=traceback.format_exc()[-4000:],
            kind="runner_error",
        )
    )


def outer_deadline(traits: KindTraits, timeout: float) -> float:
    """How long the engine lets a runner take for an attempt whose timeout is `timeout`.

    The attempt timeout itself, unless the kind's runner enforces it and classifies it
    itself (`KindTraits.enforces_timeout`, e.g. the MCP runner: its clock starts when
    the call is sent, progress restarts it, a hung server is probed): then the timeout
    plus the kind's margin (`KindTraits.timeout_margin_s`).
    """
    return timeout + traits.timeout_margin_s if traits.enforces_timeout else timeout


def contained(traits: KindTraits, runner: StepRunner, skill: BoundSkill) -> bool:
    """Whether no attempt of `skill` on `runner` can touch anything outside the run.

    Only a kind whose attempts can be contained (`KindTraits.containable`) asks, and its
    runner answers through `ContainedRunner.contained(skill)` (the script runner: under
    bwrap, without network). Such an attempt's start need not be durable before it
    runs: if a crash loses the start, the attempt runs again under the same number
    and key, and nothing outside the run saw the first. Any other attempt (an MCP
    tool, a model call, a script with network or weaker isolation, a runner that
    does not say) gets its start committed first, and with it every output it may
    read. A check that raises counts as not contained.
    """
    if not traits.containable or not isinstance(runner, ContainedRunner):
        return False
    try:
        return runner.contained(skill) is True
    except Exception:  # a probe that fails must not fail the attempt; commit first instead
        return False


async def call_runner(
    sleep: Sleep, runner: StepRunner, request: StepRequest, timeout: float | None, traits: KindTraits
) -> StepOutcome:
    """Run one attempt, timed out by `sleep` (the backend's clock; see `outer_deadline`)."""
    if timeout is None:
        return await _guarded(runner, request)
    deadline = outer_deadline(traits, timeout)
    run = asyncio.ensure_future(_guarded(runner, request))
    timer = asyncio.ensure_future(sleep(deadline))
    try:
        done, _ = await asyncio.wait((run, timer), return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
        if not run.done():
            run.cancel()
            await asyncio.wait((run,), timeout=CANCEL_GRACE_S)
    if run in done:
        return run.result()
    message = f"attempt timed out after {timeout:g}s"
    if deadline != timeout:
        message = f"the {runner.kind} runner did not return within {deadline:g}s (its own timeout: {timeout:g}s)"
    return StepOutcome(
        failure=StepFailure(
            error_class=ErrorClass.TIMEOUT,
            message=message,
            kind="timeout",
            ambiguous=True,
        )
    )
