"""A step given up and one person told in the same breath ("after that stop and email Dolores", "give up and
email me", "fail the run and ping me") is the step failing; the message is warned as one the run does not
send (`spec.notify_person.gives_up_telling`). A rota, channel or address paged or alerted after giving up
("stop and page #ml-oncall", "give up and alert #data-eng", "email ops@ and stop") stays an escalation, and
so does a person told with no giving up said ("If it still fails, email Priya")."""

from __future__ import annotations

import pytest

from orchestrator.spec.notify_person import gives_up_telling
from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize(("sentence", "words"), [
    ("The booking API flakes: retry twice, 10 s apart, then stop and email Hannah in bookings.", "email Hannah"),
    ("If the ledger export errors, try once more; after that give up and text me.", "text me"),
    ("Pure arithmetic: if it blows up, no retries, just fail the run and ping us.", "ping us"),
    ("Wait 1 min between tries, three at most; after that halt and then message Omar.", "message Omar"),
])
def test_giving_up_and_telling_one_person_is_the_step_failing_warned(sentence: str, words: str) -> None:
    phrase = read_phrase(sentence)
    failure = phrase.statement.on_failure
    assert failure is not None and failure.kind == "fail"
    assert any(p.startswith(f"'{words}") and "asks for a person to be told" in p for p in phrase.problems)


@pytest.mark.parametrize("sentence", [
    "If it crashes twice in a row, stop and page #ml-oncall",  # a rota's pager: an escalation
    "give up and alert #data-eng",  # a channel
    "email ops@ and stop",  # an address
    "If the scanner jams twice, email Priya.",  # a failure, but no giving up said
    "Retry twice, then stop and email the ops team.",  # a team, not one person
])
def test_an_escalation_to_a_rota_channel_or_without_giving_up_stays_one(sentence: str) -> None:
    failure = read_phrase(sentence).statement.on_failure
    assert failure is not None and failure.kind == "escalate"


@pytest.mark.parametrize(("sentence", "message", "expected"), [
    ("then give up and email me", "email me", True),
    ("stop, and email Dolores", "email Dolores", True),
    ("if it stops, we email Dolores", "email Dolores", False),  # "we" between: not the giving up's own telling
    ("stop and email the office", "email the office", False),
    ("stop and email me", "hand it to me", False),  # no telling word
])
def test_gives_up_telling(sentence: str, message: str, expected: bool) -> None:
    assert gives_up_telling(sentence, message) is expected
