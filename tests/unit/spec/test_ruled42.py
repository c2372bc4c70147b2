"""A fixed-width table ruled with `|` and `+---+` whose cells wrap is read as the markdown table it stands
for: each row on the line it opens at, its wrapped lines joined per column. Documents: a workshop's
service sheet, a lab's sample-run card (a grid), and a near miss: a price list ruled the same way."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.ruled42 import ruled_markdown

_SERVICE = """\
 SERVICE SHEET
------------------------------------------------------------
 NO | JOB                     | MACHINE       | ON TROUBLE
----+-------------------------+---------------+-------------
 1  | drain the oil and       | oil-drain     | jams - wait
    |  weigh it               |               |  a minute
 2  | fit the new filter      | filter-fit    |
 3  | road test, then sign    | road-test     | 1 more go
    |  the card               |               |
------------------------------------------------------------
 Whole job in 2 h.
"""

_GRID = """\
+----+------------------+-------------+
| #  | Task             | Tool        |
+====+==================+=============+
| 1  | thaw the         | thaw-check  |
|    | samples          |             |
+----+------------------+-------------+
| 2  | spin them down   | spin-down   |
+----+------------------+-------------+
"""

_PRICES = """\
 ITEM        | PRICE | NOTE
-------------+-------+----------------
 flour 1 kg  | 1.20  | organic, from
             |       |  the mill
 oats 500 g  | 0.90  |
"""


def test_a_service_sheet_s_wrapped_rows_are_one_markdown_row_each_at_the_line_they_open() -> None:
    read = ruled_markdown(_SERVICE)
    assert read is not None
    text, origin, notes = read
    lines = text.split("\n")
    assert lines[2] == "| NO | JOB | MACHINE | ON TROUBLE |"
    assert "| 1 | drain the oil and weigh it | oil-drain | jams - wait a minute |" in lines
    assert "| 3 | road test, then sign the card | road-test | 1 more go |" in lines
    assert origin[lines.index("| 3 | road test, then sign the card | road-test | 1 more go |")] == 7  # line 8
    assert lines[1] == "" and " Whole job in 2 h." in lines  # the rule no heading's underline; prose kept
    assert notes and notes[0][0] == 3


def test_a_grid_drawn_with_plus_rules_parts_its_rows_at_the_rules() -> None:
    read = ruled_markdown(_GRID)
    assert read is not None
    lines = read[0].split("\n")
    assert "| 1 | thaw the samples | thaw-check |" in lines
    assert "| 2 | spin them down | spin-down |" in lines


def test_a_table_of_one_line_rows_and_text_with_no_ruled_table_are_left_as_they_are() -> None:
    assert ruled_markdown(" A | B\n---+---\n 1 | x\n 2 | y\n") is None  # no row wraps: markdown already
    assert ruled_markdown("Pull the logs.\n--------------\nThen mail them.\n") is None


def test_a_price_list_is_joined_but_stays_a_table_of_data() -> None:
    read = ruled_markdown(_PRICES)
    assert read is not None
    assert "| flour 1 kg | 1.20 | organic, from the mill |" in read[0].split("\n")



def test_the_service_sheet_s_rows_are_its_steps_with_their_wrapped_policies() -> None:
    spec = parse_spec_text(_SERVICE.replace("oil-drain ", "`oil-drain`").replace("filter-fit ", "`filter-fit`")
                           .replace("road-test ", "`road-test`"), "sheet.txt", "markdown")
    assert [(s.skill or "").strip("`") for s in spec.steps] == ["oil-drain", "filter-fit", "road-test"]
    assert [s.where for s in spec.steps] == ["sheet.txt:5", "sheet.txt:7", "sheet.txt:8"]
    texts = " ".join([spec.steps[0].name, spec.steps[0].description, *(t.text for t in spec.steps[0].texts)])
    assert "drain the oil and weigh it" in texts and "jams - wait a minute" in texts


def test_a_price_list_ruled_the_same_way_makes_no_steps() -> None:
    with pytest.raises(SpecError):
        parse_spec_text(_PRICES, "prices.txt", "markdown")


def test_a_ruled_table_with_a_column_of_what_each_row_uses_is_left_as_it_is() -> None:
    sheet = _SERVICE.replace("ON TROUBLE", "USES      ")
    assert ruled_markdown(sheet) is None
