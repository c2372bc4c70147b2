"""The policy reader on the twelfth round's FAMILIES (`spec.grammar_families11`, `spec.org_drawer`,
the success checks of `spec.whole_success`).

Each family is written the way a lesson plan, a ship's log, a recipe card, an HR onboarding
checklist, a lab protocol, a podcast run sheet, a greenhouse wiki or a CI README would say it;
none is a sentence of a blind set.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import ErrorClass
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str) -> dict[str, Any]:
    """What the sentence sets, in a few plain keys, asserting nothing was left unread."""
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    statement = phrase.statement
    effect = effect_of(statement, retry_said=phrase.retry_said)
    got: dict[str, Any] = {}
    if effect.retry is not None:
        got["retries"] = effect.retry.max_retries
        if effect.retry.delays_s:
            got["waits"] = effect.retry.delays_s
    if effect.attempt_timeout_s is not None:
        got["timeout_s"] = effect.attempt_timeout_s
    if statement.on_failure is not None and statement.on_failure.kind == "continue_with_value":
        got["value"] = statement.on_failure.value
        if statement.on_failure.field:
            got["field"] = statement.on_failure.field
    if statement.applies_to is not None:
        got["on"] = statement.applies_to
    return got


# -- a reason clause ("X is slow ..., so") says why, not which failures ------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a lab protocol
    ("The plate reader is painfully slow after lunch, so if the read fails run it 2 more times, 15 s apart.",
     {"retries": 2, "waits": (15.0,)}),
    # a podcast run sheet
    ("Upload host is slow on weekends so if the push breaks, retry it 3 times with 1 min between.",
     {"retries": 3, "waits": (60.0,)}),
    # a ship's log
    ("Retry the weather fax twice, 30 s apart, because the uplink is sluggish at sea.",
     {"retries": 2, "waits": (30.0,)}),
    # an HR onboarding checklist
    ("Badge system can be slow on Mondays, which is why a failed badge request gets 4 retries, 10 s apart.",
     {"retries": 4, "waits": (10.0,)}),
])
def test_a_reason_clause_with_slow_names_no_failure_class(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_too_slow_is_still_a_failure_said() -> None:
    assert _read("If the export is too slow, retry it twice.")["on"] is ErrorClass.TIMEOUT


# -- several `field value` pairs to go on with -------------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    # a recipe card
    ("If the scale app is unreachable, just go with flour_g 500, water_g 350 and salt_g 10.",
     {"flour_g": 500, "water_g": 350, "salt_g": 10}),
    # a greenhouse wiki
    ("When the sensor feed fails, carry on with temp_c 21 / humidity 0.6 instead.",
     {"temp_c": 21, "humidity": 0.6}),
    # a lesson plan
    ("If the quiz tool errors, fall back to pass_mark 50 and max_score 100 and keep teaching.",
     {"pass_mark": 50, "max_score": 100}),
    # a CI README
    ("On failure of the cache probe, proceed with hit_rate 0, warm false.",
     {"hit_rate": 0, "warm": False}),
])
def test_several_field_value_pairs_are_the_value_to_go_on_with(text: str, want: dict[str, Any]) -> None:
    assert _read(text)["value"] == want


@pytest.mark.parametrize(("text", "field", "value"), [
    ("If the tide table is down, proceed using 2.4 as tide_m.", "tide_m", 2.4),  # a ship's log
    ("Should the grader crash, continue with 0 as the score.", "score", 0),  # a lesson plan
    ("If the price feed breaks, carry on using \"n/a\" for price_note.", "price_note", "n/a"),  # a recipe card
    ("When the HR API fails, move on with true as needs_review.", "needs_review", True),  # an HR checklist
])
def test_a_value_said_before_its_field(text: str, field: str, value: Any) -> None:
    got = _read(text)
    assert (got["field"], got["value"]) == (field, value)


# -- a time said per item ----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("Cap each slide at 20 s.", 20.0),  # a lab protocol
    ("90 s per ticket, no more.", 90.0),  # an HR onboarding checklist
    ("Limit every segment to 2 min.", 120.0),  # a podcast run sheet
    ("45s for each photo", 45.0),  # a recipe card's photo step
])
def test_a_time_said_per_item_is_the_attempts_time(text: str, seconds: float) -> None:
    assert _read(text) == {"timeout_s": seconds}


def test_a_wait_said_per_retry_is_no_time_limit() -> None:
    assert "timeout_s" not in _read("Retry 3 times, pausing 5 seconds each time.")


# -- counts written with x, reattempts, spacing -----------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("Sonar ping: have another go up to 3x, 10s pause each time.", {"retries": 3, "waits": (10.0,)}),  # ship's log
    ("Retry the oven probe 2x, 5 s apart.", {"retries": 2, "waits": (5.0,)}),  # a recipe card
    ("Up to six reattempts at 2-second spacing.", {"retries": 6, "waits": (2.0,)}),  # a CI README
    ("4 re-attempts with 30 s gaps if the laptop order fails.", {"retries": 4, "waits": (30.0,)}),  # HR checklist
])
def test_counts_with_x_and_reattempts_and_spacing(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- the first after ..., the second after ...; a series ending in a bare number ----------------------

@pytest.mark.parametrize(("text", "waits"), [
    ("Two more goes at the upload, the first after 10 seconds and the second after 1 minute.", (10.0, 60.0)),
    ("Three retries: the first after 5 s, the second after 20 s, the third after 1 min.", (5.0, 20.0, 60.0)),
    ("retry 3 times, wait 1 min, then 3, then 9.", (60.0, 180.0, 540.0)),  # a greenhouse wiki
    ("Retries: 3 (wait 10 s, then 20, then 40)", (10.0, 20.0, 40.0)),  # a podcast run sheet
])
def test_each_wait_of_a_series_is_kept(text: str, waits: tuple[float, ...]) -> None:
    assert _read(text)["waits"] == waits


# -- a time with what happens past it ----------------------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("The rebuild gets three hours, not a minute more.", 10800.0),  # a CI README
    ("Each scan has 250 milliseconds; slower than that is a miss.", 0.25),  # a lab protocol
    ("The weather fax has 4 min, anything longer than that is a failure.", 240.0),  # a ship's log
    ("The oven check gets 30 s - not a second longer.", 30.0),  # a recipe card
])
def test_a_time_with_what_happens_past_it(text: str, seconds: float) -> None:
    assert _read(text) == {"timeout_s": seconds}


# -- words about when a step starts, or about no wait, are no wait policy -----------------------------

@pytest.mark.parametrize("text", [
    "No need to wait for step 2 for this one.",  # a lesson plan
    "It doesn't have to wait on the intake step.",  # an HR checklist
    "Don't wait for the dough to finish proving.",  # a recipe card
    "There's no need to wait for the render job.",  # a CI README
])
def test_not_waiting_for_another_step_is_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert (phrase.statement.wait, phrase.statement.retries, phrase.problems) == (None, None, ())


@pytest.mark.parametrize("text", [
    "Five retries on the label printer, no waiting around between them.",
    "Retry twice without any pausing about.",
    "3 retries, no hanging around in between.",
    "Two retries and no sitting around between the tries.",
])
def test_no_waiting_around_is_no_wait(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == () and phrase.statement.wait is not None and phrase.statement.wait.kind == "none"


# -- org property drawers ----------------------------------------------------------------------------

_ORG_WORDS = Vocabulary.of([(n, None) for n in (
    "weigh-flour", "bake-loaf", "log-position", "send-noon-report", "stain-slide", "image-slide", "archive-images",
    "grade-quiz", "post-grades")])


def _org(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "notes.org", "markdown", _ORG_WORDS)


def _policy(spec: WorkflowSpec, step: str) -> dict[str, Any]:
    got: dict[str, Any] = {}
    for r in spec.readings:
        if step in r.steps:
            s = r.statement
            got.update({k: v for k, v in (("retries", s.retries), ("timeout_s", s.timeout_s)) if v is not None})
            if s.wait is not None and s.wait.seconds:
                got["waits"] = s.wait.seconds
            if s.on_failure is not None and s.on_failure.skill:
                got["skill"] = s.on_failure.skill
    found = next(s for s in spec.steps if s.id == step)
    if found.retry is not None:  # a `Retries:` label is read onto the step itself
        got.update({"retries": found.retry.max_retries, "waits": found.retry.delays_s})
    return got


@pytest.mark.parametrize(("text", "step", "want"), [
    # a recipe card
    ("* Bread\n** TODO Weigh                      :kitchen:\n   :PROPERTIES:\n   :DOES: weigh-flour\n"
     "   :IF_BROKEN: try it twice more, 5 s apart\n   :END:\n** TODO Bake\n   :PROPERTIES:\n   :DOES: bake-loaf\n"
     "   :END:\n", "step-1", {"retries": 2, "waits": (5.0,)}),
    # a ship's log
    ("* Watch\n** Fix                      :nav:\n   :PROPERTIES:\n   :TOOL: log-position\n   :TIMEBOX: 40s per fix\n"
     "   :END:\n** Noon\n   :PROPERTIES:\n   :TOOL: send-noon-report\n   :END:\n", "step-1", {"timeout_s": 40.0}),
    # a lab protocol
    ("* Slides\n** Stain\n   :PROPERTIES:\n   :USES: stain-slide\n   :END:\n** Image\n   :PROPERTIES:\n"
     "   :USES: image-slide\n   :ON_FAIL: hand it to `archive-images` instead\n   :END:\n", "step-2",
     {"skill": "archive-images"}),
    # a lesson plan
    ("* Friday\n** Grade\n   :PROPERTIES:\n   :SKILL: grade-quiz\n   :RETRIES: 3, 1 min apart\n   :END:\n"
     "** Post\n   :PROPERTIES:\n   :SKILL: post-grades\n   :END:\n", "step-1", {"retries": 3, "waits": (60.0,)}),
])
def test_an_org_drawers_own_properties_say_policies(text: str, step: str, want: dict[str, Any]) -> None:
    spec = _org(text)
    assert len(spec.steps) == 2
    assert _policy(spec, step) == want


def test_an_org_drawer_property_not_understood_is_warned_at_its_line() -> None:
    text = ("* Bread\n** Weigh\n   :PROPERTIES:\n   :DOES: weigh-flour\n   :IF_BROKEN: retry it, somehow, gracefully\n"
            "   :END:\n** Bake\n   :PROPERTIES:\n   :DOES: bake-loaf\n   :END:\n")
    assert [w for w in _org(text).warnings if w.line == 5]


# -- the run's success check said as a label of being done, over several fields -----------------------

def _md(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


@pytest.mark.parametrize(("text", "line"), [
    # a lab protocol
    ("# Stain run\n\n1. Stain with `stain-slide`.\n2. Image it with `image-slide`.\n\n"
     "Done = the scanner hands back a scan_id and focused is true.\n", 6),
    # a podcast run sheet
    ("# Episode\n\n1. Mix with `mix-audio`.\n2. Publish with `publish-episode`.\n\n"
     "Finished when: episode_url is not empty and live == true\n", 6),
    # an HR onboarding checklist
    ("# Onboarding\n\n1. Make the account with `make-account`.\n2. Send the welcome with `send-welcome`.\n\n"
     "We're done when it returns a `welcome_id` and sent is true.\n", 6),
    # a CI README
    ("# Nightly\n\n1. Build with `build-app`.\n2. Test with `run-tests`.\n\nfinished_if: failed == 0 and passed >= 1\n", 6),
])
def test_a_done_label_over_several_fields_is_checked_on_the_step(text: str, line: int) -> None:
    spec = _md(text)
    last = spec.steps[-1]
    assert [r for r in last.readings if r.what == "success"]
    assert [c for c in spec.contracts if c.producer == last.id and len(c.constraints[""]["required"]) == 2]
    assert [w for w in spec.warnings if w.line == line and "success check" in w.message]


def test_a_part_of_a_done_line_that_compares_nothing_is_warned() -> None:
    spec = _md("# Loaf\n\n1. Bake with `bake-loaf`.\n2. Slice with `slice-loaf`.\n\nDone = loaf_ok is true and it smells right.\n")
    assert [c for c in spec.contracts if c.producer == "step-2"]
    assert [w for w in spec.warnings if w.line == 6 and "smells right" in w.message]


def test_done_colon_alone_is_a_report_not_a_check() -> None:
    spec = _md("# Chat\n\n1. Pull with `pull-invoices`.\n2. Post with `post-summary`.\n\nDone: pulled then posted.\n")
    assert not spec.contracts


# -- the whole run named by another word for one go of the work ---------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("The whole session gets 45 min max, then we stop.", 2700.0),  # a lesson plan
    ("Whole sweep: done within 90 min.", 5400.0),  # a CI README
    ("The entire routine has a 20 min hard cap.", 1200.0),  # a greenhouse wiki
    ("Whole shift gets 4 hours max.", 14400.0),  # a ship's log
])
def test_the_whole_run_named_as_a_session_sweep_routine_or_shift(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    assert (phrase.statement.whole_run, phrase.statement.timeout_s, phrase.problems) == (True, seconds, ())
