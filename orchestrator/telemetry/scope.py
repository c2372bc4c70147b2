"""Where a run's scope meets telemetry: the backend it should use (the engine's side of the facade)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from orchestrator import telemetry
from orchestrator.engine.backend import Backend
from orchestrator.engine.state import RunState


@contextlib.asynccontextmanager
async def observe(backend: Backend, state: RunState, run_dir: Path) -> AsyncIterator[Backend]:
    """`backend` itself when telemetry is off, else `backend` seen by the tracer (see
    `orchestrator.telemetry.tracing`, imported only then), closed with the scope."""
    found = telemetry.active()
    if found is None:
        yield backend
        return
    from orchestrator.telemetry.tracing import TracedBackend

    try:
        traced = TracedBackend(backend, state, run_dir, found)
    except Exception as exc:  # the tracer never fails a run
        telemetry.warn(f"tracing is off for this run: {type(exc).__name__}: {exc}")
        yield backend
        return
    try:
        yield traced
    except BaseException as exc:
        traced.close(exc)
        raise
    traced.close(None)


def within_run(backend: Backend) -> contextlib.AbstractContextManager[None]:
    """The run's span as the current one while background work starts, when `backend`
    is traced (`observe`'s); nothing otherwise."""
    within = getattr(backend, "within_run", None)
    return within() if callable(within) else contextlib.nullcontext()
