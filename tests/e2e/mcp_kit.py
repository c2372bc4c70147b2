"""What the MCP client's end-to-end tests share: a runner over given servers, a call, an answer."""

from __future__ import annotations

from pathlib import Path

from orchestrator.config import Settings
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.mcp_client.config import McpConfig, StdioServer
from orchestrator.mcp_client.runner import McpRunner
from orchestrator.plan.model import Plan, PlanStep, SpecRef
from orchestrator.runner import RunnerContext, StepOutcome, StepRequest


def runner_for(tmp_path: Path, server: StdioServer) -> McpRunner:
    """The MCP runner of a one-step run whose only server is `server`."""
    plan = Plan(
        name="p",
        spec=SpecRef(path=str(tmp_path / "spec.md"), sha256="0", format="markdown"),
        steps=(PlanStep(id="s", name="S", skill="k"),),
        skills={},
    )
    ctx = RunnerContext(settings=Settings(), plan=plan, run_id="r", run_dir=tmp_path / "run")
    return McpRunner(ctx, config=McpConfig(servers={server.name: server}))


def call(
    server: str, tool: str, arguments: dict[str, object] | None = None, timeout: float | None = 30
) -> StepRequest:
    """Attempt 1 of a step whose skill is `tool` on `server`."""
    skill = BoundSkill(
        name="k", kind=BuiltinKind.MCP, path="/k", origin="dir", sha256="0", server=server, tool=tool
    )
    return StepRequest(
        run_id="r",
        step_id="s",
        attempt=1,
        idempotency_key="r:s:1",
        skill=skill,
        input=arguments or {},
        timeout_s=timeout,
    )


def ok(outcome: StepOutcome) -> object:
    assert outcome.failure is None, outcome.failure
    return outcome.output
