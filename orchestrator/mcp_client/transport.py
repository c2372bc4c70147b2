"""How skillweave reaches one MCP server: spawn or connect, and the errors of doing so.

`open_server(server, files)` opens a client session over stdio (`stdio.open_stdio`,
held by the run's MCP client process when it has one: `proxy`) or streamable HTTP (`open_http`, with `mcp.Client`); `ServerPool` (pool.py)
decides when. stdio servers are spawned in their own session and process group
(bounded shutdown, see `stdio`) behind `/bin/sh -c 'echo $$ >PIDFILE; exec ...'`, which keeps the pid
(exec) and tells it to us, so we can kill the group ourselves; where `setpriv`
exists the server also gets SIGKILL when we die (`--pdeathsig`), so a server that
ignores the end of its stdin does not outlive a SIGKILLed run. Their stderr goes
to `<log_dir>/<server>.stderr.log`, never to ours, and so do the SDK's own log
records about the session (a line on stdout that is not JSON-RPC, a failed
shutdown): they are the server's trouble, not a traceback on our terminal.
Bytes on stdout that are not UTF-8 are replaced, so such a line is skipped like
any other unreadable line instead of stopping the transport.

A server whose entry took values from the environment (`${VAR}`, its `redactor`)
gets a pipe as stderr instead of the log file: a thread copies it into the log
with those values replaced by `${VAR}`, and so are the SDK's records and our own
error messages about it; a secret never reaches the log, the stderr tail or an
error (`orchestrator.security.redact`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from orchestrator.errors import McpError
from orchestrator.mcp_client.config import HttpServer, StdioServer
from orchestrator.security.redact import RedactingStream, Redactor

STDERR_TAIL_CHARS = 2000
PUMP_DRAIN_S = 2.0  # how long a closing session waits for a redacted stderr to be copied
CLIENT_NAME = "skillweave"

# `$0` is the pid file: echo our pid into it, then become the server (same pid).
PID_WRAPPER = 'echo $$ >"$0" && exec "$@"'
LOG_RECORD_CHARS = 1000
# The SDK's client-side loggers (a logger's filter sees only its own records, so each is named).
SDK_CLIENT_LOGGERS = (
    "mcp.client.stdio",
    "mcp.client.streamable_http",
    "mcp.client.client",
    "mcp.shared.jsonrpc_dispatcher",
    "mcp.os.posix.utilities",
    "client",
)
# The open stderr log of the server whose session the current task serves (set in
# the session's host task; the SDK's transport tasks inherit it).
_SERVER_LOG: ContextVar[_Log | None] = ContextVar("skillweave_mcp_server_log", default=None)


class _Log(Protocol):
    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


class RedactedLog:
    """A server's log as our own records write it: its secrets replaced."""

    def __init__(self, log: TextIO, redactor: Redactor) -> None:
        self._log = log
        self._redactor = redactor

    def write(self, text: str) -> int:
        return self._log.write(self._redactor.redact(text))

    def flush(self) -> None:
        self._log.flush()


class StderrPump:
    """A pipe for a server's stderr, copied into its log file, redacted, by a thread.

    The thread appends through a handle of its own, so the copy may outlast the
    session (a descendant still holding the pipe) without writing to a closed file."""

    def __init__(self, path: Path, redactor: Redactor) -> None:
        read_fd, write_fd = os.pipe()
        self.writer = os.fdopen(write_fd, "w", encoding="utf-8")  # the server's stderr
        self._thread = threading.Thread(
            target=self._copy, args=(read_fd, path, redactor), name="mcp-stderr", daemon=True
        )
        self._thread.start()

    @staticmethod
    def _copy(read_fd: int, path: Path, redactor: Redactor) -> None:
        with (
            contextlib.suppress(OSError, ValueError),
            os.fdopen(read_fd, "rb", buffering=0) as source,
            open(path, "a", encoding="utf-8") as log,
        ):
            stream = RedactingStream(redactor, log)
            while chunk := source.read(65536):
                stream.feed(chunk)
            stream.close()

    async def close(self) -> None:
        """Close our end; wait (bounded) until what the server wrote is in the log."""
        import anyio
        import anyio.to_thread

        self.writer.close()
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(self._thread.join, PUMP_DRAIN_S)


class ServerStartError(McpError):
    """The server could not be started or did not complete the handshake.

    `permanent` when retrying cannot help (the command does not exist).
    """

    def __init__(
        self, message: str, *, where: str, permanent: bool = False, stderr_tail: str = ""
    ) -> None:
        super().__init__(message, where=where)
        self.permanent = permanent
        self.stderr_tail = stderr_tail


class ServerGoneError(McpError):
    """The connection dropped (the server died or closed it) while a call was in flight."""

    def __init__(
        self, message: str, *, where: str, restarted: int = 0, stderr_tail: str = ""
    ) -> None:
        super().__init__(message, where=where)
        self.restarted = restarted
        self.stderr_tail = stderr_tail


class CallTimeoutError(McpError):
    """No answer within the timeout (reset by each progress notification); the call was sent."""

    def __init__(
        self, message: str, *, where: str, timeout_s: float, progress: int, killed: bool
    ) -> None:
        super().__init__(message, where=where)
        self.timeout_s = timeout_s
        self.progress = progress
        self.killed = killed  # the server did not answer a probe either and was killed


class ProtocolError(McpError):
    """The server answered the call with a JSON-RPC error."""

    def __init__(self, message: str, *, where: str, rpc_code: int, data: Any = None) -> None:
        super().__init__(message, where=where)
        self.rpc_code = rpc_code  # the JSON-RPC error code (`code` is the error's own, as every error's)
        self.data = data


class ToolOutputError(McpError):
    """The server's result broke its own declared output schema or the protocol's result shape."""


@dataclass(frozen=True)
class SessionFiles:
    stderr: Path
    pidfile: Path


@dataclass(frozen=True)
class OpenedSession:
    client: Any  # mcp.Client, entered
    pid: int | None = None  # the server's pid (= its process group) for stdio


Opener = Callable[
    [StdioServer | HttpServer, SessionFiles], AbstractAsyncContextManager[OpenedSession]
]


@dataclass(frozen=True)
class ToolCall:
    """A completed call: the raw `CallToolResult` and how it went."""

    result: Any  # mcp_types.CallToolResult
    server: str
    pid: int | None
    generation: int  # 1 for the first process of this server in the pool, 2 after one restart, ...
    restarts: int  # restarts this call caused or waited for
    progress: int  # progress notifications received
    duration_s: float


def process_gone(pid: int) -> bool:
    """Whether `pid` has exited (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return True
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] in (b"Z", b"X")


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by `pid` (stdio servers get their own)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def read_tail(path: Path, chars: int = STDERR_TAIL_CHARS) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - chars * 4))
            return f.read().decode("utf-8", "replace")[-chars:]
    except OSError:
        return ""


class _ToServerLog(logging.Filter):
    """Inside one of our sessions, an SDK log record goes to that server's log, one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        log = _SERVER_LOG.get()
        if log is None:
            return True  # not ours: the logging configuration decides
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]}"
        line = " ".join(text.split())[:LOG_RECORD_CHARS]
        with contextlib.suppress(OSError, ValueError):
            log.write(f"--- skillweave: mcp client {record.levelname.lower()}: {line}\n")
            log.flush()
        return False


_TO_SERVER_LOG = _ToServerLog()


@contextmanager
def server_log(log: _Log) -> Iterator[None]:
    """Within this block (and tasks started in it), the SDK's log records go to `log`."""
    for name in SDK_CLIENT_LOGGERS:
        logger = logging.getLogger(name)
        if _TO_SERVER_LOG not in logger.filters:
            logger.addFilter(_TO_SERVER_LOG)
    token = _SERVER_LOG.set(log)
    try:
        yield
    finally:
        _SERVER_LOG.reset(token)


@functools.cache
def pdeathsig_prefix() -> tuple[str, ...]:
    """`setpriv --pdeathsig KILL --` where this host's setpriv has the option (util-linux
    2.33 and later; checked once per process), else nothing: a server then outlives a
    SIGKILLed run if it ignores the end of its stdin."""
    setpriv = shutil.which("setpriv") if sys.platform == "linux" else None
    if setpriv is None:
        return ()
    prefix = (setpriv, "--pdeathsig", "KILL", "--")
    try:
        works = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        works = False
    return prefix if works else ()


def resolve_command(server: StdioServer) -> str | None:
    """The executable the server's command names, or None when there is none."""
    command = server.command
    if os.sep in command:
        path = Path(command)
        if not path.is_absolute() and server.cwd:
            path = Path(server.cwd) / path
        return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    search = server.env.get("PATH", os.environ.get("PATH", os.defpath))
    return shutil.which(command, path=search)


@asynccontextmanager
async def open_http(server: HttpServer, files: SessionFiles) -> AsyncIterator[OpenedSession]:
    """Connect to a streamable HTTP server with the configured headers."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import Implementation

    timeout = httpx2.Timeout(30.0, read=300.0)
    with (
        open(files.stderr, "a", encoding="utf-8") as log,
        server_log(RedactedLog(log, server.redactor)),
    ):
        async with httpx2.AsyncClient(headers=server.headers, timeout=timeout) as http:
            client = Client(
                streamable_http_client(server.url, http_client=http),
                client_info=Implementation(name=CLIENT_NAME, version="1"),
            )
            async with client:
                yield OpenedSession(client=client, pid=None)


def open_server(
    server: StdioServer | HttpServer, files: SessionFiles
) -> AbstractAsyncContextManager[OpenedSession]:
    """The default opener: stdio or streamable HTTP by the server's config."""
    if isinstance(server, StdioServer):
        from orchestrator.mcp_client.proxy import current

        client_process = current()  # the SDK imported in another process as the command started
        if client_process is not None:
            return client_process.open(server, files)
        from orchestrator.mcp_client.stdio import open_stdio

        return open_stdio(server, files)
    return open_http(server, files)
