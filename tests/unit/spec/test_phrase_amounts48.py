"""Words that look like a policy's but say none: "checks the load against the limit" (`against` is no
`again`), "reserves the bay for that many hours" (an amount given elsewhere, no vague duration). Near-misses:
"try it again", "retry many minutes later" are still policy words, warned as before."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize("text", [
    "`weigh-load` checks the pallet weight against the forklift's rated limit",  # warehouse
    "Compare the assay readings against the reference curve.",  # lab
    "`reserve-bay` holds the bay for that many hours",  # workshop
    "the kiln is booked for as many minutes as the firing schedule says",  # pottery studio
    "Log how many seconds the pump ran.",  # plant room
])
def test_no_policy_is_said(text: str) -> None:
    phrase = read_phrase(text, frozenset())
    assert not phrase.signal and not phrase.problems, phrase.problems


@pytest.mark.parametrize(("text", "problem"), [
    ("If it fails, try it again against the backup host.", None),
    ("retry many minutes later", "'many minutes': the duration is not a number"),
    ("give it several minutes", "'several minutes': the duration is not a number"),
])
def test_policy_words_are_still_read_or_warned(text: str, problem: str | None) -> None:
    phrase = read_phrase(text, frozenset())
    assert phrase.signal
    if problem is not None:
        assert problem in phrase.problems, phrase.problems
