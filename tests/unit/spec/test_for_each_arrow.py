"""A for-each written in an author's own arrow notation (`<step> -> <field>`) is not refused:
it is read as a loop over that step's field (`spec.for_each_arrow`), warned at its line with how
to write it plainly. Texts from a lesson
plan, a ship's log, a recipe card and a lab protocol."""

from __future__ import annotations

import pytest

from orchestrator.spec.source import Source
from orchestrator.spec.step import read_for_each


@pytest.mark.parametrize(("text", "loop"), [
    ("list pupils -> pupils", "pupil in steps.list-pupils.output.pupils"),
    ("read the log → entries", "entry in steps.read-the-log.output.entries"),
    ("gather ingredients -> items", "item in steps.gather-ingredients.output.items"),
    ("plate map->wells", "well in steps.plate-map.output.wells")])
def test_an_arrow_for_each_is_read_and_warned_not_refused(text: str, loop: str) -> None:
    src = Source("x", "s.yaml")
    assert read_for_each(text, src, 7) == loop
    assert not src.errors
    assert [w.line for w in src.warnings] == [7] and "read as" in src.warnings[0].message


def test_an_arrow_to_no_field_name_is_warned_and_runs_once() -> None:
    src = Source("x", "s.yaml")
    assert read_for_each("list pupils -> pupils.all.names", src, 4) is None
    assert [w.line for w in src.warnings] == [4] and "runs once" in src.warnings[0].message


def test_a_for_each_in_no_notation_is_still_an_error() -> None:
    src = Source("x", "s.yaml")
    assert read_for_each("each of them somehow", src, 3) is None
    assert [e.line for e in src.errors] == [3]
