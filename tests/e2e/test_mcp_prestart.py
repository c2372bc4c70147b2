"""A run's MCP servers start as it starts (`McpRunner.prepare`), with the bundled docs server for real."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_mcp_docs_server import fetch, server_children, wait_until

from orchestrator.config import Settings
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.mcp_client.config import load_mcp_config
from orchestrator.mcp_client.runner import McpRunner
from orchestrator.plan.model import Plan, PlanStep, SpecRef, StepPolicy
from orchestrator.policy import ApprovalPolicy, ErrorClass
from orchestrator.runner import RunnerContext

pytestmark = pytest.mark.e2e


def runner(tmp_path: Path, *, gated: bool = False, **env: str) -> McpRunner:
    skill = BoundSkill(name="fetch-docs", kind=BuiltinKind.MCP, path="/skills/fetch-docs", origin="bundled",
                       sha256="0", server="docs", tool="get_docs")  # fmt: skip
    policy = StepPolicy(approval=ApprovalPolicy()) if gated else StepPolicy()
    plan = Plan(
        name="p",
        spec=SpecRef(path=str(tmp_path / "spec.md"), sha256="0", format="markdown"),
        steps=(PlanStep(id="fetch", name="Fetch", skill="fetch-docs", policy=policy),),
        skills={"fetch-docs": skill},
    )
    ctx = RunnerContext(settings=Settings(), plan=plan, run_id="r1", run_dir=tmp_path / "run")
    return McpRunner(ctx, config=load_mcp_config(None, env=dict(env)))


async def test_a_prestarted_server_serves_the_first_call_without_another_start(tmp_path: Path) -> None:
    docs = runner(tmp_path)
    try:
        docs.prepare({"fetch"})
        await wait_until(lambda: docs.pool.pid("docs") is not None, "the server started before any call")
        early = docs.pool.pid("docs")
        outcome = await docs.run(fetch("json"))
    finally:
        await docs.aclose()
    assert outcome.failure is None, outcome.failure
    assert outcome.meta["pid"] == str(early)
    assert docs.pool.starts == {"docs": 1}


async def test_a_failed_prestart_fails_the_first_attempt_and_the_next_starts_again(tmp_path: Path) -> None:
    docs = runner(tmp_path, SKILLWEAVE_DOCS_FAULT="explode-first")
    try:
        docs.prepare({"fetch"})
        first = await docs.run(fetch("json"))
        assert docs.pool.starts == {"docs": 1}
        second = await docs.run(fetch("json", attempt=2))
    finally:
        await docs.aclose()
    assert first.failure is not None
    assert (first.failure.error_class, first.failure.kind) == (ErrorClass.TRANSIENT, "mcp_start")
    assert "bad fault 'explode-first'" in first.stderr_tail
    assert second.failure is not None and second.failure.kind == "mcp_start"
    assert docs.pool.starts == {"docs": 2}


async def test_a_server_only_a_gated_step_uses_is_not_started_early(tmp_path: Path) -> None:
    docs = runner(tmp_path, gated=True)
    try:
        docs.prepare({"fetch"})
        for _ in range(5):
            await asyncio.sleep(0)  # let a task that was started run
        assert docs.pool.starts == {}
    finally:
        await docs.aclose()


async def test_closing_during_a_prestart_stops_the_server(tmp_path: Path) -> None:
    docs = runner(tmp_path)
    docs.prepare({"fetch"})
    await wait_until(lambda: docs.pool.starts == {"docs": 1}, "the prestart began")
    await docs.aclose()
    assert server_children() == []  # whether it was spawning, starting or up: stopped and reaped
