"""A literal input value in words that speaks of a step, the loop's item or a gather is kept as the text
but warned (`plan.literal_words`); a short label or plain text is not. Each in a kind of its own."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.literal_words import literal_words
from orchestrator.spec import parse_spec_text

S = {"type": "string"}


@pytest.mark.parametrize(("value", "said"), [
    ("the boat this go is about", "the loop's item"),  # a harbour's berth plan
    ("all the step-20 answers, as one list", "a gather of results"),  # the same plan's roll-up
    ("whatever step 3 printed", "a step"),  # a print shop's job sheet
    ("each of the tasting results", "a gather of results"),  # a brewery's QC run
    ("the current row from the sheet", "the loop's item"),  # a payroll import
])
def test_words_that_speak_of_the_run_are_said(value: str, said: str) -> None:
    assert literal_words(value) == said


@pytest.mark.parametrize("value", ["Leith", "front desk", "please print in colour", "Hall B, step-free access",
                                   "x" * 400])
def test_a_label_or_plain_text_says_nothing(value: str) -> None:
    assert literal_words(value) is None


_KENNEL = """\
name: kennel-rota
steps:
  "10":
    skill: walk-dog
    input:
      dog: the dog this go is about
      note: early walk please
"""


def test_a_yaml_feed_in_words_is_kept_as_text_and_warned() -> None:
    catalog = FakeCatalog(skill("walk-dog", input_schema=obj(("dog", "note"), dog=S, note=S),
                                output_schema=obj(("walked",), walked=S)))
    plan = build_plan(parse_spec_text(_KENNEL, "rota.yaml", "yaml"), catalog, settings=SETTINGS)
    assert plan.steps[0].id == "step-10"  # a step keyed by a number is step-10
    assert plan.steps[0].inputs["dog"].value == "the dog this go is about"
    said = [w for w in plan.warnings if w.code == "plan.literal-words"]
    assert len(said) == 1 and "`dog`" in said[0].message and "the loop's item" in said[0].message
