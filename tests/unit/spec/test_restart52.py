"""Round 52: "never restart this one", "*** DO NOT RESTART STEP04 ***": restarting the step is running it again,
so no retry (`spec.grammar`'s NO_RETRY); a near-miss restarting a thing of its own is not."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize("text", ["Never restart this one, the printer bills per job.",
                                  "*** DO NOT RESTART STEP07 *** each call costs us",
                                  "don't restart it - the bank sees every attempt",
                                  "you must not restart the job, it double-books"])
def test_not_restarting_the_step_is_no_retry(text: str) -> None:
    said = read_phrase(text)
    assert said.statement is not None and said.statement.no_retry, text


@pytest.mark.parametrize("text", ["Don't restart the router first, it drops the line.",
                                  "restart it twice if the feed is down"])
def test_restarting_something_else_or_a_count_is_not_no_retry(text: str) -> None:  # near-miss
    said = read_phrase(text)
    assert said.statement is None or not said.statement.no_retry, text


@pytest.mark.parametrize("text", ["the quotes API gets 30s. when it is down or too slow use quotes-cached instead",
                                  "Tide feed: 1 min max, slow or broken -> switch to tide-tables",
                                  "if the scanner's offline or stuck, fall back to manual-count"])
def test_dead_or_slow_beside_a_fallback_is_every_failure(text: str) -> None:
    """Round 52: the service unusable either way (failing or too slow): the step's fallback, on no one class."""
    said = read_phrase(text)
    assert said.statement is not None and said.statement.on_failure is not None, text
    assert said.statement.on_failure.kind == "use_skill" and said.statement.applies_to is None, text


def test_slow_alone_stays_a_timeout_and_dead_or_slow_beside_a_retry_is_transient() -> None:  # near-misses
    hangs = read_phrase("the feed gets 2 min max. if it hangs swap to tide-tables")
    assert hangs.statement is not None and hangs.statement.applies_to is not None
    assert hangs.statement.applies_to.value == "timeout"
    retry = read_phrase("if it is dead or slow retry twice, 10s apart")
    assert retry.statement is not None and retry.statement.retries == 2
    assert retry.statement.applies_to is not None and retry.statement.applies_to.value == "transient"
