"""The policy reader on the sixteenth round's misread families (`spec.grammar_families16`).

Written the way a lesson plan, a podcast run sheet, a ship's log, a recipe card, an HR onboarding
checklist, a school trip plan and a bakery's opening list would say it; none is a sentence of a
blind set, and no fixture is any of these kinds.
"""

from __future__ import annotations

import pytest

from orchestrator.policy import ErrorClass
from orchestrator.spec.effect import effect_of
from orchestrator.spec.grammar_families16 import failure_reason_spans
from orchestrator.spec.phrase import read_phrase


def _read(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase, effect_of(phrase.statement, retry_said=phrase.retry_said)


@pytest.mark.parametrize("text", [
    # a lesson plan
    "Photocopy the worksheets, this doesn't have to wait for 1.",
    "Set up the projector - no need to wait until the first one is done.",
    # a podcast run sheet
    "Cut the ad reads; can start without waiting for step 2.",
    "Edit the guest's audio, it needn't hold off for #1",
    # a ship's log
    "Log the wind readings, no need to wait for 3 - separate job.",
    # an HR onboarding checklist
    "Order the badge. Doesn't need to wait until 2 is finished.",
    # a bakery's opening list
    "Proof the second batch, you don't have to wait for the oven step to finish.",
])
def test_words_about_order_are_no_retry_and_no_wait(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.retry is None, phrase
    assert phrase.statement.wait is None
    assert phrase.problems == ()


@pytest.mark.parametrize(("text", "wait"), [
    ("If it fails, retry 3 times, don't wait in between.", 0.0),  # a wait between tries is still one
    ("If the till hangs, retry twice, waiting 30 s in between.", 30.0),
])
def test_a_wait_between_tries_is_still_read(text: str, wait: float) -> None:
    _phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.delays_s == (wait,)


@pytest.mark.parametrize("text", [
    # a ship's log
    "The satellite uplink times out a lot at night so if it fails try again 3 times, wait 20 sec in between",
    # a podcast run sheet
    "the upload page hangs sometimes, so retry twice",
    # a recipe card
    "The oven probe app freezes now and then, so if that happens retry twice.",
    # an HR onboarding checklist
    "Retry twice because the badge printer drops out at times.",
    # a school trip plan
    "The coach company's booking site is flaky on Fridays, so if it fails, retry 2 times 10 s apart.",
])
def test_a_failure_said_as_the_reason_is_no_failure_class(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.max_retries in (2, 3), phrase
    assert phrase.statement.applies_to is None
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    # a podcast run sheet, a lesson plan: the retry's own condition names the failure
    "If the upload times out, retry twice.",
    "The quiz site times out a lot, so if it times out retry twice.",
    # a recipe card
    "When the scale app hangs, retry 2 times.",
    # a bakery's opening list
    "If the card machine times out, try again 3 times 5 s apart.",
])
def test_a_failure_said_as_the_condition_keeps_its_class(text: str) -> None:
    phrase, _effect = _read(text)
    assert phrase.statement.applies_to == ErrorClass.TIMEOUT, phrase


def test_the_reason_span_covers_the_habit_not_the_condition() -> None:
    text = "the wifi times out a lot so if it times out retry twice"
    spans = failure_reason_spans(text)
    assert spans and text[spans[0][0]:spans[0][1]].startswith("times out a lot")
    assert all(e <= text.index("if it") for _s, e in spans)
    assert failure_reason_spans("it hangs so long that nobody waits") == []


@pytest.mark.parametrize(("text", "wait"), [
    # a recipe card
    ("If one card fails to print, do it once more after 5 sec.", 5.0),
    # a ship's log
    ("If the harbour office doesn't answer, ring once more in 5 minutes.", 300.0),
    # a school trip plan
    ("If the permission-slip upload fails, once more after 1 min, then give up.", 60.0),
    # an HR onboarding checklist
    ("If the laptop order fails, send it one more time after 30 s.", 30.0),
    # a podcast run sheet
    ("Episode publish fails? One more go after 2 min.", 120.0),
])
def test_a_single_retry_carries_the_wait_said_after_it(text: str, wait: float) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None, phrase
    assert (effect.retry.max_retries, effect.retry.delays_s) == (1, (wait,))
    assert phrase.problems == ()


@pytest.mark.parametrize(("heading", "line"), [
    ("## Wrap-up notes", "Done when the new hire can log in."),  # an HR onboarding checklist
    ("## Closing remarks", "We're finished once every guest has a card."),  # a recipe card
    ("## Misc", "This is done when the ship's log is filed with the harbour office."),  # a ship's log
    ("## Odds and ends", "It's done when every parent has had the letter."),  # a school trip plan
])
def test_a_success_line_in_a_section_no_reader_knows_is_warned_once(heading: str, line: str) -> None:
    from orchestrator.spec import parse_spec_text
    from orchestrator.spec.vocabulary import Vocabulary

    text = "# F\n\n## Steps\n1. Write it with `load`\n2. Send it with `send`\n\n" + heading + "\n" + line + "\n"
    spec = parse_spec_text(text, "flow.md", "markdown", Vocabulary.of([("load", None), ("send", None)]))
    said = [w for w in spec.warnings if w.code == "spec.success"]
    assert len(said) == 1, said
    assert said[0].line == 8


@pytest.mark.parametrize("text", [
    # a bakery's opening list
    "The proofing cabinet is slow to warm up: if it falls over, retry twice, 10 s apart.",
    # a lesson plan
    "The classroom laptop hangs a lot: if it fails, try again twice.",
    # a ship's log
    "The chart plotter is sluggish at night: if it breaks, retry 2 times.",
    # a podcast run sheet
    "The mixing desk freezes sometimes - if it acts up, retry twice.",
])
def test_a_failure_said_as_the_reason_before_a_colon_is_no_failure_class(text: str) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.max_retries == 2, phrase
    assert phrase.statement.applies_to is None


def test_the_condition_after_the_colon_keeps_its_class() -> None:
    assert read_phrase("The radio is slow to warm up: if it times out, retry twice.").statement.applies_to == \
        ErrorClass.TIMEOUT


@pytest.mark.parametrize(("text", "count"), [
    ("If the badge printer jams, have another go twice.", 2),  # an HR onboarding checklist
    ("If the oven timer app fails, have another go 3 times.", 3),  # a recipe card
    ("Podcast upload fails? One more try twice, 30 s apart.", 2),  # a podcast run sheet
    ("If the permission form bounces, another shot twice.", 2),  # a school trip plan
])
def test_a_count_said_after_another_go_is_the_number_of_retries(text: str, count: int) -> None:
    phrase, effect = _read(text)
    assert effect.retry is not None and effect.retry.max_retries == count, phrase
    assert phrase.problems == ()


def test_another_go_once_something_happens_is_one_retry_and_no_count() -> None:
    _phrase, effect = _read("If it fails, have another go once the wifi is back.")
    assert effect.retry is not None and effect.retry.max_retries == 1
