"""Fortieth round, older sets' leftovers: a number taken back in the same breath (`spec.self_correction40`),
a skill named only as where a value comes from in a sentence about a later step (`spec.cited_doer40`), and
"tell someone" said with no failure (`spec.news_tell40`), in a bakery's, a lab's and a garage's words (none of
them a holdout's), and texts that look alike but are not."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.self_correction40 import plain
from orchestrator.spec.vocabulary import Vocabulary

_BAKERY = Vocabulary(skills=frozenset({"count-orders", "bake-batch"}))


def _policy(text: str) -> dict[str, Any]:
    phrase = read_phrase(text)
    assert not phrase.problems, phrase.problems
    return phrase.statement.model_dump(exclude_none=True, exclude_defaults=True)


@pytest.mark.parametrize(("text", "meant"), [
    ("If the centrifuge errors, retry it four times, no wait, three times, 20 seconds apart.",
     {"retries": 3, "wait": {"kind": "fixed", "seconds": (20.0,)}}),
    ("Should the lift jam, retry it 5 times... sorry, 2 times.", {"retries": 2}),
    ("Give the scale 30 s -- I mean 45 s -- per reading.", {"timeout_s": 45.0}),
    ("Up to 5 tries, make that 4, a minute apart.", {"max_attempts": 4, "wait": {"kind": "fixed", "seconds": (60.0,)}}),
])
def test_a_number_taken_back_is_replaced_by_the_one_said_after_it(text: str, meant: dict[str, Any]) -> None:
    assert _policy(text) == meant


@pytest.mark.parametrize("text", [
    "If the centrifuge errors, retry three times, no backoff.",  # "no" starts words of its own
    "Retry the lift 2 times, no more.",
    "Try it 3 times, no, 30 seconds.",  # a count and a time: no correction, left as written
    "Retry the mixer twice, wait 10 then 30 secs.",  # "wait" is the wait, not a word taking a number back
])
def test_no_that_takes_back_no_number_of_the_same_kind_is_left_as_written(text: str) -> None:
    assert plain(text) == text


def _steps(text: str) -> tuple[Any, dict[str, Any]]:
    spec = parse_spec_text(text, "notes.txt", "markdown", _BAKERY)
    return spec, {s.mentions[0].text: s for s in spec.steps}


@pytest.mark.parametrize("said", [
    "It takes the total out of count-orders and the oven number.",
    "Hand it count-orders's total and the oven number.",
    "It needs the total that count-orders gave.",
])
def test_a_sentence_naming_an_earlier_skill_as_a_values_source_stays_with_the_step_described(said: str) -> None:
    text = ("Morning notes for whoever opens. First thing, run count-orders on the order sheet. After that it's "
            f"bake-batch. {said} If the oven jams, try it again twice, a minute apart.\n")
    _, steps = _steps(text)
    assert list(steps) == ["count-orders", "bake-batch"]
    assert any("try it again twice" in t.text for t in steps["bake-batch"].texts)
    assert not any("try it again twice" in t.text for t in steps["count-orders"].texts)


def test_a_sentence_running_an_earlier_skill_again_is_no_citation() -> None:
    text = ("Morning notes for whoever opens. First thing, run count-orders on the order sheet. After that it's "
            "bake-batch. Then run count-orders again for the late orders, give it ten minutes at most.\n")
    _, steps = _steps(text)
    assert not any("again" in t.text for t in steps["bake-batch"].texts)


@pytest.mark.parametrize("text", [
    "After that it's bake-batch. Oh, the delivery van is back from the garage, tell Priya.",
    "After that it's bake-batch. The new oven manual came in, email the office.",
])
def test_telling_someone_news_with_no_failure_is_no_escalation_and_is_said(text: str) -> None:
    spec, _ = _steps(f"Morning notes. First thing, run count-orders on the sheet. {text}\n")
    assert [w.code for w in spec.warnings if "names no failure" in w.message] == ["spec.unread"]


def test_telling_someone_when_the_step_fails_is_still_an_escalation() -> None:
    statement = read_phrase("If the oven jams, tell Priya.").statement
    assert statement.on_failure is not None and statement.on_failure.kind == "escalate"
    spec, _ = _steps("Morning notes. First thing, run count-orders on the sheet. After that it's bake-batch. "
                     "If the oven jams, tell Priya.\n")
    assert not any("names no failure" in w.message for w in spec.warnings)
