"""What the policy-phrasing tests look at: the few plain keys a sentence sets once read."""

from __future__ import annotations

from typing import Any

from orchestrator.policy import FallbackAction
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def plain_effect(text: str, *, continues: bool = False, on: bool = False) -> dict[str, Any]:
    """What `text` sets (retries, waits, timeout, the whole run's time, the fallback), asserting nothing was left
    unread; `continues` also says a plain going-on, `on` the kind of failure the rule is limited to."""
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    statement = phrase.statement
    effect = effect_of(statement, retry_said=phrase.retry_said)
    got: dict[str, Any] = {}
    if statement.no_retry:
        got["no_retry"] = True
    elif effect.retry is not None:
        got["retries"] = effect.retry.max_retries
        if effect.retry.delays_s:
            got["waits"] = effect.retry.delays_s
    if effect.attempt_timeout_s is not None:
        got["timeout_s"] = effect.attempt_timeout_s
    if statement.whole_run and statement.timeout_s is not None:
        got["run_s"] = statement.timeout_s
    if effect.fallback is not None:
        action = effect.fallback.action
        if action is FallbackAction.DEFAULT:
            got["value"] = effect.fallback.value
        elif action is FallbackAction.SKILL:
            got["skill"] = effect.fallback.skill
        elif action is FallbackAction.FAIL:
            got["fail"] = True
        elif action is FallbackAction.CONTINUE and continues:
            got["continue"] = True
    if on and effect.on is not None:
        got["on"] = str(effect.on)
    return got
