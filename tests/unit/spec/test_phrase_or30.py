"""Two policy readings of round 30 (`spec.phrase`, `spec.grammar_aside`): "if it times out or errors" is every
failure, not the timeout alone; a bare "once" beside a no-retry is the one run it says, not a contradiction.
A print-shop note, a lab protocol line, a deploy checklist line; and the sentences that stay as they were."""

from __future__ import annotations

from orchestrator.policy import ErrorClass
from orchestrator.spec.phrase import read_phrase


def test_a_timeout_or_an_error_is_every_failure() -> None:
    for text in ("if it times out or errors -> use `backup-press` instead",
                 "should the centrifuge hang or crash, use `spare-rotor`",
                 "if the deploy fails or times out, use `rollback-deploy`"):
        s = read_phrase(text).statement
        assert s.on_failure is not None and s.applies_to == "any", (text, s)


def test_a_timeout_alone_stays_a_timeout() -> None:
    s = read_phrase("if it times out, use `backup-press` instead").statement
    assert s.applies_to is ErrorClass.TIMEOUT


def test_once_beside_a_no_retry_is_the_single_run() -> None:
    for text in ("writes to the ledger, do not repeat it. once.", "No retries. Once.", "never rerun it; just once"):
        p = read_phrase(text)
        assert p.statement.no_retry and not p.problems, (text, p.problems)


def test_a_retry_once_beside_a_no_retry_still_contradicts() -> None:
    for text in ("No retries, retry once", "never retry it, try once more if the lock is held"):
        assert any("contradict" in m for m in read_phrase(text).problems), text
