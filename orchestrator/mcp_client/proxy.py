"""The run's stdio MCP sessions in a second process, started as the command starts.

A run's critical path is one Python thread: the CLI's imports and plan, then the
SDK client's import (about 0.3 s, three quarters of it `mcp_types`' pydantic
models), which a thread cannot overlap. `skillweave run` and `resume` therefore
start `proxy_host` first thing (`process.spawn()`): it imports the SDK on the other core
while the command imports and plans, then opens the run's stdio sessions and
makes their calls; this process never imports the SDK for them.

`open_server` (transport) opens a stdio session here when the process exists, is
alive and serves this event loop (`current()`); otherwise in-process, as before.
The session behaves as an in-process one: the same spawn, logs and redaction
(in `proxy_host`), the same pid for liveness and kills, the same errors (the pool
names them, `pool._call_failure`), progress notifications passed on, a call that
times out or is cancelled cancelled there too. If the process dies, its sessions'
calls fail as connections lost (`mcp_connection_lost`, transient; its servers die
with it) and later sessions open in-process. SKILLWEAVE_MCP_PROCESS=0 turns it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator import profiling
from orchestrator.errors import McpError
from orchestrator.mcp_client.config import StdioServer
from orchestrator.mcp_client.proxy_host import HEADER, frame, read_frame
from orchestrator.mcp_client.schema import ToolInfo
from orchestrator.mcp_client.transport import OpenedSession, ServerStartError, SessionFiles

GONE = "the MCP client process exited"


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


class ClientProcess:
    """The `proxy_host` child of this process and the sessions it holds for it."""

    def __init__(self, process: subprocess.Popen[bytes], spawned_at: float) -> None:
        self.process = process
        self.spawned_at = spawned_at
        self.dead = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._ids = itertools.count(1)
        self._pending: dict[tuple[int, int], asyncio.Future[Any]] = {}
        self._progress: dict[tuple[int, int], Callable[..., Any]] = {}
        self._opening: dict[int, asyncio.Future[int | None]] = {}
        self._closed: dict[int, asyncio.Event] = {}

    def serves(self, loop: asyncio.AbstractEventLoop) -> bool:
        return not self.dead and self.process.poll() is None and self._loop in (None, loop)

    async def _attach(self) -> asyncio.StreamWriter:
        if self._writer is not None:
            return self._writer
        loop = asyncio.get_running_loop()
        self._loop = loop
        assert self.process.stdin is not None and self.process.stdout is not None
        reader = asyncio.StreamReader(limit=2**26)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), self.process.stdout)
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, self.process.stdin)
        self._writer = asyncio.StreamWriter(transport, protocol, None, loop)
        self._reader_task = loop.create_task(self._read(reader), name="mcp-client-process")
        return self._writer

    def _send(self, message: dict[str, Any]) -> None:
        if self.dead or self._writer is None or self._writer.is_closing():
            raise ProxiedCallError("gone", GONE)
        self._writer.write(frame(message))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        try:
            while (message := await read_frame(reader)) is not None:
                self._answer(message)
        finally:
            self._died()

    def _answer(self, message: dict[str, Any]) -> None:
        op, sid = message.get("op"), message.get("sid", 0)
        key = (sid, message.get("id", 0))
        if op == "ready":
            profiling.add("mcp: the client process imports the SDK (another process, from the start)",
                          self.spawned_at, message["at"])
        elif op == "opened":
            opening = self._opening.pop(sid, None)
            if opening is not None and not opening.done():
                opening.set_result(message.get("pid"))
        elif op == "open_failed":
            opening = self._opening.pop(sid, None)
            if opening is not None and not opening.done():
                opening.set_exception(_start_failure(message))
        elif op == "closed":
            self._closed.pop(sid, asyncio.Event()).set()
        elif op == "progress":
            callback = self._progress.get(key)
            if callback is not None:
                self._loop_task(callback(*message["progress"]))
        elif op in ("result", "error"):
            future = self._pending.pop(key, None)
            if future is not None and not future.done():
                if op == "result":
                    future.set_result(message["result"])
                else:
                    error = message["error"]
                    future.set_exception(ProxiedCallError(
                        error["kind"], error["message"], code=error.get("code", 0), data=error.get("data")
                    ))

    def _loop_task(self, awaitable: Any) -> None:
        if asyncio.iscoroutine(awaitable):
            task = asyncio.get_running_loop().create_task(awaitable)
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    def _died(self) -> None:
        self.dead = True
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ProxiedCallError("gone", GONE))
        for opening in self._opening.values():
            if not opening.done():
                opening.set_exception(ProxiedStartFailure(f"{GONE} ({_status(self.process)})"))
        for closed in self._closed.values():
            closed.set()
        self._pending.clear()
        self._opening.clear()
        self._closed.clear()

    async def request(self, order: dict[str, Any], progress: Callable[..., Any] | None = None) -> Any:
        """Send `order` (a call or a page of tools) and wait for its answer; cancelled, it is
        cancelled there too."""
        await self._attach()
        call_id = next(self._ids)
        key = (order["sid"], call_id)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        if progress is not None:
            self._progress[key] = progress
        try:
            self._send({**order, "id": call_id})
            return await future
        except asyncio.CancelledError:
            with contextlib.suppress(McpError):
                self._send({"op": "cancel", "sid": order["sid"], "id": call_id})
            raise
        finally:
            self._pending.pop(key, None)
            self._progress.pop(key, None)

    @asynccontextmanager
    async def open(self, server: StdioServer, files: SessionFiles) -> AsyncIterator[OpenedSession]:
        """A stdio session held there: its pid, a client for calls; closed there on exit."""
        await self._attach()
        sid = next(self._ids)
        opening: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        closed = asyncio.Event()
        self._opening[sid], self._closed[sid] = opening, closed
        try:
            try:
                self._send({"op": "open", "sid": sid, "server": server, "files": files})
            except McpError:
                raise ProxiedStartFailure(f"{GONE} ({_status(self.process)})") from None
            pid = await opening
            yield OpenedSession(client=ProxiedClient(self, sid, server.name), pid=pid)
        finally:
            self._opening.pop(sid, None)
            with contextlib.suppress(McpError):
                self._send({"op": "close", "sid": sid})
            if not self.dead:
                await closed.wait()  # the SDK's shutdown there is bounded; the pool bounds this too
            self._closed.pop(sid, None)

    def discard(self) -> None:
        """End the process now (nothing of it is needed any more; its sessions are closed)."""
        self.dead = True
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None and self._writer is None:
                with contextlib.suppress(OSError):
                    pipe.close()


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
    """The client process, when it can hold a session for the running event loop."""
    from orchestrator.mcp_client import process as started

    if started.state.client is None:
        if started.state.process is None:
            return None
        started.state.client = ClientProcess(started.state.process, started.state.spawned_at)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    client: ClientProcess = started.state.client
    return client if client.serves(loop) else None


__all__ = ["HEADER", "ClientProcess", "ProxiedCallError", "ProxiedResult", "current"]
