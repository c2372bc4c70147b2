"""Step sheets pasted as CSV/TSV, and a condition in plain words on a count: a warehouse pick list in
TSV (a `#<tab>` header, a column named by its aside), values typed into a takes-cell, a row named by
its name, a count followed by what the counted do (`spec.sheet`, `spec.table_columns`,
`spec.cell_literals26`, `spec.count_tail26`), with texts that must not be read so."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.cell_literals26 import literal_pair, split_literals, split_named
from orchestrator.spec.condition import read_condition
from orchestrator.spec.count_tail26 import trim_count_tail
from orchestrator.spec.table_columns import columns_of
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in ("pick-list", "scan-bins", "pack-order", "book-courier")])

_PICK_LIST = (
    "WAREHOUSE B - late wave\tv2\n"
    "\n"
    "#\tTASK\tROBOT (skill)\tFEED IT\tWAIT FOR\tNOTES\n"
    "1\tPICK LIST\tpick-list\torders\t\tall of tonight\n"
    "2\tBIN SCAN\tscan-bins\tzone = B2\t\t\n"
    "3\tPACKING\tpack-order\tlines from PICK LIST; bins = bin map (BIN SCAN)\t1, 2\t\n"
    "4\tCOURIER\tbook-courier\tparcels from 3; cutoff = 18:45\t3\t\n"
)


def test_a_pick_list_in_tsv_whose_header_opens_with_a_hash_and_a_tab_is_a_steps_table() -> None:
    spec = parse_spec_text(_PICK_LIST, "wave.tsv", "markdown", _VOCAB)
    steps = spec.steps
    assert [s.skill for s in steps] == ["pick-list", "scan-bins", "pack-order", "book-courier"]
    assert [s.name for s in steps] == ["PICK LIST", "BIN SCAN", "PACKING", "COURIER"]
    assert steps[1].input_values == {"zone": "B2"}
    assert steps[3].input_values == {"cutoff": "18:45"}
    sources = {f.name: (f.source, f.description) for f in steps[2].inputs if f.source}
    assert sources["lines"] == ("steps.step-1.output", "lines")
    assert sources["bins"] == ("steps.step-2.output", "bin map")


@pytest.mark.parametrize(("header", "column"), [
    ("MACHINE (skill)", "skill"), ("Robot [script]", "skill"), ("JOB", "name"), ("Who (owner)", None),
])
def test_a_column_is_named_by_the_field_its_aside_names(header: str, column: str | None) -> None:
    assert columns_of(["#", header])[1] == column  # in a table of steps (its number column says so)


def test_a_markdown_heading_with_commas_is_still_no_sheet_header() -> None:
    text = "# Plans, notes, and more\n\nJust prose, with, commas.\n\n## Step 1: Pick\n- Skill: pick-list\n"
    spec = parse_spec_text(text, "notes.md", "markdown", _VOCAB)
    assert [s.skill for s in spec.steps] == ["pick-list"]


@pytest.mark.parametrize(("part", "pair"), [
    ("store = Dock St", ("store", "Dock St")),
    ("start = 03:30", ("start", "03:30")),
    ("venue = Horniman Museum", ("venue", "Horniman Museum")),
    ("dpi = 600", ("dpi", 600)),
    ('label = "fragile"', ("label", "fragile")),
])
def test_a_value_typed_into_a_cell_is_a_literal(part: str, pair: tuple[str, object]) -> None:
    assert literal_pair(part) == pair


@pytest.mark.parametrize("part", [
    "date = trip date",  # lower-case words: a value named, not typed
    "pupils = headcount from step 1",
    "flour_kg = flour in the bin (FLOUR CHECK)",
    "rows = Step 2 rows",
    "transport_cost = cost from whichever of 3/4 happened",
    "the class list w/ consent",
])
def test_words_that_say_where_a_value_comes_from_are_no_literal(part: str) -> None:
    assert literal_pair(part) is None


def test_a_cell_keeps_its_other_parts_and_a_row_is_taken_by_its_name_only_when_a_row_has_it() -> None:
    rest, values = split_literals("batches from DOUGH SHEET; start = 03:30")
    assert (rest, values) == ("batches from DOUGH SHEET", {"start": "03:30"})
    rest, fields = split_named("totals from ORDER TALLY, flour from the mill", {"order tally": "step-1"}, "x:3")
    assert rest == "flour from the mill"
    assert [(f.name, f.source) for f in fields] == [("totals", "steps.step-1.output")]


@pytest.mark.parametrize(("text", "cut"), [
    ("more than 20 kids going", "more than 20 kids"),
    ("over 5 orders waiting", "over 5 orders"),
    ("at least 2 helpers coming along", "at least 2 helpers"),
    ("10 or more boxes left", "10 or more boxes"),
    ("more than 30 pupils on the trip", "more than 30 pupils"),
])
def test_a_count_followed_by_what_the_counted_do_is_read_as_the_count(text: str, cut: str) -> None:
    assert trim_count_tail(text) == cut
    read = read_condition(cut)
    assert read is not None and read.clauses and read.clauses[0].subject[-1] == "count"


@pytest.mark.parametrize("text", [
    "over 20 kg of flour",  # a measure, no doing word
    "more than 2 kids need a seat",  # a clause of its own
    "more than 20 kids going or not",
    "status is over 5",
    "the class passed",
])
def test_texts_that_are_not_a_count_with_doing_words_are_not_cut(text: str) -> None:
    assert trim_count_tail(text) is None


def test_an_email_with_a_csv_sheet_reads_its_worded_condition_without_refusing_the_spec() -> None:
    text = ("Hi team,\n\nThe sheet for Saturday:\n\n"
            "step,tool,uses,after,only if\n"
            "1,pick-list,orders,-,-\n"
            "2,book-courier,\"parcels from step 1, cutoff = 17:00\",1,over 12 parcels waiting\n"
            "\nThanks, Mo\n")
    spec = parse_spec_text(text, "mail.eml.txt", "markdown", _VOCAB)
    assert spec.steps[1].when == "over 12 parcels"
    assert spec.steps[1].input_values == {"cutoff": "17:00"}


def test_a_row_that_takes_the_same_as_another_gets_its_inputs() -> None:
    text = ("Shift plan, pasted\n"
            "no;task;skill;takes;after\n"
            "1;Pick;pick-list;orders;-\n"
            "2;Pack;pack-order;lines from step 1, zone = B2;1\n"
            "3;Ship;book-courier;same as 2;2\n")
    steps = parse_spec_text(text, "shift.csv", "markdown", _VOCAB).steps
    assert {f.name for f in steps[2].inputs} >= {"lines"} and steps[2].input_values == {"zone": "B2"}


@pytest.mark.parametrize(("cell", "row"), [("same as 3", 3), ("Same as step 2", 2), ("the same as #4", 4),
                                           ("same as before", None), ("same as 3 plus the labels", None)])
def test_same_as_names_a_row_only_when_the_cell_says_nothing_else(cell: str, row: int | None) -> None:
    from orchestrator.spec.cell_literals26 import same_as

    assert same_as(cell) == row


def test_an_aside_names_a_column_only_in_a_table_of_steps() -> None:
    # a state machine's table ("Entry action (skill)" beside "State") stays the state reader's: with the aside
    # read as the skill column it became a steps table and lost holdout8 55's inputs and its branches
    assert "skill" in columns_of(["#", "JOB", "MACHINE (skill)", "FEED IT"])
    assert "skill" in columns_of(["Task", "Tool [skill]", "Notes"])
    assert "skill" not in columns_of(["State", "Entry action (skill)", "Reads", "Notes"])
    assert "skill" not in columns_of(["Phase", "Owner (skill lead)", "Notes"])
