"""An own-schema YAML key that lists where each of a step's inputs comes from (`feed:`, `wiring:`,
`inputs_from:`, `takes:`) is read as the step's inputs: `$name` a workflow input, `job.field` an
earlier job's output, anything else a literal. Each in a kind of document of its own."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import InputBinding
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = FakeCatalog(
    skill("weigh-batch", input_schema=obj(("flour",), flour="number"), output_schema=obj(("grams",), grams="number")),
    skill("proof-dough", input_schema=obj(("grams", "hours", "oven"), grams="number", hours="number", oven="string"),
          output_schema=obj(("ready",), ready="boolean")),
)

_RECIPE_CARD = """\
# Sourdough, bakery card 12
needs_from_you:
  flour: kilos of flour on the bench
jobs:
  weigh:
    uses: weigh-batch
    feed:
      flour: $flour
  proof:
    uses: proof-dough
    after: weigh
    feed:
      grams: weigh.grams
      hours: 14
      oven: deck two
"""

_SHIPS_LOG = """\
# Galley stores, MV Petrel
needs_from_you:
  flour: flour in the dry store
jobs:
  weigh:
    uses: weigh-batch
    wiring:
      flour: $flour
  proof:
    uses: proof-dough
    after: weigh
    wiring:
      grams: weigh.grams
      hours: 14
      oven: deck two
"""

_LAB_PROTOCOL = """\
# SOP 44 - culture media batch
needs_from_you:
  flour: agar powder, grams
tasks:
  - id: weigh
    uses: weigh-batch
    inputs_from:
      flour: $flour
  - id: proof
    uses: proof-dough
    inputs_from:
      grams: weigh.grams
      hours: 14
      oven: deck two
"""

_PODCAST_SHEET = """\
# Episode 88 run sheet (bread special)
needs_from_you:
  flour: how much flour the guest brings
jobs:
  weigh:
    uses: weigh-batch
    takes:
      flour: $flour
  proof:
    uses: proof-dough
    after: weigh
    takes:
      grams: weigh.grams
      hours: 14
      oven: deck two
"""


@pytest.mark.parametrize("text", [_RECIPE_CARD, _SHIPS_LOG, _LAB_PROTOCOL, _PODCAST_SHEET],
                         ids=["recipe-card", "ships-log", "lab-protocol", "podcast-sheet"])
def test_a_key_listing_each_input_s_source_binds_inputs_outputs_and_literals(text: str) -> None:
    spec = parse_spec_text(text, "w.yaml", "yaml")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    weigh, proof = plan.step("weigh"), plan.step("proof")
    assert weigh.inputs["flour"].source == "input" and weigh.inputs["flour"].name == "flour"
    grams = proof.inputs["grams"]
    assert (grams.source, grams.step, grams.pointer) == ("step", "weigh", "/grams")
    assert proof.inputs["hours"] == InputBinding(source="literal", value=14)
    assert proof.inputs["oven"] == InputBinding(source="literal", value="deck two")
    assert not any("not understood" in w.message for w in plan.warnings)


def _arrowed(kind_title: str, key: str, lab: str) -> str:
    return f"""\
# {kind_title}
station: {lab}
needs_from_you:
  flour: what is on the bench
legs:
  - leg: weigh it
    uses: weigh-batch
    {key}:
      flour: $flour
  - leg: proof it
    uses: proof-dough
    {key}:
      grams: weigh it -> grams
      hours: 14
      oven: station
"""


@pytest.mark.parametrize(("title", "key", "lab"), [
    ("Allotment watering rota", "feed", "shed two"), ("Ship's galley log", "wiring", "galley"),
    ("Podcast bake-along run sheet", "takes", "studio oven"), ("SOP 3 - media prep", "inputs_from", "hood 4"),
], ids=["allotment-rota", "ships-log", "podcast-sheet", "lab-sop"])
def test_an_arrow_to_a_step_s_field_and_a_top_level_key_s_name_are_read_warned(title: str, key: str, lab: str) -> None:
    spec = parse_spec_text(_arrowed(title, key, lab), "w.yaml", "yaml",
                           Vocabulary(skills=frozenset({"weigh-batch", "proof-dough"})))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    proof = plan.step("proof-it")
    grams = proof.inputs["grams"]
    assert (grams.source, grams.step, grams.pointer) == ("step", "weigh-it", "/grams")
    assert "weigh-it" in proof.depends_on  # it takes weigh it's output: it waits for it
    assert proof.inputs["oven"] == InputBinding(source="literal", value=lab)
    warned = [w for w in spec.warnings if w.code == "spec.input-feed"]
    assert len(warned) == 2 and any("weigh-it.output.grams" in w.message for w in warned)
