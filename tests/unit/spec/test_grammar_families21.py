"""The policy grammar's twenty-first-round notations (`spec.grammar_families21`), each in several document kinds.

Every family is written the way a bakery prep list, a ship's log, a theatre cue sheet, a lab protocol, a
vet's discharge checklist, a podcast run sheet, a brewery batch card or an HR onboarding checklist would
say it; none is a sentence of a blind set.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec.grammar_families21 import (
    colon_pairs,
    colon_reason_spans,
    fields_of_list,
    now_series,
)
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.phrase_value import duration, json_literal
from tests.unit.spec.phrase_probe import plain_effect


def _read(text: str) -> dict[str, Any]:
    return plain_effect(text, on=True)


# -- a time the step is given or capped at: the attempt's time -----------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a brewery batch card
    ("The mash temperature log gets a 90-minute window and not a second longer.", {"timeout_s": 5400.0}),
    # a podcast run sheet
    ("The transcript job is given a 20-minute slot.", {"timeout_s": 1200.0}),
    # a lab protocol
    ("Never retry the assay, and a 15-minute cut-off.", {"no_retry": True, "timeout_s": 900.0}),
    # a ship's log
    ("Cap `fetch-weatherfax` at 45 s, then 2 more goes 10 s apart.", {"retries": 2, "waits": (10.0,), "timeout_s": 45.0}),
    # an HR onboarding checklist
    ("Give the badge printer 30 seconds; after that, hand the card to `manual-badge`.",
     {"timeout_s": 30.0, "skill": "manual-badge"}),
])
def test_a_time_the_step_is_given_or_capped_at_is_the_attempts_time(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_giving_it_a_time_between_tries_is_no_timeout() -> None:
    phrase = read_phrase("Give it 5 minutes between tries, 3 retries.")
    assert phrase.statement.timeout_s is None


# -- "after the third failed try": the retries before it -----------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a vet's discharge checklist
    ("After the third failed try on the lab portal, stop the run.", {"retries": 2, "fail": True}),
    # a theatre cue sheet
    ("On the second failure of the fog machine cue, stop the run.", {"retries": 1, "fail": True}),
    # a bakery prep list
    ("If the oven probe fails a fourth time, stop the run.", {"retries": 3, "fail": True}),
    # a podcast run sheet
    ("Once the 5th upload has failed, stop the run.", {"retries": 4, "fail": True}),
])
def test_an_ordinal_failure_is_the_retries_before_it(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- wait series -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a lab protocol
    ("Two retries on the plate reader - immediately, then after 1 min.", {"retries": 2, "waits": (0.0, 60.0)}),
    # a ship's log
    ("Retry the AIS fix three times: right away, then after 20 s, then after 5 min.",
     {"retries": 3, "waits": (0.0, 20.0, 300.0)}),
    # a brewery batch card
    ("Resend the order after 2 minutes, again after 10 minutes, and a final time after 1 hour.",
     {"retries": 3, "waits": (120.0, 600.0, 3600.0)}),
    # an HR onboarding checklist
    ("Re-send the offer letter after 1 hour, again after 4 hours.", {"retries": 2, "waits": (3600.0, 14400.0)}),
])
def test_a_wait_series_at_once_first_or_one_again_at_a_time(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_now_series_reads_each_part() -> None:
    assert now_series("straight away, then after 30 s and then 2 min", duration) == (0.0, 30.0, 120.0)
    assert now_series("at once, then whenever", duration) is None


# -- the whole run, no repeat, no wait ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Three hours is the most the whole stocktake may take, end to end.",  # a warehouse count
    "90 minutes is the limit for the entire rehearsal run.",  # a theatre cue sheet
])
def test_a_time_said_as_the_most_of_the_whole_is_the_runs_limit(text: str) -> None:
    got = _read(text)
    assert got["run_s"] in (10800.0, 5400.0)


@pytest.mark.parametrize("text", [
    "The payroll export must never be run a second time; a rerun pays everyone double.",  # an HR checklist
    "The dosing step is never to be started again: the reagent is spent.",  # a lab protocol
    "This cue should never be fired twice.",  # a theatre cue sheet
    "The invoice post must not be sent again.",  # a bakery supplier card
])
def test_never_again_is_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


@pytest.mark.parametrize(("text", "retries"), [
    ("Give the tide gauge three more goes, no waiting in between.", 3),  # a ship's log
    ("Retry the label print twice with no gap between tries.", 2),  # a vet's checklist
])
def test_no_waiting_between_is_no_wait(text: str, retries: int) -> None:
    got = _read(text)
    assert got["retries"] == retries and set(got.get("waits", (0.0,))) == {0.0}


# -- values to go on with -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a brewery batch card
    ("If the gravity meter fails, carry on with the last reading: og 1052, fg 1010, stuck false.",
     {"og": 1052, "fg": 1010, "stuck": False}),
    # a ship's log
    ("Should the GPS drop out, continue with the dead-reckoning figures: lat_deg 56.1, lon_deg -3.2.",
     {"lat_deg": 56.1, "lon_deg": -3.2}),
    # a vet's discharge checklist
    ("If the scale fails, carry on with the intake sheet instead: weight_kg 4.2, fasted true.",
     {"weight_kg": 4.2, "fasted": True}),
])
def test_names_and_values_after_a_colon_are_the_value_to_go_on_with(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == {"value": want}


@pytest.mark.parametrize(("text", "want"), [
    # a podcast run sheet
    ("If the loudness pass fails, carry on with the raw mix and normalised set to false.", {"normalised": False}),
    # a bakery prep list
    ("When the proof timer breaks, continue with the usual dough and timed set to false.", {"timed": False}),
    # a lab protocol: both are fields
    ("If the centrifuge errors, continue with spun and balanced set to false.", {"spun": False, "balanced": False}),
])
def test_a_noun_phrase_before_and_is_no_field(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == {"value": want}


def test_fields_of_list_keeps_a_list_that_starts_after_with() -> None:
    assert fields_of_list(["lat", "lon"], "continue with ", "lat and lon") == ["lat", "lon"]
    assert fields_of_list(["photo", "resized"], "carry on with the original ", "photo and resized") == ["resized"]
    assert fields_of_list(["a_b", "c"], "the big ", "a_b and c") == ["a_b", "c"]


def test_colon_pairs_refuses_a_part_that_is_no_name_and_value() -> None:
    assert colon_pairs("a_l 5, low false", json_literal) == {"a_l": 5, "low": False}
    assert colon_pairs("a_l 5, the rest of it", json_literal) is None


# -- a reason before a colon ------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "The chart plotter has been freezing all week: cap `plot-route` at 30 s, then 2 more goes 5 s apart.",  # ship's log
    "The mixer has been tripping since Monday: give it 2 more goes, 1 min apart.",  # bakery prep list
])
def test_what_has_been_going_on_before_a_colon_is_no_failure_class(text: str) -> None:
    assert "on" not in _read(text)
    assert colon_reason_spans(text)


def test_a_condition_before_the_colon_keeps_its_class() -> None:
    assert colon_reason_spans("If the feed has been hanging: retry twice.") == []
