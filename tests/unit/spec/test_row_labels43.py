"""A steps table's own row labels (`1`, `1a`, `2`) are how its rows refer to each other: a reference to a label
in a row's cells is that row's step; "same time as N" in any cell a start together; `site is "X"` a literal;
"carry on, k = v and k2 = V" the values gone on with. Documents: a bakery's proving sheet, a lab's run card,
and near misses (a count after "after", a table numbered in order, a condition)."""

from __future__ import annotations

from orchestrator.plan.echo import said_echoed
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.row_labels43 import relabel, row_labels
from orchestrator.spec.said_literals import fixed_values
from orchestrator.spec.sheet_cells27 import start_note


def test_lettered_labels_map_to_positions() -> None:
    labels = row_labels(["1", "1a", "2", "3"], numbered=False)
    assert labels == {"1": 1, "1a": 2, "2": 3, "3": 4}
    assert row_labels(["#1", "2b", "3"], numbered=True) == {"1": 1, "2b": 2, "3": 3}


def test_labels_that_are_the_positions_or_a_number_column_s_numbers_say_nothing() -> None:
    assert row_labels(["1", "2", "3"], numbered=False) is None
    assert row_labels(["10", "20", "30"], numbered=True) is None  # the steps' own numbers
    assert row_labels(["1", "1", "2"], numbered=False) is None  # not each its own
    assert row_labels(["mix", "prove"], numbered=False) is None  # no labels


def test_a_reference_to_a_label_is_its_step() -> None:
    labels = {"1": 1, "2a": 2, "2": 3, "3": 4}
    assert relabel("shape: dough (2a), timer (from 2)", labels) == "shape: dough (2), timer (from 3)"
    assert relabel("bake alongside 2a, then cool", labels) == "bake alongside 2, then cool"
    assert relabel("tray = rack (row 3)", labels) == "tray = rack (row 4)"


def test_a_count_is_no_row() -> None:
    labels = {"1": 1, "1a": 2, "2": 3}
    assert relabel("after 2 tries, stop", labels) == "after 2 tries, stop"
    assert relabel("(2 more) from 1 to 5", labels) == "(2 more) from 1 to 5"
    assert relabel("weight (7)", labels) == "weight (7)"  # no such label


def test_same_time_as_a_row_before_a_dash() -> None:
    assert start_note("SAME TIME AS 3 - weigh the flour") == (3, "weigh the flour")
    assert start_note("alongside row 2 — spin the samples")[0] == 2  # type: ignore[index]
    assert start_note("same time as 5 finishes - then cool") is None


def test_a_one_word_name_set_to_a_quoted_text_is_a_literal() -> None:
    assert fixed_values('label: loaf, oven is "Deck 2"') == {"oven": "Deck 2"}
    assert fixed_values('tube, rack, room is “Lab B”') == {"room": "Lab B"}
    assert fixed_values('if oven is "Deck 2"') == {}  # a condition
    assert fixed_values('when: status is "done"') == {}
    assert fixed_values('the oven is "Deck 2" or hotter today') == {}  # not a clause of its own


def test_carry_on_after_a_comma_with_name_value_pairs() -> None:
    found = read_phrase("jammed? keep going, sent = no and channel = FAX")
    assert found.read and found.statement.on_failure is not None
    assert found.statement.on_failure.kind == "continue_with_value"
    assert found.statement.on_failure.value == {"sent": False, "channel": "FAX"}
    one = read_phrase("move on: score = 0").statement.on_failure
    assert one is not None and one.value == {"score": 0}
    plain = read_phrase("carry on, the next tray is fine").statement.on_failure
    assert plain is not None and plain.kind == "continue"


def test_an_output_said_echoed() -> None:
    assert said_echoed("text, echoed")
    assert said_echoed("the batch id, unchanged")
    assert said_echoed("as given")
    assert not said_echoed("text, upper-cased")
