"""What every tool call shares: the settings, the roots, blocking work off the event loop.

The roots are the server's own (`ServerConfig.root` and `extra_roots`); a client's
declared roots narrow them for its calls, never widen them (see `roots`).

The catalog, the spec compiler and the journal are synchronous; a tool runs them
in a worker thread (bounded by a limiter) so one slow call never stalls the
server's other requests.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp_types import InputRequiredResult
from pydantic import BaseModel, ConfigDict

from orchestrator.config import Settings
from orchestrator.server import dialogue
from orchestrator.server.roots import PathRefusedError, RootSet, beside_spec

T = TypeVar("T")

DEFAULT_ELICIT_TIMEOUT_S = 120.0
DEFAULT_WAIT_LIMIT_S = 45.0
DEFAULT_WORKERS = 4


class ServerConfig(BaseModel):
    """How one `skillweave serve` process behaves; built once by the CLI."""

    model_config = ConfigDict(frozen=True)

    settings: Settings
    root: Path  # the first root (the working directory unless --root): relative paths resolve here
    extra_roots: tuple[Path, ...] = ()  # the other --root folders
    elicit_timeout_s: float = DEFAULT_ELICIT_TIMEOUT_S  # a person's time to answer an approval
    wait_limit_s: float = DEFAULT_WAIT_LIMIT_S  # run_workflow(wait) returns a running run after this
    workers: int = DEFAULT_WORKERS  # threads for blocking work (catalog, compile, journal)


class Confined(BaseModel):
    """The real paths of a tool's path arguments, and the roots that admitted them."""

    model_config = ConfigDict(frozen=True)

    paths: dict[str, Path]
    roots: RootSet


class Workspace:
    """The per-server context every tool uses. Holds no run state (see `runs`)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.settings = config.settings
        self._limiter = anyio.CapacityLimiter(config.workers)

    async def blocking(self, fn: Callable[..., T], *args: Any) -> T:
        """Run synchronous `fn(*args)` in a worker thread."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)

    def server_roots(self) -> RootSet:
        return RootSet.of(self.config.root, self.config.extra_roots)

    async def roots(self, ctx: Context[Any, Any], paths: list[str]) -> RootSet | InputRequiredResult:
        """The roots that decide `paths`: the server's, narrowed by the client's when it
        declares some (asked for when not yet known). A path outside the server's roots is
        refused whatever the client declares, so the client is not asked then."""
        base = self.server_roots()
        if not paths or not all(base.contains(p) for p in paths) or not dialogue.can_list_roots(ctx):
            return base
        uris = dialogue.read_roots(ctx)
        if uris is None:
            if dialogue.is_modern(ctx):
                return dialogue.roots_question()
            uris = await dialogue.fetch_roots(ctx)
        return base.narrowed(uris)

    async def confine(self, ctx: Context[Any, Any], **paths: str | None) -> Confined | InputRequiredResult:
        """Resolve each named path inside the roots; PathRefusedError for one outside. A
        `spec` also brings along what lies beside it (`beside_spec`), held to the same roots."""
        given = {name: raw for name, raw in paths.items() if raw is not None}
        spec = given.get("spec")
        beside = await self.blocking(beside_spec, self.server_roots().resolve(spec)) if spec else []
        roots = await self.roots(ctx, [*given.values(), *(str(p) for p in beside)])
        if isinstance(roots, InputRequiredResult):
            return roots
        resolved: dict[str, Path] = {}
        for name, raw in given.items():
            try:
                resolved[name] = roots.confine(raw)
            except PathRefusedError as exc:
                exc.where = f"{name}={raw}"
                raise
        roots.confine_all(beside)
        return Confined(paths=resolved, roots=roots)
