"""A bare limit said before the step is counted as failed is the attempt's time (`spec.cap_then_failed40`):
"Max N, then treat it as failed" with no word of trying again, and "at most N per attempt"; a cap beside a
retry or a backoff, or "between tries", stays the cap of the waits."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill


@pytest.mark.parametrize(("sentence", "seconds"), [
    ("The label printer is flaky. Max 45 seconds, then treat it as failed.", 45.0),
    ("At most 90 s, then count it as a failure.", 90.0),
    ("Maximum of 3 minutes; after that, call it failed.", 180.0),
    ("No more than 2 minutes per attempt.", 120.0),
    ("Max 20 s each try, the API is slow.", 20.0),
])
def test_a_bare_limit_before_failing_is_the_attempts_time(sentence: str, seconds: float) -> None:
    phrase = read_phrase(sentence)
    said = phrase.statement
    assert said.timeout_s == seconds and said.wait is None and not said.retries and not phrase.problems


@pytest.mark.parametrize("sentence", [
    "Retry 3 times with backoff, max 45 seconds, then give up.",
    "Max 30s between tries, then give up.",
    "Try again twice, at most 1 minute apart, then treat it as failed.",
])
def test_a_cap_beside_a_retry_or_a_wait_stays_the_cap_of_the_waits(sentence: str) -> None:
    said = read_phrase(sentence).statement
    assert said.timeout_s is None and said.wait is not None


def test_a_steps_note_with_the_limit_plans_a_timeout_and_no_assumed_retries() -> None:
    catalog = FakeCatalog(skill("weigh-sample", input_schema=obj(("tube",), tube="string"),
                                output_schema=obj(("grams",), grams="number")))
    spec = parse_spec_text("# Lab intake\n\n## Steps\n\n1. Weigh the sample with `weigh-sample`.\n"
                           "   - The balance hangs sometimes. Max 45 seconds, then treat it as failed.\n",
                           "flow.md", "markdown", Vocabulary(skills=frozenset({"weigh-sample"})))
    policy = build_plan(spec, catalog, settings=SETTINGS).steps[0].policy
    assert policy.attempt_timeout_s == 45.0 and policy.retry.max_retries == 0
    assert not any("retries assumed" in w.message for w in spec.warnings)


@pytest.mark.parametrize(("sentence", "seconds"), [
    ("It has to be back within 2 minutes, otherwise it has failed.", 120.0),
    ("The scan should finish in 90 s or else we give up on it.", 90.0),
    ("Must come back inside 45 s or we fail the run.", 45.0),
])
def test_a_time_to_be_back_in_or_fail_is_the_attempts_time(sentence: str, seconds: float) -> None:
    phrase = read_phrase(sentence)
    assert phrase.statement.timeout_s == seconds and not phrase.problems


def test_a_time_to_be_back_in_with_no_failing_said_is_not_this_rows() -> None:
    assert read_phrase("Must come back inside 30 s or we try again.").statement.timeout_s is None
