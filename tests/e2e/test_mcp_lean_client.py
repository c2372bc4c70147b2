"""A stdio MCP call imports the client half of the SDK only, and the rest stays reachable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SERVER_SIDE = ("mcp.server", "mcp.client.client", "starlette", "uvicorn", "httpx", "httpx2", "sse_starlette")

PROBE = """
import asyncio, json, sys
from pathlib import Path
from orchestrator.config import Settings
from orchestrator.mcp_client.config import load_mcp_config
from orchestrator.mcp_client.runner import McpRunner
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.plan.model import Plan, PlanStep, SpecRef
from orchestrator.runner import RunnerContext, StepRequest

work = Path(sys.argv[1])
plan = Plan(name="p", spec=SpecRef(path=str(work / "spec.md"), sha256="0", format="markdown"),
            steps=(PlanStep(id="fetch", name="Fetch", skill="fetch-docs"),), skills={})
ctx = RunnerContext(settings=Settings(), plan=plan, run_id="r1", run_dir=work / "run")
skill = BoundSkill(name="fetch-docs", kind=BuiltinKind.MCP, path="/s", origin="bundled", sha256="0",
                   server="docs", tool="get_docs")

async def main():
    runner = McpRunner(ctx, config=load_mcp_config(None, env={"SKILLWEAVE_DOCS_WARM": "0"}))
    try:
        return await runner.run(StepRequest(run_id="r1", step_id="fetch", attempt=1, idempotency_key="k",
                                            skill=skill, input={"module_name": "json"}, timeout_s=60))
    finally:
        await runner.aclose()

outcome = asyncio.run(main())
loaded = [name for name in json.loads(sys.argv[2]) if name in sys.modules]
import mcp
from mcp import Client
print(json.dumps({"output": outcome.output, "failure": str(outcome.failure), "loaded": loaded,
                  "later": [Client.__name__, mcp.types.Tool.__name__]}))
"""


def test_a_stdio_call_imports_no_server_side_nor_http_stack_and_mcp_stays_whole(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path), json.dumps(SERVER_SIDE)],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["output"]["docs_found"] is True, result["failure"]
    assert result["loaded"] == []
    assert result["later"] == ["Client", "Tool"]  # `import mcp` afterwards still gets the whole SDK
