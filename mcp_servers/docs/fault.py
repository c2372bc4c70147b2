"""Fault injection for the docs server, for tests and the seed's Testing Plan.

SKILLWEAVE_DOCS_FAULT (or `--fault`) holds comma-separated faults; each fires on
the first `count` calls of `get_docs` (default 1), in the order given:

    hang-first:SECONDS[:COUNT]    the call sleeps (the server stays responsive), then answers
    freeze-first:SECONDS[:COUNT]  the call blocks the whole server (it answers nothing), then answers
    error-first[:COUNT]           the call returns an `isError` result
    crash-first[:COUNT]           the server process exits in the middle of the call

A fault's count lives in the server process, so a restarted server would fire it
again. Set SKILLWEAVE_DOCS_FAULT_STATE to a file path to keep the counts there
instead: then a fault fires `count` times in all, across restarts. (The client
keeps a server that still answers after a timed-out call, so `hang-first`
followed by a retry reaches the same process and needs no state file; `crash-first`
and `freeze-first` lead to a new process and do.)
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

FaultKind = Literal["hang", "freeze", "error", "crash"]
CRASH_EXIT_CODE = 3


class FaultError(Exception):
    """An injected tool failure (the server turns it into an `isError` result)."""


class Fault(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: FaultKind
    seconds: float = Field(default=0.0, ge=0)
    count: int = Field(default=1, ge=1)

    @property
    def key(self) -> str:
        return f"{self.kind}-first:{self.seconds:g}:{self.count}"


def parse_faults(text: str) -> tuple[Fault, ...]:
    """Parse the knob's value; raises ValueError with the bad part named."""
    faults: list[Fault] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, rest = part.partition(":")
        args = [a for a in rest.split(":") if a] if rest else []
        kind = name.removesuffix("-first")
        try:
            if kind in ("hang", "freeze"):
                if not 1 <= len(args) <= 2:
                    raise ValueError("expects SECONDS[:COUNT]")
                faults.append(
                    Fault.model_validate(
                        {
                            "kind": kind,
                            "seconds": float(args[0]),
                            "count": int(args[1]) if len(args) > 1 else 1,
                        }
                    )
                )
            elif kind in ("error", "crash"):
                if len(args) > 1:
                    raise ValueError("expects at most :COUNT")
                faults.append(
                    Fault.model_validate({"kind": kind, "count": int(args[0]) if args else 1})
                )
            else:
                raise ValueError(
                    "unknown fault (hang-first, freeze-first, error-first, crash-first)"
                )
        except (ValueError, ValidationError) as exc:
            raise ValueError(f"bad fault {part!r}: {exc}") from None
    return tuple(faults)


class FaultPlan:
    """Counts fired faults (in memory, or in `state_file` across processes) and fires them."""

    def __init__(
        self,
        faults: tuple[Fault, ...],
        *,
        state_file: Path | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self.faults = faults
        self._state_file = state_file
        self._fired: dict[str, int] = {}
        self._sleep = sleep

    def _load(self) -> dict[str, int]:
        if self._state_file is None:
            return self._fired
        try:
            data = json.loads(self._state_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): int(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def _store(self, fired: dict[str, int]) -> None:
        if self._state_file is None:
            self._fired = fired
            return
        tmp = self._state_file.with_name(self._state_file.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(fired), encoding="utf-8")
        os.replace(tmp, self._state_file)

    def due(self) -> tuple[Fault, ...]:
        """The faults that fire on this call, counted as fired (no await: atomic in the loop)."""
        fired = dict(self._load())
        firing = tuple(f for f in self.faults if fired.get(f.key, 0) < f.count)
        for fault in firing:
            fired[fault.key] = fired.get(fault.key, 0) + 1
        if firing:
            self._store(fired)
        return firing

    async def inject(self) -> None:
        """Fire the faults due on this call."""
        for fault in self.due():
            if fault.kind == "hang":
                if self._sleep is None:
                    import anyio

                    await anyio.sleep(fault.seconds)
                else:
                    await self._sleep(fault.seconds)
            elif fault.kind == "freeze":
                time.sleep(fault.seconds)  # blocks the event loop on purpose: the server goes dark
            elif fault.kind == "error":
                raise FaultError("injected fault: the docs repository failed to answer")
            else:
                os._exit(CRASH_EXIT_CODE)
