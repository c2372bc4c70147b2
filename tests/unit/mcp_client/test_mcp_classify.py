"""MCP failures → ErrorClass + kind, and the ambiguity guard for tools unsafe to repeat."""

from __future__ import annotations

import pytest

from orchestrator.errors import ConfigError
from orchestrator.mcp_client.classify import (
    CODE_TABLE,
    classify_code,
    classify_exception,
    classify_tool_error,
    guard_ambiguous,
)
from orchestrator.mcp_client.schema import ToolAnnotationsInfo
from orchestrator.mcp_client.transport import (
    CallTimeoutError,
    ProtocolError,
    ServerGoneError,
    ServerStartError,
    ToolOutputError,
)
from orchestrator.policy import ErrorClass
from orchestrator.runner import StepFailure

W = "srv/tool"


@pytest.mark.parametrize(
    ("code", "message", "expected"),
    [
        (
            -32602,
            "Invalid arguments for tool add",
            (ErrorClass.INVALID_INPUT, "mcp_invalid_params"),
        ),
        (-32602, "Unknown tool: nope", (ErrorClass.UNRECOVERABLE, "mcp_unknown_tool")),
        (-32602, "Tool nope not found", (ErrorClass.UNRECOVERABLE, "mcp_unknown_tool")),
        (-32601, "Method not found", (ErrorClass.UNRECOVERABLE, "mcp_unknown_tool")),
        (-32603, "boom", (ErrorClass.TRANSIENT, "mcp_internal_error")),
        (-32700, "parse", (ErrorClass.UNRECOVERABLE, "mcp_protocol_error")),
        (-32600, "bad request", (ErrorClass.UNRECOVERABLE, "mcp_protocol_error")),
        (-32000, "Connection closed", (ErrorClass.TRANSIENT, "mcp_connection_lost")),
        (-32001, "timed out", (ErrorClass.TIMEOUT, "timeout")),
        (-32010, "server-defined", (ErrorClass.TRANSIENT, "mcp_error")),
    ],
)
def test_json_rpc_codes_map_to_a_class_and_kind(
    code: int, message: str, expected: tuple[ErrorClass, str]
) -> None:
    assert classify_code(code, message) == expected


def test_the_code_table_uses_the_sdk_values() -> None:
    import mcp_types

    for name in (
        "INVALID_PARAMS",
        "METHOD_NOT_FOUND",
        "INTERNAL_ERROR",
        "CONNECTION_CLOSED",
        "REQUEST_TIMEOUT",
    ):
        assert getattr(mcp_types, name) in CODE_TABLE


def test_a_timeout_is_ambiguous_and_retryable_for_a_safe_tool() -> None:
    exc = CallTimeoutError("no answer within 1s", where=W, timeout_s=1, progress=2, killed=False)
    failure = classify_exception(exc, where=W, retry_safe=True, retry_allowed=False)
    assert (failure.error_class, failure.kind, failure.ambiguous) == (
        ErrorClass.TIMEOUT,
        "timeout",
        True,
    )
    assert failure.message.startswith(f"{W}: no answer within 1s")
    assert "2 progress notifications" in failure.message


def test_a_sent_call_to_a_destructive_non_idempotent_tool_is_not_retried() -> None:
    exc = ServerGoneError("connection lost", where=W)
    failure = classify_exception(exc, where=W, retry_safe=False, retry_allowed=False)
    assert failure.error_class is ErrorClass.UNRECOVERABLE
    assert failure.ambiguous
    assert failure.kind == "mcp_connection_lost"
    assert "not retried" in failure.message


def test_the_spec_can_allow_retrying_an_ambiguous_call() -> None:
    exc = CallTimeoutError("no answer", where=W, timeout_s=1, progress=0, killed=False)
    failure = classify_exception(exc, where=W, retry_safe=False, retry_allowed=True)
    assert failure.error_class is ErrorClass.TIMEOUT
    assert failure.ambiguous


def test_only_sent_then_lost_failures_are_guarded() -> None:
    failure = StepFailure(
        error_class=ErrorClass.INVALID_INPUT, message="m", kind="mcp_invalid_params"
    )
    assert guard_ambiguous(failure, retry_safe=False, retry_allowed=False) == failure


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (
            ServerStartError("no such command", where=W, permanent=True),
            (ErrorClass.UNRECOVERABLE, "setup"),
        ),
        (ServerStartError("handshake failed", where=W), (ErrorClass.TRANSIENT, "mcp_start")),
        (
            ProtocolError("Invalid params", where=W, rpc_code=-32602),
            (ErrorClass.INVALID_INPUT, "mcp_invalid_params"),
        ),
        (ProtocolError("oops", where=W, rpc_code=-32603), (ErrorClass.TRANSIENT, "mcp_internal_error")),
        (
            ToolOutputError("no structured content", where=W),
            (ErrorClass.UNRECOVERABLE, "mcp_bad_output"),
        ),
        (
            ConfigError("mcpServers.x: unknown", where="mcp.json"),
            (ErrorClass.UNRECOVERABLE, "setup"),
        ),
    ],
)
def test_pool_errors_are_classified(exc: Exception, expected: tuple[ErrorClass, str]) -> None:
    assert isinstance(exc, ServerStartError | ProtocolError | ToolOutputError | ConfigError)
    failure = classify_exception(exc, where=W, retry_safe=True, retry_allowed=False)
    assert (failure.error_class, failure.kind) == expected
    assert not failure.ambiguous


def test_a_start_failure_carries_the_servers_stderr() -> None:
    exc = ServerStartError("exited", where=W, stderr_tail="Traceback: ImportError: no module x")
    assert (
        "ImportError"
        in classify_exception(exc, where=W, retry_safe=True, retry_allowed=False).detail
    )


def test_a_tool_error_carries_the_servers_text_and_is_retryable_when_safe() -> None:
    failure = classify_tool_error("Invalid timezone: 'Mars'\nmore lines", where=W, retry_safe=True)
    assert (failure.error_class, failure.kind) == (ErrorClass.TRANSIENT, "mcp_tool_error")
    assert failure.message == f"{W}: Invalid timezone: 'Mars'"
    assert failure.detail == "Invalid timezone: 'Mars'\nmore lines"


def test_a_tool_error_of_a_destructive_tool_escalates() -> None:
    failure = classify_tool_error("partial write", where=W, retry_safe=False)
    assert failure.error_class is ErrorClass.UNRECOVERABLE


def test_a_relayed_json_rpc_error_in_a_tool_result_follows_the_code() -> None:
    text = "MCP error -32602: Input validation error: expected number, received string at a"
    failure = classify_tool_error(text, where=W, retry_safe=True)
    assert (failure.error_class, failure.kind) == (ErrorClass.INVALID_INPUT, "mcp_invalid_params")
    assert failure.message.startswith(f"{W}: Input validation error")
    unknown = classify_tool_error("MCP error -32602: Tool nope not found", where=W, retry_safe=True)
    assert unknown.kind == "mcp_unknown_tool"


@pytest.mark.parametrize(
    ("annotations", "safe"),
    [
        (ToolAnnotationsInfo(), True),
        (ToolAnnotationsInfo(read_only=True), True),
        (ToolAnnotationsInfo(destructive=True, idempotent=True), True),
        (ToolAnnotationsInfo(destructive=False), True),
        (ToolAnnotationsInfo(destructive=True), False),
        (ToolAnnotationsInfo(destructive=True, idempotent=False), False),
    ],
)
def test_only_a_declared_destructive_non_idempotent_tool_is_unsafe_to_repeat(
    annotations: ToolAnnotationsInfo, safe: bool
) -> None:
    assert annotations.retry_safe is safe
