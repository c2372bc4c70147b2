"""The policy reader on the phrasing families the eighth blind set showed, in other document kinds.

Each family is written here the way a support macro, a status page, a postmortem, a README's usage
section, a docstring, an RFC with MUSTs or a state machine's notes would say it; none of these is a
sentence of that set. The corpus (`test_policy_corpus.py`, `phrasings-own8.yaml`) holds more rows.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.plan.dataflow import completed_fallback
from orchestrator.policy import Fallback, FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _spec(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


def _fallback(text: str) -> Fallback | None:
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    return effect_of(phrase.statement).fallback


# -- a quoted text to go on with is the value handed on, as written ----------------------------

@pytest.mark.parametrize(("text", "value"), [
    # a support macro
    ('If the macro engine errors, continue with the canned reply "We are on it — expect news today."',
     "We are on it — expect news today."),
    # an RFC with MUSTs
    ('On failure the gateway MUST proceed with the default message "Try again later".', "Try again later"),
    # a status page update
    ('Should the incident writer crash, fall back with the standard notice "Investigating".', "Investigating"),
])
def test_a_quoted_text_to_go_on_with_is_the_value_with_its_dashes(text: str, value: str) -> None:
    fallback = _fallback(text)
    assert fallback is not None and (fallback.action, fallback.value) == (FallbackAction.DEFAULT, value)


def test_a_text_value_goes_under_the_one_text_output_and_a_number_under_the_one_number_output() -> None:
    typed = {"type": "object", "properties": {"body": {"type": "string"}, "length": {"type": "integer"}}}
    said = completed_fallback(Fallback(action=FallbackAction.DEFAULT, value="Back soon"), typed)
    assert said.value == {"body": "Back soon"}
    untyped = {"type": "object", "properties": {"risk_score": {}, "week": {}}}
    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT, value=0), untyped).value == {"risk_score": 0}
    both = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    assert completed_fallback(Fallback(action=FallbackAction.DEFAULT, value="x"), both).value == "x"  # no guess


# -- a value must come from its own sentence -------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Set the ticket to Solved.",  # a support macro's last line
    "Mark the incident as resolved.",  # a status page
    "Finally, set state to CLOSED.",  # a state machine's exit
])
def test_setting_a_field_with_no_failure_in_the_sentence_is_what_the_step_does_not_a_fallback(text: str) -> None:
    assert not read_phrase(text).read


def test_a_macro_s_last_line_gives_no_fallback_to_the_step_above_it() -> None:
    spec = _spec("# Macro\n\n## Step 1: Reply\n\n- Skill: `send-reply`\n"
                 '- If sending is down, continue with the canned text "We will write back soon."\n'
                 "- Set status to Waiting.\n")
    values = [effect_of(r.statement).fallback for r in spec.readings if r.steps == ("step-1",)]
    assert [f.value for f in values if f is not None] == ["We will write back soon."]


@pytest.mark.parametrize(("text", "value"), [
    ("Postmortem follow-up: if the SLA lookup fails, assume sla_hours 24 and continue.", {"sla_hours": 24}),
    ("If the cache probe errors, assume the hit rate's zero and keep going.", 0),
])
def test_a_value_assumed_on_failure_is_the_value_to_go_on_with(text: str, value: Any) -> None:
    fallback = _fallback(text)
    assert fallback is not None and (fallback.action, fallback.value) == (FallbackAction.DEFAULT, value)


# -- how long one attempt may take, said before the retry --------------------------------------------

def test_letting_a_call_run_up_to_a_time_then_retrying_is_a_timeout_not_a_retry_budget() -> None:
    # a README's usage section
    effect = effect_of(read_phrase("Let the uploader run for up to 40 s, then retry; three tries in all.").statement)
    assert effect.attempt_timeout_s == 40.0 and effect.retry is not None
    assert (effect.retry.max_retries, effect.retry.budget_s) == (2, None)


def test_a_bracketed_exponential_range_starts_at_the_first_and_is_capped_at_the_second() -> None:
    effect = effect_of(read_phrase("retries: 4; backoff=exponential(250ms..4s)").statement)
    assert effect.retry is not None
    assert (effect.retry.initial_s, effect.retry.max_delay_s, effect.retry.delays_s) == (0.25, 4.0, ())


# -- the whole run's limit and a success check are never dropped --------------------------------------

def test_a_whole_macro_s_time_is_the_run_s_limit_not_a_step_s_timeout() -> None:
    spec = _spec("# Macro\n\n## Step 1: Reply\n\n- Skill: `send-reply`\n\n"
                 "---\n\nThe whole macro should be finished in under 4 minutes.\n")
    assert [r.statement.timeout_s for r in spec.readings if r.statement.whole_run] == [240.0]


def test_calling_the_run_a_success_on_a_condition_in_words_is_warned_at_its_line() -> None:
    spec = _spec("# Voice note\n\n## Step 1: Digest\n\nRun `write-digest` on the notes.\n"
                 "We'll call it a success if the digest names the on-call, you know, the whole rota.\n")
    said = [d for d in spec.warnings if d.code == "spec.success"]
    assert len(said) == 1 and said[0].line == 6 and "not checked" in said[0].message


# -- not policies -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Convert the pages one at a time or in parallel, it doesn't matter.",  # a docstring
    "The order of the uploads does not matter.",  # a README
])
def test_how_items_are_run_is_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and not phrase.problems


def test_then_going_ahead_without_the_step_is_going_on() -> None:
    # a release checklist
    fallback = _fallback("The spell check gets two tries, 10 s apart, then we release without it.")
    assert fallback is not None and fallback.action is FallbackAction.CONTINUE
