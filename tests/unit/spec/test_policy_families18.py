"""The policy reader on the eighteenth round's recovery-policy and limit FAMILIES.

Which failures a sentence is for when it pictures one but restricts nothing (`spec.retry_scope`);
a count after "another go"; several values to go on with, a yes/no among them; a limit said of the
whole of something; and the words a stranger uses for timeouts, waits, counts and budgets
(`spec.grammar_families18_policy`). Each family is written as a lab protocol, a ship's log, a recipe
card, a podcast run sheet, an HR onboarding checklist or a lesson plan would say it; none is a
sentence of a blind set.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.step_prose import dependency_phrase
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_limit import whole_limit


def _read(text: str, *, problems: bool = False) -> dict[str, Any]:
    """What the sentence sets, in a few plain keys; nothing left unread unless `problems`."""
    phrase = read_phrase(text)
    if not problems:
        assert phrase.problems == (), phrase.problems
    effect = effect_of(phrase.statement, retry_said=phrase.retry_said)
    got: dict[str, Any] = {}
    if effect.retry is not None:
        got["retries"] = effect.retry.max_retries
        if effect.retry.delays_s:
            got["waits"] = effect.retry.delays_s
        if effect.retry.budget_s is not None:
            got["budget_s"] = effect.retry.budget_s
    if effect.attempt_timeout_s is not None:
        got["timeout_s"] = effect.attempt_timeout_s
    if effect.run_timeout_s is not None:
        got["run_s"] = effect.run_timeout_s
    if effect.fallback is not None:
        got["fallback"] = effect.fallback.skill or effect.fallback.value or effect.fallback.action.value
    if effect.on is not None:
        got["on"] = str(effect.on)
    if problems:
        got["problems"] = len(phrase.problems)
    return got


# -- an `on_error` key names no class: the step's own policy ---------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("on_error = retry 2 times, wait 30 s each", {"retries": 2, "waits": (30.0,)}),  # a lab protocol's config
    ("on_error: use `manual-plot` instead", {"fallback": "manual-plot"}),  # a ship's log template
    ("on_error = no retry, the oven timer must not double-start", {"retries": 0}),  # a recipe card's card file
    ("on_error = retry 3x, 1min then 5min then 10min", {"retries": 3, "waits": (60.0, 300.0, 600.0)}),  # run sheet
])
def test_an_on_error_key_is_the_step_s_own_policy_for_every_failure(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_a_python_style_error_name_is_still_a_code_error() -> None:
    assert _read("On a ValueError, use `plain-parse` instead.")["on"] == str(ErrorClass.CODE_ERROR)


# -- a reason said after the policy names no class ---------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a recipe card
    ("If it fails, wait 10 minutes and try once more, the proofing cabinet is slow to warm up.",
     {"retries": 1, "waits": (600.0,)}),
    # a ship's log
    ("Cap each position fix at 40 s; the chart plotter hangs now and then.", {"timeout_s": 40.0}),
    # a lab protocol
    ("Should the read fail, repeat it twice, 5 min apart - the plate reader is flaky in the mornings.",
     {"retries": 2, "waits": (300.0,)}),
    # a podcast run sheet
    ("If the upload breaks, send it again after 2 min (the host is sluggish on Mondays).", {"retries": 1, "waits": (120.0,)}),
])
def test_a_reason_after_the_policy_says_why_not_which_failures(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_slowness_said_as_the_condition_keeps_its_meaning() -> None:
    assert _read("Retry twice, if it is slow.", problems=True)["problems"] == 1  # 'slow' gives no time: said


# -- "if it still fails": the retry and the fallback are for every failure --------------------------

@pytest.mark.parametrize(("text", "want"), [
    # an HR onboarding checklist
    ("If the badge printer times out, try again after 2 minutes; if it still fails, use `paper-badge` instead.",
     {"retries": 3, "waits": (120.0,), "fallback": "paper-badge"}),
    # a lesson plan
    ("If the quiz site times out, retry twice, 30 s apart; if that doesn't work either, use `paper-quiz` instead.",
     {"retries": 2, "waits": (30.0,), "fallback": "paper-quiz"}),
    # a ship's log
    ("When the weather fax hangs, retry once after 5 min; if it still fails, switch to `navtex-read`.",
     {"retries": 1, "waits": (300.0,), "fallback": "navtex-read"}),
    # a lab protocol
    ("If the centrifuge log times out, repeat it 2 times; still no luck, go on with spins 0.",
     {"retries": 2, "fallback": {"spins": 0}}),
])
def test_a_retry_then_a_fallback_when_it_still_fails_is_for_every_failure(text: str, want: dict[str, Any]) -> None:
    got = _read(text, problems=True)
    got.pop("problems")
    if want.get("retries") == 3:  # a wait with no count: the planner assumes 3 and says so
        assert got["retries"] == 3
    assert got == want


@pytest.mark.parametrize("text", [
    "If the badge printer times out, retry after 2 minutes; if it still times out, use `paper-badge` instead.",
    "If the quiz site times out, retry twice; if it still fails, use `paper-quiz`; any other error stops the lesson.",
])
def test_the_class_stays_when_the_author_restricts_it(text: str) -> None:
    assert _read(text, problems=True).get("on") in (str(ErrorClass.TIMEOUT), "any")


# -- a count after "another go" with "up to" --------------------------------------------------------

@pytest.mark.parametrize(("text", "retries"), [
    ("The balance drifts at shift change - have another go, up to 3 times.", 3),  # a lab protocol
    ("GPS drops out under the bridge: give it another try, at most 2 times.", 2),  # a ship's log
    ("The mixer stalls sometimes; have one more go (up to 4 times) before calling the chef.", 4),  # a recipe card
    ("If the remote guest's line cuts, take another shot, max 5 times, 10 s between goes.", 5),  # a podcast run sheet
])
def test_a_count_after_another_go_is_that_many_retries(text: str, retries: int) -> None:
    assert _read(text, problems=True)["retries"] == retries


# -- several values to go on with, a yes/no among them ----------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    # a ship's log
    ("If the depth sounder won't answer, carry on as if it were deep water, that is depth_m 50 and shoal no.",
     {"depth_m": 50, "shoal": False}),
    # an HR onboarding checklist
    ("Should the background check be down, go on as though it came back clean, i.e. flags 0 and cleared yes.",
     {"flags": 0, "cleared": True}),
    # a recipe card
    ("If the scale is unreachable, carry on with grams 0 and weighed no.", {"grams": 0, "weighed": False}),
    # a lesson plan
    ("If the attendance sheet fails, continue with present 0 / absent 0 / synced no.",
     {"present": 0, "absent": 0, "synced": False}),
])
def test_several_values_to_go_on_with_are_each_read_with_yes_and_no_as_truth(text: str, value: dict[str, Any]) -> None:
    assert _read(text)["fallback"] == value


def test_a_no_that_is_no_value_stays_out_of_the_pairs() -> None:
    assert "fallback" not in _read("Retry 2 times and no more.", problems=True)


# -- the whole run's limit, said of the whole of something -----------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("hold the whole audit to 20 min max, after that it's no use", 1200.0),  # an HR checklist's notes
    ("Keep the entire tasting under 1 h.", 3600.0),  # a recipe card
    ("max_total = 45min", 2700.0),  # a lab protocol's INI
    ("overall_limit: 2h", 7200.0),  # a podcast run sheet's front matter
])
def test_a_limit_said_of_the_whole_is_the_run_s(text: str, seconds: float) -> None:
    assert _read(text) == {"run_s": seconds}


def test_hold_the_whole_retry_loop_is_no_run_limit() -> None:
    assert "run_s" not in _read("Hold the whole retry loop to 10 min.", problems=True)


CATALOG = Vocabulary.of([("log-entry", None), ("plot-course", None)])


@pytest.mark.parametrize(("key", "seconds"), [("whole_pipeline", 900), ("entire_job", 900), ("pipeline_timeout", 900),
                                              ("overall_run", 900)])
def test_a_limits_key_said_of_the_whole_is_the_run_s_wall_time(key: str, seconds: float) -> None:
    spec = parse_spec_text(f"limits:\n  {key}: 15m\nsteps:\n  - id: log\n    uses: log-entry\n", "log.yaml", "yaml",
                           CATALOG)
    assert spec.convergence.limits.wall_time_s == seconds


def test_a_whole_word_far_from_a_step_s_time_is_no_run_limit() -> None:
    block = ("stage: plot jobs: fix: uses: plot-course feed: chart: $chart gps: $gps max_runtime: 90s course: "
             "uses: plot-course feed: fix: fix.position gives: [track, eta, legs] on_trouble: fall back to dead "
             "reckoning (one overall heading beats no heading at all)")
    assert whole_limit(block) is None
    assert whole_limit("The entire watch handover must not exceed 15 minutes.") == 900


# -- the words a stranger uses for times, waits, counts and budgets --------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("Anything over 40 seconds on the label printer and we kill it.", {"timeout_s": 40.0}),  # a recipe card
    ("No retries. Cut-off: 90 seconds.", {"retries": 0, "timeout_s": 90.0}),  # a podcast run sheet
    ("If the roster sync bounces, leave it 10 minutes and send it one more time.",
     {"retries": 1, "waits": (600.0,)}),  # an HR checklist
    ("Allow the plankton count up to one and a half hours; it's a big sample.", {"timeout_s": 5400.0}),  # lab protocol
    ("Three strikes for the AIS fetch - no retry after the third failure.", {"retries": 2}),  # a ship's log
    ("Poll the grade book every 30 seconds, but stop the whole loop at 10 minutes.",
     {"retries": 20, "waits": (30.0,), "budget_s": 600.0}),  # a lesson plan
    ("give_up_after = 45s ; the plate reader freezes sometimes", {"timeout_s": 45.0}),  # a lab protocol's INI
])
def test_a_stranger_s_words_for_times_waits_counts_and_budgets(text: str, want: dict[str, Any]) -> None:
    got = _read(text, problems=True)
    assert got.pop("problems") == 0
    assert got == want


def test_a_pause_before_the_first_retry_that_triples_is_a_backoff() -> None:
    phrase = read_phrase("Wait 2 s before the first retry and triple the wait each time, topping out at 1 min; 4 retries.")
    assert phrase.problems == ()
    retry = effect_of(phrase.statement).retry
    assert retry is not None and (retry.max_retries, retry.initial_s, retry.multiplier, retry.max_delay_s) == (4, 2, 3, 60)


@pytest.mark.parametrize("text", [
    "If the tide table fails, go with the usual.",  # a ship's log
    "Should the allergen sheet break, stick with the normal one.",  # a recipe card
    "Retry the grade export twice, or until the office closes at 5 pm.",  # a lesson plan
    "Resend the offer letter 3 times, or until noon.",  # an HR checklist
])
def test_words_that_name_no_value_or_no_time_to_keep_trying_are_warned(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems, phrase
    effect = effect_of(phrase.statement)
    assert effect.fallback is None or effect.fallback.action is not FallbackAction.DEFAULT


# -- through the spec: an `On error:` line in words, a series of waits that names no step --------------

def _md(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "flow.md", "markdown")


@pytest.mark.parametrize(("doc", "retries", "waits"), [
    # a podcast run sheet
    ("# Episode 41 run sheet\n\n## Step 1: Upload the master\n\n- Skill: `upload-master`\n"
     "- On error: re-run the upload twice, 30 s apart.\n", 2, (30.0,)),
    # a lab protocol
    ("# Protocol 7: plate read\n\n## Step 1: Read the plate\n\n- Skill: `read-plate`\n"
     "- On error: run it again once after a 2-minute pause.\n", 1, (120.0,)),
    # a recipe card
    ("# Sourdough, card 3\n\n## Step 1: Weigh the flour\n\n- Skill: `weigh-flour`\n"
     "- On error: retry 3 times, 5 s apart.\n", 3, (5.0,)),
    # a ship's log
    ("# Watch log template\n\n## Step 1: Log the position\n\n- Skill: `log-position`\n"
     "- On error: try again after 1 min, then after 5, then after 15.\n", 3, (60.0, 300.0, 900.0)),
])
def test_an_on_error_line_in_words_is_read_as_the_step_s_policy(doc: str, retries: int, waits: tuple[float, ...]) -> None:
    spec = _md(doc)
    (reading,) = [r for r in spec.readings if r.steps == ("step-1",)]
    retry = effect_of(reading.statement).retry
    assert retry is not None and (retry.max_retries, retry.delays_s) == (retries, waits)
    assert not [w for w in spec.warnings if "must be continue or fail" in w.message]


@pytest.mark.parametrize("sentence", [
    "Retry after 1 minute, then after 10, then after 60.",  # a lesson plan
    "Wait, then try again after 30 s, and again after 90.",  # an HR checklist
    "Re-run it after 2 min and once more after 10.",  # a lab protocol
    "Pause and retry after 5 s, then after 20.",  # a podcast run sheet
])
def test_a_bare_number_in_a_series_of_waits_names_no_step(sentence: str) -> None:
    assert dependency_phrase(sentence) is None


def test_a_bare_number_after_after_still_names_a_step_without_a_wait() -> None:
    found = dependency_phrase("Runs after 2.")
    assert found is not None and found.ids == ("step-2",)


def test_a_crash_pictured_keeps_its_rule_so_its_retry_still_covers_crashes() -> None:
    got = _read("If the grading script crashes, retry twice; if it still fails, use `manual-grade`.", problems=True)
    assert got["on"] == str(ErrorClass.CODE_ERROR) and got["retries"] == 2
