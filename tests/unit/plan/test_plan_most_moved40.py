"""Round 40: "any <thing> <moved / rose / jumped> more than N" is the largest change a step gives
(`plan.most_moved40`), and a percentage's base said after it ("vs its base", "compared with last
week") is left aside (`spec.change_base40`). Tested in a fuel-price board, a lab's drift check and a
payroll run; near misses: one thing's change (no "any"), "less than", no such field, no percentage."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.plan.most_moved40 import most_moved
from orchestrator.spec import parse_spec_text
from orchestrator.spec.change_base40 import without_base

CATALOG = FakeCatalog(
    skill("price-pumps", output_schema=obj(("prices", "largest_increase_pct"), prices="array",
                                           largest_increase_pct="number")),
    skill("post-board", output_schema=obj(("note",), note="string")),
    skill("read-sensors", output_schema=obj(("readings", "biggest_jump"), readings="array", biggest_jump="number")),
    skill("file-report", output_schema=obj(("note",), note="string")),
    skill("run-payroll", output_schema=obj(("lines", "total"), lines="array", total="number")),
    skill("pay-staff", output_schema=obj(("note",), note="string")),
)


def _plan(one: str, two: str, approval: str) -> Plan:
    text = (f"# Flow\n\n## Steps\n\n### Step 1: work it out\n- Skill: {one}\n\n### Step 2: send it\n- Skill: {two}\n"
            f"- Depends on: Step 1\n- Approval: {approval}\n")
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)


def _when(plan: Plan) -> str | None:
    approval = plan.steps[1].policy.approval
    return approval.when if approval is not None else None


def test_any_price_rising_more_than_a_percentage_against_last_week_is_the_largest_increase() -> None:
    plan = _plan("price-pumps", "post-board",
                 "required if any pump price rose more than 8% compared with last week; wait 1 hour, then reject")
    assert _when(plan) == "steps['step-1'].output.largest_increase_pct > 8"
    assert any("largest change" in w.message and "largest_increase_pct" in w.message for w in plan.warnings)


def test_any_sensor_jumping_more_than_a_percentage_is_the_biggest_jump() -> None:
    plan = _plan("read-sensors", "file-report", "needed only when any sensor jumped more than 3%; wait 30 min, then reject")
    assert _when(plan) == "steps['step-1'].output.biggest_jump > 3"


def test_one_things_change_without_any_is_not_the_largest() -> None:
    assert most_moved(("price", "rose"), ">", 8, "the price rose more than 8%", lambda n: f"x.{n}") is None


def test_less_than_or_no_field_of_a_change_is_not_read() -> None:
    assert most_moved(("price", "rose"), "<", 8, "any price rose less than 8%", lambda n: f"x.{n}") is None
    assert most_moved(("line", "changed"), ">", 5, "any line changed more than 5%", lambda n: None) is None
    plan = _plan("run-payroll", "pay-staff", "required if any line changed more than 5%; wait 1 hour, then reject")
    assert _when(plan) is None  # nothing gives a change: not placed, the approval asked on every run, warned
    assert any("any line changed" in w.message and "not read" in w.message for w in plan.warnings)


def test_a_percentage_takes_the_pct_field_first() -> None:
    fields = {"max_change", "max_change_pct"}
    resolve = lambda n: f"s.{n}" if n in fields else None  # noqa: E731
    assert most_moved(("rate", "moved"), ">", 25, "any rate moved more than 25%", resolve) == "s.max_change_pct"
    assert most_moved(("rate", "moved"), ">", 25, "any rate moved more than 25", resolve) == "s.max_change"


def test_the_base_of_a_percentage_is_left_aside_and_nothing_else() -> None:
    assert without_base("any fare rose over 10 percent versus the list price") == "any fare rose over 10 percent"
    assert without_base("a line's cost grew by more than 5% relative to the budget") == (
        "a line's cost grew by more than 5%")
    assert without_base("the score is over 25 vs 30") == "the score is over 25 vs 30"  # no percentage
    assert without_base("any fare rose 10% vs the list price and the total is over 900") == (
        "any fare rose 10% vs the list price and the total is over 900")  # more after it
