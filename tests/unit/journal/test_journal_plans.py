"""Plans are stored with their contracts interned, and come back whole."""

from __future__ import annotations

from orchestrator.journal.plans import decode_plan, encode_plan
from orchestrator.plan.model import PlanStep
from orchestrator.testing import fake_plan

SCHEMA = {"type": "object", "properties": {f"f{i}": {"type": "string"} for i in range(20)}}


def plan_with_shared_contracts(n: int = 50):
    steps = [PlanStep(id=f"s{i}", name="S", skill="s", output_schema=dict(SCHEMA), input_schema={}) for i in range(n)]
    return fake_plan(steps)


def test_a_stored_plan_decodes_to_an_equal_plan() -> None:
    plan = plan_with_shared_contracts()
    assert decode_plan(encode_plan(plan)) == plan


def test_each_distinct_schema_is_stored_once_and_shared_after_decoding() -> None:
    plan = plan_with_shared_contracts()
    text = encode_plan(plan)
    assert text.count('"f19"') == 1
    decoded = decode_plan(text)
    assert decoded.steps[0].output_schema is decoded.steps[-1].output_schema


def test_a_plain_plan_document_is_read_as_it_is() -> None:
    plan = plan_with_shared_contracts(3)
    assert decode_plan(plan.model_dump_json(by_alias=True)) == plan


def test_the_journal_gives_a_run_s_plan_as_a_model_and_as_a_plain_document(tmp_path) -> None:
    from orchestrator.config import Settings
    from orchestrator.engine import create_run
    from orchestrator.journal import Journal
    from orchestrator.plan.model import Plan

    plan = plan_with_shared_contracts(4)
    run_id = create_run(plan, {}, Settings(state_dir=tmp_path))
    with Journal(tmp_path) as journal:
        assert journal.plan(run_id) == plan
        assert Plan.model_validate_json(journal.plan_json(run_id)) == plan
