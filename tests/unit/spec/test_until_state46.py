"""`spec.until_state46`: a value that stays as it is until someone signs something off is no approval of this
run; a wait for a sign-off still is. Sentences of our own (a payroll sheet, a school trip, a lab)."""

from __future__ import annotations

import pytest

from orchestrator.spec.condition import approval_sentence
from orchestrator.spec.until_state46 import without_state_until


@pytest.mark.parametrize("sentence", [
    "Use tax band B (fixed until finance approves the new table).",
    "The old consent form stays in use until the head signs off the new one.",
    "Keep the 12% rate, frozen until the board OKs next year's budget.",
])
def test_a_state_lasting_until_a_sign_off_is_no_approval(sentence: str) -> None:
    assert without_state_until(sentence) != sentence
    assert not approval_sentence(sentence)


@pytest.mark.parametrize("sentence", [
    "Hold the batch until the lead signs it off.",
    "Finance has to approve it before it is paid.",
    "It is fixed at 5%, and the head must sign off each trip.",  # the sign-off is no end of the state
])
def test_negative_a_wait_for_a_sign_off_is_still_an_approval(sentence: str) -> None:
    assert approval_sentence(sentence)
