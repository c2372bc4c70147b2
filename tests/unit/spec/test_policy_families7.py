"""The policy reader on the phrasing families the seventh blind set showed, in other document kinds.

Each family is written here the way a support macro, a status page, a postmortem, a README's usage
section, a docstring, an RFC with MUSTs or a state machine's notes would say it; none of these is a
sentence of that set. The corpus (`test_policy_corpus.py`, `phrasings-own7.yaml`) holds more rows.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _clean(text: str) -> Any:
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    return phrase.statement


def _spec(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


# -- a value to go on with keeps its field, whatever the tense of going on ----------------------

@pytest.mark.parametrize(("text", "value"), [
    # a support macro
    ('Macro note: if the CRM lookup errors, the macro proceeds with `segment` set to "unknown".', {"segment": "unknown"}),
    # a state machine's transition notes
    ("ENRICH -> SCORE: on failure the machine moves on with labels set to an empty list.", {"labels": []}),
    # a postmortem's action item
    ("Action item: when scoring dies, record risk 0 and carry on instead of failing the batch.", {"risk": 0}),
    # a docstring
    ("If the avatar fetch raises, the handler continued with avatar_url = null.", {"avatar_url": None}),
    ("On error it keeps going with an empty facet map (`facets: {}`).", {"facets": {}}),
])
def test_a_value_to_go_on_with_is_the_object_with_its_field(text: str, value: Any) -> None:
    fallback = effect_of(_clean(text)).fallback
    assert fallback is not None and (fallback.action, fallback.value) == (FallbackAction.DEFAULT, value)


def test_a_field_set_beside_going_on_in_a_spec_gives_the_step_that_object_not_a_bare_string() -> None:
    spec = _spec("# Support macro\n\n## Step 1: Tag the ticket\n\n- Skill: `tag-ticket`\n"
                 '- If tagging fails, the macro carries on with `tag` set to "needs-triage".\n')
    (reading,) = [r for r in spec.readings if r.steps == ("step-1",)]
    fallback = effect_of(reading.statement).fallback
    assert fallback is not None and fallback.value == {"tag": "needs-triage"}


def test_a_pronoun_or_a_verb_before_as_is_no_field() -> None:
    assert effect_of(read_phrase('If it fails, mark it as "stale" and move on.').statement).fallback != \
        effect_of(read_phrase('If it fails, mark it as "x" and move on.').statement).fallback
    statement = read_phrase('If it fails, count it as `{"n": 0}` and keep going.').statement
    assert effect_of(statement).fallback.value == {"n": 0}  # type: ignore[union-attr]


# -- who owns a step is no policy; telling someone after a failure is -----------------------------

@pytest.mark.parametrize("text", [
    "Owner for this runbook is @ines, ask her in #payments with questions.",   # a README's footer
    "DRI for this job: @li, page her in #ops.",                               # a status page
    "The export stage belongs to the data team; ping @ravi for access.",     # a wiki's header
    "Contact for the webhook is @lee, message him on Slack.",                 # a support macro
])
def test_an_owner_or_contact_line_gives_no_policy_and_no_warning(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and phrase.problems == ()


@pytest.mark.parametrize("text", [
    "Owner of the sync is @bo; if it fails, page him.",
    "If the nightly backup fails page the storage rota.",
    "When it breaks ping @db-oncall.",
])
def test_telling_someone_after_a_named_failure_is_an_escalation(text: str) -> None:
    on_failure = _clean(text).on_failure
    assert on_failure is not None and on_failure.kind == "escalate" and on_failure.message


# -- durations and counts as people write them ---------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("README: abort the crawl if it's still running after 45000 ms.", 45),      # milliseconds, a kill beside
    ("The thumbnailer gets half a minute before we kill it.", 30),
    ("Each upload is given 12 seconds, after which it is cut off.", 12),
    ("RFC: the migration MUST get two hours and a half, tops.", 9000),
    ("Every render call is hard-capped at 20 s.", 20),                          # a cap on a call: its timeout
    ("Any single request is limited to 5 seconds.", 5),
    ("Status page: a 4 s budget for the upload.", 4),
    ("Geocoding: 6000 ms ceiling per call.", 6),
])
def test_a_time_one_call_may_take_is_its_timeout(text: str, seconds: float) -> None:
    assert effect_of(_clean(text)).attempt_timeout_s == seconds


def test_a_cap_on_sleeping_is_the_backoff_s_cap_not_a_timeout() -> None:
    effect = effect_of(_clean("Docstring: back off from 100ms, doubling, never sleeping more than 5s; six retries."))
    assert effect.attempt_timeout_s is None
    assert effect.retry is not None and (effect.retry.max_retries, effect.retry.max_delay_s) == (6, 5.0)


def test_the_whole_run_capped_at_a_time_is_the_run_s_limit_not_a_backoff() -> None:
    statement = _clean("Man page, ENVIRONMENT: the whole batch is capped at 20 minutes of wall-clock time; "
                       "past that, the tool kills whatever is still running.")
    assert (statement.whole_run, statement.timeout_s, statement.wait) == (True, 1200.0, None)


@pytest.mark.parametrize(("text", "retries", "waits"), [
    ("Backoff plan for the push: 2s, 6s, 18s.", 3, (2.0, 6.0, 18.0)),          # the list's length is the count
    ("Three retries max, 1s then 5s then 25s.", 3, (1.0, 5.0, 25.0)),
    ("Max attempts: five, 2 s apart.", 4, (2.0,)),
    ("On a 503, try it again up to 4 times with a 10 s breather between.", 4, (10.0,)),
    ("A call that fails is attempted again, at most twice, pausing 2 s between attempts.", 2, (2.0,)),
])
def test_waits_and_counts_in_people_s_words_are_the_retry(text: str, retries: int, waits: tuple[float, ...]) -> None:
    retry = effect_of(_clean(text)).retry
    assert retry is not None and (retry.max_retries, retry.delays_s) == (retries, waits)


def test_a_poll_until_something_or_a_time_has_passed_keeps_trying_for_that_time() -> None:
    retry = effect_of(_clean("Check the DNS record every half minute until it resolves or 5 minutes have passed.")).retry
    assert retry is not None and (retry.delays_s, retry.budget_s) == ((30.0,), 300.0)


def test_a_count_after_its_label_in_words_is_the_count() -> None:
    assert _clean("Retries: a dozen, doubling from 500 ms, capped at 30 s.").retries == 12


@pytest.mark.parametrize("text", ["The payout MUST NOT be executed more than once.", "Never send the SMS twice.",
                                  "Under no circumstances should you run the transfer a second time."])
def test_not_running_something_twice_is_no_retry(text: str) -> None:
    assert _clean(text).no_retry


def test_strikes_and_the_run_is_over_is_that_many_attempts_then_a_failure() -> None:
    statement = _clean("Two strikes and the job is done for.")
    assert statement.max_attempts == 2 and statement.on_failure is not None and statement.on_failure.kind == "fail"


# -- right readings carry no warning --------------------------------------------------------------

@pytest.mark.parametrize(("text", "field", "value"), [
    ("Give the upload another shot, up to three more times if the bucket blips.", "retries", 3),
    ("It may run as long as it likes but no longer than 40 min.", "timeout_s", 2400.0),
    ("Usage: run it twice a day from cron.", "retries", None),
])
def test_a_right_reading_has_no_spurious_warning(text: str, field: str, value: Any) -> None:
    assert getattr(_clean(text), field) == value


def test_a_number_without_a_unit_given_to_a_step_is_reported_with_no_invented_example() -> None:
    problems = read_phrase("Give the scraper 45 before bailing.").problems
    assert problems and "45" in problems[0] and not any(ch.isdigit() for ch in problems[0].split(":", 1)[1])


@pytest.mark.parametrize(("text", "written"), [
    ("Change ticket: if the approver hasn't signed off within 8 hours, drop it.", "timeout 8 hours -> reject"),
    ("Retry budget for the whole pipeline: 20 min.", "retry for up to 20 min"),
])
def test_what_to_write_carries_the_author_s_own_time_not_an_invented_one(text: str, written: str) -> None:
    problems = read_phrase(text).problems
    assert problems and written in problems[0] and "4h" not in problems[0] and "3 min" not in problems[0]


@pytest.mark.parametrize("text", ["Runbook: retrying won't fix a revoked token.",
                                  "README: trying again doesn't help when the schema is wrong."])
def test_saying_a_retry_would_not_help_is_no_retry(text: str) -> None:
    assert _clean(text).no_retry


def test_bare_numbers_after_a_series_of_durations_take_its_last_unit() -> None:
    retry = effect_of(_clean("Status page: the poller tries again 3 times, waiting 10 seconds, then a minute, then 5.")).retry
    assert retry is not None and retry.delays_s == (10.0, 60.0, 300.0)
