"""The docs server's fault knob: parsing, counting in memory or in a state file, and firing."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from mcp_servers.docs.fault import Fault, FaultError, FaultPlan, parse_faults
from mcp_servers.docs.library import DocsLibrary, default_docs_dir
from mcp_servers.docs.server import build_server


def test_faults_parse_with_seconds_and_counts() -> None:
    assert parse_faults("hang-first:2.5, error-first:3,crash-first,freeze-first:1:2") == (
        Fault(kind="hang", seconds=2.5),
        Fault(kind="error", count=3),
        Fault(kind="crash"),
        Fault(kind="freeze", seconds=1, count=2),
    )
    assert parse_faults("") == ()


@pytest.mark.parametrize(
    "text", ["hang-first", "explode-first", "error-first:x", "hang-first:1:0", "crash-first:1:2"]
)
def test_a_bad_fault_is_named(text: str) -> None:
    with pytest.raises(ValueError, match="bad fault"):
        parse_faults(text)


def test_a_fault_fires_on_the_first_calls_only() -> None:
    plan = FaultPlan(parse_faults("error-first:2"))
    assert [len(plan.due()) for _ in range(4)] == [1, 1, 0, 0]


def test_a_state_file_keeps_counts_across_processes(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    faults = parse_faults("crash-first")
    assert len(FaultPlan(faults, state_file=state).due()) == 1
    assert (
        FaultPlan(faults, state_file=state).due() == ()
    )  # a "restarted server" does not fire again
    assert FaultPlan(faults).due() != ()  # without the file each process counts afresh


async def test_a_hang_waits_then_lets_the_call_through() -> None:
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    plan = FaultPlan(parse_faults("hang-first:7"), sleep=sleep)
    await plan.inject()
    await plan.inject()
    assert waited == [7]


async def test_an_error_fault_becomes_an_is_error_result_then_the_tool_answers() -> None:
    plan = FaultPlan(parse_faults("error-first"))
    with pytest.raises(FaultError):
        await FaultPlan(parse_faults("error-first")).inject()
    async with Client(build_server(DocsLibrary((default_docs_dir(),)), plan)) as client:
        first = await client.call_tool("get_docs", {"module_name": "json"})
        second = await client.call_tool("get_docs", {"module_name": "json"})
    assert first.is_error
    assert "injected fault" in first.content[0].text  # type: ignore[union-attr]
    assert not second.is_error
