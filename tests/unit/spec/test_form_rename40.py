"""The warning of a form's filled-in inputs (`spec.form35`) names the input as the plan takes it: when
`spec.fill_names30` renames `class_code` to the `class` its skills read, the earlier warning says `class`,
not the label's name the plan no longer has. Forms of our own (a field trip sheet, a kennel's intake card)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

_READS = {
    "coach-booker": frozenset({"class", "day"}),
    "consent-pack": frozenset({"class"}),
    "kennel-board": frozenset({"dog", "arrival"}),
    "vet-check": frozenset({"dog_tag"}),
}

TRIP = """FIELD TRIP SHEET
CLASS CODE ....... 7B-GEO
TRIP DAY ......... 2027-03-04
(fill both in fresh for every trip -- everything below reads them)

1. Book the coach with `coach-booker` for CLASS CODE.
2. Make the `consent-pack` for CLASS CODE.
"""

KENNEL = """KENNEL INTAKE CARD
DOG NAME ......... Biscuit
ARRIVAL .......... 2027-01-09
(fill these in fresh for every dog -- the steps read them)

1. Put DOG NAME on the `kennel-board` with the ARRIVAL day.
"""

KEPT = """KENNEL INTAKE CARD
DOG TAG .......... K-114
ARRIVAL .......... 2027-01-09
(fill these in fresh for every dog -- the steps read them)

1. Run the `vet-check` for DOG TAG.
"""


def _read(text: str):  # type: ignore[no-untyped-def]
    vocab = Vocabulary.of((n, None) for n in _READS).with_outputs(lambda _: frozenset(), lambda n: _READS[n])
    return parse_spec_text(text, "sheet.txt", "markdown", vocab)


def _filled(spec) -> str:  # type: ignore[no-untyped-def]
    return next(w.message for w in spec.warnings if w.message.startswith("the form's filled-in fields"))


def test_the_filled_in_warning_names_the_renamed_input() -> None:
    spec = _read(TRIP)
    assert [i.name for i in spec.inputs] == ["class", "trip_day"]
    assert _filled(spec).startswith("the form's filled-in fields read as the workflow inputs: class, trip_day (")


def test_a_second_form_renamed_in_its_first_field() -> None:
    spec = _read(KENNEL)
    assert [i.name for i in spec.inputs] == ["dog", "arrival"]
    assert "workflow inputs: dog, arrival (" in _filled(spec)


def test_negative_a_name_the_skill_reads_whole_is_warned_as_it_was() -> None:
    spec = _read(KEPT)
    assert [i.name for i in spec.inputs] == ["dog_tag", "arrival"]
    assert "workflow inputs: dog_tag, arrival (" in _filled(spec)
