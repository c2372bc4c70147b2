"""Temporal's own scale rules: big payloads by reference to the blob folder, big fan-outs as child workflows."""

from __future__ import annotations

from typing import Any

import pytest
from temporal_kit import Kit
from temporalio.api.enums.v1 import EventType

from orchestrator.config import Settings
from orchestrator.plan.model import ForEach, InputBinding, PlanStep
from orchestrator.runner import StepRequest
from orchestrator.temporal import client as tc
from orchestrator.temporal.activities import WorkerRuntime
from orchestrator.temporal.blobs import BLOB_THRESHOLD
from orchestrator.temporal.worker import build_worker
from orchestrator.testing import Call, FakeRunner, fake_plan

pytestmark = pytest.mark.e2e

BIG = 3 * 1024 * 1024  # over Temporal's 2 MB payload limit


async def _run(kit: Kit, plan: Any, inputs: dict[str, Any], runner: FakeRunner, **update: Any) -> tuple[Any, Any]:
    settings = Settings(state_dir=kit.root / "state")
    ts = kit.settings().model_copy(update=update)
    client = await tc.connect(ts)
    runtime = WorkerRuntime(settings, runners={"script": runner})
    async with build_worker(client, ts, runtime, drain_s=1):
        run_id = await tc.start_run(client, ts, plan, inputs, settings)
        run = await tc.follow(client, run_id, plan)
        history = await client.get_workflow_handle(run_id).fetch_history()
    await runtime.aclose()
    return run, history


async def test_an_output_over_temporal_s_payload_limit_goes_through_the_blob_folder_by_reference(kit: Kit) -> None:
    def length(request: StepRequest) -> dict[str, int]:
        return {"length": len(request.input["text"]["text"])}

    plan = fake_plan([
        PlanStep(id="big", name="big", skill="s"),
        PlanStep(id="count", name="count", skill="s", inputs={"text": InputBinding(source="step", step="big")}),
    ])
    runner = FakeRunner({"big": [{"text": "x" * BIG}], "count": [Call(length)]})
    run, history = await _run(kit, plan, {}, runner)
    summary = run.summary()
    assert summary.status.value == "succeeded"
    assert summary.outputs["count"] == {"length": BIG}
    assert len(summary.outputs["big"]["text"]) == BIG
    # only references went through Temporal: no event holds even one copy of the output
    assert max(e.ByteSize() for e in history.events) < BLOB_THRESHOLD
    assert any(p.stat().st_size > BIG for p in kit.blob_dir.rglob("*") if p.is_file())


async def test_a_for_each_bigger_than_a_part_runs_as_child_workflows_of_bounded_size(kit: Kit) -> None:
    plan = fake_plan([PlanStep(id="fan", name="fan", skill="s",
                               for_each=ForEach(item="n", source=InputBinding(source="input", name="ns")),
                               inputs={"n": InputBinding(source="item")})])
    run, history = await _run(kit, plan, {"ns": list(range(25))}, FakeRunner(), items_per_child=10)
    assert run.summary().status.value == "succeeded"
    assert run.summary().outputs["fan"] == [{"n": n} for n in range(25)]
    children = [e.start_child_workflow_execution_initiated_event_attributes for e in history.events
                if e.event_type == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED]
    assert [c.workflow_id.rsplit(":", 1)[-1] for c in children] == ["0-9", "10-19", "20-24"]
    assert all(c.workflow_type.name == "skillweave.items" for c in children)
    attempts = [e for e in history.events if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED]
    assert attempts == []  # the parent made none itself: every item ran in a child


async def test_a_paused_run_with_a_long_history_continues_as_new_and_still_finishes(
    kit: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    from orchestrator.plan.model import StepPolicy
    from orchestrator.policy import ApprovalPolicy
    from orchestrator.temporal import workflow as run_workflow

    monkeypatch.setattr(run_workflow, "CONTINUE_AS_NEW_EVENTS", 0)  # every pause is "long"
    plan = fake_plan([
        PlanStep(id="a", name="a", skill="s"),
        PlanStep(id="b", name="b", skill="s", inputs={"a": InputBinding(source="step", step="a")},
                 policy=StepPolicy(approval=ApprovalPolicy())),
    ])
    settings = Settings(state_dir=kit.root / "state")
    ts = kit.settings()
    client = await tc.connect(ts)
    runtime = WorkerRuntime(settings, runners={"script": FakeRunner({"a": [{"v": 1}]})})
    async with build_worker(client, ts, runtime, drain_s=1):
        run_id = await tc.start_run(client, ts, plan, {}, settings)
        paused = await tc.follow(client, run_id, plan)
        assert paused.summary().status.value == "paused"
        await tc.approve(client, run_id, "b")
        done = await tc.follow(client, run_id, plan)
        executions = [e async for e in client.list_workflows(f"WorkflowId = '{run_id}'")]
    await runtime.aclose()
    summary = done.summary()
    assert summary.status.value == "succeeded"
    assert summary.step("a").attempts == 1 and summary.step("b").approval == "approved"
    assert len(executions) == 2  # the first continued as new; the second finished the run
