"""MCP failures as step failures: an ErrorClass (how to recover) and a kind (what happened).

    what happened                               kind                 class
    ----------------------------------------    -------------------  -------------
    no answer in time (progress resets it)      timeout              TIMEOUT       *
    connection lost / server died mid-call      mcp_connection_lost  TRANSIENT     *
    server failed to start or to handshake      mcp_start            TRANSIENT
    command missing, unknown server, bad env    setup                UNRECOVERABLE
    tool not listed by the server (-32601)      mcp_unknown_tool     UNRECOVERABLE
    arguments break the tool's inputSchema      mcp_invalid_params   INVALID_INPUT
      (checked before sending, or -32602)
    JSON-RPC internal error (-32603)            mcp_internal_error   TRANSIENT
    malformed request/response, version         mcp_protocol_error   UNRECOVERABLE
    result breaks the tool's outputSchema       mcp_bad_output       UNRECOVERABLE
    any other JSON-RPC error code               mcp_error            TRANSIENT
    an `isError` result                         mcp_tool_error       TRANSIENT     †

    * ambiguous: the request was sent, so the effect may have happened. For a
      tool declared destructive and not idempotent, the class becomes
      UNRECOVERABLE (no retry) unless the step's recovery rules explicitly retry
      timeouts or transient failures (the spec said so).
    † An `isError` result is the tool reporting a failure. It is not our code, so
      regeneration (CODE_ERROR) cannot fix it; like a Temporal activity's
      application error it is retryable by default, within the step's retry
      policy (none unless the spec asks). It is UNRECOVERABLE for a tool declared
      destructive and not idempotent (a partial effect may have happened), and
      follows the code table when the text is a relayed JSON-RPC error
      ("MCP error -32602: ...", as TypeScript servers send invalid arguments).

The server's text rides in `detail` (truncated), its first line in `message`.
"""

from __future__ import annotations

import re
from typing import Final

from orchestrator.errors import ConfigError, McpError
from orchestrator.mcp_client.transport import (
    CallTimeoutError,
    ProtocolError,
    ServerGoneError,
    ServerStartError,
    ToolOutputError,
)
from orchestrator.policy import ErrorClass
from orchestrator.runner import StepFailure

DETAIL_CHARS = 4000
MESSAGE_CHARS = 300

# JSON-RPC and MCP error codes (mcp_types' values; kept here so this module never imports mcp).
PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603
CONNECTION_CLOSED: Final = -32000
REQUEST_TIMEOUT: Final = -32001
HEADER_MISMATCH: Final = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY: Final = -32021
UNSUPPORTED_PROTOCOL_VERSION: Final = -32022
URL_ELICITATION_REQUIRED: Final = -32042

CODE_TABLE: Final[dict[int, tuple[ErrorClass, str]]] = {
    PARSE_ERROR: (ErrorClass.UNRECOVERABLE, "mcp_protocol_error"),
    INVALID_REQUEST: (ErrorClass.UNRECOVERABLE, "mcp_protocol_error"),
    METHOD_NOT_FOUND: (ErrorClass.UNRECOVERABLE, "mcp_unknown_tool"),
    INVALID_PARAMS: (ErrorClass.INVALID_INPUT, "mcp_invalid_params"),
    INTERNAL_ERROR: (ErrorClass.TRANSIENT, "mcp_internal_error"),
    CONNECTION_CLOSED: (ErrorClass.TRANSIENT, "mcp_connection_lost"),
    REQUEST_TIMEOUT: (ErrorClass.TIMEOUT, "timeout"),
    HEADER_MISMATCH: (ErrorClass.UNRECOVERABLE, "mcp_protocol_error"),
    MISSING_REQUIRED_CLIENT_CAPABILITY: (ErrorClass.UNRECOVERABLE, "mcp_protocol_error"),
    UNSUPPORTED_PROTOCOL_VERSION: (ErrorClass.UNRECOVERABLE, "mcp_protocol_error"),
    URL_ELICITATION_REQUIRED: (ErrorClass.UNRECOVERABLE, "mcp_protocol_error"),
}
AMBIGUOUS_KINDS: Final = frozenset({"timeout", "mcp_connection_lost"})

_RELAYED = re.compile(r"^\s*MCP error (-?\d+):\s*(.*)", re.DOTALL)
_UNKNOWN_TOOL = re.compile(r"\b(unknown tool|tool \S+ not found)\b", re.IGNORECASE)


def classify_code(code: int, message: str = "") -> tuple[ErrorClass, str]:
    """The class and kind of a JSON-RPC error code (an unknown tool hides behind -32602 too)."""
    if code == INVALID_PARAMS and _UNKNOWN_TOOL.search(message):
        return ErrorClass.UNRECOVERABLE, "mcp_unknown_tool"
    return CODE_TABLE.get(code, (ErrorClass.TRANSIENT, "mcp_error"))


def guard_ambiguous(failure: StepFailure, *, retry_safe: bool, retry_allowed: bool) -> StepFailure:
    """Mark sent-then-lost failures ambiguous; make them final for tools unsafe to repeat."""
    if failure.kind not in AMBIGUOUS_KINDS:
        return failure
    if retry_safe or retry_allowed:
        return failure.model_copy(update={"ambiguous": True})
    return failure.model_copy(
        update={
            "ambiguous": True,
            "error_class": ErrorClass.UNRECOVERABLE,
            "message": failure.message
            + " (not retried: the tool is declared destructive and not idempotent, and the call may have taken effect)",
        }
    )


def classify_tool_error(text: str, *, where: str, retry_safe: bool) -> StepFailure:
    """An `isError` result, carrying the server's text."""
    relayed = _RELAYED.match(text)
    if relayed is not None:
        error_class, kind = classify_code(int(relayed.group(1)), relayed.group(2))
        if kind not in AMBIGUOUS_KINDS and kind != "mcp_error":
            return _failure(error_class, kind, where, relayed.group(2), text)
    error_class = ErrorClass.TRANSIENT if retry_safe else ErrorClass.UNRECOVERABLE
    return _failure(
        error_class,
        "mcp_tool_error",
        where,
        text or "the tool reported an error without text",
        text,
    )


def classify_exception(
    exc: McpError | ConfigError, *, where: str, retry_safe: bool, retry_allowed: bool
) -> StepFailure:
    """A failure raised by the pool (or the config), classified."""
    if isinstance(exc, CallTimeoutError):
        note = f" ({exc.progress} progress notifications)" if exc.progress else ""
        failure = _failure(ErrorClass.TIMEOUT, "timeout", where, exc.message + note, "")
    elif isinstance(exc, ServerGoneError):
        failure = _failure(
            ErrorClass.TRANSIENT, "mcp_connection_lost", where, exc.message, exc.stderr_tail
        )
    elif isinstance(exc, ServerStartError):
        error_class = ErrorClass.UNRECOVERABLE if exc.permanent else ErrorClass.TRANSIENT
        kind = "setup" if exc.permanent else "mcp_start"
        failure = _failure(error_class, kind, where, exc.render(), exc.stderr_tail)
    elif isinstance(exc, ProtocolError):
        error_class, kind = classify_code(exc.rpc_code, exc.message)
        failure = _failure(
            error_class, kind, where, f"{exc.message} (JSON-RPC {exc.rpc_code})", _data(exc.data)
        )
    elif isinstance(exc, ToolOutputError):
        failure = _failure(ErrorClass.UNRECOVERABLE, "mcp_bad_output", where, exc.message, "")
    elif isinstance(exc, ConfigError):
        failure = _failure(ErrorClass.UNRECOVERABLE, "setup", where, exc.render(), "")
    else:
        failure = _failure(ErrorClass.TRANSIENT, "mcp_error", where, exc.render(), "")
    return guard_ambiguous(failure, retry_safe=retry_safe, retry_allowed=retry_allowed)


def _failure(
    error_class: ErrorClass, kind: str, where: str, message: str, detail: str
) -> StepFailure:
    first = next((line.strip() for line in message.splitlines() if line.strip()), message.strip())
    return StepFailure(
        error_class=error_class,
        kind=kind,
        message=f"{where}: {first[:MESSAGE_CHARS]}",
        detail=(detail or message)[:DETAIL_CHARS],
    )


def _data(data: object) -> str:
    return "" if data is None else str(data)
