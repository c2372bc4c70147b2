"""Time words that are limits or a person's wait, not retries (`spec.time_words29`). Documents: an
on-call runbook, a kitchen prep sheet, a support macro; negatives: a wait between tries, "tops" in
"laptops", "export" beside a real backoff."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.time_words29 import person_wait, silence_outcome


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


RUNBOOK = """# Failover runbook

## Steps

1. Snapshot the primary with `snapshot-db`.
2. Promote the replica with `promote-replica`. If the lag is over 30 seconds, the on-call lead has to OK it first. Page him and hold on up to 30 minutes. Silence means go ahead.
3. Tell the channel with `post-status`.
"""

PREP_SHEET = """# Saturday prep

## Steps

1. Make the stock with `make-stock`.
2. Plate the specials with `plate-specials`. If there are more than 12 covers, chef has to OK it first. Ask her to taste it and wait up to 10 minutes. No answer = bin it, we stop there.
"""

MACRO = """# Refund macro

## Steps

1. Look up the order with `find-order`.
2. Issue the refund with `issue-refund`. When the refund is over 200, a team lead must approve it first.
   Send them the ticket and wait up to 4 hours. No reply means no refund.
   Issue the refund only once - a second one pays twice.
"""


def test_a_runbooks_plain_wait_after_the_approval_is_the_persons_time_and_silence_its_outcome() -> None:
    approval = _parse(RUNBOOK).steps[1].approval
    assert approval is not None and approval.when is not None
    assert (approval.timeout_s, approval.on_timeout) == (1800.0, "approve")


def test_a_prep_sheets_wait_for_chef_rejects_on_silence() -> None:
    spec = _parse(PREP_SHEET)
    approval = spec.steps[1].approval
    assert approval is not None and (approval.timeout_s, approval.on_timeout) == (600.0, "reject")
    assert not any("not understood" in w.message for w in spec.warnings)


def test_a_macros_wait_is_no_retry_and_leaves_only_once_standing() -> None:
    spec = _parse(MACRO)
    approval = spec.steps[1].approval
    assert approval is not None and (approval.timeout_s, approval.on_timeout) == (14400.0, "reject")
    assert not any("disagrees" in w.message or "retries assumed" in w.message for w in spec.warnings)


def test_a_limit_beside_an_export_is_the_attempts_timeout_not_a_backoff_cap() -> None:
    said = read_phrase("The nightly export is slow; give it 20 minutes tops, then treat it as failed.").statement
    assert said.timeout_s == 1200.0 and said.wait is None and not said.retries


def test_export_beside_a_real_backoff_still_caps_it() -> None:
    said = read_phrase("Retry the export 3 times with expo backoff, 30s max.").statement
    assert said.retries == 3 and said.wait is not None and said.wait.cap_s == 30.0


@pytest.mark.parametrize("sentence", [
    "wait 10 minutes then try again",
    "Wait 5 minutes and retry.",
    "Poll it, waiting up to 2 hours.",
    "Check the laptops tops shelf.",
])
def test_waits_between_tries_and_other_words_are_no_persons_wait(sentence: str) -> None:
    assert person_wait(sentence) is None


def test_a_wait_between_tries_keeps_its_reading() -> None:
    said = read_phrase("wait 10 minutes then try again").statement
    assert said.wait is not None and said.timeout_s is None


def test_laptops_is_no_time_word() -> None:
    said = read_phrase("Reimage the laptops, 40 of them at most.").statement
    assert said.timeout_s is None and said.wait is None


@pytest.mark.parametrize(("sentence", "then"), [
    ("No answer = no withdrawal, we stop there.", "reject"),
    ("Silence means go ahead.", "approve"),
    ("No reply -> proceed anyway.", "approve"),
    ("No answer means we don't ship.", "reject"),
    ("No answer was logged last week.", None),
    ("The answer = 42.", None),
])
def test_what_silence_means(sentence: str, then: str | None) -> None:
    assert silence_outcome(sentence) == then


def test_silence_that_says_the_step_goes_ahead_anyway_is_a_yes() -> None:
    from orchestrator.spec.time_words29 import silence_outcome

    assert silence_outcome("No reply = post it anyway, she's in theatre all day") == "approve"
    assert silence_outcome("No answer: book the coach regardless.") == "approve"
    assert silence_outcome("No answer = don't print it anyway") == "reject"  # a "don't" before it
