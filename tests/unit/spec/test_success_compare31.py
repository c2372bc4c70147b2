"""A success check comparing two values of the run (`spec.success_compare31`), placed in the plan
(`plan.compare_checks`) and evaluated after the run (`engine.success_compare`). Documents: a data team's
runbook, a YAML file of my own schema, an accounts ticket, a payroll YAML; negatives: "the count should
be reported", a comparison with a literal, "takes more than an hour", a name no step gives."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.engine.state import RunState
from orchestrator.engine.success_compare import evaluate
from orchestrator.plan import build_plan
from orchestrator.plan.model import CheckValue, CompareCheck, Plan, PlanStep, SpecRef
from orchestrator.spec import parse_spec_text
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, finished_state, obj, skill

RUNBOOK = ("# Nightly export\n\n## Steps\n\n### Step 1: Extract\n- Skill: `extract-rows`\n- Output: `rows_read`, `files`\n\n"
           "### Step 2: Load\n- Skill: `load-rows`\n- Output: `rows_written`, `total`\n\n")
_LINE = RUNBOOK.count("\n") + 1
TICKET = ("TICKET OPS-77: reconcile invoices\n\nSteps:\n1. Fetch the invoices with `invoice-fetch` (gives `invoices`, `sum`)\n"
          "2. Post them with `ledger-post` (gives `total`, `posted`)\n\n"
          "Acceptance: this is done when the total in 2 matches the sum reported by 1.\n")
PAYROLL = ("name: payroll\nsteps:\n  - id: read\n    skill: read-sheet\n  - id: pay\n    skill: pay-batch\n    needs: [read]\n"
           "success:\n  expect: steps.pay.paid_count == steps.read.employee_count\n")


def _sides(spec: Any) -> list[tuple[Any, ...]]:
    return [(c.left.step, c.left.field, c.left.count, c.op, c.right.step, c.right.field, c.right.count)
            for c in spec.compares]


def test_a_runbooks_rows_written_equal_rows_read_names_no_step() -> None:
    spec = parse_spec_text(RUNBOOK + "The run is done when rows written = rows read.\n", "r.md", "markdown")
    assert _sides(spec) == [(None, "rows_written", False, "eq", None, "rows_read", False)]
    assert spec.compares[0].reading.startswith("success check read as a comparison of two values")
    assert any(w.code == "spec.success" and w.line == _LINE for w in spec.warnings)  # until the planner places it


def test_a_runbooks_total_in_2_matches_the_number_of_files_from_step_1() -> None:
    spec = parse_spec_text(RUNBOOK + "Done when the total in 2 matches the number of files from step 1.\n", "r.md", "markdown")
    assert _sides(spec) == [("step-2", "total", False, "eq", "step-1", "files", True)]


def test_a_tickets_total_matches_the_sum_reported_by_1() -> None:
    spec = parse_spec_text(TICKET, "t.txt", "markdown")
    assert _sides(spec) == [("step-2", "total", False, "eq", "step-1", "sum", False)]


def test_a_yaml_expect_key_compares_two_steps_outputs() -> None:
    spec = parse_spec_text(PAYROLL, "p.yaml", "yaml")
    assert _sides(spec) == [("pay", "paid_count", False, "eq", "read", "employee_count", False)]


def test_a_yaml_count_of_a_list_and_at_least() -> None:
    text = PAYROLL.replace("success:\n  expect: steps.pay.paid_count == steps.read.employee_count\n",
                           "success_when: pay.paid_count >= len(read.employees)\n")
    spec = parse_spec_text(text, "p.yaml", "yaml")
    assert _sides(spec) == [("pay", "paid_count", False, "ge", "read", "employees", True)]


@pytest.mark.parametrize("sentence", [
    "The run is done when the count should be reported.",  # no comparison
    "Done when the rows written is 40.",  # a literal: the other readers'
    "Done when the loaf smells right and the crust = golden brown.",  # said, not values of the run
])
def test_what_is_not_a_comparison_of_two_values(sentence: str) -> None:
    assert parse_spec_text(RUNBOOK + sentence + "\n", "r.md", "markdown").compares == ()


def test_a_comparison_with_a_duration_is_not_two_values() -> None:
    from orchestrator.spec.success_compare31 import _Steps, read_clause

    steps = parse_spec_text(RUNBOOK, "r.md", "markdown").steps
    assert read_clause("the whole thing should take more than an hour", _Steps(steps), set()) is None
    assert read_clause("the row count matches what the customer expects", _Steps(steps), set()) is None


# -- the plan --------------------------------------------------------------------------------------

EXTRACT = skill("extract-rows", output_schema=obj(("rows_read", "files"), rows_read="integer", files="array"))
LOAD = skill("load-rows", output_schema=obj(("rows_written", "total"), rows_written="integer", total="integer"))


def test_the_plan_places_a_side_on_the_one_step_whose_output_has_it() -> None:
    spec = parse_spec_text(RUNBOOK + "The run is done when rows written = rows read.\n", "r.md", "markdown")
    plan = build_plan(spec, FakeCatalog(EXTRACT, LOAD), settings=SETTINGS)  # type: ignore[arg-type]
    assert [c.shown() for c in plan.compare_checks] == ["step-2.rows_written == step-1.rows_read"]
    assert plan.compare_checks[0].where == f"r.md:{_LINE}"
    at_line = [w.message for w in plan.warnings if w.line == _LINE]
    assert at_line and all("read as a comparison of two values" in m for m in at_line)


def test_the_plan_warns_a_name_no_step_gives() -> None:
    spec = parse_spec_text(RUNBOOK + "The run is done when rows written = rows skipped.\n", "r.md", "markdown")
    plan = build_plan(spec, FakeCatalog(EXTRACT, LOAD), settings=SETTINGS)  # type: ignore[arg-type]
    assert plan.compare_checks == ()
    assert any(w.code == "plan.success-compare" and "not checked" in w.message for w in plan.warnings)
    assert any(w.code == "spec.success" and "is not checked" in w.message for w in plan.warnings)  # the reader's stays


# -- the evaluation --------------------------------------------------------------------------------

def _check(op: str = "eq", *, count: bool = False) -> CompareCheck:
    return CompareCheck(left=CheckValue(source="step", step="load", pointer="/written"), op=op,  # type: ignore[arg-type]
                        right=CheckValue(source="step", step="read", pointer="/rows", count=count),
                        text="written matches rows", where="s.md:9")


def _state(check: CompareCheck, outputs: dict[str, Any], skipped: tuple[str, ...] = ()) -> tuple[Plan, RunState]:
    plan = Plan(name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), skills={},
                steps=(PlanStep(id="read", name="read", skill="x"), PlanStep(id="load", name="load", skill="x")),
                compare_checks=(check,))
    return plan, finished_state(plan, outputs, skipped)


def test_a_check_that_holds_passes() -> None:
    verdict = evaluate(*_state(_check(count=True), {"read": {"rows": [1, 2, 3]}, "load": {"written": 3}}))
    assert verdict.failed is None and verdict.not_evaluated == []


def test_a_check_that_fails_names_its_line_and_both_values() -> None:
    verdict = evaluate(*_state(_check(), {"read": {"rows": 4}, "load": {"written": 3}}))
    assert verdict.failed is not None
    assert "s.md:9" in verdict.failed and "load.written is 3" in verdict.failed and "read.rows is 4" in verdict.failed


def test_a_check_on_a_skipped_step_is_not_evaluated_never_passed() -> None:
    verdict = evaluate(*_state(_check(), {"read": {"rows": 4}}, skipped=("load",)))
    assert verdict.failed is None
    assert verdict.not_evaluated and "not evaluated" in verdict.not_evaluated[0] and "skipped" in verdict.not_evaluated[0]


def test_a_missing_field_fails_the_check() -> None:
    verdict = evaluate(*_state(_check(), {"read": {"count": 4}, "load": {"written": 3}}))
    assert verdict.failed is not None and "has no `rows`" in verdict.failed


def test_values_of_kinds_that_do_not_compare_fail_the_check() -> None:
    verdict = evaluate(*_state(_check("lt"), {"read": {"rows": "4"}, "load": {"written": 3}}))
    assert verdict.failed is not None and "cannot be decided" in verdict.failed and "no order" in verdict.failed
    verdict = evaluate(*_state(_check(count=True), {"read": {"rows": 4}, "load": {"written": 3}}))
    assert verdict.failed is not None and "not a list" in verdict.failed


def test_a_check_not_evaluated_is_a_note_of_the_finished_runs_summary() -> None:
    from orchestrator.journal.events import RunFinished

    plan, state = _state(_check(), {"read": {"rows": 4}}, skipped=("load",))
    said = "; ".join(evaluate(plan, state).not_evaluated)
    state.apply(RunFinished(ts=1.0, status="succeeded", message=said))
    assert any("not evaluated: load has no output (skipped)" in n for n in state.summary().notes)


@pytest.mark.parametrize(("clause", "sides"), [
    ("the count of rows in 2 equals the number of files from step 1", ("step-2", "rows", True, "eq", "step-1", "files", True)),
    ("the total matches the number of items in files", (None, "total", False, "eq", None, "files", True)),
    ("step 2's total is at least the rows_read from extract-rows", ("step-2", "total", False, "ge", "step-1", "rows_read", False)),
    ("load-rows's total does not exceed 1's rows_read", ("step-2", "total", False, "le", "step-1", "rows_read", False)),
    ("total (step 2) is no more than rows_read (step 1)", ("step-2", "total", False, "le", "step-1", "rows_read", False)),
    ("the total should be reported", None),
    ("the total is the same as what we expected", None),
    ("rows written is over 100", None),
])
def test_the_ways_a_comparison_of_two_values_is_said(clause: str, sides: tuple[Any, ...] | None) -> None:
    from orchestrator.spec.success_compare31 import _Steps, read_clause

    got = read_clause(clause, _Steps(parse_spec_text(RUNBOOK, "r.md", "markdown").steps), set())
    assert (None if got is None else (got[0].step, got[0].field, got[0].count, got[1], got[2].step, got[2].field,
                                      got[2].count)) == sides


def test_a_workflow_input_is_a_side() -> None:
    from orchestrator.spec.success_compare31 import _Steps, read_clause

    got = read_clause("the total from load is less than the region input",
                      _Steps(parse_spec_text(RUNBOOK, "r.md", "markdown").steps), {"region"})
    assert got is not None and got[2].input == "region" and got[0].step == "step-2"


@pytest.mark.parametrize("said", [
    "Done when rows_written matches rows_read from #1 (nothing dropped on the way).",
    "We're finished once total in #2 equals the sum reported by #1 (the books balance).",
])
def test_a_hash_numbered_step_and_a_closing_remark_in_words_are_read(said: str) -> None:
    """"from #1": step 1; "(nothing dropped on the way)" says why, it is no part of the value."""
    spec = parse_spec_text(RUNBOOK + said + "\n", "r.md", "markdown")
    assert len(spec.compares) == 1
    c = spec.compares[0]
    assert c.op == "eq" and "step-1" in (c.left.step, c.right.step)


def test_a_closing_step_in_brackets_is_still_the_step_not_a_remark() -> None:
    spec = parse_spec_text(RUNBOOK + "Done when the total (step 2) matches the files (step 1).\n", "r.md", "markdown")
    assert _sides(spec) == [("step-2", "total", False, "eq", "step-1", "files", False)]


def test_a_remark_that_is_the_whole_side_is_no_value() -> None:
    """Near miss: "(as agreed with finance)" alone leaves no value to compare with."""
    spec = parse_spec_text(RUNBOOK + "Done when rows_written matches (as agreed with finance).\n", "r.md", "markdown")
    assert spec.compares == ()
