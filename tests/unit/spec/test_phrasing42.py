"""The forty-second round's recovery phrasings (`spec.phrasing42`), in a data pipeline's, a kitchen's, a clinic's and a
warehouse's words (none of them a blind set's), and texts that look alike but are not."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.phrasing42 import plain


def _read(text: str) -> tuple[Any, tuple[str, ...]]:
    phrase = read_phrase(text)
    return phrase.statement, phrase.problems


@pytest.mark.parametrize(("text", "retries"), [
    ("Take up to three more swings at the upload, 10 s between each.", 3),
    ("Should the push stall, make up to 2 further attempts on it.", 2),
    ("Call the tariff service again up to 4 times, waiting a whole minute in between.", 4),
    ("Poll the depot feed again at most 3 times.", 3),
])
def test_a_count_with_up_to_or_again_is_the_retries(text: str, retries: int) -> None:
    statement, problems = _read(text)
    assert statement.retries == retries and not problems, (statement, problems)


@pytest.mark.parametrize(("text", "seconds"), [
    ("Gaps between retries of the sync: 10, 20, then 40 seconds.", (10.0, 20.0, 40.0)),
    ("Delays before re-uploads of the photo: 2, 4 and 8 s.", (2.0, 4.0, 8.0)),
])
def test_waits_listed_after_a_colon_are_the_waits_in_order(text: str, seconds: tuple[float, ...]) -> None:
    statement, problems = _read(text)
    assert statement.wait is not None and tuple(statement.wait.seconds) == seconds and not problems


@pytest.mark.parametrize(("text", "start", "factor"), [
    ("Exponential backoff, 5 s to start, doubling each time, four retries.", 5.0, 2.0),
    ("Retry 3 times, first wait 2 s and tripling after that.", 2.0, 3.0),
])
def test_a_backoff_s_start_said_to_start_or_first(text: str, start: float, factor: float) -> None:
    statement, problems = _read(text)
    assert statement.wait is not None and statement.wait.kind == "exponential", statement
    assert (statement.wait.start_s, statement.wait.factor) == (start, factor) and not problems


@pytest.mark.parametrize(("text", "seconds"), [
    ("Kill the export if it's still grinding after 10 minutes.", 600.0),
    ("Stop the poll when it's still waiting past 90 seconds.", 90.0),
    ("Timebox the address match to 20 seconds.", 20.0),
    ("The price lookup is given 12 seconds.", 12.0),
    ("Give the renderer 2 minutes; if it takes longer, carry on without it.", 120.0),
    ("Ten seconds for the stock lookup, one retry, then stop the run.", 10.0),
])
def test_an_attempt_s_time_in_other_words(text: str, seconds: float) -> None:
    statement, problems = _read(text)
    assert statement.timeout_s == seconds and not statement.whole_run and not problems, (statement, problems)


@pytest.mark.parametrize("text", [
    "If the nightly load isn't done end to end in 40 minutes, kill everything.",
    "The full close, every step included, gets two hours.",
    "The complete audit, first step to last, has a hard stop at 3 hours.",
    "The export, all steps included, gets 90 minutes and not a minute more.",
])
def test_a_time_for_every_step_is_the_whole_run_s(text: str) -> None:
    statement, problems = _read(text)
    assert statement.timeout_s is not None and statement.whole_run and not problems, (statement, problems)


@pytest.mark.parametrize("text", [
    "The first step gets 10 minutes.",
    "If the upload isn't finished in 5 minutes, abort it.",
])
def test_a_time_for_one_step_stays_the_step_s(text: str) -> None:
    statement, _ = _read(text)
    assert statement.timeout_s is not None and not statement.whole_run


@pytest.mark.parametrize(("text", "skill"), [
    ("Mailer broken? Do the job with `mail-fallback`.", "mail-fallback"),
    ("If the scan errors, do it using `scan-lite`.", "scan-lite"),
    ("When the parser fails, then html-strip steps in.", "html-strip"),
    ("Should the map tiles fail we run tile-cache in its place.", "tile-cache"),
    ("If the card reader misbehaves, use `manual-entry` in its place.", "manual-entry"),
])
def test_a_fallback_said_as_who_does_the_step_is_the_fallback_skill(text: str, skill: str) -> None:
    statement, problems = _read(text)
    assert statement.on_failure is not None and statement.on_failure.skill == skill and not problems, statement


@pytest.mark.parametrize(("text", "value"), [
    ("If the scorer errors, treat it as score: 0 and flagged: true.", {"score": 0, "flagged": True}),
    ("Address check down? Skip over it with verified: false.", {"verified": False}),
    ("Depot feed errors? Skip past it with stock 0 and source 'none'.", {"stock": 0, "source": "none"}),
    ("If the map fails, move on with zone_id 4 and area left empty (null).", {"zone_id": 4, "area": None}),
])
def test_values_to_go_on_with_in_other_words(text: str, value: dict[str, Any]) -> None:
    statement, problems = _read(text)
    assert statement.on_failure is not None and statement.on_failure.value == value and not problems, statement


@pytest.mark.parametrize("text", [
    "No second go at the payment.",
    "If it fails there is no automatic second try.",
    "The payment goes through once.",
])
def test_no_retry_in_other_words(text: str) -> None:
    statement, _ = _read(text)
    assert statement.no_retry, statement


@pytest.mark.parametrize("text", ["Any failure ends the job.", "Retry twice, a minute apart, then halt the run."])
def test_the_failure_in_other_words(text: str) -> None:
    statement, _ = _read(text)
    assert statement.on_failure is not None and statement.on_failure.kind == "fail", statement


@pytest.mark.parametrize("text", [
    "Do this step with `pdf-render`.",  # no failure said: what the step does
    "If the lead is away, the deputy takes over.",  # no skill named
    "When done, use the label-printer in its place.",  # a condition, no failure
    "Treat it as a success if the page loads.",
    "Skip past the header with care.",
    "A failure ends up in the log.",
    "5 minutes for the cooling, then the glaze.",  # a time with no retry or failure beside it
    "Wait 5 minutes for the kiln to cool, then fire the glaze.",
])
def test_look_alikes_set_no_fallback_value_timeout_or_fail(text: str) -> None:
    statement, _ = _read(text)
    assert statement.timeout_s is None, statement
    assert statement.on_failure is None or statement.on_failure.kind not in ("use_skill", "continue_with_value", "fail")


@pytest.mark.parametrize("text", ["The second go waits 5 s.", "The payment goes through once a day.",
                                  "The lookup gets 8 seconds between tries."])
def test_look_alikes_set_no_no_retry_or_timeout(text: str) -> None:
    statement, _ = _read(text)
    assert not statement.no_retry and statement.timeout_s is None, statement


def test_plain_writes_a_full_time_and_an_empty_literal_plainly() -> None:
    assert plain("waiting a full 2 minutes") == "waiting 2 minutes"
    assert plain("a good hour later") == "an hour later"
    assert plain("gusts left empty (null)") == "gusts null"
    assert plain("the whole run") == "the whole run"
    assert plain("left empty for now (see below)") == "left empty for now (see below)"
