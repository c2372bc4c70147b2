"""Recorded histories of real runs replay with the current workflow code: a change that breaks
determinism fails here, not in production after a deploy.

The histories (`tests/e2e/temporal/histories/`) were recorded by the e2e tests of real
`skillweave` processes against a dev server (SKILLWEAVE_RECORD_HISTORIES=1): the seed
workflow, an approval granted with `skillweave approve`, compensations in reverse order,
a regeneration replayed from a recording, and a run whose worker was SIGKILLed. Replaying
needs no server: temporalio's `Replayer` feeds each history to the workflow code and fails
on any command the code now makes differently.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from temporalio.client import WorkflowHistory
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.worker import Replayer

from orchestrator.temporal.worker import workflow_runner
from orchestrator.temporal.workflow import ItemsWorkflow, RunWorkflow

HISTORIES = Path(__file__).resolve().parents[2] / "e2e" / "temporal" / "histories"
RECORDED = ("approval", "regeneration", "saga", "seed", "worker-killed")


def _replayer() -> Replayer:
    return Replayer(
        workflows=[RunWorkflow, ItemsWorkflow], data_converter=pydantic_data_converter,
        workflow_runner=workflow_runner(),
    )


def _history(name: str) -> WorkflowHistory:
    return WorkflowHistory.from_json(f"replay-{name}", (HISTORIES / f"{name}.json").read_text())


def test_the_recorded_runs_are_all_there() -> None:
    assert sorted(p.stem for p in HISTORIES.glob("*.json")) == sorted(RECORDED)


@pytest.mark.parametrize("name", RECORDED)
async def test_a_recorded_run_replays_with_the_current_workflow_code(name: str) -> None:
    result = await _replayer().replay_workflow(_history(name), raise_on_replay_failure=False)
    assert result.replay_failure is None, f"{name}: {result.replay_failure}"


async def test_a_change_to_the_decisions_breaks_the_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: attempts keyed differently are not the commands the history holds."""
    from orchestrator.engine import recovery

    monkeypatch.setattr(recovery, "idempotency_key", lambda run, step, attempt, item=None: f"{run}/{step}/{attempt}")
    result = await _replayer().replay_workflow(_history("seed"), raise_on_replay_failure=False)
    assert result.replay_failure is not None
    assert "nondetermin" in str(result.replay_failure).lower()
