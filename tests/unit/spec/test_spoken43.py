"""A sentence said aloud (`spec.spoken43`): a transcript's timestamps and fillers inside an approval's sentence,
and amounts said in words in a condition."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import read_condition
from orchestrator.spec.spoken43 import spoken_amounts, unspoken


@pytest.mark.parametrize(("said", "meant"), [
    ("the night manager needs to [03:12] OK it first.", "the night manager needs to OK it first."),
    ("[0:41] so allow him, um, two hours for it.", "so allow him two hours for it."),
    ("Then we wait — uh — for her [1:02:33] sign-off.", "Then we wait for her sign-off."),
])
def test_a_transcripts_timestamps_and_fillers_are_no_words_of_the_sentence(said: str, meant: str) -> None:
    assert unspoken(said) == meant


@pytest.mark.parametrize("said", [
    "Retry it [see the runbook] twice.",  # a bracketed note, no timestamp
    "Umbrella stock under 5 means reorder.",  # "um" only as a word of its own
    "Wait until 10:30 before you send it.",  # a time of day, not bracketed
])
def test_what_is_no_timestamp_or_filler_stays(said: str) -> None:
    assert unspoken(said) == said


@pytest.mark.parametrize(("said", "meant"), [
    ("the invoice is above twelve hundred euros", "the invoice is above 1200 euros"),
    ("the bill is more than two thousand five hundred", "the bill is more than 2500"),
    ("the refund exceeds a thousand pounds", "the refund exceeds 1000 pounds"),
    ("the discount is over fifteen percent", "the discount is over 15 percent"),
    ("the deposit is under one hundred and fifty dollars", "the deposit is under 150 dollars"),
])
def test_an_amount_said_in_words_is_digits(said: str, meant: str) -> None:
    assert spoken_amounts(said) == meant


@pytest.mark.parametrize("said", [
    "more than three parcels are damaged",  # a count with a small word: `gate_count`'s
    "anyone on the list of ten",  # a number word with no amount after it
    "one or two ticks",
])
def test_a_number_word_that_is_no_amount_stays(said: str) -> None:
    assert spoken_amounts(said) == said


@pytest.mark.parametrize(("said", "subject", "value"), [
    ("the invoice's above twelve hundred euros", ("invoice",), 1200),  # "'s" as "is"
    ("the fare is over 90 dollars", ("fare",), 90),  # the money is the fare's, no count of dollars
    ("the refund exceeds a thousand pounds", ("refund",), 1000),
])
def test_a_value_compared_with_money_said_in_words_is_the_subjects(said: str, subject: tuple[str, ...],
                                                                   value: int) -> None:
    read = read_condition(said)
    assert read is not None and len(read.clauses) == 1
    clause = read.clauses[0]
    assert (clause.subject, clause.op, clause.value) == (subject, ">", value)


def test_a_count_of_things_is_still_a_count() -> None:
    read = read_condition("more than 5 parcels")
    assert read is not None and read.clauses[0].subject == ("parcel", "count")


_MEMO = """\
# Lab order

## Steps

### Step 1: Price it
- Skill: price-order

### Step 2: Place it
- Skill: place-order
[00:31] And if the total's over fifteen hundred dollars, the lab head needs to [00:36] okay it first.
She's at a conference, so give her, um, three hours. If she [00:44] hasn't answered by then we don't order.
"""


def test_an_approval_said_in_a_transcript_with_an_amount_in_words_is_read_whole() -> None:
    spec = parse_spec_text(_MEMO, "memo.md", "markdown")
    approval = spec.steps[1].approval
    assert approval is not None
    read = read_condition(approval.when or "")  # the words, read by the planner as this comparison
    assert read is not None and [(c.subject, c.op, c.value) for c in read.clauses] == [(("total",), ">", 1500)]
    assert (approval.timeout_s, approval.on_timeout) == (10800.0, "reject")


def test_an_approval_without_a_condition_in_words_still_waits_on_every_run() -> None:
    spec = parse_spec_text(_MEMO.replace("if the total's over fifteen hundred dollars, ", ""), "memo.md", "markdown")
    approval = spec.steps[1].approval
    assert approval is not None and approval.when is None and approval.timeout_s == 10800.0
