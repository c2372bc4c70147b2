"""As a run starts, runners that offer `prepare(steps)` are told the steps still to run.

That is how a run's MCP servers start while its first steps go. A kind's runner is
made that early only when its traits say `prepared_at_start`.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import pytest

from orchestrator.config import Settings
from orchestrator.engine import RunStatus, approve_step, create_run, execute_run
from orchestrator.kinds import BuiltinKind, KindRegistry
from orchestrator.kinds.mcp import KIND as MCP_KIND
from orchestrator.plan.model import Plan, PlanStep
from orchestrator.policy import ApprovalPolicy
from orchestrator.runner import RunnerContext
from orchestrator.testing import FakeClock, FakeRunner, fake_plan, fake_skill

made: list[str] = []


class PreparingRunner(FakeRunner):
    """A runner that records what `prepare` was told and what had run by then."""

    def __init__(self, kind: str, others: list[FakeRunner] | None = None) -> None:
        super().__init__(kind=kind)
        self.prepared: list[set[str]] = []
        self.attempts_before_prepare: int | None = None
        self._others = others or []

    def prepare(self, steps: Collection[str]) -> None:
        self.prepared.append(set(steps))
        self.attempts_before_prepare = sum(len(o.requests) for o in [self, *self._others])


def made_runner(ctx: RunnerContext) -> PreparingRunner:
    made.append("made")
    return PreparingRunner(kind="mcp")


def plan_with_mcp(*, gate_on_fetch: bool = False, when: str | None = None) -> Plan:
    policy = {"approval": ApprovalPolicy()} if gate_on_fetch else {}
    fetch = PlanStep(id="fetch", name="Fetch", skill="docs", depends_on=("local",), when=when)
    if policy:
        fetch = fetch.model_copy(update={"policy": fetch.policy.model_copy(update=policy)})
    return fake_plan(
        [PlanStep(id="local", name="Local", skill="s"), fetch],
        skills={"docs": fake_skill("docs", kind=BuiltinKind.MCP, server="docs", tool="get")},
    )


async def test_prepare_is_told_the_steps_to_run_before_any_attempt(tmp_path: Path) -> None:
    settings = Settings(state_dir=tmp_path / "state")
    script = FakeRunner()
    mcp = PreparingRunner("mcp", [script])
    run_id = create_run(plan_with_mcp(), {}, settings)
    summary = await execute_run(run_id, settings, runners={"script": script, "mcp": mcp}, clock=FakeClock())
    assert summary.status is RunStatus.SUCCEEDED
    assert mcp.prepared == [{"local", "fetch"}]
    assert mcp.attempts_before_prepare == 0


async def test_a_resumed_run_prepares_only_the_steps_it_has_left(tmp_path: Path) -> None:
    settings = Settings(state_dir=tmp_path / "state")
    plan = plan_with_mcp(gate_on_fetch=True)
    script, mcp = FakeRunner(), PreparingRunner("mcp")
    run_id = create_run(plan, {}, settings)
    paused = await execute_run(run_id, settings, runners={"script": script, "mcp": mcp}, clock=FakeClock())
    assert paused.status is RunStatus.PAUSED
    approve_step(run_id, "fetch", settings)
    again = PreparingRunner("mcp")
    done = await execute_run(run_id, settings, runners={"script": FakeRunner(), "mcp": again}, clock=FakeClock())
    assert done.status is RunStatus.SUCCEEDED
    assert again.prepared == [{"fetch"}]


async def test_a_kind_is_made_at_the_start_only_when_its_traits_ask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orchestrator.engine import runtime

    monkeypatch.setattr(MCP_KIND, "runner", f"{__name__}:made_runner")
    monkeypatch.setattr(runtime, "kind_registry", KindRegistry)  # a fresh registry per run
    assert MCP_KIND.traits.prepared_at_start  # the real mcp kind asks
    settings = Settings(state_dir=tmp_path / "state")
    made.clear()
    skipped = plan_with_mcp(when="false")  # the mcp step never runs
    monkeypatch.setattr(MCP_KIND, "traits", MCP_KIND.traits.model_copy(update={"prepared_at_start": False}))
    run_id = create_run(skipped, {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=FakeClock())
    assert made == []  # not asked: made at its first attempt, and there was none
    monkeypatch.setattr(MCP_KIND, "traits", MCP_KIND.traits.model_copy(update={"prepared_at_start": True}))
    run_id = create_run(skipped, {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=FakeClock())
    assert made == ["made"]
