"""A pasted sheet's inputs block and "each X's a, b" takes-cells (`spec.sheet_inputs45`): a plumber's job
sheet (TSV) with a PARAMETERS row and examples, a school trip CSV whose inputs row has no example row,
and rows that must not be read so (words after the label, no list named by the thing)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.sheet_inputs45 import each_of_item, find_inputs
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in ("fit-boiler", "bill-job", "coach-quote", "seat-kid", "send-letter")])

_JOB_SHEET = (
    "BOILER JOBS - how the van runs them\t\t\t\n"
    "Job parameters\tjob_no\tvisits\t\n"
    "example\tPL-77\tone per day booked: each visit + hours\t\n"
    "\t\t\t\n"
    "NO\tTASK\tSKILL\tTAKES\n"
    "1\tFit it\tfit-boiler\tevery visit's day and hours\n"
    "2\tBill\tbill-job\tjob_no, day from 1\n"
)

_TRIP = (
    "Trip sheet,,,\n"
    "Inputs:,trip_date,pupils,\n"
    ",,,\n"
    "#,Task,Skill,Uses\n"
    "1,Coach,coach-quote,trip_date\n"
    "2,Seats,seat-kid,each pupil's name and class\n"
    "3,Letter,send-letter,trip_date\n"
)


def test_a_parameters_row_and_its_example_row_are_the_inputs_and_every_visits_fields_a_loop() -> None:
    spec = parse_spec_text(_JOB_SHEET, "jobs.tsv", "markdown", _VOCAB)
    inputs = {i.name: i for i in spec.inputs}
    assert list(inputs) == ["job_no", "visits"]
    assert inputs["visits"].type == "array" and inputs["job_no"].type is None
    assert "PL-77" in inputs["job_no"].description and inputs["job_no"].default is None
    first = spec.steps[0]
    assert first.for_each == "item in visits"
    assert {f.name for f in first.inputs} == {"day", "hours"}
    assert spec.steps[1].for_each is None


def test_a_csv_inputs_row_with_no_example_row_still_names_the_inputs_but_makes_no_list() -> None:
    spec = parse_spec_text(_TRIP, "trip.csv", "markdown", _VOCAB)
    assert [i.name for i in spec.inputs] == ["trip_date", "pupils"]
    assert all(i.type is None for i in spec.inputs)
    assert spec.steps[1].for_each is None  # nothing says `pupils` holds several: no loop read


def test_an_inputs_label_followed_by_words_is_no_inputs_block() -> None:
    lines = ["INPUTS\tthe job number and the visits\t", "\tPL-77\t", "NO\tTASK\tSKILL"]
    assert find_inputs(lines, "\t", range(2, 3)) == ((), ())
    lines = ["OUTPUTS\tjob_no\tvisits", "\tPL-77\t1"]  # not a label of inputs
    assert find_inputs(lines, "\t", range(0, 0)) == ((), ())


def test_each_things_fields_need_a_list_named_for_the_thing() -> None:
    assert each_of_item("each visit's day and hours", ["visits"]) == ("visits", ("day", "hours"))
    assert each_of_item("every crate's weight, size", ["crates", "job_no"]) == ("crates", ("weight", "size"))
    assert each_of_item("each visit's day and hours", ["jobs"]) is None  # no list of visits
    assert each_of_item("each visit's notes as written", ["visits"]) is None  # words, not field names
    assert each_of_item("the visit's day", ["visits"]) is None  # no "each"


_MERGED = (
    "#\tTASK\tSKILL\tTAKES\tNOTES\n"
    "1\tCost it\tcost-trip\ttrip_date\t\n"
    "2\tBook\tbook-coach\tcost from 1\tcall first\n"
    "\tIf cost over 800 the head signs it off first - give her 2 hours. No answer = book it anyway\t\t\t\n"
    "\n"
    "\tA note under a blank row stays a note of the sheet\t\t\t\n"
)


def test_a_merged_row_right_under_a_row_is_that_rows_note_and_its_approval_is_read() -> None:
    from orchestrator.spec.sheet_inputs45 import merged_note

    spec = parse_spec_text(_MERGED, "trip.tsv", "markdown",
                           Vocabulary.of([(n, None) for n in ("cost-trip", "book-coach")]))
    book = spec.steps[1]
    assert book.approval is not None and book.approval.timeout_s == 7200 and book.approval.on_timeout == "approve"
    assert spec.steps[0].approval is None
    header = ("#", "TASK", "SKILL", "TAKES", "NOTES")
    assert merged_note(["", "two cells", "here", "", ""], header) is None  # two cells: a row of its own
    assert merged_note(["3", "Post", "", "", ""], header) is None  # its first cell is the row's number
    assert merged_note(["", "a merged note", ""], ("#", "TASK", "SKILL")) is None  # no notes column
