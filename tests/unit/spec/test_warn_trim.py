"""A long warning keeps its verdict: the author's quoted text is cut in its middle, never the tool's
own words (`spec.warn_trim`). The quotes are what a lesson plan, a ship's log, a recipe card and a lab
protocol put in one paragraph; none is a blind set's text."""

from __future__ import annotations

import pytest

from orchestrator.spec.source import MAX_MESSAGE, Source, one_line
from orchestrator.spec.warn_trim import HARD_CAP, quoted_spans, trim

_VERDICT = "is not read: the step runs without it; write 'retry 3 times, 10 s apart' to say it"

_PARAGRAPHS = [
    # a lesson plan
    "Year 9 science, period 3. Seating chart on the door, worksheets copied the day before, the class doesn't "
    "get the answer sheet until the plenary. If the quiz marker hangs we'll just go again later on, it's fine. "
    * 3,
    # a ship's log
    "0400 watch: wind NW 4, sea state 3, barometer falling slowly. Log the fix every hour; if the plotter "
    "can't get a fix, keep at it until it does, the skipper's orders. Visibility good, no traffic in sight. " * 3,
    # a recipe card
    "Focaccia, tray 2. Weigh 500 g flour, 400 g water, 10 g salt, 7 g yeast; the scale's battery is low so if "
    "the weigh-in glitches give it another whirl whenever. Proof 1 h, dimple, oil, bake 220 C 20 min. " * 3,
    # a lab protocol
    "Protocol 12, plate read. Pre-warm the reader to 37 C, load the plate A1 first, read at 450 nm; the "
    "reader's firmware is temperamental, if it doesn't answer we just have another stab at it eventually. " * 3,
]


@pytest.mark.parametrize("paragraph", _PARAGRAPHS)
def test_a_long_quote_is_cut_in_its_middle_and_the_verdict_is_kept_whole(paragraph: str) -> None:
    message = f"step-1: '{paragraph.strip()}' {_VERDICT}"
    assert len(message) > MAX_MESSAGE
    got = one_line(message)
    assert len(got) <= MAX_MESSAGE
    assert got.startswith("step-1: '" + paragraph.strip()[:30])  # the quote's start
    assert got.endswith(paragraph.strip()[-30:] + "' " + _VERDICT)  # its end, and every word of the verdict
    assert " … " in got


@pytest.mark.parametrize("paragraph", _PARAGRAPHS)
def test_a_warning_a_source_keeps_says_its_verdict(paragraph: str) -> None:
    src = Source(paragraph, "notes.md")
    src.warn(3, f"section '{paragraph.strip()}' (not a step): 'If the reader hangs' not read (not a step)")
    (w,) = src.warnings
    assert w.message.endswith("'If the reader hangs' not read (not a step)")  # the short quote is whole
    assert len(w.message) <= MAX_MESSAGE


def test_two_long_quotes_are_both_cut_the_longest_first_and_short_ones_kept() -> None:
    a, b = _PARAGRAPHS[0].strip(), _PARAGRAPHS[1].strip()[:200]
    got = trim(f"'{a}' and '{b}' give different waits; 'x' is used", 400)
    assert len(got) <= 400 and got.endswith("give different waits; 'x' is used")


def test_an_apostrophe_inside_a_word_neither_opens_nor_closes_a_quote() -> None:
    message = "step-2: 'the reader doesn't answer, so it's tried again' is read as 1 retry"
    ((start, end),) = quoted_spans(message)
    assert message[start:end] == "the reader doesn't answer, so it's tried again"


def test_a_long_message_with_no_quote_keeps_the_tool_s_words_up_to_the_hard_cap() -> None:
    path = "/srv/" + "/".join(["skills"] * 50) + "/SKILL.md"
    message = f"step-3: its skill reads `tide_m` ({path}:8), but nothing gives it: declare the input"
    assert MAX_MESSAGE < len(message) <= HARD_CAP
    assert one_line(message) == message
    huge = "x" * 5000
    assert len(trim(huge, 400)) <= HARD_CAP


def test_a_short_message_is_unchanged() -> None:
    assert trim("step-1: 'retry twice' is read as 2 retries", 400) == "step-1: 'retry twice' is read as 2 retries"
