"""A two-column field table under a step heading (a wind-farm work pack, a kennel intake sheet, a
choir's concert plan, a lab's sample run) is split into `Label: value` fields, so its condition row
is read or refused at its line, never dropped (`spec.table_fields`)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.table_fields import table_fields
from orchestrator.spec.vocabulary import Vocabulary


def test_each_body_row_of_a_two_column_table_is_a_field_at_its_line() -> None:
    lines = [(10, "| What | Detail |"), (11, "|---|---|"), (12, "| **Script** | book-kennel |"),
             (13, "| Only if: | dogs is over 2 |")]
    assert table_fields(lines) == [(12, "Script: book-kennel"), (13, "Only if: dogs is over 2")]


@pytest.mark.parametrize("lines", [
    [(1, "| a | b | c |"), (2, "|---|---|---|"), (3, "| x | y | z |"), (4, "| x | y | z |")],  # three columns
    [(1, "| a | b |"), (2, "| x | y |"), (3, "| x | y |"), (4, "| x | y |")],  # no rule under the header
    [(1, "Script: x"), (2, "Only if: y"), (3, "a"), (4, "b")],  # no table
])
def test_what_is_no_two_column_table_is_left_alone(lines: list[tuple[int, str]]) -> None:
    assert table_fields(lines) is None


_VOCAB = Vocabulary.of([("count-singers", None), ("book-hall", None), ("plate-samples", None)])


def _doc(condition: str) -> str:  # a choir's concert plan, a heading per step with a field table
    return ("# Concert\n\nPlan for the spring concert.\n\n## Count heads\n\n| What | Detail |\n|---|---|\n"
            "| Script | count-singers |\n\n## Book the hall\n\n| What | Detail |\n|---|---|\n| Script | book-hall |\n"
            f"| Only if | {condition} |\n")


def test_a_condition_row_of_a_field_table_is_the_step_s_condition() -> None:
    spec = parse_spec_text(_doc("singers is over 40"), "c.md", "markdown", _VOCAB)
    assert spec.steps[1].when is not None and "40" in spec.steps[1].when


def test_a_condition_row_that_cannot_be_read_is_an_error_at_its_row() -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec_text(_doc("the hall feels right"), "c.md", "markdown", _VOCAB)
    assert any(d.line == 16 for d in caught.value.diagnostics)
