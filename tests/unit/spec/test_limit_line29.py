"""The line a whole-run limit is cited at when its sentence spans several lines (`spec.limit_line29`),
in documents of other kinds, and sentences whose place must not move."""

from __future__ import annotations

from orchestrator.spec.limit_line29 import limit_line
from orchestrator.spec.source import Source


def _line(text: str, first: int = 1) -> int:
    src = Source(text, "doc.txt")
    sentence = " ".join(text.splitlines()[first - 1:]).split("\n\n")[0]
    return limit_line(" ".join(sentence.split()), first, src)


def test_a_ticket_s_header_rows_place_the_limit_at_the_row_that_says_it() -> None:
    text = "TICKET OPS-88 triage\tprio P2\nreporter: Ann Lee\nthe whole triage must finish in 15 min tops\n"
    assert _line(text) == 3


def test_a_recipe_card_s_wrapped_note_places_it_on_its_second_line() -> None:
    text = "Sunday loaf, card 4 of 9, keep this card\nclean; the whole bake is capped at 2 hours\n"
    assert _line(text) == 2


def test_a_chat_export_with_the_limit_on_its_first_line_keeps_it() -> None:
    text = "[10:01] ro: whole sync gets 40 min max\n[10:02] ro: from the mirror\n"
    assert _line(text) == 1


def test_two_durations_on_two_lines_keep_the_first_line() -> None:
    text = "whole run: 20 min\nthe export takes 5 min\n"
    assert _line(text) == 1


def test_a_blank_line_ends_the_sentence() -> None:
    text = "Plan for the night, read before you start\n\nwhole run 30 min max\n"
    assert _line(text) == 1


def test_an_rfc_sentence_started_after_a_stop_on_its_first_line_keeps_that_line() -> None:
    text = "The audit has four parts, done in order. The\nentire audit MUST NOT exceed 15 minutes.\n"
    src = Source(text, "doc.txt")
    assert limit_line("The entire audit MUST NOT exceed 15 minutes.", 1, src) == 1
