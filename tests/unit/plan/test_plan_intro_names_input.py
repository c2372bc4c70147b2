"""A value a later step's skill reads that no step outputs, named in words in the text before the steps
("plus the target ABV off the recipe card" for `target_abv`), is a workflow input when the spec declares
none, said in the derived-inputs warning (`plan.outside.said_in_words`). Documents: a brewery release
list, a kennel's intake sheet, a greenhouse watering rota, a choir's concert checklist."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.outside import said_in_words
from orchestrator.spec import parse_spec_text

_CATALOG = FakeCatalog(
    skill("first-do", input_schema=obj(("lot_id",), lot_id="string"), output_schema=obj(("rows",), rows="array")),
    skill("then-do", input_schema=obj(("rows", "target_level"), rows="array", target_level="number"),
          output_schema=obj(("ok",), ok="boolean")),
)


@pytest.mark.parametrize(("name", "text", "said"), [
    ("target_abv", "plus the target ABV off the recipe card", True),
    ("batch_id", "Needs the batch-id from the lab", True),
    ("target_abv", "the ABV target", False),  # another order
    ("lot", "the lot", False),  # one word: an everyday word, no name
    ("max_water_ml", "the max water ml", True),
    ("q3_rows", "q3 rows", False),  # a part that is no word
])
def test_a_name_said_as_its_words_in_order(name: str, text: str, said: bool) -> None:
    assert said_in_words(name, text) is said


def _plan(intro: str):  # type: ignore[no-untyped-def]
    text = f"# Flow\n\n{intro}\n\n1. Pull the rows with `first-do` for the lot id.\n2. Check them with `then-do`.\n"
    return build_plan(parse_spec_text(text, "f.md", "markdown"), _CATALOG, settings=SETTINGS)  # type: ignore[arg-type]


@pytest.mark.parametrize("intro", [
    "Kennel intake: bring the lot id and the target level for the day.",  # a kennel's intake sheet
    "Greenhouse rota. You'll need the lot ID and the Target Level off the chart.",  # a watering rota
    "Choir checklist — needs lot_id and the target-level from the conductor.",  # a choir's checklist
])
def test_an_intro_that_names_a_later_step_s_value_in_words_makes_it_an_input(intro: str) -> None:
    plan = _plan(intro)
    assert "target_level" in {i.name for i in plan.inputs}
    step = plan.steps[1]
    assert step.inputs["target_level"].source == "input"
    warned = next(w for w in plan.warnings if w.code == "derived-inputs")
    assert "target_level" in warned.message


def test_an_intro_that_does_not_name_it_invents_no_input() -> None:  # validate then says it is missing
    plan = _plan("Brewery release: bring the lot id.")
    assert "target_level" not in {i.name for i in plan.inputs}
    assert "target_level" not in plan.steps[1].inputs
