"""A step's field lines in words (`spec.steps37`): "Kicks off after: nothing" is a root; an Input line's
"ready lifts (#2)" is step 2's output named for a skill's input, parts joined by " + " read one by one;
"Things the desk types in at the start:" lists the run's inputs. Texts: a bakery runbook, a lab
protocol, a shop ticket, a harbour checklist, a club's plan; negatives: "nothing special", words that
name no skill's input, a label with no "after", a "types in" sentence without its colon."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import StepSpec
from orchestrator.spec.prose_inputs import read_prose_inputs
from orchestrator.spec.source import Source
from orchestrator.spec.steps37 import phrase_fields, start_after_label, waits_for_nothing
from orchestrator.spec.vocabulary import Vocabulary

_READS = {"weigh-flour": {"batch"}, "mix-dough": {"flour_weight", "oven_slot"}, "bake": {"tray"}}


def _vocabulary() -> Vocabulary:
    return Vocabulary.of((name, None) for name in _READS).with_outputs(
        lambda s: frozenset(), lambda s: frozenset(_READS.get(s, set())))


@pytest.mark.parametrize("label", ["kicks off after", "Starts after", "runs after", "**Begins after**"])
def test_labels_that_say_after_what_the_step_starts(label: str) -> None:
    assert start_after_label(label)


@pytest.mark.parametrize("label", ["kicks off", "after hours", "runs", "notes after", None])
def test_other_labels_are_not_start_after_labels(label: str | None) -> None:
    assert not start_after_label(label)


@pytest.mark.parametrize("value", ["nothing", "nothing — same time as A", "none (first thing)", "Nothing, first thing",
                                   "no other step"])
def test_nothing_or_none_opening_the_value_waits_for_no_step(value: str) -> None:
    assert waits_for_nothing(value)


@pytest.mark.parametrize("value", ["nothing special", "A and B", "none of the ovens are free", "step 1"])
def test_other_values_wait_for_something(value: str) -> None:
    assert not waits_for_nothing(value)


def _waits_for_none(step: StepSpec) -> bool:
    return any(r.what == "depends_on" and "waits for no step" in r.note for r in step.readings)


_RUNBOOK = """\
# Bakery night run

## Step 1: Weigh
- Skill: `weigh-flour`

## Step 2: Proof the starter
- Skill: `mix-dough`
- **Kicks off after:** nothing, first thing

## Step 3: Bake
- Skill: `bake`
- **Starts after:** step 1 and step 2
"""


def test_a_runbook_s_kicks_off_after_nothing_is_a_root() -> None:
    spec = parse_spec_text(_RUNBOOK, "run.md", "markdown")
    assert spec.steps[1].depends_on == ()
    assert _waits_for_none(spec.steps[1])
    assert set(spec.steps[2].depends_on) == {"step-1", "step-2"}


_PROTOCOL = """\
# Plate assay protocol

## A. Thaw the plates

| Field | Value |
|---|---|
| Script | weigh-flour |
| Runs after | none, first thing |

## B. Dilute

| Field | Value |
|---|---|
| Script | mix-dough |
| Kicks off after | nothing — same time as A |
"""


def test_a_protocol_table_s_runs_after_none_is_a_root() -> None:
    spec = parse_spec_text(_PROTOCOL, "protocol.md", "markdown", _vocabulary())
    assert spec.steps[1].depends_on == ()
    assert _waits_for_none(spec.steps[1]) or spec.steps[1].depends_where is not None


def test_a_harbour_checklist_without_an_after_label_keeps_the_step_order() -> None:
    text = _RUNBOOK.replace("**Kicks off after:** nothing, first thing", "**Notes:** nothing special")
    spec = parse_spec_text(text, "run.md", "markdown")
    assert not _waits_for_none(spec.steps[1])


def _fields(part: str) -> tuple[list[tuple[str, str | None]], list[str]]:
    src = Source("x\n", "t.md", _vocabulary())
    said = phrase_fields(part, src, 1)
    return ([(f.name, f.source) for f in said] if said is not None else []), [d.message for d in src.warnings]


@pytest.mark.parametrize(("part", "fields"), [
    ("oven slot (#2)", [("oven_slot", "steps.step-2.output.oven_slot")]),  # a shop ticket's "In:" line
    ("batch + flour weight (step 1)", [("flour_weight", "steps.step-1.output.flour_weight")]),  # a lab protocol
    ("the tray from step 3", [("tray", "steps.step-3.output.tray")]),  # a club's plan
    ("flour weight from #1", [("flour_weight", "steps.step-1.output.flour_weight")]),
], ids=["hash-in-brackets", "plus-joined", "from-step", "from-hash"])
def test_words_with_a_step_beside_them_name_that_step_s_output(part: str, fields: list[tuple[str, str]]) -> None:
    assert _fields(part)[0] == fields


def test_a_plus_joined_piece_not_read_is_warned_on_its_own() -> None:
    fields, warned = _fields("batch + flour weight (step 1)")
    assert fields == [("flour_weight", "steps.step-1.output.flour_weight")]
    assert any("'batch' is not read" in w for w in warned)


@pytest.mark.parametrize("part", ["the readings (#1)", "oven slot", "wind direction (#1)", "oven slot (#x)"])
def test_words_naming_no_skill_s_input_or_no_step_are_left(part: str) -> None:
    assert _fields(part) == ([], [])


def test_with_no_catalog_nothing_is_read() -> None:
    src = Source("x\n", "t.md")
    assert phrase_fields("oven slot (#2)", src, 1) is None


def _said(text: str) -> list[str]:
    return [part for part, _ in read_prose_inputs(text.splitlines(), str)]


@pytest.mark.parametrize(("text", "parts"), [
    ("Things the night baker types in at the start: the batch code, the oven slot.", ["the batch code", "the oven slot"]),
    ("What the harbour desk enters first: the berth and the tide table.", ["the berth", "the tide table"]),
    ("Stuff the club secretary fills in up front: the trail name, the headcount.", ["the trail name", "the headcount"]),
], ids=["bakery", "harbour", "club"])
def test_what_a_person_types_in_at_the_start_lists_the_run_s_inputs(text: str, parts: list[str]) -> None:
    assert _said(text) == parts


@pytest.mark.parametrize("text", [
    "The baker types in the batch code when the oven is hot.",  # no lead, no colon
    "Things to check at the start: the oven, the flour.",  # nothing is typed in
], ids=["no-colon", "no-verb"])
def test_other_typing_sentences_list_nothing(text: str) -> None:
    assert _said(text) == []
