"""A stdio MCP session: the server is spawned first, then the SDK is imported while it starts.

`open_stdio(server, files)` checks the command and working directory, spawns the
server (own session and process group, the pid wrapper and `setpriv` of
`transport`, the SDK's default environment plus the entry's `env`, stderr to the
server's log), and only then imports the client half of the SDK (`sdk`, in a
thread): a server that takes a second to start does so while we import ours,
on the other core. The transport over that process is the SDK's stdio
transport, the same steps on a process already running: a line on the server's
stdout is one message (a line that is not JSON-RPC reaches the session as an
error and is skipped; bytes that are not UTF-8 are replaced), a message is one
line on its stdin, and the end is the SDK's own shutdown (close stdin, wait,
then the process group). The session is the SDK's `ClientSession`, negotiated
as `mcp.Client(mode="auto")` does, behind `StdioClient`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from orchestrator import profiling
from orchestrator.mcp_client.config import StdioServer
from orchestrator.mcp_client.sdk import import_lean
from orchestrator.mcp_client.transport import (
    CLIENT_NAME,
    PID_WRAPPER,
    OpenedSession,
    RedactedLog,
    ServerStartError,
    SessionFiles,
    StderrPump,
    kill_group,
    pdeathsig_prefix,
    resolve_command,
    server_log,
)
from orchestrator.preload import gc_paused, preload

# What the SDK's stdio transport lets a server inherit from our environment on POSIX
# (`mcp.client.stdio.get_default_environment`; a test holds the two together).
INHERITED_ENV = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
_SDK_PARTS = ("mcp.client.session", "mcp.client.stdio", "mcp.client._probe")


def _import_sdk() -> list[Any]:
    """The SDK's client half (its protocol models are most of it), without GC walks meanwhile."""
    with gc_paused():
        return import_lean(*_SDK_PARTS)


def default_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables a stdio server inherits before its own `env` (shell functions left out)."""
    environ = os.environ if environ is None else environ
    return {k: environ[k] for k in INHERITED_ENV if k in environ and not environ[k].startswith("()")}


@asynccontextmanager
async def open_stdio(server: StdioServer, files: SessionFiles) -> AsyncIterator[OpenedSession]:
    """Spawn the server, import the SDK while it starts, hand back the session, negotiated."""
    import anyio

    hide = server.redactor.redact
    if resolve_command(server) is None:
        raise ServerStartError(
            f"mcpServers.{server.name}.command: {hide(repr(server.command))} is not an executable file or on PATH",
            where=server.where,
            permanent=True,
        )
    if server.cwd is not None and not Path(server.cwd).is_dir():
        raise ServerStartError(
            f"mcpServers.{server.name}.cwd: no such directory: {hide(server.cwd)}",
            where=server.where,
            permanent=True,
        )
    command, args = server.command, list(server.args)
    wrapped = os.name == "posix" and os.path.exists("/bin/sh")
    if wrapped:
        files.pidfile.unlink(missing_ok=True)
        command, args = "/bin/sh", ["-c", PID_WRAPPER, str(files.pidfile), server.command, *args]
        death = pdeathsig_prefix()
        if death:  # SIGKILL when we die, even if the server ignores its stdin
            command, args = death[0], [*death[1:], command, *args]
    with open(files.stderr, "a", encoding="utf-8") as errlog, server_log(RedactedLog(errlog, server.redactor)):
        errlog.write(
            f"--- skillweave: starting {server.name} at {time.strftime('%Y-%m-%dT%H:%M:%S')} ---\n"
        )
        errlog.flush()
        pump = None if server.redactor.empty else StderrPump(files.stderr, server.redactor)
        try:
            process = await anyio.open_process(
                [command, *args],
                env=default_environment() | dict(server.env),
                stderr=errlog if pump is None else pump.writer,
                cwd=server.cwd,
                start_new_session=True,
            )
            try:
                with profiling.span("mcp: import the SDK's client (stdio)"):
                    # in a thread: the run's other steps go on meanwhile (a server started early)
                    session_module, stdio, probe = await asyncio.to_thread(_import_sdk)
                    from mcp_types import Implementation
            except BaseException:
                kill_group(process.pid)
                with anyio.CancelScope(shield=True):
                    await process.aclose()
                raise
            async with _streams(process, stdio) as streams:
                # while the server starts: the SDK checks tool results with jsonschema
                preload("jsonschema.validators", "jsonschema.exceptions")
                session = session_module.ClientSession(
                    *streams, client_info=Implementation(name=CLIENT_NAME, version="1")
                )
                async with session:
                    await probe.negotiate_auto(session)  # as mcp.Client(mode="auto") connects
                    pid: int | None = None
                    if wrapped:
                        with contextlib.suppress(OSError, ValueError):
                            pid = int(files.pidfile.read_text().strip())
                    yield OpenedSession(client=StdioClient(session), pid=pid)
        finally:
            if pump is not None:
                await pump.close()


@asynccontextmanager
async def _streams(process: Any, stdio: Any) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's stdio transport (`mcp.client.stdio`) over `process`, spawned already:
    its line parsing, stdout drain and shutdown, our two pipe tasks."""
    import anyio
    import anyio.lowlevel
    from anyio.streams.text import TextReceiveStream

    incoming, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, outgoing = anyio.create_memory_object_stream[Any](0)
    stopping = False
    written = anyio.Event()

    async def read_stdout() -> None:
        lines = TextReceiveStream(process.stdout, encoding="utf-8", errors="replace")
        try:
            async with incoming:
                try:
                    buffer = ""
                    async for chunk in lines:  # one line at a time: no read-ahead while a delivery waits
                        *complete, buffer = (buffer + chunk).split("\n")
                        for line in complete:
                            try:
                                await incoming.send(stdio._parse_line(line))
                            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                                return
                finally:
                    await stdio._drain_stdout(process)
        except anyio.ClosedResourceError:
            pass  # our shutdown closed stdout under the read
        except (anyio.BrokenResourceError, ConnectionError):
            if not stopping:
                stdio.logger.exception("Reading from the MCP server's stdout failed mid-session")

    async def write_stdin() -> None:
        try:
            async with outgoing:
                async for message in outgoing:
                    line = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await process.stdin.send(line.encode("utf-8", "replace"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await incoming.aclose()  # the session sees the connection end, not a request hanging
        finally:
            written.set()

    async def shut_down() -> None:
        read_stream.close()
        write_stream.close()
        with anyio.move_on_after(stdio._WRITER_FLUSH_TIMEOUT):
            await written.wait()
        await stdio._stop_server_process(process)
        await stdio._aclose_all(read_stream, write_stream, incoming, outgoing)
        await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(read_stdout)
        tasks.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            stopping = True
            with anyio.CancelScope(shield=True):  # bounded inside: no server outlives its session
                await shut_down()
            tasks.cancel_scope.cancel()


class StdioClient:
    """The two calls the pool makes, on the SDK's `ClientSession`, made as `mcp.Client`
    makes them (which a stdio session does without: importing it imports the server side
    and the HTTP stacks too, see `sdk`): a tool call whose server asks for input first goes
    through the SDK's input-required rounds, answered by the session's callbacks."""

    def __init__(self, session: Any) -> None:
        self.session = session

    async def call_tool(self, name: str, arguments: dict[str, Any], *, progress_callback: Any = None) -> Any:
        from mcp.client._input_required import run_input_required_driver
        from mcp.client.session import ClientRequestContext
        from mcp_types import InputRequiredResult

        session = self.session

        async def send(responses: Any, state: str | None) -> Any:
            return await session.call_tool(
                name, arguments, progress_callback=progress_callback, input_responses=responses,
                request_state=state, allow_input_required=True,
            )

        async def dispatch(key: str, request: Any) -> Any:
            meta = request.params.meta if request.params else None
            return await session.dispatch_input_request(
                ClientRequestContext(session=session, request_id=key, meta=meta), request
            )

        first = await send(None, None)
        if not isinstance(first, InputRequiredResult):
            return first
        return await run_input_required_driver(first, dispatch=dispatch, retry=send)

    async def list_tools(self, *, cursor: str | None = None, cache_mode: str = "use") -> Any:
        """One page of `tools/list` (nothing is cached here: `cache_mode` is for mcp.Client's callers)."""
        from mcp_types import PaginatedRequestParams

        return await self.session.list_tools(params=PaginatedRequestParams(cursor=cursor))
