"""The policy grammar's twentieth-round families (`spec.grammar_families19`), each in several document kinds.

Every family is written the way a ship's log, a podcast run sheet, a kiln firing log, a theatre cue
sheet, a beekeeping notebook, an HR onboarding checklist, a lab protocol or a vet's discharge note
would say it; none is a sentence of a blind set.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _read(text: str) -> dict[str, Any]:
    """What the sentence sets, in a few plain keys, asserting nothing was left unread."""
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    statement = phrase.statement
    effect = effect_of(statement, retry_said=phrase.retry_said)
    got: dict[str, Any] = {}
    if statement.no_retry:
        got["no_retry"] = True
    elif effect.retry is not None:
        got["retries"] = effect.retry.max_retries
        if effect.retry.delays_s:
            got["waits"] = effect.retry.delays_s
        if effect.retry.budget_s is not None:
            got["budget_s"] = effect.retry.budget_s
    if effect.attempt_timeout_s is not None:
        got["timeout_s"] = effect.attempt_timeout_s
    if statement.whole_run and statement.timeout_s is not None:
        got["run_s"] = statement.timeout_s
    if effect.fallback is not None and effect.fallback.action is FallbackAction.DEFAULT:
        got["value"] = effect.fallback.value
    return got


# -- a count after "another go" with a cap word: that many retries --------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a ship's log
    ("Radio check to the harbour master failed at 0400; have another go, thrice max, 20 s between.",
     {"retries": 3, "waits": (20.0,)}),
    # a podcast run sheet
    ("If the upload to the host stalls, give it another try - 4 times tops.", {"retries": 4}),
    # a kiln firing log
    ("Thermocouple read errors: take another shot at it, twice at most, 10 s apart.", {"retries": 2, "waits": (10.0,)}),
    # an HR onboarding checklist
    ("Badge printer jams a lot; have another go, 2 times max.", {"retries": 2}),
])
def test_a_count_after_another_go_with_a_cap_word_is_that_many_retries(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- a count under a label of the retry's own noun ------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("Re-sends: 4, spaced 30 s.", {"retries": 4, "waits": (30.0,)}),  # a theatre cue sheet's tech notes
    ("re-runs = 2", {"retries": 2}),  # a lab protocol's parameter block
    ("Redials: 3, 1 min apart.", {"retries": 3, "waits": (60.0,)}),  # a ship's log
    ("Re-submits: 6", {"retries": 6}),  # an HR onboarding checklist
])
def test_a_count_under_a_retry_noun_label_is_that_many_retries(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_a_time_under_a_retry_noun_label_is_no_count() -> None:
    assert _read("Re-runs: 5 min apart, 3 of them.").get("retries") != 5


# -- "N more chances", waits said first and then ---------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a beekeeping notebook
    ("Scale sync: give it three more chances, first after 20 seconds and then after 5 minutes.",
     {"retries": 3, "waits": (20.0, 300.0)}),
    # a vet's discharge note
    ("If the lab portal is down, it gets 2 more goes, first after 1 minute and then after 10 minutes.",
     {"retries": 2, "waits": (60.0, 600.0)}),
    # a podcast run sheet
    ("Give the transcript job two more chances: first in 30 s, then in 2 min.", {"retries": 2, "waits": (30.0, 120.0)}),
    # a kiln firing log
    ("Controller handshake gets 2 more tries.", {"retries": 2}),
])
def test_more_chances_and_first_then_waits_are_the_retries_and_their_waits(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- the waits said around the retry itself, one by one --------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a ship's log
    ("AIS feed drops: wait 30 seconds and try again; then one minute; then five.", (30.0, 60.0, 300.0)),
    # a theatre cue sheet
    ("Lighting desk not answering? Pause 5 s, then retry; then 20 s; then 60 s.", (5.0, 20.0, 60.0)),
    # an HR onboarding checklist
    ("Payroll API flaky: wait 2 minutes and run it again, then 4 minutes, then 8.", (120.0, 240.0, 480.0)),
    # a lab protocol
    ("Plate reader busy: wait 10 s and try again; then 30 s.", (10.0, 30.0)),
])
def test_waits_said_around_the_retry_one_by_one_are_the_series(text: str, want: tuple[float, ...]) -> None:
    got = _read(text)
    assert got["waits"] == want
    assert got["retries"] == len(want)


# -- "a retry at X, and another at Y" ---------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("A retry at 10 seconds, and another at 1 minute if the buoy still won't answer.", (10.0, 60.0)),  # ship's log
    ("One retry after 5 s and then another after 30 s.", (5.0, 30.0)),  # a podcast run sheet
    ("A re-run at 2 min, another at 10 min, and a last one at 30 min.", (120.0, 600.0, 1800.0)),  # a kiln log
    ("a retry in 15 s and another in 45 s", (15.0, 45.0)),  # a lab protocol's margin note
])
def test_a_retry_at_one_time_and_another_at_the_next_are_that_many_retries(text: str, want: tuple[float, ...]) -> None:
    assert _read(text) == {"retries": len(want), "waits": want}


# -- a value in backticks in brackets, then going on -------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a beekeeping notebook
    ('If a hive scale errors, count it as an empty reading (`{"kg": 0, "alerts": []}`) and carry on.',
     {"kg": 0, "alerts": []}),
    # a vet's discharge note
    ('Should the drug lookup fail, take it as a clean screen (`{"interactions": []}`) and move on.', {"interactions": []}),
    # a GitHub-flavoured HR checklist
    ("if the laptop order breaks, record a blank order (`{\"items\": []}`), then continue", {"items": []}),
    # a ship's log
    ('Weather fax down: log it as calm (`{"wind_kt": 0}`) and keep going.', {"wind_kt": 0}),
])
def test_a_value_in_backticks_in_brackets_before_going_on_is_the_value(text: str, want: Any) -> None:
    assert _read(text)["value"] == want


# -- limits: never past the mark, as long as, everything from first to last -------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("Keep polling the tide gauge every 5 min, but never past the 2-hour mark.", {"budget_s": 7200.0}),  # ship's log
    ("Retry every 30 s for as long as it takes, but not beyond 20 minutes.", {"budget_s": 1200.0}),  # podcast run sheet
    ("Allow the glaze firing as long as 14 hours.", {"timeout_s": 50400.0}),  # a kiln firing log
    ("Allow each background check as much as 3 days.", {"timeout_s": 259200.0}),  # an HR onboarding checklist
    ("Everything from the first cue to the last must fit into 90 minutes.", {"run_s": 5400.0}),  # theatre cue sheet
    ("Everything from first step to last has to be done within 40 min.", {"run_s": 2400.0}),  # a lab protocol
])
def test_a_limit_said_by_a_mark_an_allowance_or_first_to_last_is_read(text: str, want: dict[str, float]) -> None:
    got = _read(text)
    assert {k: got[k] for k in want} == want


def test_a_ceiling_beside_a_backoff_stays_its_cap_not_a_time_to_keep_trying() -> None:
    assert "budget_s" not in _read("Backoff from 1 s, doubling, not beyond 30 s, 5 retries max.")


# -- no retry: never re-send, once is final ---------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Under no circumstances re-send the crew manifest; once is final.",  # a ship's log
    "Never re-post the episode to the feed.",  # a podcast run sheet
    "Do not ever re-submit the offer letter.",  # an HR onboarding checklist
    "One send is all it gets - the owner's phone bill is on us.",  # a vet's discharge note
])
def test_never_re_sending_or_once_being_final_is_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


# -- what a repeat would do is a reason, not a count -----------------------------------------------

@pytest.mark.parametrize("text", [
    "No retries here. Charging twice bills the owner twice.",  # a vet's discharge note
    "Do not retry: firing it 2 times ruins the glaze.",  # a kiln firing log
    "Don't retry. Posting twice puts the episode in the feed two times.",  # a podcast run sheet
    "Never retry the horn signal; sounding it twice means man overboard.",  # a ship's log
])
def test_what_a_repeat_would_do_is_no_count_beside_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


# -- a kill said after a time is the timeout itself ---------------------------------------------------

@pytest.mark.parametrize("text", [
    "Any sonar ping that takes over 4 seconds is dead to us - abort it.",  # a ship's log
    "A guest call that runs over 20 minutes is dead to us, cut it.",  # a podcast run sheet
])
def test_a_kill_said_after_a_time_adds_no_warning(text: str) -> None:
    assert set(_read(text)) == {"timeout_s"}


# -- "skip it" alone after a failure: warned, never guessed --------------------------------------------

@pytest.mark.parametrize("text", [
    "If the hive camera fails, skip it.",  # a beekeeping notebook
    "When the reference check errors, just skip it.",  # an HR onboarding checklist
    "If the centrifuge log won't load, skip that.",  # a lab protocol
    "Should the jingle fail to render, skip it!",  # a podcast run sheet
])
def test_skip_it_alone_after_a_failure_is_warned_and_not_read(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.on_failure is None
    assert phrase.signal
    assert any("skip" in p and "continue" in p for p in phrase.problems)


@pytest.mark.parametrize("text", [
    "If the hive camera fails, skip it and carry on.",
    "If a label won't print, skip the record and move on.",
])
def test_skip_with_going_on_said_is_still_going_on(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.on_failure is not None and phrase.statement.on_failure.kind == "continue"
