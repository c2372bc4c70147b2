"""Round 50's recovery phrasings (`spec.phrasing50`), in a courier's runbook, a school office note and a
print shop's card: a time given to a named service ("give Jira 45 seconds"), and a failure said not to count
against the run ("the job still counts as done"). Near misses: a person given time to answer, a run that
"still counts" rows, and the words with no failure said."""

from __future__ import annotations

from orchestrator.spec.phrase import read_phrase
from tests.unit.spec.phrase_probe import plain_effect


def _read(text: str) -> dict[str, object]:
    return plain_effect(text, continues=True)


def test_a_time_given_to_a_named_service_is_the_attempt_s_time() -> None:
    assert _read("Give Jira 45 seconds, then stop.") == {"timeout_s": 45.0, "fail": True}  # a courier's runbook
    assert _read("give PagerDuty 30 s.") == {"timeout_s": 30.0}  # a school office note
    assert _read("give it 20s.") == {"timeout_s": 20.0}  # read so before


def test_a_person_given_time_to_answer_is_no_step_time() -> None:
    for text in ("Give Fi 10 min; if she doesn't answer, go anyway.", "give Dev 2 hours to reply."):
        assert read_phrase(text).statement.timeout_s is None, text


def test_a_failure_that_does_not_count_against_the_run_is_going_on() -> None:
    assert _read("If the upload errors the job still counts as done.") == {"continue": True}  # a print shop's card
    assert _read("if it can't send, no matter, the build still passes") == {"continue": True}
    assert _read("give Slack 20s. If it can't post, whatever, the run still counts.") == {
        "timeout_s": 20.0, "continue": True}


def test_still_counts_with_no_failure_said_or_counting_rows_is_no_policy() -> None:
    for text in ("The run still counts the rows.", "the run still counts."):
        on_failure = read_phrase(text).statement.on_failure
        assert on_failure is None or on_failure.kind != "continue", text


def test_a_couple_of_minutes_among_numbered_waits_is_two_minutes() -> None:  # a kiln log; a lab's bench card
    assert _read("If the kiln probe drops out, retry after 10 s, then after a couple of minutes, then 10 min, "
                 "then stop.") == {"retries": 3, "waits": (10.0, 120.0, 600.0), "fail": True}
    assert _read("Re-read the plate after 20 seconds, then a couple of minutes, then 4 minutes.") == {
        "retries": 3, "waits": (20.0, 120.0, 240.0)}


def test_a_couple_of_minutes_with_no_numbered_wait_beside_it_stays_too_loose() -> None:
    for text in ("Wait a couple of minutes.", "wait a couple of minutes and try again, then stop"):
        phrase = read_phrase(text)
        assert phrase.statement.wait is None and any("couple of minutes" in p for p in phrase.problems), text
