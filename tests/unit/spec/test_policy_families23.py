"""The policy grammar's twenty-third-round phrasings (`spec.grammar_families23`), each in several document kinds.

Every family is written the way a dental surgery checklist, a ferry terminal runbook, a choir librarian's
notes, a greenhouse watering log, a courier dispatch ticket, a bakery order sheet, a museum loan form or a
YAML file of our own schema would say it; none is a sentence of a blind set. Negatives: texts that look
alike but say something else.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.phrase_probe import plain_effect


def _read(text: str) -> dict[str, Any]:
    return plain_effect(text, continues=True)


# -- a re-verb with a cap on its count; "again one time" -------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a courier dispatch ticket
    ("Re-post the pickup request up to 5 times, 20 seconds apart.", {"retries": 5, "waits": (20.0,)}),
    # a dental surgery checklist
    ("Re-dial the lab at most 2 times with a 1-minute gap.", {"retries": 2, "waits": (60.0,)}),
    # a ferry terminal runbook
    ("Try the manifest upload again one time after 10 minutes.", {"retries": 1, "waits": (600.0,)}),
    # a choir librarian's notes
    ("If the scanner jams, send it again just once.", {"retries": 1}),
])
def test_a_capped_re_verb_or_again_n_times_is_that_many_retries(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- waits said one after another; ordinal chances ---------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a greenhouse watering log
    ("Two more goes at the valve, 20 s and then 5 min later.", {"retries": 2, "waits": (20.0, 300.0)}),
    # a museum loan form
    ("Give the courier booking a second go at once, then a third after 30 s.", {"retries": 2, "waits": (0.0, 30.0)}),
    # a bakery order sheet
    ("Give the oven probe a second try right away, then a third one after 1 minute.",
     {"retries": 2, "waits": (0.0, 60.0)}),
])
def test_waits_in_order_and_ordinal_chances(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- no retry after the first failure ------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    # a ferry terminal runbook
    "Stop trying the ramp hydraulics after the first failure; the latch jams if hammered.",
    # a dental surgery checklist
    "Give up on the card reader at the first error, do not loop on it.",
    # a courier dispatch ticket
    "Quit after the first failed call to the depot.",
])
def test_stopping_after_the_first_failure_is_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


def test_the_third_failure_is_not_the_first() -> None:
    assert _read("Stop after the third failure.").get("no_retry") is None


# -- anything over a time counts as failed -----------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a greenhouse watering log
    ("Anything over 2 minutes on the pump cycle and we call it dead.", {"timeout_s": 120.0}),
    # a bakery order sheet
    ("Any run past 45 seconds counts as failed.", {"timeout_s": 45.0}),
])
def test_anything_over_a_time_that_counts_as_failed_is_the_attempts_time(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_anything_over_a_time_without_a_failure_is_no_timeout() -> None:
    # a choir librarian's notes: a description, not a limit
    assert read_phrase("Anything over 3 minutes of music is split into two files.").statement.timeout_s is None


# -- the fallback skill said with another verb -----------------------------------------------------

@pytest.mark.parametrize(("text", "skill"), [
    # a museum loan form
    ("If the condition report times out, push that loan to `registrar-desk`.", "registrar-desk"),
    # a courier dispatch ticket
    ("When the route planner crashes, divert the job into `paper-routes` instead.", "paper-routes"),
])
def test_a_record_moved_to_a_skill_on_failure_is_the_fallback(text: str, skill: str) -> None:
    assert _read(text)["skill"] == skill


def test_moving_a_record_to_a_skill_without_a_failure_is_no_policy() -> None:
    # a dental surgery checklist: the step's own work
    assert read_phrase("Move each x-ray to `image-archive` once signed.").statement.on_failure is None


# -- going on, said as keeping things rolling ----------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a bakery order sheet
    ("A failed price sync is not a blocker; keep rolling with price 0 and unit \"kg\".",
     {"value": {"price": 0, "unit": "kg"}}),
    # a greenhouse watering log
    ("If the humidity read fails, log humidity 0.5 and keep the run alive.", {"value": {"humidity": 0.5}}),
    # a ferry terminal runbook
    ("When the weather feed is down, soldier on.", {"continue": True}),
])
def test_keeping_the_run_going_is_going_on(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_pairs_cut_by_a_slash_are_left_to_the_slash_reader() -> None:
    assert _read("If the scale fails, carry on with weight_g 0 / tare 5 instead.")["value"] == {"weight_g": 0, "tare": 5}


# -- the whole run: a scheduled run's time, or the entire batch still going ----------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a choir librarian's notes
    ("The weekly catalogue export gets until 3 hours have passed, no longer.", {"run_s": 10800.0}),
    # a greenhouse watering log
    ("Stop the entire irrigation cycle if it's still running after 2 hours.", {"run_s": 7200.0}),
    # a courier dispatch ticket: no scheduled or whole subject, so one attempt's time
    ("The label print gets until 10 minutes have passed.", {"timeout_s": 600.0}),
])
def test_a_time_until_which_a_run_goes_is_a_limit_not_a_retry_budget(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- "exponential" beside listed waits -------------------------------------------------------------

def test_exponential_before_listed_waits_describes_them() -> None:
    # a ferry terminal runbook
    assert _read("Retry with exponential backoff - 2s, 8s, 32s - then stop.") == {
        "retries": 3, "waits": (2.0, 8.0, 32.0), "fail": True}


# -- loose asks are reported, not read ------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Be patient with the tide gauge, it lags.",  # a ferry terminal runbook
    "If the choir roster upload fails, try it again later.",  # a choir librarian's notes
    "Give the kiln a couple of minutes.",  # a pottery firing card
    "Don't rush the lab, it's slow on Mondays.",  # a dental surgery checklist
])
def test_loose_asks_are_reported_and_set_nothing(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems and phrase.signal
    statement = phrase.statement
    assert statement.timeout_s is None and statement.retries is None and statement.wait is None


def test_a_number_after_patience_is_read_as_written() -> None:
    assert _read("Be patient with the tide gauge: give it 90 seconds.") == {"timeout_s": 90.0}


def test_a_couple_of_tries_is_still_two() -> None:
    assert _read("Retry it a couple of times.") == {"retries": 2}


def test_a_couple_of_minutes_said_as_a_cap_is_two() -> None:  # a release chat; a print-shop card
    assert _read("give compose a couple of minutes tops, it's fast normally") == {"timeout_s": 120.0}
    assert _read("Allow the RIP a couple of minutes at most.") == {"timeout_s": 120.0}


# -- failure idioms at a step's opening are the policy's, not a condition -------------------------------

def _spec(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


@pytest.mark.parametrize("opening", [
    "If the till falls over", "If the printer won't talk to us", "If the upload blows up", "If the scale acts up",
    "Should the kiln controller not respond",
])
def test_a_failure_idiom_opening_a_step_is_its_recovery_not_its_condition(opening: str) -> None:
    # a bakery order sheet: a heading per step, the text under it opening with the failure
    spec = _spec(f"# Orders\n\n## Step 1: weigh-dough\n\n{opening}, retry it 2 times.\n", "weigh-dough")
    assert [w for w in spec.warnings if w.code == "spec.condition-not-read"] == []
    assert spec.steps[0].when is None


def test_a_plain_condition_opening_a_step_is_still_warned() -> None:
    spec = _spec("# Orders\n\n## Step 1: weigh-dough\n\nIf the order is a big one, weigh it twice.\n", "weigh-dough")
    assert [w for w in spec.warnings if w.code == "spec.condition-not-read"]


# -- in a YAML file of our own schema: each line one policy --------------------------------------------

_OWN_YAML = """
kiln_firing:
  on_trouble:
    - Re-post the firing log up to 3 times, 10 seconds apart.
    - Anything over 40 minutes on the bisque stage and we treat it as dead.
    - If the thermocouple read fails, record temp_c 0 and keep things going.
"""


def test_policy_lines_of_an_own_schema_yaml_file() -> None:
    lines = yaml.safe_load(_OWN_YAML)["kiln_firing"]["on_trouble"]
    assert [_read(line) for line in lines] == [
        {"retries": 3, "waits": (10.0,)}, {"timeout_s": 2400.0}, {"value": {"temp_c": 0}}]
