"""Where Temporal is and how skillweave uses it: flags > environment > defaults.

    SKILLWEAVE_BACKEND               local | temporal (run, resume, approve, runs)
    SKILLWEAVE_TEMPORAL_ADDRESS      host:port of the frontend  (127.0.0.1:7233)
    SKILLWEAVE_TEMPORAL_NAMESPACE    (default)
    SKILLWEAVE_TEMPORAL_TASK_QUEUE   (skillweave)
    SKILLWEAVE_BLOB_DIR              the blob folder shared by workers and clients (<state-dir>/blobs)
    SKILLWEAVE_TEMPORAL_HEARTBEAT_TIMEOUT  seconds a worker may be silent before its attempt runs elsewhere (30)
    SKILLWEAVE_TEMPORAL_ITEMS_PER_CHILD    a `for each` of more items runs as child workflows of this many (1000)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import ConfigError

ENV_BACKEND = "SKILLWEAVE_BACKEND"
ENV_ADDRESS = "SKILLWEAVE_TEMPORAL_ADDRESS"
ENV_NAMESPACE = "SKILLWEAVE_TEMPORAL_NAMESPACE"
ENV_TASK_QUEUE = "SKILLWEAVE_TEMPORAL_TASK_QUEUE"
ENV_BLOB_DIR = "SKILLWEAVE_BLOB_DIR"
ENV_HEARTBEAT = "SKILLWEAVE_TEMPORAL_HEARTBEAT_TIMEOUT"
ENV_ITEMS_PER_CHILD = "SKILLWEAVE_TEMPORAL_ITEMS_PER_CHILD"

DEFAULT_ADDRESS = "127.0.0.1:7233"
DEFAULT_NAMESPACE = "default"
DEFAULT_TASK_QUEUE = "skillweave"
DEFAULT_HEARTBEAT_S = 30.0
DEFAULT_ITEMS_PER_CHILD = 1000

Backend = Literal["local", "temporal"]


class TemporalSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    address: str = DEFAULT_ADDRESS
    namespace: str = DEFAULT_NAMESPACE
    task_queue: str = DEFAULT_TASK_QUEUE
    blob_dir: Path | None = None  # None: payloads over the threshold are refused by Temporal
    heartbeat_timeout_s: float = DEFAULT_HEARTBEAT_S
    items_per_child: int = DEFAULT_ITEMS_PER_CHILD  # a bigger `for each` runs as child workflows of this many


def backend_from(flag: str | None, env: Mapping[str, str] | None = None) -> Backend:
    """The backend a command uses: its flag, else SKILLWEAVE_BACKEND, else local."""
    env = os.environ if env is None else env
    value = (flag or env.get(ENV_BACKEND) or "local").strip().lower()
    if value not in ("local", "temporal"):
        raise ConfigError(f"unknown backend {value!r}: local or temporal", where=ENV_BACKEND if not flag else None)
    return value  # type: ignore[return-value]


def temporal_settings(
    state_dir: Path,
    *,
    address: str | None = None,
    namespace: str | None = None,
    task_queue: str | None = None,
    blob_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> TemporalSettings:
    """Flags over the environment over the defaults; the blob folder defaults to `<state_dir>/blobs`."""
    env = os.environ if env is None else env
    heartbeat = env.get(ENV_HEARTBEAT)
    try:
        heartbeat_s = float(heartbeat) if heartbeat else DEFAULT_HEARTBEAT_S
    except ValueError:
        raise ConfigError(f"not a number of seconds: {heartbeat!r}", where=ENV_HEARTBEAT) from None
    if heartbeat_s <= 0:
        raise ConfigError(f"must be positive: {heartbeat!r}", where=ENV_HEARTBEAT)
    per_child = env.get(ENV_ITEMS_PER_CHILD)
    if per_child is not None and (not per_child.isdigit() or int(per_child) < 1):
        raise ConfigError(f"not a whole number of items: {per_child!r}", where=ENV_ITEMS_PER_CHILD)
    found_address = address or env.get(ENV_ADDRESS) or DEFAULT_ADDRESS
    host, sep, port = found_address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ConfigError(f"a Temporal address is HOST:PORT, got {found_address!r}", where="temporal address")
    return TemporalSettings(
        address=found_address,
        namespace=namespace or env.get(ENV_NAMESPACE) or DEFAULT_NAMESPACE,
        task_queue=task_queue or env.get(ENV_TASK_QUEUE) or DEFAULT_TASK_QUEUE,
        blob_dir=(blob_dir or (Path(env[ENV_BLOB_DIR]) if env.get(ENV_BLOB_DIR) else Path(state_dir) / "blobs")).absolute(),
        heartbeat_timeout_s=heartbeat_s,
        items_per_child=int(per_child) if per_child else DEFAULT_ITEMS_PER_CHILD,
    )
