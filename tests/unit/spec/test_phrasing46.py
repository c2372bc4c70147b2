"""Round 46's recovery phrasings (`spec.phrasing46`), in words that are not the thirtieth blind set's."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.step_prose import dependency_phrase


def _s(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize("text", ["If the export has a hissy fit, retry it 3 times, a minute apart.",
                                  "When the label printer throws a strop, retry it 3 times, a minute apart."])
def test_a_tantrum_is_a_failure_of_any_class_not_a_code_error(text: str) -> None:
    s, problems = _s(text)
    assert s.retries == 3 and s.applies_to is None and not problems


def test_a_plain_throw_is_still_an_exception() -> None:
    assert str(read_phrase("If the parser throws, retry it twice.").statement.applies_to).endswith("code_error")


@pytest.mark.parametrize(("text", "seconds"), [("Give the scanner 20 s; if it's not done, carry on.", 20.0),
                                                ("Kill the image resize after 40 secs.", 40.0),
                                                ("The upload has 5 min per try and 3 retries.", 300.0)])
def test_a_time_allowed_or_stopped_at_is_the_attempt_s_timeout(text: str, seconds: float) -> None:
    s, _ = _s(text)
    assert s.timeout_s == seconds and not s.whole_run


def test_a_time_given_for_something_else_is_no_timeout() -> None:
    assert read_phrase("Kill the image resize after 3 failures.").statement.timeout_s is None


@pytest.mark.parametrize("text", ["If the whole nightly job is still going after 3 hours, cancel it.",
                                  "Nothing in the batch may run past 20 minutes overall.",
                                  "The entire pipeline has a hard deadline of 4 hours."])
def test_a_time_for_the_whole_of_the_run_is_the_run_s(text: str) -> None:
    s, _ = _s(text)
    assert s.timeout_s is not None and s.whole_run


def test_a_time_for_the_full_something_else_is_not_the_run_s() -> None:
    s = read_phrase("If the full report render is still going after 3 minutes, kill it.").statement
    assert s.timeout_s == 180 and not s.whole_run


@pytest.mark.parametrize("text", ["If the sequence is still running after 1 and a half hours, stop it.",
                                  "Runs after 2 and a quarter minutes have passed."])
def test_a_count_and_its_fraction_in_words_is_a_time_not_a_step(text: str) -> None:
    assert dependency_phrase(text) is None


def test_after_a_step_number_is_still_a_dependency() -> None:
    found = dependency_phrase("Runs after 2 and 3.")
    assert found is not None and len(found.ids) == 2


def test_waiting_then_doubling_is_a_backoff_with_its_cap() -> None:
    s, problems = _s("Up to 4 retries, waiting 5s and doubling the wait each time (level off at 1 min).")
    assert s.wait is not None and s.wait.kind == "exponential" and s.wait.start_s == 5 and s.wait.cap_s == 60
    assert not problems


@pytest.mark.parametrize("text", ["A failure of the audit log means halt, full stop.",
                                  "If the licence check errors, that's the end of the line."])
def test_a_stop_said_after_a_failure_is_a_fail(text: str) -> None:
    s, _ = _s(text)
    assert s.on_failure is not None and s.on_failure.kind == "fail"


def test_means_abort_the_thing_is_no_fail() -> None:
    s, _ = _s("A stale cache error means abort the lookup and read again from disk.")
    assert s.on_failure is None or s.on_failure.kind != "fail"


def test_the_end_of_the_run_without_a_failure_is_no_fail() -> None:
    assert read_phrase("When the export finishes, that's the end of the run.").statement.on_failure is None


@pytest.mark.parametrize("text", ["If the scanner can't start, our stand-in is `manual-scan`.",
                                  "Should the feed break, the substitute is `manual-scan`."])
def test_a_stand_in_named_after_a_failure_is_the_fallback_skill(text: str) -> None:
    s, _ = _s(text)
    assert s.on_failure is not None and s.on_failure.skill == "manual-scan"


@pytest.mark.parametrize(("text", "value"), [
    ("If the lint dies, press on anyway with warnings = [] and passed = true.", {"warnings": [], "passed": True}),
    ("Scanner down? Keep moving with unit \"kg\" and weight 0.", {"unit": "kg", "weight": 0}),
    ("Should the checker fail, carry on as if it returned score 0 and note \"skipped\".", {"score": 0, "note": "skipped"}),
    ("If the count breaks, treat it as visitors 0.", {"visitors": 0}),
    ("If the lookup fails just keep going, x and y both null.", {"x": None, "y": None}),
])
def test_values_to_go_on_with_are_each_field_and_its_value(text: str, value: dict[str, object]) -> None:
    s, problems = _s(text)
    assert s.on_failure is not None and s.on_failure.value == value, (s, problems)


def test_treat_it_as_a_word_is_no_field() -> None:
    s, _ = _s("If the count breaks, treat it as zero.")
    assert s.on_failure is not None and not isinstance(s.on_failure.value, dict)
