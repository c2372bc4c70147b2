"""A for-each written in an author's own arrow notation (`<step> -> <field>`) is not refused:
it is a warning at its line saying the step runs once and how to write it. Texts from a lesson
plan, a ship's log, a recipe card and a lab protocol."""

from __future__ import annotations

import pytest

from orchestrator.spec.source import Source
from orchestrator.spec.step import read_for_each


@pytest.mark.parametrize("text", ["list pupils -> pupils", "read the log → entries",
                                  "gather ingredients -> items", "plate map->wells"])
def test_an_arrow_for_each_is_warned_not_refused(text: str) -> None:
    src = Source("x", "s.yaml")
    assert read_for_each(text, src, 7) is None
    assert not src.errors
    assert [w.line for w in src.warnings] == [7] and "runs once" in src.warnings[0].message


def test_a_for_each_in_no_notation_is_still_an_error() -> None:
    src = Source("x", "s.yaml")
    assert read_for_each("each of them somehow", src, 3) is None
    assert [e.line for e in src.errors] == [3]
