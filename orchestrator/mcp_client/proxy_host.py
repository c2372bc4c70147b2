"""The MCP client process: `python -m orchestrator.mcp_client.proxy_host PARENT_PID`.

`skillweave run` and `resume` start it as they start (`proxy.ClientProcess.spawn`):
it imports the SDK's client half on the other core while the command imports
and plans, then holds the run's stdio sessions (`stdio.open_stdio`, unchanged:
the same spawn, transport, negotiation, logs and redaction) and makes their
calls for the run, which never imports the SDK.

Lifetime: it dies with its parent (PR_SET_PDEATHSIG, SIGKILL; and it exits when
its parent is already gone as it starts), and its servers die with it (theirs,
`transport.pdeathsig_prefix`). By default it is a child of a warm host instead
(`mcp_client.warm`, `forked`): then a pidfd on the run is its lease. It ends when its command pipe closes, after
stopping its sessions. It runs in a session of its own: the terminal's Ctrl-C
and Ctrl-Z go to the run, which stops its sessions as it did.

The protocol (both pipes, one frame = 4-byte big-endian length + pickle) is
`proxy`'s: orders `open`, `call`, `list`, `cancel`, `close` (each with the
session `sid`, calls with an `id`); answers `ready`, `opened`, `open_failed`,
`closed`, `progress`, `result`, `error`. What goes back to the parent is plain
data and `ToolInfo` only, so that reading it never imports the SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import struct
import sys
import time
from typing import Any

from orchestrator.mcp_client.config import StdioServer
from orchestrator.mcp_client.transport import SessionFiles

HEADER = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024  # an order bigger than this is a broken pipe, not an order
PR_SET_PDEATHSIG = 1
SIGKILL = 9


def frame(message: dict[str, Any]) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The next message, or None at the end of the pipe (or a frame that cannot be one)."""
    try:
        size = HEADER.unpack(await reader.readexactly(HEADER.size))[0]
        if size > MAX_FRAME:
            return None
        message = pickle.loads(await reader.readexactly(size))
    except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError, EOFError):
        return None
    return message if isinstance(message, dict) else None


def describe(exc: BaseException) -> str:
    """An exception as `Type: text` (groups joined), as the pool's messages show one."""
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(describe(e) for e in exc.exceptions)
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def call_error(exc: BaseException) -> dict[str, Any]:
    """A failed call as plain data: what the pool needs to name it (`pool._call_failure`)."""
    import anyio
    from mcp.shared.exceptions import MCPError
    from pydantic import ValidationError

    if isinstance(exc, MCPError):
        return {"kind": "mcp", "code": exc.code, "message": exc.message, "data": _plain(exc.data)}
    if isinstance(exc, anyio.BrokenResourceError | anyio.ClosedResourceError | anyio.EndOfStream | OSError):
        return {"kind": "gone", "message": describe(exc)}
    if isinstance(exc, ValidationError):
        return {"kind": "output", "message": f"result does not follow the MCP result shape: {exc.errors()[0]['msg']}"}
    if isinstance(exc, RuntimeError):  # the SDK's check of structuredContent against outputSchema
        return {"kind": "output", "message": str(exc)}
    return {"kind": "other", "message": describe(exc)}


def _plain(value: Any) -> Any:
    """`value` if it pickles to builtins only (JSON-RPC error data does), else its repr."""
    try:
        pickle.loads(pickle.dumps(value))
    except Exception:
        return repr(value)
    return value if isinstance(value, str | int | float | bool | list | dict | type(None)) else repr(value)


def result_data(result: Any) -> dict[str, Any]:
    """A `CallToolResult` as plain data (`proxy.ProxiedResult` reads it)."""
    blocks = [
        {
            "type": getattr(block, "type", None),
            "text": getattr(block, "text", None) if getattr(block, "type", None) == "text" else None,
            "dump": block.model_dump(mode="json", by_alias=True, exclude_none=True),
        }
        for block in result.content
    ]
    return {"structured_content": result.structured_content, "is_error": bool(result.is_error), "content": blocks}


class _Hosted:
    """One session this process holds for the parent."""

    def __init__(self) -> None:
        self.client: Any = None
        self.stop = asyncio.Event()
        self.task: asyncio.Task[None] | None = None


class Host:
    """The order loop: sessions by `sid`, calls by (`sid`, `id`)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._sessions: dict[int, _Hosted] = {}
        self._calls: dict[tuple[int, int], asyncio.Task[None]] = {}

    def send(self, message: dict[str, Any]) -> None:
        if not self._writer.is_closing():
            self._writer.write(frame(message))

    async def serve(self, reader: asyncio.StreamReader) -> None:
        while (message := await read_frame(reader)) is not None:
            self._order(message)
        await self._stop_all()

    def _order(self, message: dict[str, Any]) -> None:
        op, sid = message.get("op"), message.get("sid", 0)
        if op == "open":
            hosted = self._sessions[sid] = _Hosted()
            hosted.task = asyncio.create_task(self._host(sid, hosted, message["server"], message["files"]))
        elif op in ("call", "list"):
            key = (sid, message["id"])
            self._calls[key] = asyncio.create_task(self._call(key, message))
        elif op == "cancel":
            task = self._calls.pop((sid, message["id"]), None)
            if task is not None:
                task.cancel()
        elif op == "close":
            closing = self._sessions.get(sid)
            if closing is not None:
                closing.stop.set()
                if closing.client is None and closing.task is not None:
                    closing.task.cancel()  # still starting: it would not see the stop event

    async def _host(self, sid: int, hosted: _Hosted, server: StdioServer, files: SessionFiles) -> None:
        from orchestrator.mcp_client.stdio import open_stdio

        opened = False
        try:
            async with open_stdio(server, files) as session:
                hosted.client, opened = session.client, True
                self.send({"op": "opened", "sid": sid, "pid": session.pid})
                await hosted.stop.wait()
        except BaseException as exc:
            if not opened:
                self.send({"op": "open_failed", "sid": sid, **_start_failure(exc)})
            if not isinstance(exc, Exception):
                raise
        finally:
            hosted.client = None
            self._sessions.pop(sid, None)
            self.send({"op": "closed", "sid": sid})

    async def _call(self, key: tuple[int, int], message: dict[str, Any]) -> None:
        sid, call_id = key
        try:
            hosted = self._sessions.get(sid)
            if hosted is None or hosted.client is None:
                self.send({"op": "error", "sid": sid, "id": call_id,
                           "error": {"kind": "gone", "message": "the session is closed"}})
                return
            if message["op"] == "list":
                from orchestrator.mcp_client.schema import tool_info

                page = await hosted.client.list_tools(cursor=message.get("cursor"))
                server = message.get("server", "")
                self.send({"op": "result", "sid": sid, "id": call_id, "result": {
                    "tools": [tool_info(server, tool) for tool in page.tools], "next_cursor": page.next_cursor,
                }})
                return

            async def on_progress(value: float, total: float | None, text: str | None) -> None:
                self.send({"op": "progress", "sid": sid, "id": call_id, "progress": (value, total, text)})

            result = await hosted.client.call_tool(message["name"], message["arguments"], progress_callback=on_progress)
            self.send({"op": "result", "sid": sid, "id": call_id, "result": result_data(result)})
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.send({"op": "error", "sid": sid, "id": call_id, "error": call_error(exc)})
        finally:
            self._calls.pop(key, None)

    async def _stop_all(self) -> None:
        """The parent closed the pipe: stop every session (the SDK's bounded shutdown)."""
        for task in list(self._calls.values()):
            task.cancel()
        hosts = [h.task for h in self._sessions.values() if h.task is not None]
        for hosted in self._sessions.values():
            hosted.stop.set()
            if hosted.client is None and hosted.task is not None:
                hosted.task.cancel()
        if hosts:
            await asyncio.wait(hosts, timeout=10)


def _start_failure(exc: BaseException) -> dict[str, Any]:
    from orchestrator.mcp_client.transport import ServerStartError

    if isinstance(exc, ServerStartError):
        return {"start_error": True, "message": exc.message, "where": exc.where,
                "permanent": exc.permanent, "stderr_tail": exc.stderr_tail}
    return {"start_error": False, "message": describe(exc)}


def _die_with(parent: int) -> None:
    """SIGKILL when the parent dies; exit now if it is gone already."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def _private_pipes() -> tuple[int, int]:
    """The order pipes on fds of their own; stdin and stdout are /dev/null from here on
    (a print or a child process never writes into the protocol)."""
    orders, answers = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    return orders, answers


async def _main(orders: int, answers: int, imported_at: float, lease: int | None = None) -> None:
    loop = asyncio.get_running_loop()
    if lease is not None:  # the run's pidfd: readable once the run has ended, however it ended
        loop.add_reader(lease, os._exit, 0)
    reader = asyncio.StreamReader(limit=MAX_FRAME)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(orders, "rb", 0))
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(answers, "wb", 0)
    )
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    host = Host(writer)
    host.send({"op": "ready", "at": imported_at})
    await host.serve(reader)
    with contextlib.suppress(OSError):
        writer.close()


def main(argv: list[str]) -> None:
    _die_with(int(argv[0]))
    orders, answers = _private_pipes()
    from orchestrator.mcp_client.stdio import _import_sdk
    from orchestrator.preload import preload

    _import_sdk()  # the reason this process exists: the parent is busy meanwhile
    imported_at = time.perf_counter()
    preload("jsonschema.validators", "jsonschema.exceptions")  # the SDK checks tool results with it
    from orchestrator.mcp_client.transport import pdeathsig_prefix

    pdeathsig_prefix()  # its one check of setpriv, before a server waits for it
    import gc

    gc.freeze()  # what the import made is out of the GC's walks and of the exit's
    asyncio.run(_main(orders, answers, imported_at))


def forked(argv: list[str]) -> None:
    """`main` in a child of the warm client host (`orchestrator.mcp_client.warm`), which
    imported the SDK: its parent is the host, not the run, so its lease on the run is a
    pidfd (it exits as soon as the run has ended, and its servers with it)."""
    try:
        lease = os.pidfd_open(int(argv[0]))
    except (OSError, AttributeError):
        os._exit(0)  # the run is gone already (or no pidfd here: the launcher went cold)
    orders, answers = _private_pipes()
    asyncio.run(_main(orders, answers, time.perf_counter(), lease))


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: python -m orchestrator.mcp_client.proxy_host PARENT_PID (started by skillweave)")
    main(sys.argv[1:])
