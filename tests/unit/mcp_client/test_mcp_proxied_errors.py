"""A call that failed in the MCP client process gets the error it gets in-process (`pool._call_failure`)."""

from __future__ import annotations

import pytest

from orchestrator.errors import McpError
from orchestrator.mcp_client.pool import _call_failure
from orchestrator.mcp_client.proxy import ProxiedCallError
from orchestrator.mcp_client.transport import ProtocolError, ServerGoneError, ToolOutputError


def test_a_lost_connection_there_is_a_lost_connection_here() -> None:
    for error in (ProxiedCallError("gone", "the MCP client process exited"),
                  ProxiedCallError("mcp", "Connection closed", code=-32000)):
        failure = _call_failure(error, "docs", "docs/get_docs")
        assert isinstance(failure, ServerGoneError)
        assert failure.message == f"connection to 'docs' lost: {error.message}"
        assert failure.where == "docs/get_docs"


def test_a_json_rpc_error_keeps_its_code_and_data_and_a_bad_result_is_an_output_error() -> None:
    failure = _call_failure(ProxiedCallError("mcp", "bad n", code=-32602, data={"n": 1}), "t", "t/x")
    assert isinstance(failure, ProtocolError)
    assert (failure.rpc_code, failure.message, failure.data) == (-32602, "bad n", {"n": 1})
    output = _call_failure(ProxiedCallError("output", "structuredContent breaks the outputSchema"), "t", "t/x")
    assert isinstance(output, ToolOutputError) and output.message == "structuredContent breaks the outputSchema"


def test_an_sdk_error_in_process_maps_as_the_client_process_account_of_it() -> None:
    from mcp.shared.exceptions import MCPError

    here = _call_failure(MCPError(-32602, "bad n", {"n": 1}), "t", "t/x")
    there = _call_failure(ProxiedCallError("mcp", "bad n", code=-32602, data={"n": 1}), "t", "t/x")
    assert isinstance(here, ProtocolError) and isinstance(there, ProtocolError)
    assert (here.rpc_code, here.message, here.data) == (there.rpc_code, there.message, there.data)


def test_another_failure_there_is_an_mcp_error_and_a_bug_here_is_none_of_ours() -> None:
    other = _call_failure(ProxiedCallError("other", "ValueError: odd"), "t", "t/x")
    assert type(other) is McpError and other.message == "ValueError: odd"
    assert _call_failure(KeyError("bug"), "t", "t/x") is None


@pytest.mark.parametrize("error", [BrokenPipeError("pipe"), ConnectionResetError("reset")])
def test_a_broken_pipe_in_process_is_a_lost_connection(error: OSError) -> None:
    assert isinstance(_call_failure(error, "t", "t/x"), ServerGoneError)
