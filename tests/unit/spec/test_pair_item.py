"""One list item, heading or labelled list that tells two steps started together is read as the two
(`spec.pair_item`): each skill runs, each policy line goes with the step whose paragraph it sits
under or whose skill it names, the second starts with the first, and the split is warned."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.blocks import Para
from orchestrator.spec.pair_item import entries, pair_of, together
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("chill-dough", input_schema=obj(("batch",), batch="string"), output_schema=obj(("dough",), dough="string")),
    skill("heat-grill", input_schema=obj(("grill",), grill="string"), output_schema=obj(("hot",), hot="boolean")),
    skill("grill-backup", input_schema=obj(("grill",), grill="string"), output_schema=obj(("hot",), hot="boolean")),
    skill("plate-up", input_schema=obj(("dough", "hot"), dough="string", hot="boolean"),
          output_schema=obj(("plates",), plates="integer")),
)


def _plan(text: str, name: str = "doc.md") -> tuple[Plan, list[str]]:
    spec = parse_spec_text(text, name, "markdown")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    return plan, [f"{w.line}:{w.code}" for w in spec.warnings]


# a recipe card: a numbered item whose two paragraphs each start a piece of work, "both at once"
RECIPE = """# Flatbread for twelve

1. Rest the dough and fire up the grill -- both at once, they don't depend on each other.

   The dough goes through `chill-dough` for the batch.
   - if the fridge sensor fails, retry it 2 times, 10 s apart.

   The grill is lit by `heat-grill`.
   - never let it run past 45 seconds.

2. Plate it with `plate-up`.
"""
# an HR onboarding checklist: a bulleted item, the two pieces of work in sub-bullets of their own
ONBOARDING = """# New starter, day one

- Laptop and badge, side by side
  - Laptop imaging is `chill-dough` for the batch. Retry it 2 times on failure, 10 s apart.
  - Badge printing is `heat-grill`. Time out after 45 seconds.
- Then `plate-up` hands both over.
"""
# a lab protocol: a numbered heading with a lead that says "in parallel", a paragraph per skill
LAB = """# Protocol 12: gel prep

## 1. Buffer and bath

Run these in parallel; neither needs the other.

Make the buffer with `chill-dough` for the batch. If it fails, retry 2 times, 10 s apart.

Warm the bath with `heat-grill`. Time out after 45 seconds. If `heat-grill` fails, use `grill-backup` instead.

## 2. Load

`plate-up` loads the gel.
"""
# a podcast run sheet in AsciiDoc: a lead line, then a labelled list of two entries
PODCAST = """= Episode 41 run sheet

Before we roll, two things side by side -- neither waits for the other:

[horizontal]
mics:: `chill-dough` on the batch. If it fails, retry 2 times, 10 s apart.
lights:: `heat-grill` on the studio grid. Time out after 45 seconds.

TIP: the dimmer is flaky. If `heat-grill` fails, use `grill-backup` instead.

Then `plate-up` starts the recording.
"""


@pytest.mark.parametrize(("text", "name"), [(RECIPE, "doc.md"), (ONBOARDING, "doc.md"), (LAB, "doc.md"),
                                            (PODCAST, "sheet.adoc")],
                         ids=["recipe-card", "hr-onboarding", "lab-protocol", "podcast-adoc"])
def test_two_pieces_of_work_said_to_start_together_are_two_steps_with_their_own_policies(text: str, name: str) -> None:
    plan, warned = _plan(text, name)
    skills = [s.skill for s in plan.steps]
    assert skills.count("chill-dough") == 1 and skills.count("heat-grill") == 1 and "plate-up" in skills
    by = {s.skill: s for s in plan.steps}
    first, second = by["chill-dough"], by["heat-grill"]
    assert first.policy.retry.max_retries == 2  # the retry is the first's
    assert second.policy.retry.max_retries == 0
    assert second.policy.attempt_timeout_s == 45  # the 45 s is the second's, not the first's
    assert first.policy.attempt_timeout_s is None
    assert list(second.depends_on) == list(first.depends_on) == []  # they start together
    assert any(w.endswith("spec.pair-split") for w in warned)
    assert not any(w.endswith("spec.skill-not-run") for w in warned)


@pytest.mark.parametrize("text", [LAB, PODCAST], ids=["lab-protocol", "podcast-adoc"])
def test_a_fallback_line_naming_the_second_skill_goes_with_the_second_step(text: str) -> None:
    plan, _ = _plan(text, "sheet.adoc" if text is PODCAST else "doc.md")
    by = {s.skill: s for s in plan.steps}
    assert by["heat-grill"].policy.fallback.skill == "grill-backup"
    assert by["chill-dough"].policy.fallback.skill is None


def test_the_step_names_come_from_the_item_halves_or_the_entry_labels() -> None:
    plan, _ = _plan(RECIPE)
    assert [s.name for s in plan.steps[:2]] == ["Rest the dough", "fire up the grill"]
    plan, _ = _plan(PODCAST, "sheet.adoc")
    assert [s.name for s in plan.steps[:2]] == ["mics", "lights"]


def test_a_pair_after_a_step_waits_for_what_that_step_waits_for() -> None:
    text = ("# Ship's log, dawn watch\n\n1. Take the bearings with `plate-up`.\n\n"
            "2. Trim and heading -- at the same time.\n\n   Trim with `chill-dough` on the batch.\n\n"
            "   Heading from `heat-grill` on the grill.\n")
    plan, _ = _plan(text)
    assert [s.skill for s in plan.steps] == ["plate-up", "chill-dough", "heat-grill"]
    assert list(plan.steps[1].depends_on) == list(plan.steps[2].depends_on) == ["step-1"]


def test_two_skills_in_one_item_with_no_words_of_a_start_together_stay_one_step() -> None:
    text = ("# Recipe\n\n1. Dough.\n\n   Make it with `chill-dough` for the batch.\n\n"
            "   Then bake it with `heat-grill`.\n\n2. `plate-up`.\n")
    _, warned = _plan(text)
    assert not any(w.endswith("spec.pair-split") for w in warned)


def test_a_skill_named_only_as_a_fallback_is_no_second_step() -> None:
    text = ("# Recipe\n\n1. Grill and rest -- at the same time.\n\n   Light it with `heat-grill`.\n\n"
            "   If that fails, use `grill-backup` instead.\n\n2. `plate-up`.\n")
    plan, warned = _plan(text)
    assert [s.skill for s in plan.steps] == ["heat-grill", "plate-up"]
    assert not any(w.endswith("spec.pair-split") for w in warned)


def test_a_labelled_list_without_words_of_a_start_together_runs_in_order_and_says_so() -> None:
    text = ("= Run sheet\n\n[horizontal]\nmics:: `chill-dough` on the batch.\nlights:: `heat-grill` on the grid.\n\n"
            "Then `plate-up` starts.\n")
    spec = parse_spec_text(text, "sheet.adoc", "markdown")
    assert [s.name for s in spec.steps][:2] == ["mics", "lights"]
    assert spec.steps[1].starts_with is None
    assert any("no words say they start together" in w.message for w in spec.warnings)


def test_the_cue_words_and_the_entries() -> None:
    assert together("do these two at the same time")
    assert together("neither waits for the other")
    assert not together("put it all together and post it")
    para = Para(line=5, text="[horizontal]\nmics:: `chill-dough` now.\nlights:: `heat-grill` too.")
    assert [b.line for b in entries(para)] == [6, 7]
    assert entries(Para(line=1, text="mics:: `chill-dough`.\nlights:: `chill-dough` again.")) == [
        Para(line=1, text="mics:: `chill-dough`.\nlights:: `chill-dough` again.")]
    assert pair_of("", [Para(line=1, text="Run `chill-dough`.")]) is None
