"""The policy reader on step-policy FAMILIES read by what a word does to a time or a count.

Each family is written the way a lesson plan, an HR checklist table, a BPMN text export, a SQL
procedure's header comment, a Procfile's comments, a grant proposal's methods section, a tweet
thread or a shift-handover table would say it; none is a sentence of a blind set. The corpus
(`test_policy_corpus.py`, `phrasings-own9.yaml`) holds more rows.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _spec(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


def _read(text: str) -> dict[str, Any]:
    """What the sentence sets, in a few plain keys, asserting nothing was left unread."""
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    effect = effect_of(phrase.statement, retry_said=phrase.retry_said)
    got: dict[str, Any] = {}
    if effect.retry is not None:
        got["retries"] = effect.retry.max_retries
        if effect.retry.delays_s:
            got["waits"] = effect.retry.delays_s
        elif phrase.statement.wait is not None:
            got["backoff"] = (effect.retry.initial_s, effect.retry.max_delay_s)
        if effect.retry.budget_s is not None:
            got["budget_s"] = effect.retry.budget_s
    if effect.attempt_timeout_s is not None:
        got["timeout_s"] = effect.attempt_timeout_s
    if effect.fallback is not None and effect.fallback.action is FallbackAction.SKILL:
        got["skill"] = effect.fallback.skill
    return got


# -- a ceiling said of a backoff is its cap, never one attempt's timeout ---------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a Procfile's comment
    ("# worker: on a broken socket, back off from 2s, doubling, never above 40s; 5 retries max",
     {"retries": 5, "backoff": (2.0, 40.0)}),
    # a tweet thread
    ("2/ we retry the feed pull w/ backoff from 1s, doubling, but it never goes above 1 min. 4 retries max.",
     {"retries": 4, "backoff": (1.0, 60.0)}),
    # a SQL procedure's header comment
    ("-- Deadlocks: exponential backoff from 100 ms that never exceeds 3 s, at most 6 retries.",
     {"retries": 6, "backoff": (0.1, 3.0)}),
    # a grant proposal's methods section
    ("Failed uploads to the archive are retried 3 times; the waits grow from 5 s, doubling, not beyond 1 min.",
     {"retries": 3, "backoff": (5.0, 60.0)}),
])
def test_a_ceiling_said_of_a_backoff_is_its_cap_not_an_attempt_s_timeout(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_the_same_ceiling_with_no_backoff_in_the_sentence_is_not_a_cap() -> None:
    phrase = read_phrase("The whole roster should never go above 40 names.")
    assert phrase.statement.wait is None


# -- a cap on each run, an abort past a time: the attempt's timeout --------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("Boundary timer: cap each execution of the task at 90 s.", 90.0),  # a BPMN text export
    ("-- Cap every run of this procedure at 4 min.", 240.0),  # a SQL header comment
    ("Limit each call to the grading service to 800 ms.", 0.8),  # a lesson plan's tech notes
    ("Abort the nightly payroll export if it runs longer than 45 minutes.", 2700.0),  # a shift handover
])
def test_a_cap_on_each_run_or_an_abort_past_a_time_is_the_attempt_s_timeout(text: str, seconds: float) -> None:
    assert _read(text) == {"timeout_s": seconds}


# -- giving up after a time while polling is the time to keep trying -------------------------------

@pytest.mark.parametrize(("text", "wait", "budget"), [
    # a shift-handover table's cell
    ("Ping the badge printer every 20s until it answers, giving up after 10 minutes.", 20.0, 600.0),
    # a grant proposal's methods
    ("The sequencer status is polled every 5 minutes; we quit polling once 2 hours have passed.", 300.0, 7200.0),
    # a lesson plan
    ("Re-check the submissions folder every minute until it fills, but no longer than 15 minutes.", 60.0, 900.0),
    # a Procfile comment
    ("# release: poll every 30 s for the lock, stop checking after 5 min", 30.0, 300.0),
])
def test_giving_up_after_a_time_while_polling_is_the_time_to_keep_trying(text: str, wait: float,
                                                                         budget: float) -> None:
    got = _read(text)
    assert (got["waits"], got["budget_s"], got.get("timeout_s")) == ((wait,), budget, None)


# -- a labelled pause and a wait beside one more go ------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # an HR checklist table's policy column
    ("Retries allowed: 2. Spacing: 45 s.", {"retries": 2, "waits": (45.0,)}),
    # a SQL header comment, with its underscores
    ("-- retry_budget: 3 -- gap between attempts: 1 min", {"retries": 3, "waits": (60.0,)}),
    # a BPMN text export
    ("Attempt quota = 4; interval: 20 s", {"retries": 3, "waits": (20.0,)}),
    # a tweet thread
    ("3/ if the upload flops, give it one more shot in 30 seconds.", {"retries": 1, "waits": (30.0,)}),
    # a lesson plan
    ("Should the quiz export fail, one more go after a minute.", {"retries": 1, "waits": (60.0,)}),
    # a shift handover
    ("Courier API: a final retry after 2 min.", {"retries": 1, "waits": (120.0,)}),
])
def test_a_labelled_pause_or_a_wait_before_one_more_go_is_the_wait(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- a number with a unit is a time, never a count --------------------------------------------------

@pytest.mark.parametrize("text", [
    "retries: 30 s",  # a Procfile's env comment
    "Attempts: 10 min",  # an HR checklist cell
    "-- retry: 5 min",  # a SQL header
    "tries = 45 s",  # a BPMN property
])
def test_a_count_label_with_a_time_after_it_is_warned_never_read_as_a_count(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.retries is None and phrase.statement.max_attempts is None
    assert phrase.problems, text


def test_a_count_followed_by_its_unit_of_tries_is_still_a_count() -> None:
    assert read_phrase("Retry 3 times, 5 s apart.").statement.retries == 3
    assert read_phrase("retries: 4").statement.retries == 4


# -- a failure handed to a skill by any verb of handing --------------------------------------------

@pytest.mark.parametrize(("text", "skill"), [
    # a BPMN text export
    ("Error boundary event: if the task fails, hand the token over to `manual-task`.", "manual-task"),
    # an HR checklist table
    ("If the background check stalls, let `hr-manual-check` take over.", "hr-manual-check"),
    # a lesson plan
    ("If the quiz generator times out, pass the lesson on to `quiz-lite`.", "quiz-lite"),
    # a grant proposal
    ("Should alignment fail twice more, we defer to `bowtie-align`.", "bowtie-align"),
    # a shift handover
    ("Retry the label print twice, then route it to `print-queue-b`.", "print-queue-b"),
    # a tweet thread
    ("4/ scraper dies? leave it to `scrape-archive` instead.", "scrape-archive"),
])
def test_a_failure_handed_to_a_skill_by_any_verb_of_handing_is_the_fallback(text: str, skill: str) -> None:
    assert _read(text)["skill"] == skill


@pytest.mark.parametrize("text", [
    "Fetch the transcript, then hand it to `summarize`.",  # a plain next step, no failure
    "Pass the roster to `seat-planner`.",
])
def test_handing_on_with_no_failure_or_retry_in_the_sentence_is_no_fallback(text: str) -> None:
    assert read_phrase(text).statement.on_failure is None


# -- trying again in any verb --------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "If the kiosk freezes, reboot it again, up to 2 more times.",  # a shift handover
    "If the sensor read hiccups, nudge it again, 2 more times at most.",  # a grant's methods
])
def test_trying_again_in_any_verb_beside_a_failure_is_the_retry_its_count_says(text: str) -> None:
    assert _read(text) == {"retries": 2}


def test_a_verb_again_with_no_count_is_read_as_a_retry_whose_count_the_plan_assumes_and_says() -> None:
    phrase = read_phrase("If the badge reader jams, poke it again.")
    assert phrase.retry_said and not phrase.read


def test_waits_between_successive_attempts_are_read_with_nothing_left_over() -> None:
    assert _read("Pause 3, 6, then 12 seconds between consecutive attempts.") == {"retries": 3,
                                                                                   "waits": (3.0, 6.0, 12.0)}


# -- through the spec: the step's own policy line in two document kinds --------------------------------

def test_an_hr_checklist_step_reads_its_count_spacing_and_handing_over() -> None:
    spec = _spec("# Onboarding checklist\n\n## Step 1: Order the laptop\n\n- Skill: `order-laptop`\n"
                 "- Retries allowed: 2. Spacing: 45 s. If it still fails, hand the request to `it-desk-manual`.\n")
    (reading,) = [r for r in spec.readings if r.steps == ("step-1",)]
    effect = effect_of(reading.statement)
    assert effect.retry is not None and (effect.retry.max_retries, effect.retry.delays_s) == (2, (45.0,))
    assert effect.fallback is not None and effect.fallback.skill == "it-desk-manual"


def test_a_lesson_plan_step_caps_its_run_and_keeps_polling_within_its_time() -> None:
    spec = _spec("# Lesson plan: photosynthesis\n\n## Step 1: Render the slides\n\n- Skill: `render-slides`\n"
                 "- Cap each run of the renderer at 3 min.\n\n## Step 2: Collect answers\n\n"
                 "- Skill: `collect-answers`\n- Check again every 30 seconds, giving up after 20 minutes.\n")
    by_step = {r.steps: effect_of(r.statement) for r in spec.readings}
    assert by_step[("step-1",)].attempt_timeout_s == 180.0
    retry = by_step[("step-2",)].retry
    assert retry is not None and (retry.delays_s, retry.budget_s) == ((30.0,), 1200.0)


# -- one attempt's time said before the retry, a wait said before it -------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a Procfile comment
    ("# web: let the boot check grind for 20 seconds max, then retry twice", {"retries": 2, "timeout_s": 20.0}),
    # an HR checklist cell
    ("Give each run up to 45 s, then try again; three goes in all.", {"retries": 2, "timeout_s": 45.0}),
    # a grant proposal's methods
    ("We allow the aligner to run for 10 min, then retry it, twice at most.", {"retries": 2, "timeout_s": 600.0}),
    # a shift handover
    ("Hold off for 30 s, then try again, twice more.", {"retries": 2, "waits": (30.0,)}),
    # a SQL header comment
    ("-- on deadlock: retry only once, 2h later", {"retries": 1, "waits": (7200.0,)}),
])
def test_a_time_before_then_retry_is_the_attempt_s_timeout_or_the_wait_its_verb_says(text: str,
                                                                                   want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_only_once_alone_is_still_no_retry() -> None:
    assert read_phrase("Charge the card only once.").statement.no_retry


# -- an exponential backoff's range in any brackets or none -------------------------------------------------

@pytest.mark.parametrize("text", [
    "backoff: exponential 2s → 16s, 4 retries",  # a tweet thread
    "-- retries=4, delay=2s..16s exponential",  # a SQL header
    "Backoff = exponential(min=2s, max=16s); 4 retries.",  # a BPMN property sheet
    "Exponential waits from 2 s to 16 s, four retries.",  # a lesson plan
])
def test_an_exponential_range_starts_at_its_first_time_and_is_capped_at_its_second(text: str) -> None:
    assert _read(text) == {"retries": 4, "backoff": (2.0, 16.0)}


def test_a_chain_of_waits_with_arrows_is_still_a_series_not_a_range() -> None:
    assert _read("Back off 2s -> 6s -> 18s between tries.") == {"retries": 3, "waits": (2.0, 6.0, 18.0)}


# -- a contract's words: numbers in words and digits, shall-clauses ------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a grant proposal's methods
    ("Each failed upload shall be re-attempted no more than three (3) further times, at intervals of not less than "
     "twenty (20) seconds.", {"retries": 3, "waits": (20.0,)}),
    # an HR policy checklist
    ("The background check may be retried for a period not exceeding fifteen (15) minutes, at intervals of five (5) "
     "minutes.", {"retries": 3, "waits": (300.0,), "budget_s": 900.0}),
    # a BPMN service task's documentation
    ("No single call of the payroll service shall exceed forty-five (45) seconds.", {"timeout_s": 45.0}),
    # a SQL procedure header
    ("-- The ledger insert shall not be repeated upon failure.", {"retries": 0}),
])
def test_a_contract_s_numbers_in_words_and_digits_and_its_shall_clauses_are_read(text: str,
                                                                               want: dict[str, Any]) -> None:
    assert _read(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Let the scanner have another two goes if it jams.", {"retries": 2}),  # a shift handover
    ("retries: nil  # idempotency not guaranteed", {"retries": 0}),  # a Procfile comment
    ("Give the webhook a second chance 15 seconds later.", {"retries": 1, "waits": (15.0,)}),  # a tweet thread
    ("Two more tries after 30 s each, then stop.", {"retries": 2, "waits": (30.0,)}),  # a lesson plan
])
def test_another_n_goes_nil_retries_and_a_wait_said_later_or_each(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- a series of waits that goes on -----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "backoff"), [
    ("Retry up to 5 times, waiting 2s, 4s, 8s ... but at most 20s.", (2.0, 20.0)),  # a Procfile comment
    ("-- retries: 4; delays 1 s, 3 s, 9 s, etc., capped at 60 s", (1.0, 60.0)),  # a SQL header
    ("Backoff of 500ms, 1s, 2s… up to 8s, 6 retries.", (0.5, 8.0)),  # a tweet thread
])
def test_a_series_of_waits_that_goes_on_is_a_backoff_by_its_factor(text: str, backoff: tuple[float, float]) -> None:
    got = _read(text)
    assert got["backoff"] == backoff


def test_a_series_that_goes_on_by_no_one_factor_keeps_its_waits_and_says_so() -> None:
    phrase = read_phrase("Waits of 1 s, 2 s, 5 s… 4 retries.")
    assert phrase.statement.wait is not None and phrase.statement.wait.kind == "sequence"
    assert any("not by one factor" in p for p in phrase.problems)


# -- a time with its kill after it; a skill past its adjectives or inside markup ------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("Timebox: 40 min for the grading run, then abort.", 2400.0),  # a lesson plan
    ("The reconciliation must finish in 900 ms or abort.", 0.9),  # a BPMN timer
    ("Kill the badge sync if it's still spinning after 2 minutes.", 120.0),  # a shift handover
    ("Give up on the nightly SFTP pull after 10 min.", 600.0),  # a SQL header's notes
])
def test_a_time_with_its_kill_after_it_is_the_attempt_s_timeout_with_nothing_left_over(text: str,
                                                                                     seconds: float) -> None:
    assert _read(text) == {"timeout_s": seconds}


@pytest.mark.parametrize(("text", "skill"), [
    ("If the grader is down, use the slower rubric-basic skill instead.", "rubric-basic"),  # a lesson plan
    (r"retry twice; still failing $\Rightarrow$ use \Call{`write-local-file`}{} instead", "write-local-file"),  # LaTeX
    ("On failure fall back to [[`manual-entry`]].", "manual-entry"),  # a wiki-style HR checklist
])
def test_a_skill_named_past_its_adjectives_or_inside_markup_is_the_fallback(text: str, skill: str) -> None:
    assert _read(text)["skill"] == skill


# -- no policy, or a policy asked for without its time -----------------------------------------------------

@pytest.mark.parametrize("text", [
    "Counts the badge swipes per door over the past 7 days.",  # a shift handover
    "Sums the grant spend in the last 12 months.",  # a grant report
    "The retry button on the admin page is for people, not for this job.",  # an HR tool note
])
def test_a_data_window_or_a_retry_button_is_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and not phrase.problems, phrase.problems


@pytest.mark.parametrize("text", [
    "Don't let the export run forever.",  # a Procfile comment
    "Should be back within the hour, otherwise page the lead.",  # a shift handover
])
def test_a_limit_asked_for_without_a_time_that_is_read_is_warned(text: str) -> None:
    assert read_phrase(text).problems


def test_a_breather_of_a_time_before_going_again_is_the_wait_and_what_is_left_is_warned() -> None:
    phrase = read_phrase("Give it a breather of half a minute before going again.")
    assert phrase.statement.wait is not None and phrase.statement.wait.seconds == (30.0,)
    assert phrase.problems  # 'Give it', 'again': the count is the plan's assumption, said at the line
