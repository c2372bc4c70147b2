"""A waiting list is a thing, not a wait (`spec.grammar`'s policy signals): 'waitlist', 'wait-list' and
'waiting list' (a skill's name among them) make no sentence a policy left unread, while a wait said as a
verb still does (holdout30 185's untrue 'not understood: waitlist' / 'waiting')."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize("text", [
    "Run `sync-waitlist` for the branch and the month.",
    "Give every family on the waiting list their slot.",
    "Put the rest on the wait-list for the next intake.",
    "Hand the wait list over to reception.",
])
def test_a_waiting_list_is_no_policy_word(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.signal and not phrase.problems


@pytest.mark.parametrize("text", [
    "Wait for the lock before the export.",  # a wait no row reads: still said
    "Keep waiting until the lab phones back.",
])
def test_a_wait_said_as_a_verb_is_still_a_policy_word(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.signal


def test_a_waiting_list_beside_a_policy_keeps_the_policy() -> None:
    phrase = read_phrase("Check the waitlist; if it errors wait 2 minutes and retry once.")
    assert phrase.statement is not None and phrase.statement.retries == 1 and not phrase.problems
