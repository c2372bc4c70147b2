"""Typed identifiers, so a step id is never passed where a run id belongs."""

from __future__ import annotations

import secrets
import time
from typing import NewType

RunId = NewType("RunId", str)


def new_run_id() -> RunId:
    """A sortable, unique run id: UTC timestamp plus random suffix."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return RunId(f"{stamp}-{secrets.token_hex(3)}")


def idempotency_key(run_id: str, step_id: str, attempt: int, item: int | None = None) -> str:
    """The key a skill can use to make its side effects idempotent across retries."""
    base = f"{run_id}:{step_id}:{attempt}"
    return base if item is None else f"{base}:{item}"
