"""The policy grammar's twenty-fourth-round phrasings (`spec.grammar_families24`), each in several document kinds.

Every family is written the way a hotel night-audit runbook, a bread recipe, a vet's lab protocol, a
warehouse ticket, a radio station's playout notes, a chat export, a farm irrigation log or a YAML file of
our own schema would say it; none is a sentence of a blind set. Negatives: texts that look alike but say
something else. The last tests read holdout20's rows the blind count missed, through `plain_effect`.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from orchestrator.spec import parse_spec_text
from orchestrator.spec.grammar_families24 import bare_cap, merged_values
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.phrase_probe import plain_effect


def _read(text: str) -> dict[str, Any]:
    return plain_effect(text, continues=True)


# -- a possessive rest: the wait ----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a hotel night-audit runbook
    ("If the PMS export stalls, have two more goes with a minute's rest between each.", {"retries": 2, "waits": (60.0,)}),
    # a bread recipe card (a timer app step)
    ("Retry the proofer sensor 3 times, thirty seconds' pause before the next go.", {"retries": 3, "waits": (30.0,)}),
    # a radio station's playout notes
    ("Re-try the stream encoder 4 times with 5 minutes' breather in between.", {"retries": 4, "waits": (300.0,)}),
])
def test_a_possessive_rest_is_the_wait(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_a_rest_said_of_a_person_is_no_wait() -> None:
    # a rota note: no retry, no wait
    assert read_phrase("The driver gets an hour's rest after the night shift.").statement.is_empty()


# -- waits spaced out as a series that goes on; "never above" its cap; a bare cap -----------------------

@pytest.mark.parametrize(("text", "start", "cap"), [
    # a warehouse ticket
    ("Space the label re-prints out 2 s, 4 s, 8 s and so on, never above 1 minute, 5 re-prints max.", 2.0, 60.0),
    # a chat export
    ("pls space retries out 10 s, 20 s, 40 s ... never over 5 min, 4 retries", 10.0, 300.0),
    # a vet's lab protocol
    ("Retry the analyser 5 times, starting after 3 seconds, doubling each time up to 24.", 3.0, 24.0),
    # a farm irrigation log
    ("Go again after 2 min, tripling the wait each time to a maximum of 18, so 3 more tries.", 120.0, 1080.0),
])
def test_a_series_that_goes_on_and_its_cap(text: str, start: float, cap: float) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == ()
    wait = phrase.statement.wait
    assert wait is not None and wait.kind == "exponential"
    assert (wait.start_s, wait.cap_s) == (start, cap)


def test_a_bare_cap_takes_the_unit_of_the_time_before_it() -> None:
    assert bare_cap("after 4 seconds, doubling the pause each time ", "32") == 32.0
    assert bare_cap("after 2 min, doubling ", "10") == 600.0
    assert bare_cap("doubling each time ", "10") is None


def test_never_above_without_a_backoff_is_no_cap() -> None:
    # a thermostat log: a temperature bound, not a wait
    phrase = read_phrase("Keep the proofing box never above 40 degrees.")
    assert phrase.statement.wait is None


def test_doubling_up_to_a_count_is_no_cap() -> None:
    phrase = read_phrase("Retry after 2 seconds, doubling each time, up to 5 times.")
    assert phrase.statement.wait is not None and phrase.statement.wait.cap_s is None


# -- "another go up to twice" -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("If the playout server drops, have another go up to twice, 10 s apart.", {"retries": 2, "waits": (10.0,)}),  # radio
    ("One more try, at most three times, if the scale errors.", {"retries": 3}),  # warehouse ticket
])
def test_another_go_up_to_n_times_is_n_retries(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- a time before the step is given up on; a limit label ------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("Give the dough scan a quarter of an hour before pulling the plug.", {"timeout_s": 900.0}),  # bread recipe
    ("Allow the night audit 20 minutes before we kill it.", {"timeout_s": 1200.0}),  # hotel runbook
    ("Give it 90 s before giving up on it.", {"timeout_s": 90.0}),  # chat export
    ("Limit 400 ms, no retries.", {"timeout_s": 0.4, "no_retry": True}),  # a lab protocol's table cell
    ("limit: 2 min", {"timeout_s": 120.0}),  # a YAML-ish note
])
def test_a_time_before_giving_up_or_a_limit_label_is_the_attempts_time(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_a_limit_on_the_whole_run_or_the_waits_is_not_the_attempts_time() -> None:
    assert read_phrase("Limit 3 retries.").statement.timeout_s is None


# -- a fallback skill that stands in, or that follows a time ---------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("No luck from the room-rate feed? `rates-from-csv` can cover for it.", {"skill": "rates-from-csv"}),  # hotel
    ("`manual-weigh` will stand in for the scale if it breaks.", {"skill": "manual-weigh"}),  # warehouse
    ("If the playout box goes dark, `backup-playout` can step in.", {"skill": "backup-playout"}),  # radio
    ("The analyser gets 4 minutes; after that use `manual-count`.", {"timeout_s": 240.0, "skill": "manual-count"}),  # vet
    ("give it 30 s, past that, hand it to `sms-fallback`", {"timeout_s": 30.0, "skill": "sms-fallback"}),  # chat
])
def test_a_skill_that_stands_in_or_follows_a_time_is_the_fallback(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_a_skill_that_takes_over_without_a_failure_is_no_fallback() -> None:
    # a handover note: the next skill's job, not a fallback
    assert read_phrase("`pack-orders` will take over from here.").statement.on_failure is None
    assert read_phrase("Sort the rows; after that use `dedupe-rows`.").statement.on_failure is None


# -- values to go on with: every pair; "pretend it read" --------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a vet's lab protocol
    ("When the analyser errors, record wbc as 0 and retest as true and go on.", {"value": {"wbc": 0, "retest": True}}),
    # a hotel runbook
    ("When the key encoder breaks we move on, treating it as encoded = false and card_id = null.",
     {"value": {"encoded": False, "card_id": None}}),
    # a farm irrigation log
    ("A dead rain gauge shouldn't hold us up; pretend it read rain_mm 0.", {"value": {"rain_mm": 0}}),
    # a chat export
    ("if the tare scale crashes act as if it returned tare_g 0 and ok false", {"value": {"tare_g": 0, "ok": False}}),
])
def test_every_field_of_the_value_is_kept(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_merged_values_keeps_the_first_of_a_field_said_twice() -> None:
    assert merged_values([({"a": 1}, "a 1"), ({"a": 2, "b": 3}, "a 2, b 3")]) == {"a": 1, "b": 3}
    assert merged_values([("late", "late")]) == "late"


def test_pretending_without_a_failure_is_no_value() -> None:
    # a drama rehearsal note
    assert read_phrase("Pretend the actor read line_no 30 aloud.").statement.on_failure is None


# -- "do not repeat" beside a failure or doubt: no retry ---------------------------------------------------

@pytest.mark.parametrize("text", [
    "Do not repeat the door-release command, even if it looks like nothing happened.",  # a hotel runbook
    "Never resend the payout file, whatever happens.",  # a payroll ticket
    "don't re-issue the refund if it errors, it's not idempotent",  # a chat export
])
def test_not_repeating_beside_a_failure_is_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


def test_not_repeating_a_layout_is_no_policy() -> None:
    assert read_phrase("Do not repeat the header row on each page.").statement.is_empty()


# -- loose counts and times: reported, never read ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Give the room-rate feed a few more goes if it's being awkward.",  # hotel
    "Several more tries on the scale are fine.",  # warehouse
    "Don't let the encoder step hang around too long.",  # radio
    "The analyser shouldn't take forever.",  # vet
])
def test_loose_counts_and_times_are_reported_and_set_nothing(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems
    statement = phrase.statement
    assert statement.timeout_s is None and statement.retries is None and statement.max_attempts is None


def test_a_loose_ask_with_a_number_is_read_as_written() -> None:
    assert _read("Don't let the encoder hang around too long: timeout 5 min.") == {"timeout_s": 300.0}


# -- the whole said as the scope of a time --------------------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("From first step to last, the night audit gets 2 hours and not a minute more.", 7200.0),  # hotel
    ("The entire nightly playout build is cut off at 4 hours whatever stage it's reached.", 14400.0),  # radio
    ("The whole intake, start to finish, must wrap inside 15 minutes.", 900.0),  # vet
])
def test_a_time_scoped_to_the_whole_is_the_runs_limit(text: str, seconds: float) -> None:
    assert _read(text) == {"run_s": seconds}


def test_a_time_for_each_attempt_from_start_to_finish_stays_the_attempts() -> None:
    assert _read("Each upload may take at most 2 minutes from start to finish.") == {"timeout_s": 120.0}


# -- failure idioms at a step's opening are the policy's, not a condition -----------------------------------

def _spec(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


@pytest.mark.parametrize("opening", [
    "If the label printer dies", "If the rate call falls through", "If the PMS can't be reached",
    "If the encoder flakes out", "If the pump stalls",
])
def test_a_failure_idiom_opening_a_step_is_its_recovery_not_its_condition(opening: str) -> None:
    # a warehouse ticket: a heading per step, the text under it opening with the failure
    spec = _spec(f"# Dispatch\n\n## Step 1: print-labels\n\n{opening}, retry it 2 times.\n", "print-labels")
    assert [w for w in spec.warnings if w.code == "spec.condition-not-read"] == []
    assert spec.steps[0].when is None


def test_a_condition_about_the_data_is_still_the_steps() -> None:
    spec = _spec("# Dispatch\n\n## Step 1: print-labels\n\nIf the parcel is fragile, print two labels.\n", "print-labels")
    assert spec.steps[0].when == "the parcel is fragile"


# -- in a YAML file of our own schema: each line one policy ----------------------------------------------

_OWN_YAML = """
irrigation:
  when_things_go_wrong:
    - Give the valve check a quarter of an hour before pulling the plug.
    - A stuck flow meter shouldn't hold us up; pretend it read flow_lpm 0.
    - Do not repeat the valve-open command, even if it seems it didn't take.
"""


def test_policy_lines_of_an_own_schema_yaml_file() -> None:
    lines = yaml.safe_load(_OWN_YAML)["irrigation"]["when_things_go_wrong"]
    assert [_read(line) for line in lines] == [{"timeout_s": 900.0}, {"value": {"flow_lpm": 0}}, {"no_retry": True}]


# -- holdout20's rows the blind count missed (tuning data) ---------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("Should the ledger sync bounce, have three more cracks at it with a minute's rest between each.",
     {"retries": 3, "waits": (60.0,)}),
    ("Give the OCR pass a quarter of an hour before pulling the plug.", {"timeout_s": 900.0}),
    ("From first step to last, the payroll close gets 90 minutes and not a second more.", {"run_s": 5400.0}),
    ("The entire overnight reconciliation is cut off at 3 hours whatever stage it's reached.", {"run_s": 10800.0}),
    ("No luck from the GPS fixer? `geocode-by-postcode` can cover for it.", {"skill": "geocode-by-postcode"}),
    ("When the dosage calculator errors, don't stop the ward round - record dose_mg as 0 and needs_review as true "
     "and go on.", {"value": {"dose_mg": 0, "needs_review": True}}),
    ("A broken soil-moisture probe shouldn't hold us up; pretend it read moisture_pct 30.", {"value": {"moisture_pct": 30}}),
    ("Do not repeat the fire-door unlock command, even if it looks like it didn't land.", {"no_retry": True}),
    ("Limit 250 ms, zero retries.", {"timeout_s": 0.25, "no_retry": True}),
    ("The MRI slot finder gets one minute and a half; after that use `slot-finder-manual`.",
     {"timeout_s": 90.0, "skill": "slot-finder-manual"}),
    ("When the seat-hold call breaks we move on, treating it as held = false and hold_id = null.",
     {"value": {"held": False, "hold_id": None}}),
    ("The whole intake, start to finish, must wrap inside 10 minutes or we bin it and start over tomorrow.",
     {"run_s": 600.0}),
])
def test_holdout20_rows(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want
