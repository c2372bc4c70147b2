"""Forms with filled-in example fields, rows with a starred aside after the skill, rows that start "and at
the same time" (`spec.form35`), and the values and hand-offs said in their words (`opening_value`,
`threshold_value`, `plan.said_assign`): a boat-hire docket, a lab sample sheet, a school-trip form, a
kennel checklist, a print-shop job card, a bakery timeline; and texts that look alike but are not so read."""

from __future__ import annotations

from typing import Any

from orchestrator.plan.said_assign import said_sources
from orchestrator.spec import parse_spec_text
from orchestrator.spec.form35 import opening_value, threshold_value
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("boat-book", "life-jacket-count", "harbour-notice", "sample-log", "spin-down", "result-file",
          "coach-book", "consent-pack", "kennel-check", "vet-call", "all-well-note", "owner-text",
          "proof-print", "plate-make", "press-run", "dough-mix", "oven-heat", "bake-off")


def _spec(text: str) -> Any:
    return parse_spec_text(text, "form.txt", "markdown", Vocabulary.of([(s, None) for s in SKILLS]))


def _by_skill(spec: Any) -> dict[str, Any]:
    return {next((m.text for m in s.mentions if m.text in SKILLS), s.skill or s.name): s for s in spec.steps}


BOAT = """\
RIVERSIDE BOAT HIRE                                   DAILY DOCKET
=====================================================================
PARTY NAME ....... Okonjo family
HIRE DATE ........ 2027-07-03
BOAT ............. Dragonfly (6 seat)
(fill these in new for each party -- the steps below read them)

 1. BOOK ........ boat-book
    Party name, hire date and boat from the top.
 2. JACKETS ..... life-jacket-count
    One per seat on the boat.
 3. NOTICE ...... harbour-notice
    Tell the harbour master the hire date.
"""


def test_a_boat_hire_docket_s_fields_filled_in_per_party_are_the_inputs() -> None:
    spec = _spec(BOAT)
    assert [i.name for i in spec.inputs] == ["party_name", "hire_date", "boat"]
    assert all(i.required and i.default is None for i in spec.inputs)
    assert "an example: 2027-07-03" in spec.inputs[1].description
    assert any("filled-in fields read as the workflow inputs" in w.message for w in spec.warnings if w.line == 3)


LAB = """\
SAMPLE SHEET  (cold room)
SAMPLE ID: ...S-0419...     RECEIVED: ...2027-02-11...     TECH: ..R. Baines..
Label the tubes before you start.

 A. LOG IT ......... sample-log
    Sample id from the front of the sheet.
 B. SPIN ........... spin-down
 C. FILE ........... result-file
    Received date off the front, and the spin result from B.
"""


def test_a_lab_sheet_s_fields_named_from_the_front_are_the_inputs_without_their_dots() -> None:
    spec = _spec(LAB)
    assert [i.name for i in spec.inputs] == ["sample_id", "received"]  # TECH: named by no step
    assert "an example: S-0419)" in spec.inputs[0].description


TRIP = """\
YEAR 6 TRIP FORM
TEACHER ........ Mrs Adeyemi            DESTINATION ....... Science Museum
(the office keeps this form on file)

 1. COACH ....... coach-book
 2. CONSENT ..... consent-pack
"""


def test_written_fields_nothing_says_are_filled_in_per_run_are_no_inputs() -> None:
    spec = _spec(TRIP)
    assert not any(i.name in ("teacher", "destination") for i in spec.inputs)
    # "keep on file" is no per-run note, and no step takes them "from the top"
    assert not any("filled-in fields" in w.message for w in spec.warnings)


KENNEL = """\
KENNEL ROUND CARD

 A. CHECK THE DOG ..... kennel-check
 B. CALL THE VET ...... vet-call            ** ONLY if A says needs_vet **
 C. ALL-WELL NOTE ..... all-well-note       ** if not, i.e. the dog is fine **
 D. TEXT THE OWNER .... owner-text
    After B or C, whichever one happened.
"""


def test_a_kennel_card_s_starred_asides_are_the_condition_and_its_other_branch() -> None:
    spec = _spec(KENNEL)
    steps = _by_skill(spec)
    assert steps["vet-call"].when and "needs_vet" in steps["vet-call"].when
    assert steps["all-well-note"].otherwise_of == steps["vet-call"].id
    assert not any(w.code == "spec.condition-not-read" and w.line == 4 for w in spec.warnings)


JOB = """\
PRINT SHOP JOB CARD

 1. PROOF ........ proof-print
 2. PLATES ....... plate-make          (only when 1 says approved)
 3. RUN .......... press-run           (ink: process black)
"""


def test_a_job_card_s_bracketed_aside_is_a_condition_and_a_note_is_not() -> None:
    steps = _by_skill(_spec(JOB))
    assert steps["plate-make"].when and "approved" in steps["plate-make"].when
    assert not steps["press-run"].when and not steps["press-run"].otherwise_of


BAKERY = """\
TIME   WHAT                                  TOOL
05:00  Mix the dough for the loaves           dough-mix
05:00  ...and at the same time heat the      oven-heat
       ovens
06:00  Bake the loaves                       bake-off
"""


def test_a_bakery_timeline_row_that_opens_at_the_same_time_starts_with_the_row_before() -> None:
    spec = _spec(BAKERY)
    steps = _by_skill(spec)
    assert steps["oven-heat"].starts_with == steps["dough-mix"].id
    assert steps["bake-off"].starts_with is None


def test_at_the_same_time_as_a_named_step_is_not_this_reading() -> None:
    text = BAKERY.replace("...and at the same time heat the", "at the same time as 1 heat the    ")
    steps = _by_skill(_spec(text))
    assert not any("starts together with step-1, not after it" in r.note for r in steps["oven-heat"].readings)


def test_a_sentence_opening_with_the_input_s_name_gives_its_proper_name() -> None:
    assert opening_value("courier", "Pack it. Courier: Swift Parcel Co. Then ship.") == (
        "Swift Parcel Co", "Courier: Swift Parcel Co")
    assert opening_value("supplier", "Supplier is always Ashdown Queens (club rate).")[0] == "Ashdown Queens"
    # not at a sentence's opening: a condition; lower case: no proper name; two names: a guess
    assert opening_value("supplier", "Order only if the Supplier is Ashdown Queens.") is None
    assert opening_value("supplier", "Supplier is down on Sundays.") is None
    assert opening_value("supplier", "Supplier is Ashdown. Supplier is Brook Farm.") is None


def test_a_threshold_input_takes_the_number_said_with_or_more() -> None:
    assert threshold_value("tent_over", "the tent goes up at 40% rain or more") == (
        40, "tent goes up at 40% rain or more")
    assert threshold_value("alarm_above", "the alarm sounds from 8.5 bar and up")[0] == 8.5
    assert threshold_value("tent_over", "the venue puts the tent up at 60") is None  # no "or more"
    assert threshold_value("tent", "the tent goes up at 40% or more") is None  # no threshold name


def test_hand_offs_said_with_a_capital_a_noun_or_a_hyphenated_field() -> None:
    producers = {"hives": ["step-3"], "queenless": ["step-3"], "swarm_risk": ["step-3"],
                 "missing": ["step-4"]}.get

    def got(text: str, name: str) -> Any:
        return said_sources([text], [name], lambda f: producers(f) or []).get(name)

    assert got("Hives = the queenless list from C.", "hives")[:2] == ("step-3", "queenless")
    assert got("Watch list = C's swarm-risk hives (empty is fine).", "watch")[:2] == ("step-3", "swarm_risk")
    assert got("rain plan, chase list = whoever the tally says is missing", "chase")[:2] == ("step-4", "missing")
    # a name the skill does not read, even in capitals: nothing
    assert got("Crates = the queenless list", "hives") is None
