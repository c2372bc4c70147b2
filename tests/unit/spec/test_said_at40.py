"""`spec.whole_doc.Said.at`: a success check said in a sentence that wraps is placed at the line of the words
that lead into it ("... deemed complete when" / "an invoice reference ..." on the next line: the first line);
a sentence whose lead itself opens on a later line ("-- Procedure x" / "-- It succeeds if ...") is placed
there. Sentences of our own (a tenancy schedule, a lab's run sheet, a SQL comment)."""

from __future__ import annotations

from orchestrator.spec.whole_doc import Said


def _said(lines: list[str], first: int = 10) -> Said:
    numbered = tuple((first + i, t) for i, t in enumerate(lines))
    return Said(" ".join(" ".join(t.split()) for t in lines), first, first + len(lines) - 1, numbered)


def test_a_check_whose_lead_ends_the_first_line_stays_on_that_line() -> None:
    said = _said(["D.4  Handover. The tenancy shall be treated as concluded when",
                  "     a deposit receipt has been issued and the refund total exceeds zero."])
    assert said.at("a deposit receipt has been issued and the refund total exceeds zero").line == 10


def test_a_run_sheet_sentence_wrapped_after_its_cue() -> None:
    said = _said(["The run counts as done once", "every plate has a barcode and the error count is 0."], first=4)
    assert said.at("every plate has a barcode and the error count is 0").line == 4


def test_negative_a_lead_on_the_later_line_moves_there() -> None:
    said = _said(["-- Procedure refresh_rollup", "-- It succeeds if rows_written > 0."], first=7)
    assert said.at("rows_written > 0").line == 8
    assert _said(["Done when total > 0."], first=3).at("total > 0").line == 3
