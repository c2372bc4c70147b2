"""'or people get pinged twice': what a second run would do to someone, after a participle, is no count of tries
(`spec.grammar`'s count row, 45th round); 'retried twice', 'tried twice' still are."""

from __future__ import annotations

from orchestrator.spec.phrase import read_phrase


def _said(text: str) -> tuple[object, object, tuple[str, ...]]:
    p = read_phrase(text)
    return p.statement.no_retry, p.statement.retries, p.problems


def test_a_participle_before_twice_is_what_a_rerun_does_not_a_second_count() -> None:
    assert _said("send-invoice: no retries, or the customer gets charged twice") == (True, None, ())
    assert _said("just the one go, never retry - folk end up emailed twice otherwise") == (True, None, ())


def test_retried_or_tried_twice_is_still_a_count_of_tries() -> None:
    assert _said("it gets retried twice at most")[1] == 2
    assert _said("tried twice then give up, no more retries")[1] == 2
