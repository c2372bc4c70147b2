"""A condition read from a step's title is compiled against the values the steps give; a bare comparison
in a title that names no such value is dropped with a warning, never an error that refuses the spec."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("score-lead", output_schema=obj(("score",), score="number")),
    skill("call-lead", input_schema=obj(("score",), score="number")),
    skill("drip-mail"),
    skill("sweep-files"),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "kanban.md", "markdown"), CATALOG, settings=SETTINGS)


def test_a_kanban_card_s_threshold_title_is_compiled_against_the_earlier_output_and_its_complement() -> None:
    plan = _plan("# Lead routing board\n\n## Steps\n\n### Step 1: Score\n`score-lead`\n\n"
                 "### Step 2: Score at least 60 → call\n`call-lead`\n\n### Step 3: Everything below 60 → drip\n"
                 "`drip-mail`\n")
    assert plan.step("step-2").when == "steps['step-1'].output.score >= 60"
    assert plan.step("step-3").when == "not (steps['step-1'].output.score >= 60)"


def test_a_title_comparison_that_names_no_value_is_dropped_with_a_warning() -> None:
    plan = _plan("# Janitor\n\n## Steps\n\n### Step 1: Sweep over 9000 files\n`sweep-files`\n")
    assert plan.step("step-1").when is None
    assert [w.line for w in plan.warnings if w.code == "spec.condition-not-read"] == [5]
