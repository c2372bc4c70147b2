"""Load over HTTP: many concurrent calls all succeed and the server keeps answering."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from serverkit import HttpServer, http_server, make_project, ok

pytestmark = pytest.mark.e2e

CLIENTS = 5
VALIDATIONS = 50
RUNS = 10


@pytest.fixture
def server(tmp_path: Path) -> HttpServer:
    with http_server(make_project(tmp_path)) as running:
        yield running  # type: ignore[misc]


@pytest.mark.slow
async def test_concurrent_validations_and_runs_all_succeed(server: HttpServer) -> None:
    validations: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    answered_under_load: list[int] = []

    async def client_session(index: int) -> None:
        async with server.client() as client, anyio.create_task_group() as group:

            async def validate() -> None:
                validations.append(ok(await client.call_tool("validate_spec", {"spec": "specs/shout-approved.md"})))

            async def run(n: int) -> None:
                inputs = {"text": " ".join(["word"] * (n + 1))}
                runs.append(ok(await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": inputs})))

            for _ in range(VALIDATIONS // CLIENTS):
                group.start_soon(validate)
            for n in range(index, RUNS, CLIENTS):
                group.start_soon(run, n)

    async def probe() -> None:
        # While the load runs, a fresh client connects and lists the tools.
        async with server.client() as client:
            answered_under_load.append(len((await client.list_tools()).tools))

    with anyio.fail_after(240):
        async with anyio.create_task_group() as group:
            for index in range(CLIENTS):
                group.start_soon(client_session, index)
            group.start_soon(probe)
    assert len(validations) == VALIDATIONS and all(v["ok"] for v in validations)
    assert len(runs) == RUNS
    assert all(r["status"] == "succeeded" for r in runs), [r["error"] for r in runs]
    assert sorted(r["outputs"]["step-1"]["words"] for r in runs) == list(range(1, RUNS + 1))
    assert len({r["run_id"] for r in runs}) == RUNS
    assert answered_under_load == [8]
