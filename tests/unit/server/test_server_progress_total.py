"""Progress notifications of the server's tools carry the total where the run announced it."""

from __future__ import annotations

from typing import Any

import anyio
from mcp_types import CallToolResult

ClientFactory = Any  # the `connect` fixture (conftest.py)


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def test_run_workflow_progress_counts_units_done_of_the_total(connect: ClientFactory) -> None:
    seen: list[tuple[float, float | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total))

    async with connect() as client:
        with anyio.fail_after(20):
            run = ok(await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "a b"}},
                                            progress_callback=progress))
    assert run["status"] == "succeeded"
    values = [v for v, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)
    totals = {t for _, t in seen}
    assert totals == {float(len(run["steps"]) + 1)}  # every step, and the run's end
    assert seen[-1][0] == seen[-1][1]  # the last notification (run finished) is at the total
