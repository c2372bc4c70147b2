"""`spec.fill_names30`: a form's fill-in lines named as the steps' skills read them, and a condition said
on a fill-in line's label."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

_READS = {
    "card-printer": frozenset({"cards", "per_sheet"}),
    "caller-app": frozenset({"cards"}),
    "prize-table": frozenset({"players"}),
    "second-hall": frozenset({"players"}),
    "slot-planner": frozenset({"donors"}),
    "extra-nurse": frozenset({"donors"}),
    "badge-maker": frozenset({"donors", "site"}),
    "coach-booker": frozenset({"pupils"}),
    "second-coach": frozenset({"pupils"}),
    "consent-pack": frozenset({"pupils", "destination"}),
    "room-map": frozenset({"players_tonight"}),
    "hall-booker": frozenset({"players", "layout"}),
}


def _vocab() -> Vocabulary:
    return Vocabulary.of((name, None) for name in _READS).with_outputs(lambda _: frozenset(),
                                                                     lambda name: _READS[name])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "sheet.txt", "markdown", _vocab())


BINGO = """BINGO NIGHT - CALLER'S SHEET

Fill in before doors open:
   CARDS SOLD: ____________  (how many books)
   PLAYERS IN: ______

1. Print the books with `card-printer` for CARDS SOLD, 6 per sheet.
2. Load `caller-app` with CARDS SOLD.
3. only when PLAYERS IN is more than 80 -> `second-hall` with that number.
4. Set out the `prize-table` for PLAYERS IN.
"""


def test_bingo_sheet_inputs_take_the_skills_names_and_the_hall_has_a_condition() -> None:
    spec = _read(BINGO)
    assert [i.name for i in spec.inputs] == ["cards", "players"]
    hall = spec.steps[2]
    assert hall.when == "players > 80"
    assert hall.unordered_where is not None  # it reads only the form's values: a root
    messages = " ".join(w.message for w in spec.warnings)
    assert "the fill-in line 'CARDS SOLD' is the workflow input `cards`" in messages
    assert "runs only when players > 80" in messages


BLOOD = """Blood drive - sign-up sheet for the site lead

DONORS BOOKED: ________
SITE NAME: ________

- plan the chairs with `slot-planner` for DONORS BOOKED
- if DONORS BOOKED is at least 40, `extra-nurse` gets called in
- print name badges with `badge-maker`: DONORS BOOKED and the SITE NAME
"""


def test_blood_drive_form_reads_at_least_as_a_condition_on_the_input() -> None:
    spec = _read(BLOOD)
    names = [i.name for i in spec.inputs]
    assert names[0] == "donors" and "site" in names
    nurse = next(s for s in spec.steps if "extra-nurse" in s.description)
    assert nurse.when == "donors >= 40"


TRIP = """SCHOOL TRIP FORM (office copy)

Number of pupils ........
Destination ........

Step 1: book with `coach-booker`, Number of pupils.
Step 2: only if NUMBER OF PUPILS is over 52 -> `second-coach`.
Step 3: send the `consent-pack` to each family (Number of pupils, Destination).
"""


def test_school_trip_dotted_lines_and_an_over_condition() -> None:
    spec = _read(TRIP)
    assert [i.name for i in spec.inputs][:1] == ["pupils"]
    coach = next(s for s in spec.steps if "second-coach" in s.description)
    assert coach.when == "pupils > 52"


def test_a_label_the_skill_reads_whole_keeps_its_name() -> None:
    text = BINGO.replace("`prize-table`", "`room-map`").replace("`second-hall`", "`room-map`")
    spec = _read(text)
    assert "players_in" in [i.name for i in spec.inputs]  # room-map reads `players_tonight`: no shorter name


def test_two_skills_reading_two_names_leave_it() -> None:
    _READS["caller-app"] = frozenset({"sold"})
    try:
        spec = _read(BINGO.replace("Load `caller-app` with CARDS SOLD", "Load `caller-app` with CARDS SOLD too"))
    finally:
        _READS["caller-app"] = frozenset({"cards"})
    assert "cards_sold" in [i.name for i in spec.inputs]


def test_a_name_written_on_the_line_is_kept_and_no_condition_without_a_number() -> None:
    text = BINGO.replace("CARDS SOLD: ____________  (how many books)", "CARDS SOLD: books_sold") \
        .replace("more than 80", "busy")
    spec = _read(text)
    assert "cards" not in [i.name for i in spec.inputs] or "books_sold" in [i.name for i in spec.inputs]
    assert spec.steps[2].when != "players > 80"


def test_a_step_that_waits_for_a_made_value_is_not_made_a_root() -> None:
    text = BINGO.replace("`second-hall` with that number", "`hall-booker` with the layout")
    spec = _read(text)
    step = spec.steps[2]
    assert step.when == "players > 80"
    assert step.unordered_where is None  # hall-booker reads `layout`, no input: it keeps its place in the order


def test_run_it_one_time_is_no_retry_in_a_recipe_a_ticket_and_a_runbook() -> None:
    from orchestrator.spec.phrase import read_phrase

    for said in ("Run it one time, it sends a message to the bar staff group.",  # a host sheet
                 "Send the invoice only a single time.",  # a billing ticket
                 "Fire the pager 1 time - the on-call phone rings for each."):  # a runbook
        assert read_phrase(said).statement.no_retry, said
    for said in ("Try it again one time after 5 min.", "Run it one time per file.", "It takes one time slot."):
        assert not read_phrase(said).statement.no_retry, said
