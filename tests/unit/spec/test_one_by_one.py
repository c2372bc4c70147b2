"""A step said to go through a list an item at a time in other words ("one after another", "one-by-one",
"each in turn", "a folder at a time") runs once per item of the list a step before makes
(`spec.one_by_one` cues for `plan.fan_words`); "in turn" alone is no loop; "then, once both are back,
..." is a wait, no policy left unread. Each in a kind of its own."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.one_by_one import CUES
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

A = {"type": "array"}
OBJ = {"type": "object"}
S = {"type": "string"}
CATALOG = FakeCatalog(
    skill("list-essays", input_schema=obj(("week",), week=S), output_schema=obj(("essays",), essays=A)),
    skill("mark-essay", input_schema=obj(("essay",), essay=OBJ), output_schema=obj(("grade",), grade=S)),
    skill("grade-sheet", input_schema=obj(("grades",), grades=A), output_schema=obj(("sheet",), sheet=S)),
)


def _plan(text: str) -> tuple[Plan, list[str]]:
    spec = parse_spec_text(text, "doc.md", "markdown")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    return plan, [f"{w.line}:{w.code}" for w in [*spec.warnings, *plan.warnings]]


# a lesson plan: numbered items, "one after another"
LESSON = """# Year 9 marking

## Inputs
- week: the week's folder

## Steps
1. `list-essays` for the week.
2. Take the essays one after another and have `mark-essay` mark it.
3. `grade-sheet` collects all the grades.
"""
# an HR onboarding checklist: bullets, "one-by-one" hyphenated
ONBOARDING = """# New starters, Monday

Inputs: `week` (the intake week)

- `list-essays` pulls the week's starter forms.
- Work through them one-by-one with `mark-essay`.
- Finally `grade-sheet` gathers the grades.
"""
# a podcast run sheet: headings, "each in turn"
PODCAST = """# Episode prep

## Inputs
- week: recording week

## 1. Pull the scripts
`list-essays` for the week.

## 2. Check them
Each in turn goes to `mark-essay`.

## 3. Sheet
`grade-sheet` rolls all of those up.
"""
# a lab protocol: "a sample at a time" names the thing counted
LAB = """# Protocol 4

## Inputs
- week: run week

## Steps
1. `list-essays` lists the plates for the week.
2. Then, once that's all back, `mark-essay` reads the plates an essay at a time.
3. `grade-sheet` pools the grades.
"""


@pytest.mark.parametrize("text", [LESSON, ONBOARDING, PODCAST, LAB])
def test_the_words_make_a_loop_over_the_list_before_and_the_gather_takes_its_results(text: str) -> None:
    plan, codes = _plan(text)
    loop = plan.steps[1]
    assert loop.for_each is not None and loop.for_each.source.step == plan.steps[0].id
    assert loop.for_each.source.pointer == "/essays"
    grades = plan.steps[2].inputs["grades"]
    assert (grades.step, grades.gather) == (loop.id, True)
    assert not any(c.endswith("spec.policy-unread") for c in codes)


def test_in_turn_alone_is_no_loop() -> None:
    plan, _ = _plan(LESSON.replace("Take the essays one after another and have `mark-essay` mark it.",
                                   "`mark-essay`, which in turn checks the spelling."))
    assert plan.steps[1].for_each is None


@pytest.mark.parametrize(("text", "noun"), [("one after another", None), ("a folder at a time", "folder"),
                                            ("them in turn", None), ("one crate after the other", "crate")])
def test_the_cues(text: str, noun: str | None) -> None:
    found = [m for m in (c.search(text) for c in CUES) if m]
    assert found and found[0].groupdict().get("noun") == noun


def test_a_wait_for_the_steps_before_is_no_unread_policy() -> None:
    _, codes = _plan(LESSON.replace("2. Take the essays one after another and have `mark-essay` mark it.",
                                    "2. then, once both are back, go through the essays one by one with `mark-essay`."))
    assert not any(c.endswith("spec.policy-unread") for c in codes)
