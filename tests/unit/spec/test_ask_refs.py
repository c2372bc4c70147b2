"""A block of asked-for inputs in an author's own YAML schema whose entries each describe their input
(`asks_for: {site: {what: ..., eg: ...}}`) declares those inputs, and `ask.NAME` / `input.NAME` in a
step's values is that input, never the literal text; a head of the block with a name not asked for is
kept as text and warned at its line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("proof-dough", "bake-loaf", "label-loaf", "thaw-sample", "spin-sample", "log-run", "open-ticket",
          "page-owner", "close-ticket")
CATALOG = Vocabulary.of([(s, None) for s in SKILLS]).with_outputs(lambda s: frozenset({"ok", "ticket_id"}))


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.yaml", "yaml", CATALOG)


def _sources(spec) -> dict[str, dict[str, object]]:  # type: ignore[no-untyped-def]
    return {s.id: {**{f.name: f.source for f in s.inputs if f.source}, **s.input_values} for s in spec.steps}


# a bakery's own recipe file
BAKERY = """\
recipe: sourdough
we_ask:                     # the baker types these in
  flour_kg: {what: "flour by weight", eg: 5}
  oven: {what: "which deck oven", help: "A or B"}
method:
  proof:
    uses: proof-dough
    feed: {flour_kg: ask.flour_kg, hours: 12}
  bake:
    uses: bake-loaf
    after: [proof]
    feed: {oven: ask.oven}
"""

# a lab's own run sheet
LAB = """\
run: plasma-prep
ask_the_tech:
  sample_id: {description: "tube barcode", example: "PL-0091"}
  rpm:
    what: spin speed
    default: 3000
stages:
  - id: thaw
    does: thaw-sample
    with: {sample: input.sample_id}
  - id: spin
    does: spin-sample
    after: [thaw]
    with: {speed: asked.rpm, sample: ask_the_tech.sample_id}
"""

# an on-call team's own ticket flow
ONCALL = """\
name: page-on-outage
prompts:
  service: {label: "service name"}
  severity: {one_of: "sev1, sev2", note: "sev1 wakes people"}
jobs:
  open:
    runs: open-ticket
    args: {service: prompt.service, severity: prompted.severity}
  page:
    runs: page-owner
    needs: [open]
    args: {service: prompts.service, ticket: open.ticket_id}
"""


def test_a_bakerys_asked_block_of_described_inputs_declares_them_and_ask_refs_bind_to_them() -> None:
    spec = _read(BAKERY)
    assert [i.name for i in spec.inputs] == ["flour_kg", "oven"]
    assert spec.inputs[0].description == "flour by weight (e.g. 5)"
    assert _sources(spec) == {"proof": {"flour_kg": "inputs.flour_kg", "hours": 12}, "bake": {"oven": "inputs.oven"}}


def test_a_lab_run_sheets_inputs_take_input_asked_and_the_blocks_own_name_as_heads() -> None:
    spec = _read(LAB)
    assert [i.name for i in spec.inputs] == ["sample_id", "rpm"]
    assert _sources(spec) == {"thaw": {"sample": "inputs.sample_id"},
                              "spin": {"speed": "inputs.rpm", "sample": "inputs.sample_id"}}


def test_an_oncall_flows_prompt_block_binds_each_form_of_its_word() -> None:
    spec = _read(ONCALL)
    assert [i.name for i in spec.inputs] == ["service", "severity"]
    src = _sources(spec)
    assert src["open"] == {"service": "inputs.service", "severity": "inputs.severity"}
    assert src["page"]["service"] == "inputs.service"


def test_a_head_of_the_asked_block_with_a_name_not_asked_for_is_text_and_warned() -> None:
    spec = _read(BAKERY.replace("feed: {oven: ask.oven}", "feed: {oven: ask.ovens}"))
    assert _sources(spec)["bake"] == {"oven": "ask.ovens"}
    assert [w.line for w in spec.warnings if "no input of that name is asked for" in w.message] == [12]


def test_without_an_asked_block_a_dotted_value_stays_a_literal() -> None:
    spec = _read("recipe: x\nmethod:\n  proof:\n    uses: proof-dough\n    feed: {note: ask.me}\n")
    assert not spec.inputs
    assert _sources(spec)["proof"] == {"note": "ask.me"}


def test_a_block_under_an_asking_key_that_holds_lists_is_not_read_as_described_inputs() -> None:
    text = ("asks_for:\n  batch: {what: batch id, steps: [a, b]}\nmethod:\n  proof:\n    uses: proof-dough\n"
            "    feed: {batch: ask.batch}\n")
    spec = _read(text)
    assert "batch" not in [i.name for i in spec.inputs]
    assert _sources(spec)["proof"]["batch"] != "inputs.batch"
