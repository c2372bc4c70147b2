"""The MCP server under load over streamable HTTP: latencies of concurrent calls.

    .venv/bin/python bench/server_bench.py            # JSON on stdout
    .venv/bin/python bench/server_bench.py --quick    # lighter load

Starts `skillweave serve --transport http` on a free port in a temporary copy of
the server tests' project (tests/e2e/data/server-project), then, from 5 client
sessions at once:

- validate:  `validations` concurrent validate_spec calls (a 2-step spec)
- run:       `runs` concurrent run_workflow calls of a 1-step sandboxed script
             workflow (wait=true), each a new durable run
- probe:     while both are in flight, a new session connects and lists the
             tools: how long a newcomer waits under load

Figures are per-call latencies in milliseconds (p50, p95, max) and wall times in
seconds. Every call must succeed; the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

REPO = Path(__file__).resolve().parent.parent
PROJECT = REPO / "tests" / "e2e" / "data" / "server-project"
SKILLWEAVE = Path(sys.executable).parent / "skillweave"
CLIENTS = 5


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


async def _load(url: str, token: str, validations: int, runs: int) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"}  # the server requires its token, on loopback too
    timings: dict[str, list[float]] = {"validate": [], "run": [], "probe": []}
    failures: list[str] = []

    async def timed(kind: str, client: Client, tool: str, args: dict[str, Any]) -> None:
        start = time.perf_counter()
        result = await client.call_tool(tool, args)
        timings[kind].append(time.perf_counter() - start)
        status = (result.structured_content or {}).get("status", "succeeded")
        if result.is_error or status != "succeeded":
            failures.append(f"{tool}: {result.content}")

    async def session(index: int) -> None:
        async with (
            create_mcp_http_client(headers=headers) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
            anyio.create_task_group() as group,
        ):
            for _ in range(validations // CLIENTS):
                group.start_soon(timed, "validate", client, "validate_spec", {"spec": "specs/shout-approved.md"})
            for n in range(index, runs, CLIENTS):
                args = {"spec": "specs/count.md", "inputs": {"text": "w " * (n + 1)}}
                group.start_soon(timed, "run", client, "run_workflow", args)

    async def probe() -> None:
        await anyio.sleep(0.2)  # once the load is in flight
        start = time.perf_counter()
        async with create_mcp_http_client(headers=headers) as http, Client(streamable_http_client(url, http_client=http)) as client:
            await client.list_tools()
        timings["probe"].append(time.perf_counter() - start)

    start = time.perf_counter()
    async with anyio.create_task_group() as group:
        for index in range(CLIENTS):
            group.start_soon(session, index)
        group.start_soon(probe)
    wall = time.perf_counter() - start
    return {
        "wall_s": round(wall, 2),
        "validate": _ms(timings["validate"]),
        "run": _ms(timings["run"]),
        "probe_connect_and_list_ms": round(timings["probe"][0] * 1000, 1),
        "failures": failures,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    validations, runs = (20, 5) if options.quick else (50, 10)
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(PROJECT, project)
        port = _free_port()
        token = secrets.token_urlsafe(32)
        process = subprocess.Popen(
            [str(SKILLWEAVE), "serve", "--transport", "http", "--port", str(port), "--state-dir", str(project / ".sw")],
            cwd=project,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "SKILLWEAVE_SERVE_TOKEN": token},
        )
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.05)
            result = anyio.run(_load, f"http://127.0.0.1:{port}/mcp", token, validations, runs)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=15)
    print(
        json.dumps(
            {
                "bench": "server",
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "clients": CLIENTS,
                "validations": validations,
                "runs": runs,
                **result,
            },
            indent=2,
        )
    )
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
