"""Step sheets (CSV/TSV) whose cells say when a row starts, which row's output a join takes, names
typed in capitals and the author's own words for an input (`spec.sheet_cells27`): a warehouse pick
list TSV, a CSV pasted in a support ticket, a school timetable sheet, and texts that must not be read so."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.sheet_cells27 import (
    lower_shouted,
    own_words,
    said_flag,
    shouted_name,
    start_note,
    whichever_rows,
)
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in ("pick-list", "scan-bins", "pack-order", "book-courier", "triage",
                                            "refund", "replace", "reply", "rooms", "staff-rota", "timetable")])

_PICK_LIST = (
    "WAREHOUSE B - late wave\n"
    "\n"
    "#\tTASK\tROBOT (skill)\tFEED IT\tWAIT FOR\tNOTES\n"
    "1\tPICK LIST\tpick-list\tORDERS\t\tall of tonight, wholesale too\n"
    "2\tBIN SCAN\tscan-bins\tzone = B2\t\tgoes with 1, no need to wait\n"
    "3\tPACKING\tpack-order\tlines from PICK LIST\t1, 2\t\n"
    "4\tCOURIER\tbook-courier\tparcels from 3\t3\twait for it, the van is late on Fridays\n"
    "\n"
    "DONE = COURIER says booked (before 19:00)\n"
)


def test_a_pick_list_row_said_to_go_with_row_1_starts_with_it_and_orders_in_capitals_is_orders() -> None:
    spec = parse_spec_text(_PICK_LIST, "wave.tsv", "markdown", _VOCAB)
    steps = spec.steps
    assert steps[1].starts_with == "step-1"
    assert steps[0].starts_with is None and steps[3].starts_with is None  # chat, and "wait for it": no row named
    assert [f.name for f in steps[0].inputs] == ["orders"]
    said = [w.message for w in spec.warnings]
    assert any("starts with row 1" in m for m in said)
    assert any("'ORDERS' typed in capitals read as `orders`" in m for m in said)
    assert not any("retr" in m and "step-2" in m for m in said)  # "no need to wait" is no retry wait


_TICKET = (
    "Subject: refunds bot - please set up\n"
    "\n"
    "Hi, below is the sheet. It needs the ticket list and the cut off date.\n"
    "\n"
    "step,tool,uses,after,only if\n"
    "1,triage,the ticket list,-,-\n"
    "2,refund,\"tickets = open tickets from step 1, date = cut off date\",1,open_count > 5\n"
    "3,replace,same as 2,1,otherwise\n"
    "4,reply,\"amount = total from whichever of 2/3 ran, channel from same\",2 and 3,-\n"
)


def test_a_csv_in_a_support_ticket_takes_a_join_field_from_whichever_row_ran_and_the_authors_word() -> None:
    spec = parse_spec_text(_TICKET, "ticket.txt", "markdown", _VOCAB)
    last = spec.steps[3]
    texts = [t.text for t in last.texts]
    assert "amount = step-2's total or step-3's total" in texts
    assert "channel = step-2's channel or step-3's channel" in texts
    assert "date = cut off date" in [t.text for t in spec.steps[1].texts]


_TIMETABLE = (
    "#\tLESSON\tBOT (skill)\tGIVE IT\tWAIT FOR\tNOTES\n"
    "1\tROOMS\trooms\tTERM\t\t\n"
    "2\tSTAFF\tstaff-rota\tTERM\t\tat the same time as 1\n"
    "3\tGRID\ttimetable\trooms from ROOMS; staff from STAFF\t1, 2\tsame time as 2 finishes\n"
)


def test_a_timetable_sheet_row_at_the_same_time_as_row_1_and_not_one_said_after_a_row_finishes() -> None:
    spec = parse_spec_text(_TIMETABLE, "term.tsv", "markdown", _VOCAB)
    assert spec.steps[1].starts_with == "step-1"
    assert spec.steps[2].starts_with is None  # it has a WAIT FOR cell, and "finishes" is an order
    assert [f.name for f in spec.steps[0].inputs] == ["term"]


@pytest.mark.parametrize(("cell", "read"), [
    ("starts same time as 1, dont wait", (1, "")),
    ("alongside row 3", (3, "")),
    ("goes with 4, no need to wait", (4, "")),
    ("at the same time as #2; check the van", (2, "check the van")),
    ("wait for it, the hall is busy", None),  # prose with "wait for": no row
    ("same time as 5 finishes", None),  # after it
    ("runs with 4 retries", None),  # a count, not a row
    ("shop + wholesale together", None),  # a note that only chats
    ("batches of 20", None),
])
def test_a_notes_cell_names_the_row_it_starts_with(cell: str, read: tuple[int, str] | None) -> None:
    assert start_note(cell) == read


def test_names_in_capitals_and_the_authors_words() -> None:
    assert shouted_name("ORDERS") == "orders"
    assert shouted_name("DB_NAME") is None  # an environment-style name keeps its case
    assert shouted_name("Orders") is None and shouted_name("ID") is None
    assert lower_shouted("ORDERS; zone") == ("orders, zone", ["ORDERS"])
    assert own_words("venue = Horniman Museum, date = trip date") == [("date", "trip date")]
    assert own_words("pupils = headcount from step 1, price from 2") == []  # a source, not a word for a value


def test_a_join_from_whichever_of_two_rows() -> None:
    assert whichever_rows("transport_cost = cost from whichever of 3/4 happened, vehicle from same") == [
        ("transport_cost", "cost", (3, 4)), ("vehicle", "vehicle", (3, 4))]
    assert whichever_rows("price from either of rows 2 or 5") == [("price", "price", (2, 5))]
    assert whichever_rows("vehicle from same") == []  # no rows named before it
    assert whichever_rows("cost from step 3") == []


def test_a_done_line_that_says_what_a_row_says() -> None:
    assert said_flag("OVEN LOADS says fits (last tray out by half six)", "OVEN LOADS",
                     frozenset({"loads", "fits"})) == "fits"
    assert said_flag("COURIER shows booked", "Courier", frozenset({"booked"})) == "booked"
    assert said_flag("OVEN LOADS says fits", "DOUGH SHEET", frozenset({"fits"})) is None  # another row's name
    assert said_flag("the report says nothing odd", "report", frozenset({"status"})) is None  # no output named


@pytest.mark.parametrize("text", [
    "if it plays up: ONCE. it books the deck ovens, a 2nd go double books them",  # a bakery sheet
    "on failure: Once only - it charges the card",  # a support ticket's CSV
    "if it fails: once; the bell rings in every room",  # a timetable sheet
])
def test_a_failure_cell_that_opens_once_is_no_retry(text: str) -> None:
    phrase = read_phrase(text)
    effect = effect_of(phrase.statement, retry_said=phrase.retry_said)
    assert effect.retry is not None and effect.retry.max_retries == 0, phrase


@pytest.mark.parametrize("text", [
    "Once the upload finishes, tell Sam.",  # a time, not a count
    "if it fails: once more after 5 min",
    "Send the rota once a week.",
])
def test_once_opening_a_clause_is_not_always_no_retry(text: str) -> None:
    assert not read_phrase(text).statement.no_retry


def test_a_name_cell_whose_bracket_says_it_starts_with_a_row_starts_with_it() -> None:
    from orchestrator.spec.sheet_cells27 import aside_start

    assert aside_start("Seat plan (alongside row 2, no need to wait)") == (2, "Seat plan")
    assert aside_start("Mop the hall (goes with 3)") == (3, "Mop the hall")
    assert aside_start("Count (same time as 5 finishes)") is None  # after it, not beside it
    assert aside_start("Count (takes 5 min)") is None
    text = ("#\tJOB\tSKILL\tUSES\n1\tCoach\tcoach-quote\ttrip_date\n2\tLetters (at the same time as 1, nothing from it)"
            "\tsend-letter\ttrip_date\n3\tSeats\tseat-kid\tletters from 2\n")
    spec = parse_spec_text(text, "trip.tsv", "markdown", Vocabulary.of([(n, None) for n in ("coach-quote", "send-letter",
                                                                                            "seat-kid")]))
    second = spec.steps[1]
    assert second.name == "Letters" and second.starts_with == "step-1"
