""""Inputs for a run: ...", "Inputs per night: ..." said mid-paragraph list what the run is given
(`spec.steps34a.RUN_INPUTS_LEAD`, read by `spec.prose_inputs`); and a step's Input line keeps its
words for the planner's gather rule. Texts: a lab bench note, a shop's ticket, a hiking club's plan;
negatives: "Inputs per step:", "inputs for the model" without a colon, a chat line that packs inputs."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.prose_inputs import read_prose_inputs
from orchestrator.spec.step_prose import for_each_phrase
from orchestrator.spec.steps34a import input_words, plural_of


def _said(text: str) -> list[str]:
    return [part for part, _ in read_prose_inputs(text.splitlines(), str)]


@pytest.mark.parametrize(("text", "parts"), [
    ("Bench note, cold room 2. Inputs for a run: the plate map and the dye lot. Then it reads the plate.",
     ["the plate map", "the dye lot"]),
    ("TICKET SHOP-311: restock bot. Inputs per night: the store code, the shelf list and the cut-off time.",
     ["the store code", "the shelf list", "the cut-off time"]),
    ("Hiking club, weekend plan.\nInputs each morning: the trail name and the weather feed.",
     ["the trail name", "the weather feed"]),
], ids=["lab-bench-note", "shop-ticket", "club-plan"])
def test_inputs_for_a_run_mid_paragraph_lists_the_run_s_inputs(text: str, parts: list[str]) -> None:
    assert _said(text) == parts


@pytest.mark.parametrize("text", [
    "Club plan. Inputs per step: see the table under each heading.",  # the steps' inputs, not the run's
    "The inputs for the model are described in the appendix.",  # no colon: no list
    "[09:14] mira: ok so pack the inputs for the stove: gas, lighter.",  # not at a sentence's start
], ids=["per-step", "no-colon", "mid-sentence"])
def test_other_inputs_words_list_nothing(text: str) -> None:
    assert _said(text) == []


def test_a_step_s_input_line_keeps_its_words() -> None:
    spec = parse_spec_text("# Club hike\n\n## Step 1: Tally\n- Skill: tally-gear\n"
                           "- Input: all the packing lists, together\n", "plan.md", "markdown")
    assert input_words(spec.steps[0]) == "all the packing lists, together"
    bare = parse_spec_text("# Club hike\n\n## Step 1: Tally\n- Skill: tally-gear\n", "plan.md", "markdown")
    assert input_words(bare.steps[0]) == ""


# -- `fan:` / `scatter:` keys in an author's own YAML: a For each -------------------------------

_KITCHEN = """\
# friday service
steps:
  - id: prep
    skill: list-dishes
  - id: plate
    skill: plate-dish
    fan: prep.dishes
"""

_SEQUENCER = """\
jobs:
  shard:
    tool: split-reads
  align:
    tool: align-shard
    scatter: shard.chunks
"""


@pytest.mark.parametrize(("text", "sid", "over"), [
    (_KITCHEN, "plate", "item in steps.prep.output.dishes"),
    (_SEQUENCER, "align", "item in steps.shard.output.chunks"),
], ids=["kitchen-yaml", "sequencer-yaml"])
def test_a_fan_or_scatter_key_is_a_for_each(text: str, sid: str, over: str) -> None:
    spec = parse_spec_text(text, "flow.yaml", "yaml")
    step = next(s for s in spec.steps if s.id == sid)
    assert step.for_each == over


def test_a_step_without_a_fan_key_is_no_for_each() -> None:
    spec = parse_spec_text(_SEQUENCER.replace("    scatter: shard.chunks\n", ""), "flow.yaml", "yaml")
    assert all(s.for_each is None for s in spec.steps)


# -- "for every country that came out of step 1": that step's `countries` ------------------------


@pytest.mark.parametrize(("sentence", "item", "source"), [
    ("For every country that came out of step 1, run `localize-copy` on it.", "country", "steps.step-1.output.countries"),
    ("for each batch that came back from step 2, weigh it with `weigh-batch`", "batch", "steps.step-2.output.batches"),
    ("For every reply that came out of step 3: file it.", "reply", "steps.step-3.output.replies"),
    ("For every line that came out of step 4, check it.", "line", "steps.step-4.output.lines"),  # as before
    ("For every day that came out of step 1, book it.", "day", "steps.step-1.output.days"),  # a vowel before y
], ids=["promo-email", "bakery-card", "helpdesk-ticket", "plain-plural", "vowel-y"])
def test_a_loop_over_what_came_out_of_a_step_names_its_list_in_the_plural(sentence: str, item: str,
                                                                            source: str) -> None:
    found = for_each_phrase(sentence)
    assert found is not None and found[:2] == (item, source)


def test_plural_of_keeps_a_plural_and_adds_es_after_a_hiss() -> None:
    assert [plural_of(w) for w in ("results", "box", "address", "wish", "key")] == [
        "results", "boxes", "addresses", "wishes", "keys"]
