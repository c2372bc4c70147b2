"""A short failure question and the one sentence answering it are read together as the step's recovery
(`spec.failure_question43`); a question that says no failure, or an answer without a question, is not."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.failure_question43 import (
    failure_question,
    join_question_texts,
    join_questions,
)
from orchestrator.spec.model import SpecText
from orchestrator.spec.prose import sentences


@pytest.mark.parametrize("text", ["Scanner broken?", "Label printer jammed?", "If the API's dead?",
                                  "No answer from the lab?", "Geocoder timing out?", "Weather feed down?",
                                  "Can't reach the depot server?", "Booking service not responding?",
                                  "No joy from the courier API?", "No luck with the scanner?"])
def test_a_short_question_saying_a_failure_is_one(text: str) -> None:
    assert failure_question(text)


@pytest.mark.parametrize("text", ["Ready?", "Any questions?", "Is it overdue?", "Scanner broken.",
                                  "What do we do with the rows that the export wrote before the scanner went down?",
                                  "Down the hall or upstairs? No idea?",
                                  "No joy in the office today?"])
def test_a_question_saying_no_failure_or_a_long_one_is_not(text: str) -> None:
    assert not failure_question(text)


def test_the_question_is_joined_to_the_one_sentence_after_it_and_keeps_its_line() -> None:
    said = sentences("Tills sync nightly.\nTill server offline? Carry on with `{\"sales\": []}`. Then mail Jo.", 4)
    assert said == [("Tills sync nightly.", 4), ("Till server offline? Carry on with `{\"sales\": []}`.", 5),
                    ("Then mail Jo.", 5)]


def test_a_question_that_is_no_failure_or_has_no_answer_stays_apart() -> None:
    assert join_questions([("Ready?", 1), ("Run `x`.", 1)]) == [("Ready?", 1), ("Run `x`.", 1)]
    assert join_questions([("Lab down?", 1), ("Or just slow?", 1)]) == [("Lab down?", 1), ("Or just slow?", 1)]
    assert join_questions([("Lab down?", 3)]) == [("Lab down?", 3)]


def test_a_step_s_sentences_are_joined_only_when_they_follow_each_other() -> None:
    q, a = SpecText(text="Depot API dead?", line=2, kind="sentence"), SpecText(text="Use `depot-csv`.", line=3, kind="sentence")
    assert [t.text for t in join_question_texts((q, a))] == ["Depot API dead? Use `depot-csv`."]
    far = SpecText(text="Use `depot-csv`.", line=9, kind="sentence")
    assert [t.text for t in join_question_texts((q, far))] == ["Depot API dead?", "Use `depot-csv`."]
    bullet = SpecText(text="Use `depot-csv`.", line=3, kind="bullet")
    assert len(join_question_texts((q, bullet))) == 2


def _read(body: str) -> list[tuple[str, str | None, str | None]]:
    spec = parse_spec_text(f"# Prices\n\n## Steps\n\n1. **Get prices** with `price-scraper`.\n   {body}\n",
                           "prices.md", "markdown")
    return [(r.text, f.kind, f.skill) for r in spec.readings if (f := r.statement.on_failure) is not None]


@pytest.mark.parametrize(("body", "skill"), [
    ("Scraper broken? Use `price-sheet`.", "price-sheet"),
    ("Price site unreachable? Do that step with `price-sheet`.", "price-sheet"),
    ("No answer from the price site? Hand it to `price-cache` instead.", "price-cache"),
    ("No joy from the price site? `price-cache` will do.", "price-cache"),
    ("No luck with the scraper? `price-sheet` will have to do.", "price-sheet"),
])
def test_the_answer_is_the_fallback_for_the_failure_asked(body: str, skill: str) -> None:
    assert _read(body) == [(body, "use_skill", skill)]


def test_carry_on_after_a_failure_question_is_going_on() -> None:
    assert _read("If the scraper's dead? Carry on without it.") == [
        ("If the scraper's dead? Carry on without it.", "continue", None)]


@pytest.mark.parametrize("body", ["Ready? Do that step with `price-sheet`.", "Do this step with `price-sheet`.",
                                  "Use `price-sheet`.", "Is it cheap? Use `price-sheet`."])
def test_without_a_failure_question_the_sentence_names_no_fallback(body: str) -> None:
    assert _read(body) == []
