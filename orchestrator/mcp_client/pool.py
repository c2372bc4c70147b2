"""One MCP session per server per run: started lazily, shared, restarted, killed.

A session lives in a host task of its own (the SDK's transports hold anyio task
groups that must be entered and left by the same task), so steps and fan-out
branches in any task share it. Per server:

- the first call starts the server (spawn, handshake, `tools/list`) under a lock,
  so 100 concurrent first calls start one process; `prestart()` makes that start
  early, in the background (a run starts its servers while its first steps go),
  and the first call then takes it over: the session, or its failure;
- at most `concurrency` calls are in flight (an asyncio.Semaphore);
- a session whose process is gone is restarted before the next call; a call whose
  connection drops is replayed once on a restarted server when the caller allows it
  (the tool is safe to repeat), otherwise it fails with `ServerGoneError`;
- a timed-out call is followed by a probe (`tools/list`): a server that does not
  answer it is hung, and its process group is killed (the next call restarts it);
- `aclose()` closes every session and reaps every server process.

How a server is spawned or connected to, and the errors of doing so, are in
`transport.py`.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from orchestrator import profiling
from orchestrator.errors import McpError
from orchestrator.mcp_client.config import HttpServer, McpConfig, StdioServer
from orchestrator.mcp_client.schema import ToolInfo, tool_info
from orchestrator.mcp_client.transport import (
    CallTimeoutError,
    OpenedSession,
    Opener,
    ProtocolError,
    ServerGoneError,
    ServerStartError,
    SessionFiles,
    ToolCall,
    ToolOutputError,
    kill_group,
    open_server,
    process_gone,
    read_tail,
)

STARTUP_TIMEOUT_S = 60.0  # spawn + handshake + tools/list
PROBE_TIMEOUT_S = 5.0  # a server silent this long after a timed-out call is hung
CLOSE_TIMEOUT_S = 10.0  # the SDK's own shutdown is bounded (about 4.5 s); this is a backstop
DEFAULT_CONCURRENCY = 4
MAX_TOOL_PAGES = 100


class _Session:
    """One live connection to one server, held open by a host task."""

    def __init__(
        self, server: StdioServer | HttpServer, opener: Opener, files: SessionFiles, generation: int
    ) -> None:
        self.server = server
        self.generation = generation
        self.files = files
        self.tools: dict[str, ToolInfo] = {}
        self.lost = False  # the connection dropped or the server was killed
        self._opener = opener
        self._opened: OpenedSession | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[None] | None = None
        self.probe_lock = asyncio.Lock()

    @property
    def pid(self) -> int | None:
        return self._opened.pid if self._opened is not None else None

    @property
    def client(self) -> Any:
        assert self._opened is not None, "session not started"
        return self._opened.client

    def alive(self) -> bool:
        if self.lost or self._task is None or self._task.done():
            return False
        pid = self.pid
        return pid is None or not process_gone(pid)

    async def start(self, timeout: float) -> None:
        with profiling.span(f"mcp {self.server.name}: start the server (spawn, initialize, tools/list)"):
            await self._start(timeout)

    async def _start(self, timeout: float) -> None:
        self._ready = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._host(), name=f"mcp:{self.server.name}")
        try:
            done, _ = await asyncio.wait({self._ready}, timeout=timeout)
        except BaseException:
            await self.close(kill=True)
            raise
        if not done:
            await self.close(kill=True)
            raise ServerStartError(
                f"MCP server {self.server.name!r} did not start within {timeout:g}s",
                where=self.server.where,
                stderr_tail=read_tail(self.files.stderr),
            )
        exc = self._ready.exception()
        if exc is not None:
            await self.close(kill=True)
            if isinstance(exc, ServerStartError):
                raise exc
            raise ServerStartError(
                f"MCP server {self.server.name!r} failed to start: {_describe(exc)}",
                where=self.server.where,
                stderr_tail=read_tail(self.files.stderr),
            ) from exc

    async def _host(self) -> None:
        """Open the session, list the tools, then hold it open until told to stop."""
        assert self._ready is not None
        try:
            async with self._opener(self.server, self.files) as opened:
                self._opened = opened
                self.tools = await _list_tools(self.server.name, opened.client)
                self._ready.set_result(None)
                await self._stop.wait()
        except asyncio.CancelledError:
            if not self._ready.done():
                self._ready.set_exception(
                    ServerStartError("start cancelled", where=self.server.where)
                )
            raise
        except (
            Exception
        ) as exc:  # the host task is an edge: a failure reaches start() or ends the session
            if not self._ready.done():
                self._ready.set_exception(exc)
        except BaseException as exc:  # KeyboardInterrupt, SystemExit: report, then let it go on
            if not self._ready.done():
                self._ready.set_exception(RuntimeError(repr(exc)))
            raise
        finally:
            self.lost = True

    def kill(self) -> None:
        """SIGKILL the server's process group now (a hung server); the session is lost.

        Before the handshake completes the pid is known only from the pid file.
        """
        self.lost = True
        pid = self.pid if self._opened is not None else self._spawned_pid()
        if pid is not None and not process_gone(pid):
            kill_group(pid)

    def _spawned_pid(self) -> int | None:
        """The pid the spawn wrapper wrote (this session's: the file is removed before a spawn)."""
        if self._task is None or self.server.transport != "stdio":
            return None
        try:
            return int(self.files.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None

    async def close(self, *, kill: bool = False) -> None:
        """Stop the host task, which shuts the transport down and reaps the process."""
        if kill:
            self.kill()
        self._stop.set()
        task = self._task
        if task is not None and not task.done():
            if self._ready is not None and not self._ready.done():
                task.cancel()  # still in the handshake: it would not see the stop event
            done, _ = await asyncio.wait({task}, timeout=CLOSE_TIMEOUT_S)
            if not done:
                self.kill()
                task.cancel()
                await asyncio.wait({task}, timeout=CLOSE_TIMEOUT_S)
        pid = self.pid
        if pid is not None:
            kill_group(
                pid
            )  # descendants that outlived their leader (the group id is theirs while they live)
        if self._ready is not None and self._ready.done() and not self._ready.cancelled():
            self._ready.exception()  # retrieved: a start failure nobody awaited is not an error here
        self.lost = True

    async def call(
        self, tool: str, arguments: dict[str, Any], timeout_s: float | None
    ) -> tuple[Any, int]:
        """One `tools/call`; the timeout restarts at each progress notification."""
        import anyio

        where = f"{self.server.name}/{tool}"
        progress = 0
        with anyio.CancelScope() as scope:
            if timeout_s is not None:
                scope.deadline = anyio.current_time() + timeout_s

            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                nonlocal progress
                progress += 1
                if timeout_s is not None:
                    scope.deadline = anyio.current_time() + timeout_s

            try:
                result = await self.client.call_tool(tool, arguments, progress_callback=on_progress)
            except Exception as exc:
                failure = _call_failure(exc, self.server.name, where)
                if failure is None:
                    raise
                if isinstance(failure, ServerGoneError):
                    self.lost = True
                raise failure from None
            return result, progress
        raise CallTimeoutError(
            f"no answer from {self.server.name!r} within {timeout_s:g}s",
            where=where,
            timeout_s=timeout_s or 0.0,
            progress=progress,
            killed=False,
        )

    async def probe(self, timeout_s: float) -> bool:
        """Whether the server still answers (`tools/list`, bypassing the cache)."""
        import anyio

        with anyio.move_on_after(timeout_s):
            try:
                await self.client.list_tools(cache_mode="bypass")
            except Exception:  # any failure to answer means the same as silence here
                return False
            return True
        return False


def _call_failure(exc: Exception, server: str, where: str) -> McpError | None:
    """The pool's error for a call that raised `exc` (the SDK's, or the client process's
    account of it: `proxy.ProxiedCallError`); None when it is none of those (a bug: it goes on)."""
    import anyio
    from pydantic import ValidationError

    from orchestrator.mcp_client.classify import CONNECTION_CLOSED
    from orchestrator.mcp_client.proxy import ProxiedCallError

    if isinstance(exc, ProxiedCallError):
        kind, message, code, data = exc.kind, exc.message, exc.rpc_code, exc.data
    elif (sdk := sys.modules.get("mcp.shared.exceptions")) is not None and isinstance(exc, sdk.MCPError):
        kind, message, code, data = "mcp", exc.message, exc.code, exc.data
    elif isinstance(exc, anyio.BrokenResourceError | anyio.ClosedResourceError | anyio.EndOfStream | OSError):
        kind, message, code, data = "gone", _describe(exc), 0, None
    elif isinstance(exc, ValidationError):
        kind, code, data = "output", 0, None
        message = f"result does not follow the MCP result shape: {exc.errors()[0]['msg']}"
    elif isinstance(exc, RuntimeError):  # the SDK's check of structuredContent against outputSchema
        kind, message, code, data = "output", str(exc), 0, None
    else:
        return None
    if kind == "gone" or (kind == "mcp" and code == CONNECTION_CLOSED):
        return ServerGoneError(f"connection to {server!r} lost: {message}", where=where)
    if kind == "mcp":
        return ProtocolError(message, where=where, rpc_code=code, data=data)
    if kind == "output":
        return ToolOutputError(message, where=where)
    return McpError(message, where=where)  # another failure there: the runner reports it


async def _list_tools(server: str, client: Any) -> dict[str, ToolInfo]:
    tools: dict[str, ToolInfo] = {}
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:  # converted already when the client process listed them
            tools[tool.name] = tool if isinstance(tool, ToolInfo) else tool_info(server, tool)
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools


def _retrieved(task: asyncio.Task[Any]) -> None:
    """A prestart nobody took over still had its outcome looked at (no asyncio warning)."""
    if not task.cancelled():
        task.exception()


def _describe(exc: BaseException) -> str:
    from orchestrator.mcp_client.proxy import ProxiedStartFailure

    if isinstance(exc, ProxiedStartFailure):
        return exc.description  # described there, as here
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e) for e in exc.exceptions)
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class ServerPool:
    """The run's MCP sessions, one per server name."""

    def __init__(
        self,
        config: McpConfig,
        *,
        log_dir: Path | None = None,
        concurrency: int = DEFAULT_CONCURRENCY,
        opener: Opener = open_server,
        startup_timeout_s: float = STARTUP_TIMEOUT_S,
        probe_timeout_s: float = PROBE_TIMEOUT_S,
    ) -> None:
        self.config = config
        self.concurrency = concurrency
        self.startup_timeout_s = startup_timeout_s
        self.probe_timeout_s = probe_timeout_s
        self.starts: dict[str, int] = {}  # processes (sessions) started per server
        self._opener = opener
        self._log_dir = log_dir
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._sessions: dict[str, _Session] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._limits: dict[str, asyncio.Semaphore] = {}
        self._prestarts: dict[str, asyncio.Task[tuple[_Session, int]]] = {}
        self._closed = False

    def pid(self, server: str) -> int | None:
        session = self._sessions.get(server)
        return session.pid if session is not None else None

    def stderr_log(self, server: str) -> Path:
        return self._files(server).stderr

    def _files(self, server: str) -> SessionFiles:
        if self._log_dir is None:
            if self._tmp is None:
                self._tmp = tempfile.TemporaryDirectory(prefix="skillweave-mcp-")
            self._log_dir = Path(self._tmp.name)
        self._log_dir.mkdir(parents=True, exist_ok=True)
        return SessionFiles(
            stderr=self._log_dir / f"{server}.stderr.log", pidfile=self._log_dir / f"{server}.pid"
        )

    def prestart(self, server: str) -> None:
        """Start `server` now, in the background: the first call that needs it waits for
        this start instead of making one, and meets its failure if it failed."""
        if self._closed or server in self._sessions or server in self._prestarts:
            return
        task = asyncio.get_running_loop().create_task(self._live(server), name=f"mcp-prestart:{server}")
        task.add_done_callback(_retrieved)
        self._prestarts[server] = task

    async def _session(self, name: str) -> tuple[_Session, int]:
        """The live session of `name`, started or restarted as needed; and restarts done."""
        if self._closed:
            raise McpError("the MCP pool is closed", where=name)
        pending = self._prestarts.pop(name, None)
        if pending is not None:  # the first caller takes over the early start, or its failure
            await asyncio.wait({pending})
            failure = None if pending.cancelled() else pending.exception()
            if failure is not None:
                raise failure
        return await self._live(name)

    async def _live(self, name: str) -> tuple[_Session, int]:
        session = self._sessions.get(name)
        if session is not None and session.alive():
            return session, 0
        lock = self._locks.setdefault(name, asyncio.Lock())
        async with lock:
            session = self._sessions.get(name)
            if session is not None and session.alive():
                return session, 0
            restarted = 0
            if session is not None:
                restarted = 1
                del self._sessions[name]
                await session.close(kill=True)
            server = self.config.server(name)
            generation = self.starts.get(name, 0) + 1
            fresh = _Session(server, self._opener, self._files(name), generation)
            self.starts[name] = generation
            await fresh.start(self.startup_timeout_s)
            self._sessions[name] = fresh
            return fresh, restarted

    async def tools(self, server: str) -> dict[str, ToolInfo]:
        """The server's tools as listed when its session started."""
        return (await self.ensure(server))[0]

    async def ensure(self, server: str) -> tuple[dict[str, ToolInfo], int]:
        """Start (or restart) the server if needed: its tools, and the restarts this took."""
        session, restarts = await self._session(server)
        return dict(session.tools), restarts

    async def call(
        self,
        server: str,
        tool: str,
        arguments: dict[str, Any],
        *,
        timeout_s: float | None = None,
        replay_if_lost: bool = True,
    ) -> ToolCall:
        """Call `tool` on `server`. Raises the errors above (ConfigError for an unknown server).

        With `replay_if_lost`, a call whose connection drops is sent once more to a
        restarted server (say so only for tools that are safe to repeat).
        """
        limit = self._limits.setdefault(server, asyncio.Semaphore(self.concurrency))
        started = time.perf_counter()
        async with limit:
            session, restarts = await self._session(server)
            try:
                result, progress = await session.call(tool, arguments, timeout_s)
            except ServerGoneError as exc:
                tail = read_tail(session.files.stderr)
                if not replay_if_lost:
                    raise ServerGoneError(
                        exc.message, where=exc.where or server, stderr_tail=tail
                    ) from None
                try:
                    session, again = await self._session(server)
                except ServerStartError as start:  # still a lost call: it was sent
                    raise ServerGoneError(
                        f"{exc.message}; restarting the server failed: {start.message}",
                        where=exc.where or server,
                        restarted=restarts,
                        stderr_tail=start.stderr_tail or tail,
                    ) from None
                restarts += again
                try:
                    result, progress = await session.call(tool, arguments, timeout_s)
                except ServerGoneError as second:
                    raise ServerGoneError(
                        f"{second.message} (also after a restart)",
                        where=second.where or server,
                        restarted=restarts,
                        stderr_tail=read_tail(session.files.stderr),
                    ) from None
            except CallTimeoutError as exc:
                killed = await self._check_hung(session)
                raise CallTimeoutError(
                    exc.message
                    + (
                        "; the server did not answer a probe either and was killed"
                        if killed
                        else ""
                    ),
                    where=exc.where or server,
                    timeout_s=exc.timeout_s,
                    progress=exc.progress,
                    killed=killed,
                ) from None
        profiling.add(f"mcp {server}/{tool}: call", started)
        return ToolCall(
            result=result,
            server=server,
            pid=session.pid,
            generation=session.generation,
            restarts=restarts,
            progress=progress,
            duration_s=time.perf_counter() - started,
        )

    async def _check_hung(self, session: _Session) -> bool:
        """After a timeout: kill the server if it does not answer a probe. True when killed."""
        async with session.probe_lock:
            if not session.alive():
                return False
            if await session.probe(self.probe_timeout_s):
                return False
            session.kill()
            return True

    async def aclose(self) -> None:
        """Close every session and reap every server process. Idempotent."""
        self._closed = True
        pending, self._prestarts = list(self._prestarts.values()), {}
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)
        sessions = list(self._sessions.values())
        self._sessions.clear()
        if sessions:
            with profiling.span(f"mcp: stop {len(sessions)} server(s)"):
                await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
