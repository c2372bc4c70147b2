"""A broken script, repaired by the real regenerator (a queued model), run in the real sandbox."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from engine_plans import SKILLS, skill

from orchestrator.config import Settings
from orchestrator.engine import RunStatus, create_run, execute_run
from orchestrator.llm.fake import QueuedLLM
from orchestrator.plan.build import seal
from orchestrator.plan.model import InputBinding, Plan, PlanStep, SpecRef, StepPolicy

pytestmark = pytest.mark.e2e

FIXED = 'import json, sys\ndata = json.load(sys.stdin)\njson.dump({"total": sum(data["numbers"])}, sys.stdout)\n'
TOTAL = {"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]}


def repair_plan(folder: Path) -> Plan:
    bound = skill("broken-sum").model_copy(update={"path": str(folder)})
    step = PlanStep(
        id="sum",
        name="sum",
        skill="broken-sum",
        inputs={"numbers": InputBinding(source="literal", value=[1, 2, 3.5])},
        output_schema=TOTAL,
        policy=StepPolicy(regenerations=1),
    )
    return seal(Plan(name="repair", spec=SpecRef(path="<e2e>", sha256="0" * 64, format="yaml"),
                     steps=(step,), skills={"broken-sum": bound}))


async def test_a_failing_script_is_regenerated_and_the_new_version_runs_sandboxed(tmp_path: Path) -> None:
    folder = tmp_path / "broken-sum"
    shutil.copytree(SKILLS / "broken-sum", folder)
    settings = Settings(state_dir=tmp_path / "state", promote=True)
    model = QueuedLLM([{"code": FIXED}])
    run_id = create_run(repair_plan(folder), {}, settings)
    summary = await execute_run(run_id, settings, llm_client=model)
    assert summary.status is RunStatus.SUCCEEDED, summary.error
    assert summary.outputs["sum"] == {"total": 6.5}
    step = summary.step("sum")
    assert (step.attempts, step.regenerations) == (2, 1)
    assert len(model.asked) == 1
    prompt = model.asked[0][0]
    assert "KeyError" in str(prompt)  # the failure went to the model
    versions = list((settings.state_dir / "runs" / run_id / "code" / "sum").glob("v2-*/main.py"))
    assert [v.read_text() for v in versions] == [FIXED]
    assert (folder / "scripts" / "main.py").read_text() == FIXED  # --promote wrote it back
    assert any("promoted" in note for note in summary.notes)
