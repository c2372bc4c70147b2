"""A condition on a count of people in the author's word ("more than 20 kids going"), an input given
"the <words> from step N" that names no field, and a name alone that nothing gives: a school trip
letter, a wedding seating plan, a clinic's session rota (`plan.people_words26`, `plan.words_field26`),
each a guess that is warned; with texts that must not be read so."""

from __future__ import annotations

from orchestrator.plan.meaning import Value, by_meaning, stems
from orchestrator.plan.people_words26 import counted_by_noun, widen
from orchestrator.plan.words_field26 import field_of_words
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill, step_by_skill

CATALOG = FakeCatalog(
    skill("count-roster", input_schema=obj((), class_list="array"),
          output_schema=obj(("pupils", "helpers_needed", "absent"), pupils="integer", helpers_needed="integer",
                            absent="array")),
    skill("book-coach", input_schema=obj((), pupils="integer", adults="integer"),
          output_schema=obj(("cost",), cost="number")),
    skill("book-minibus", input_schema=obj((), pupils="integer"), output_schema=obj(("cost",), cost="number")),
)

TRIP_LETTER = """\
# Year 4 trip

Dear all, the plan for the trip:

| # | Step | Skill | Uses | After | Only if |
|---|------|-------|------|-------|---------|
| 1 | Count | count-roster | - | - | - |
| 2 | Coach | book-coach | pupils = headcount from step 1, adults = helpers from step 1 | 1 | more than 20 kids going |
| 3 | Minibus | book-minibus | - | 1 | otherwise |
"""


def test_a_trip_letter_branches_on_the_pupils_it_calls_kids() -> None:
    plan = plan_of_text(TRIP_LETTER, CATALOG)
    coach = step_by_skill(plan, "book-coach")
    assert coach.when == "steps['step-1'].output.pupils > 20"
    assert step_by_skill(plan, "book-minibus").when == "not (steps['step-1'].output.pupils > 20)"
    bound = {n: (b.step, b.pointer) for n, b in coach.inputs.items()}
    assert bound["pupils"] == ("step-1", "/pupils")
    assert bound["adults"] == ("step-1", "/helpers_needed")
    said = " ".join(w.message for w in plan.warnings)
    assert "by its meaning" in said and "the input's own name" in said


def _values(*names: str) -> list[Value]:
    return [Value(n, f"steps['step-1'].output.{n}", "step-1's output", "seat-guests") for n in names]


def test_guests_at_a_wedding_are_counted_by_the_attendees_field() -> None:
    found, note = by_meaning(("guest", "count"), _values("attendees", "tables"), numeric=True)
    assert found is not None and found.name == "attendees" and "by its meaning" in note


def test_a_clinic_rota_counts_patients_by_its_own_field_and_not_staff_by_people_words() -> None:
    found, _ = by_meaning(("patient", "count"), _values("patients", "nurses_on"), numeric=True)
    assert found is not None and found.name == "patients"
    missing, _ = by_meaning(("staff", "count"), _values("patients", "visitors"), numeric=True)
    assert missing is None  # staff are a role, not people in general


def test_people_words_are_one_meaning_and_other_words_stay_their_own() -> None:
    assert widen(stems("kids")) == widen(stems("pupils")) == frozenset({"person"})
    assert widen(stems("boxes")) == stems("boxes")
    assert counted_by_noun(frozenset({"person", "count"}), frozenset({"person"}), "pupils")
    assert not counted_by_noun(frozenset({"high", "count"}), frozenset({"any", "high"}), "any_high")  # a flag
    assert not counted_by_noun(frozenset({"worn", "count"}), frozenset({"worn"}), "worn")  # said of them, no noun


def test_the_words_before_from_step_n_pick_a_field_only_when_one_is_meant() -> None:
    assert field_of_words("headcount", "pupils", ["pupils", "absent"])[0] == "pupils"  # type: ignore[index]
    assert field_of_words("price", "entry_price", ["price_per_head", "open"])[0] == "price_per_head"  # type: ignore[index]
    assert field_of_words("flour in the bin", "flour_kg", ["kg_on_hand", "source"])[0] == "kg_on_hand"  # type: ignore[index]
    assert field_of_words("stuff in the bin", "flour_kg", ["kg_on_hand", "kg_wasted"]) is None  # its name shares with two
    assert field_of_words("the rows", "left", ["rows", "count"]) is None  # a word names a field: its own rule
    assert field_of_words("total", "x", ["total_a", "total_b"]) is None  # two share the word
