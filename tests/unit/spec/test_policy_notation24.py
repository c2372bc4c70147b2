"""Recovery policies in a document's own notation (`spec.policy_notation24`, `spec.policy_carry24`,
`spec.policy_approval_wait24`), each family in several kinds of document.

The texts are a crontab comment, a pharmacy dispensing log, a CI YAML file of our own schema, a kennel's
booking sheet, a print shop's job ticket, a LaTeX lab report, a ferry terminal form: none is a sentence
of a blind set. Negatives: texts that look alike but say something else.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import Plan, PlanStep
from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.policy_carry24 import label_line_end
from orchestrator.spec.policy_heading24 import heading_text
from orchestrator.spec.policy_notation24 import habit_reason_spans, once_only_before, typeset_spaces
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill
from tests.unit.spec.phrase_probe import plain_effect


def _read(text: str) -> dict[str, Any]:
    return plain_effect(text, continues=True, on=True)


# -- each wait said against the retry it comes before -----------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a pharmacy dispensing log
    ("If the PMR sync fails, two more tries, waiting 5 seconds before the first retry and 20 before the second.",
     {"retries": 2, "waits": (5.0, 20.0)}),
    # a crontab comment
    ("# flaky NFS: retry 3 times, pausing 1 min before the first try, 5 before the second and 15 before the third",
     {"retries": 3, "waits": (60.0, 300.0, 900.0)}),
    # a kennel's booking sheet
    ("Card reader errors: try it again twice, leaving 30 s before the first go and 2 min before the next.",
     {"retries": 2, "waits": (30.0, 120.0)}),
])
def test_each_wait_said_before_its_retry_is_the_list_of_waits(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- a re-verb with a series of waits ----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a print shop's job ticket
    ("The RIP drops jobs now and then; re-queue after 2 min, then 5, then 10.",
     {"retries": 3, "waits": (120.0, 300.0, 600.0)}),
    # a ferry terminal form
    ("Booking system rejects for no reason; re-book in 30 s, then 60.", {"retries": 2, "waits": (30.0, 60.0)}),
    # a crontab comment
    ("# mirror sometimes 503s: re-sync after 1 min, then 4, then 16", {"retries": 3, "waits": (60.0, 240.0, 960.0)}),
])
def test_a_re_verb_with_a_series_of_waits_is_a_retry_after_each(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- doing a thing once, said with its verb ----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Send ONCE.",  # a ferry terminal form
    "Only post it once per batch: the ledger double-counts.",  # a pharmacy dispensing log
    "Charge the card once only, refunds take a week.",  # a kennel's booking sheet
    "Email the customer just once.",  # a print shop's job ticket
])
def test_a_thing_done_once_is_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


@pytest.mark.parametrize("text", [
    "Send it once more after 5 minutes.",  # a retry
    "Run the sweep once every hour.",  # a schedule
    "Run it once the upload is back.",  # when, not how often
])
def test_once_that_is_no_limit_is_not_read_as_no_retry(text: str) -> None:
    assert not read_phrase(text).statement.no_retry


@pytest.mark.parametrize("text", [
    "`pack-order` once every item's back from the picker.",
    "Label the crates once all the scans are in.",
])
def test_once_meaning_when_is_no_policy_and_no_warning(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == () and phrase.statement.is_empty()


# -- the values to go on with: "put ... and ...", "as if it said ..." --------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    # a pharmacy dispensing log
    ('If the label printer is down keep going, put label_ref "HAND" and checked false.',
     {"label_ref": "HAND", "checked": False}),
    # a kennel's booking sheet
    ("If the vaccine lookup fails carry on as if it returned up_to_date true, due_days 0.",
     {"up_to_date": True, "due_days": 0}),
    # a ferry terminal form
    ('If the swell feed is dead, proceed as though it said swell_m 2.5, period_s 9, sea "rough".',
     {"swell_m": 2.5, "period_s": 9, "sea": "rough"}),
])
def test_every_value_to_go_on_with_is_kept(text: str, value: dict[str, Any]) -> None:
    assert _read(text)["value"] == value


def test_a_set_of_values_with_no_failure_or_going_on_is_no_policy() -> None:
    # a print shop's job ticket: what the step does, not a fallback
    assert read_phrase('Set paper "A4" and copies 2 on the ticket.').statement.on_failure is None


# -- the whole of the work given a time --------------------------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("Whole lot must be done inside the hour, the van leaves at 9.", 3600.0),  # a kennel's booking sheet
    ("The entire batch has to be finished within 2 hours.", 7200.0),  # a pharmacy dispensing log
    ("# the whole job should be over in 45 min, cron starts the next one", 2700.0),  # a crontab comment
])
def test_the_whole_lot_done_inside_a_time_is_the_run_s_limit(text: str, seconds: float) -> None:
    assert _read(text) == {"run_s": seconds}


def test_a_step_done_inside_the_hour_is_not_the_whole_run() -> None:
    assert not read_phrase("The label run must be done inside the hour.").statement.whole_run


# -- "double" before a noun is no backoff ------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    'People type "Ltd." and "ltd" and double spaces and the search misses them.',  # a pharmacy log
    "A double booking means two dogs in one run.",  # a kennel's booking sheet
])
def test_double_before_a_noun_is_no_backoff(text: str) -> None:
    assert read_phrase(text).statement.is_empty()


def test_doubling_the_wait_is_still_a_backoff() -> None:
    assert _read("Retry 3 times from 2 s, double the wait each time.")["retries"] == 3


# -- a typeset space between a number and its unit ---------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    (r"Give it 90\,s; a bigger export is corrupt.", {"timeout_s": 90.0}),  # a LaTeX lab report
    (r"Retry up to 3 times, backing off exponentially from 2\,s (2, 4, 8).", {"retries": 3}),
    ("Timeout 5~min per plate.", {"timeout_s": 300.0}),
])
def test_a_typeset_space_is_a_blank(text: str, want: dict[str, Any]) -> None:
    got = _read(text)
    assert {k: got[k] for k in want} == want


def test_typeset_spaces_keep_each_character_where_it_was() -> None:
    assert typeset_spaces(r"90\,s and 5~min and a~b") == "90  s and 5 min and a~b"


# -- what tends to happen, before a colon, is the reason ---------------------------------------------------

@pytest.mark.parametrize("text", [
    "The margins service sometimes times out: retry up to 3 times, 2 s apart.",  # a LaTeX lab report
    "The plate reader often hangs; retry it 2 times.",  # a lab protocol
])
def test_a_habit_before_a_colon_does_not_keep_the_retry_to_that_failure(text: str) -> None:
    assert "on" not in _read(text)


def test_a_condition_before_a_colon_still_keeps_its_failure() -> None:
    assert habit_reason_spans("If it sometimes times out: retry 3 times.") == []
    assert _read("If it times out: retry 3 times.").get("on") == "timeout"


def test_once_only_before_per() -> None:
    assert once_only_before("Only run it once per wave", len("Only run it once "))
    assert not once_only_before("run `x` once per file", len("run `x` once "))


# -- a line opening with an outline label starts a sentence ------------------------------------------------

def test_a_label_at_a_line_start_ends_the_sentence_before_it() -> None:
    text = "2a. tare-scale on the bench. Drifts: 2 retries, 1 min between.\n2b. weigh-sample for the lot."
    assert [s for _, s in sentences(text)][-2:] == ["Drifts: 2 retries, 1 min between.", "2b. weigh-sample for the lot."]
    assert label_line_end("x.\n (c) next", 2) is not None
    assert label_line_end("see 1b. below", 7) is None


# -- in a CI YAML file of our own schema: each line one policy ---------------------------------------------

_OWN_CI = """
deploy_docs:
  when_it_breaks:
    - waiting 10 seconds before the first retry and 45 before the second
    - re-push after 1 min, then 3, then 9
    - Publish ONCE.
    - If the CDN purge is down keep going, put purged false and purge_ref "NONE".
"""


def test_policy_lines_of_an_own_schema_ci_yaml_file() -> None:
    lines = yaml.safe_load(_OWN_CI)["deploy_docs"]["when_it_breaks"]
    got = [_read(line) for line in lines]
    assert got[0] == {"waits": (10.0, 45.0), "retries": 2}
    assert got[1] == {"retries": 3, "waits": (60.0, 180.0, 540.0)}
    assert got[2] == {"no_retry": True}
    assert got[3]["value"] == {"purged": False, "purge_ref": "NONE"}


# -- in a whole document: the policy stays on its step; the approval's wait is not the step's timeout -----

CATALOG = FakeCatalog(
    skill("check-tide", input_schema=obj((), port="string"), output_schema=obj(("ukc_m",), ukc_m="number")),
    skill("check-swell", input_schema=obj((), port="string"), output_schema=obj(("swell_m",), swell_m="number")),
    skill("file-crossing", input_schema=obj((), swell_m="number"), output_schema=obj(("ref",), ref="string")),
)


def _plan(text: str) -> Plan:
    words = Vocabulary.of([(s.bound().name, None) for s in CATALOG])
    plan, errors = draft_plan(parse_spec_text(text, "form.txt", "markdown", words), CATALOG, settings=SETTINGS)
    assert plan is not None and not errors, errors
    return plan


def _step(plan: Plan, name: str) -> PlanStep:
    return next(s for s in plan.steps if s.skill == name)


FERRY_FORM = """\
HARBOUR CROSSING CHECK                    form HC-2

1. BEFORE DEPARTURE
 1a. check-tide for the port -> gives the UKC. The gauge drops out a lot: 3 retries, 30 s
     between.
 1b. check-swell for the port, alongside 1a.
2. FILING
 2a. file-crossing with the swell from 1b. The harbour master has to sign it off first - give
     him 1 hr. No answer in 1 hr = we do not sail, stop there.
"""


def test_a_policy_before_the_next_label_stays_on_its_own_step() -> None:
    plan = _plan(FERRY_FORM)
    assert _step(plan, "check-tide").policy.retry.max_retries == 3
    assert _step(plan, "check-swell").policy.retry.max_retries == 0


def test_the_approval_s_wait_said_again_is_no_attempt_timeout() -> None:
    step = _step(_plan(FERRY_FORM), "file-crossing")
    assert step.policy.approval is not None and step.policy.approval.timeout_s == 3600.0
    assert step.policy.approval.on_timeout == "reject"
    assert step.policy.attempt_timeout_s is None


def test_a_no_answer_time_on_a_step_without_an_approval_is_still_its_timeout() -> None:
    text = ("# Crossing\n\n## Step 1: check-tide\n\nNo answer in 30 s = kill it.\n")
    assert _step(_plan(text), "check-tide").policy.attempt_timeout_s == 30.0


# -- a heading that names its skill and says more: the rest is the step's text ---------------------------

@pytest.mark.parametrize(("heading", "want"), [
    # a Makefile-style help comment, a wiki heading, a runbook title line
    ("sync-ledger: pull the day's entries. flaky! retry 2x, backoff 5s doubling", ("sync-ledger", "pull the day's entries. flaky! retry 2x, backoff 5s doubling")),
    ("`sync-ledger` - nightly; times out a lot, give it 2 min and retry twice", ("sync-ledger", "nightly; times out a lot, give it 2 min and retry twice")),
])
def test_a_long_heading_opening_with_its_skill_is_text(heading: str, want: tuple[str, str]) -> None:
    assert heading_text(heading, "sync-ledger") == want


@pytest.mark.parametrize("heading", [
    "sync-ledger: nightly",  # a short title
    "Ledger sync: pull the day's entries, retry 2x, backoff 5s doubling",  # opens with no skill name
    "sync-ledger-v2: pull the day's entries, retry 2x, backoff 5s doubling",  # another skill
])
def test_a_title_or_another_name_stays_a_heading(heading: str) -> None:
    assert heading_text(heading, "sync-ledger") is None


NIGHTLY_MAKEFILE = """\
# nightly tide tables, run by cron
build/tide.json:   ## check-tide: pull the gauge for PORT. flaky! retry 3x, backoff 5s doubling, never more than 60s
\tpython3 skills/check-tide/scripts/main.py > $@
build/filed.json: build/tide.json   ## file-crossing with the swell. no retries
\tpython3 skills/file-crossing/scripts/main.py < $< > $@
"""


def test_the_policy_in_a_make_help_comment_is_read() -> None:
    step = _step(_plan(NIGHTLY_MAKEFILE), "check-tide")
    assert "retry" not in step.name  # the comment is its policy, not its name (a target or the skill names it)
    assert (step.policy.retry.max_retries, step.policy.retry.initial_s, step.policy.retry.max_delay_s) == (3, 5.0, 60.0)


# -- a fallback skill with an aside before "instead" --------------------------------------------------------

@pytest.mark.parametrize(("text", "name"), [
    ("If the met office feed won't answer, use `roof-gauge` (the spare on the boiler house) instead.", "roof-gauge"),
    ("When the PMR is down, run `paper-log` (the binder at the hatch) instead.", "paper-log"),
    ("# if the mirror fails, switch to `mirror-b` (eu-west, slower) instead", "mirror-b"),
])
def test_a_fallback_skill_with_an_aside_before_instead(text: str, name: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == ()
    assert _read(text)["skill"] == name
