"""The run's stdio MCP sessions in a second process, started as the command starts.

A run's critical path is one Python thread: the CLI's imports and plan, then the
SDK client's import (about 0.3 s, three quarters of it `mcp_types`' pydantic
models), which a thread cannot overlap. `skillweave run` and `resume` therefore
start `proxy_host` first thing (`process.spawn()`): it imports the SDK on the other core
while the command imports and plans, then opens the run's stdio sessions and
makes their calls; this process never imports the SDK for them.

`open_server` (transport) opens a stdio session there when the process exists and
is alive (`current()`); otherwise in-process, as before.
The session behaves as an in-process one: the same spawn, logs and redaction
(in `proxy_host`), the same pid for liveness and kills, the same errors (the pool
names them, `pool._call_failure`), progress notifications passed on, a call that
times out or is cancelled cancelled there too. A session's close is awaited for
`CLOSE_WAIT_S`, then the process is killed: no wait on it is unbounded. If the
process dies, its sessions' calls fail as connections lost (`mcp_connection_lost`,
transient; its servers die with it) and later sessions open in-process. SKILLWEAVE_MCP_PROCESS=0 turns it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import pickle
import subprocess
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator import profiling
from orchestrator.errors import McpError
from orchestrator.mcp_client.config import StdioServer
from orchestrator.mcp_client.proxy_host import HEADER, MAX_FRAME, frame
from orchestrator.mcp_client.schema import ToolInfo
from orchestrator.mcp_client.transport import OpenedSession, ServerStartError, SessionFiles

GONE = "the MCP client process exited"
CLOSE_WAIT_S = 8.0  # a session's close there (the SDK's shutdown takes about 4.5 s at most)


class ProxiedCallError(McpError):
    """A call that failed in the client process, as plain data (`pool._call_failure` names it)."""

    def __init__(self, kind: str, message: str, *, code: int = 0, data: Any = None) -> None:
        super().__init__(message)
        self.kind = kind  # mcp (a JSON-RPC error: code, data), gone, output, other
        self.rpc_code = code
        self.data = data


class ProxiedStartFailure(Exception):
    """A session that failed to open there for another reason than ServerStartError."""

    def __init__(self, description: str) -> None:
        super().__init__(description)
        self.description = description


class ProxiedBlock(BaseModel):
    """One content block of a result: its type, its text (text blocks), its JSON as the SDK dumps it."""

    model_config = ConfigDict(frozen=True)

    type: str | None = None
    text: str | None = None
    dump: dict[str, Any] = {}


class ProxiedResult(BaseModel):
    """A `CallToolResult`'s fields the runner reads (`runner.convert_result`)."""

    model_config = ConfigDict(frozen=True)

    structured_content: Any = None
    is_error: bool = False
    content: tuple[ProxiedBlock, ...] = ()


class ProxiedPage(BaseModel):
    """One page of `tools/list`, the tools converted there."""

    model_config = ConfigDict(frozen=True)

    tools: tuple[ToolInfo, ...] = ()
    next_cursor: str | None = None


class ProxiedClient:
    """`StdioClient`'s two calls, made by the client process."""

    def __init__(self, owner: ClientProcess, sid: int, server: str) -> None:
        self._owner = owner
        self._sid = sid
        self._server = server

    async def call_tool(self, name: str, arguments: dict[str, Any], *, progress_callback: Any = None) -> ProxiedResult:
        answer = await self._owner.request(
            {"op": "call", "sid": self._sid, "name": name, "arguments": arguments}, progress_callback
        )
        return ProxiedResult.model_validate(answer)

    async def list_tools(self, *, cursor: str | None = None, cache_mode: str = "use") -> ProxiedPage:
        answer = await self._owner.request({"op": "list", "sid": self._sid, "cursor": cursor, "server": self._server})
        return ProxiedPage.model_validate(answer)


class _Waiter:
    """An answer awaited by a task of some event loop (the reader thread hands it over there)."""

    def __init__(self, progress: Callable[..., Any] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        self.future: asyncio.Future[Any] = self.loop.create_future()
        self.progress = progress

    def deliver(self, settle: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits any more
            self.loop.call_soon_threadsafe(settle)

    def resolve(self, value: Any) -> None:
        def settle() -> None:
            if not self.future.done():
                self.future.set_result(value)

        self.deliver(settle)

    def fail(self, error: BaseException) -> None:
        def settle() -> None:
            if not self.future.done():
                self.future.set_exception(error)

        self.deliver(settle)


class ClientProcess:
    """The `proxy_host` child of this process and the sessions it holds for it.

    Its answers are read by a thread of ours and handed to the waiting task's event
    loop: a session or call may come from any loop (the planner's, the run's)."""

    def __init__(self, process: subprocess.Popen[bytes], spawned_at: float) -> None:
        self.process = process
        self.spawned_at = spawned_at
        self.dead = False
        self._lock = threading.Lock()
        self._reader: threading.Thread | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[tuple[str, int, int], _Waiter] = {}

    def serves(self) -> bool:
        return not self.dead and self.process.poll() is None

    def _wait(self, key: tuple[str, int, int], progress: Callable[..., Any] | None = None) -> _Waiter:
        waiter = _Waiter(progress)
        with self._lock:
            if self.dead:
                raise ProxiedCallError("gone", GONE)
            self._waiting[key] = waiter
            if self._reader is None:
                self._reader = threading.Thread(target=self._read, name="mcp-client-process", daemon=True)
                self._reader.start()
        return waiter

    def _forget(self, key: tuple[str, int, int]) -> None:
        with self._lock:
            self._waiting.pop(key, None)

    def _send(self, message: dict[str, Any]) -> None:
        pipe = self.process.stdin
        if self.dead or pipe is None:
            raise ProxiedCallError("gone", GONE)
        try:
            pipe.write(frame(message))
            pipe.flush()
        except (OSError, ValueError):
            raise ProxiedCallError("gone", GONE) from None

    def _read(self) -> None:
        pipe = self.process.stdout
        assert pipe is not None
        try:
            while True:
                header = pipe.read(HEADER.size)
                if len(header) < HEADER.size:
                    break
                size = HEADER.unpack(header)[0]
                body = pipe.read(size) if size <= MAX_FRAME else b""
                if len(body) < size or size > MAX_FRAME:
                    break
                message = pickle.loads(body)
                if isinstance(message, dict):
                    self._answer(message)
        except (OSError, ValueError, pickle.UnpicklingError, EOFError):
            pass
        finally:
            self._died()

    def _answer(self, message: dict[str, Any]) -> None:
        op, sid, call_id = message.get("op"), message.get("sid", 0), message.get("id", 0)
        if op == "ready":
            profiling.add("mcp: the client process imports the SDK (another process, from the start)",
                          self.spawned_at, message["at"])
            return
        key = ("closed", sid, 0) if op == "closed" else ("open", sid, 0) if op in ("opened", "open_failed") \
            else ("call", sid, call_id)
        with self._lock:
            waiter = self._waiting.get(key) if op == "progress" else self._waiting.pop(key, None)
        if waiter is None:
            return  # an answer nobody waits for (a cancelled call's late result)
        if op == "progress":
            callback = waiter.progress
            if callback is not None:
                waiter.deliver(lambda: _run_soon(callback, *message["progress"]))
        elif op == "opened":
            waiter.resolve(message.get("pid"))
        elif op == "open_failed":
            waiter.fail(_start_failure(message))
        elif op == "closed":
            waiter.resolve(None)
        elif op == "result":
            waiter.resolve(message["result"])
        elif op == "error":
            error = message["error"]
            waiter.fail(ProxiedCallError(error["kind"], error["message"], code=error.get("code", 0),
                                         data=error.get("data")))

    def _died(self) -> None:
        with self._lock:
            self.dead = True
            waiting, self._waiting = self._waiting, {}
        for (what, _sid, _id), waiter in waiting.items():
            if what == "closed":
                waiter.resolve(None)
            elif what == "open":
                waiter.fail(ProxiedStartFailure(f"{GONE} ({_status(self.process)})"))
            else:
                waiter.fail(ProxiedCallError("gone", GONE))

    async def request(self, order: dict[str, Any], progress: Callable[..., Any] | None = None) -> Any:
        """Send `order` (a call or a page of tools) and wait for its answer; cancelled, it is
        cancelled there too."""
        call_id = next(self._ids)
        key = ("call", order["sid"], call_id)
        waiter = self._wait(key, progress)
        try:
            self._send({**order, "id": call_id})
            return await waiter.future
        except asyncio.CancelledError:
            with contextlib.suppress(McpError):
                self._send({"op": "cancel", "sid": order["sid"], "id": call_id})
            raise
        finally:
            self._forget(key)

    @asynccontextmanager
    async def open(self, server: StdioServer, files: SessionFiles) -> AsyncIterator[OpenedSession]:
        """A stdio session held there: its pid, a client for calls; closed there on exit."""
        sid = next(self._ids)
        try:
            opening = self._wait(("open", sid, 0))
            closed = self._wait(("closed", sid, 0))
            self._send({"op": "open", "sid": sid, "server": server, "files": files})
        except McpError:
            raise ProxiedStartFailure(f"{GONE} ({_status(self.process)})") from None
        try:
            pid = await opening.future
            yield OpenedSession(client=ProxiedClient(self, sid, server.name), pid=pid)
        finally:
            self._forget(("open", sid, 0))
            with contextlib.suppress(McpError):
                self._send({"op": "close", "sid": sid})
            await self._closed(closed)

    async def _closed(self, closed: _Waiter) -> None:
        """Wait for a session's close there, bounded: a process that does not report it in
        time is killed (its servers die with it), and the end of its pipe resolves the wait."""
        done, _ = await asyncio.wait({closed.future}, timeout=CLOSE_WAIT_S)
        if not done:
            with contextlib.suppress(OSError):
                self.process.kill()
            await asyncio.wait({closed.future}, timeout=CLOSE_WAIT_S)

    def discard(self) -> None:
        """End the process now (nothing of it is needed any more; its sessions are closed)."""
        self.dead = True
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        if self._reader is not None:
            self._reader.join(timeout=5)  # it has met the end of the pipe
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError, ValueError):
                    pipe.close()


def _run_soon(callback: Callable[..., Any], *args: Any) -> None:
    """A progress callback, called in its loop (a coroutine one as a task of its own)."""
    outcome = callback(*args)
    if asyncio.iscoroutine(outcome):
        task = asyncio.get_running_loop().create_task(outcome)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())


def _start_failure(message: dict[str, Any]) -> BaseException:
    if message.get("start_error"):
        return ServerStartError(
            message["message"], where=message.get("where") or "", permanent=bool(message.get("permanent")),
            stderr_tail=message.get("stderr_tail", ""),
        )
    return ProxiedStartFailure(message["message"])


def _status(process: subprocess.Popen[bytes]) -> str:
    code = process.poll()
    if code is None:
        return "its pipe closed"
    return f"killed by signal {-code}" if code < 0 else f"status {code}"


def current() -> ClientProcess | None:
    """The client process, when it is alive (and nothing when the command started none)."""
    from orchestrator.mcp_client import process as started

    if started.state.client is None:
        if started.state.process is None:
            return None
        started.state.client = ClientProcess(started.state.process, started.state.spawned_at)
    client: ClientProcess = started.state.client
    return client if client.serves() else None


__all__ = ["HEADER", "ClientProcess", "ProxiedCallError", "ProxiedResult", "current"]
