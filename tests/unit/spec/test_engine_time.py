"""Engine and ops notations for times and retries (`spec.engine_time`), and the tenth round's policy
families (`spec.grammar_families10`), read in document kinds no fixture uses."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase, read_policy_value


@pytest.mark.parametrize(("text", "want"), [
    # an Argo-ish lab protocol, a Temporal config comment, a ship's log, a Step Functions note
    ("Incubation poll: retryCycle R4/PT30S", {"retries": 4, "wait": (30.0,)}),
    ("# activity: retry_schedule = PT5S,PT20S,PT1M", {"wait": (5.0, 20.0, 60.0)}),
    ("Watch relief: boundary timer (interrupting) timeDuration: PT15M", {"timeout_s": 900.0}),
    ("stepTimeout (custom): 90s for the thumbnail lambda", {"timeout_s": 90.0}),
    ("Podcast render: max_retries = 2, retry_interval = 30 s.", {"retries": 2, "wait": (30.0,)}),
])
def test_an_engine_notation_reads_as_the_policy_it_writes(text: str, want: dict[str, object]) -> None:
    s = read_phrase(text).statement
    got: dict[str, object] = {}
    if s.retries is not None:
        got["retries"] = s.retries
    if s.wait is not None:
        got["wait"] = s.wait.seconds
    if s.timeout_s is not None:
        got["timeout_s"] = s.timeout_s
    assert got == want, read_phrase(text)


@pytest.mark.parametrize("text", [
    "Whole service: -30 min max.", "Bake timeout: -5 min", "Retry twice, waiting -10s between tries."])
def test_a_time_below_zero_is_said_and_never_read_without_its_sign(text: str) -> None:
    phrase = read_phrase(text)
    assert any("below zero" in p for p in phrase.problems)
    assert phrase.statement.timeout_s is None and phrase.statement.wait is None


@pytest.mark.parametrize(("text", "value"), [
    ("If the seating chart call fails, carry on with seats = 0 and waitlist = 0.", {"seats": 0, "waitlist": 0}),
    ("Should the mixer crash, continue with mixed=false, track=\"raw\"", {"mixed": False, "track": "raw"}),
    ("If the badge printer errors, move on with an empty badge ({}).", {}),
])
def test_the_values_to_go_on_with_are_all_read(text: str, value: object) -> None:
    f = read_phrase(text).statement.on_failure
    assert f is not None and f.kind == "continue_with_value" and f.value == value


def test_a_quoted_value_and_the_output_it_stands_for_are_read() -> None:
    f = read_phrase('If the menu generator errors, just go with "Chef\'s choice" as the dish name').statement.on_failure
    assert f is not None and (f.field, f.value) == ("dish_name", "Chef's choice")


def test_retrying_with_no_end_but_a_cap_is_a_time_to_keep_trying() -> None:
    s = read_phrase("We poll the lab feed indefinitely every 5 min but it is capped at 2 h.").statement
    assert s.for_up_to_s == 7200 and s.wait is not None and s.wait.seconds == (300.0,) and not s.whole_run


def test_an_own_yaml_key_s_sentence_is_read_as_a_policy() -> None:
    s = read_policy_value("clock", "90s per batch").statement
    assert s.timeout_s == 90
