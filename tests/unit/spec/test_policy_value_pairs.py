"""The policy reader on the seventeenth round's family (`spec.grammar_value_pairs`): a value to go on
with written as a field and its value with no `=`, "as" or "to" between them, right before going on.

Written the way a lab protocol, a ship's log, a recipe card, a podcast run sheet and an HR onboarding
checklist would say it; none is a sentence of a blind set.
"""

from __future__ import annotations

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _read(text: str):  # type: ignore[no-untyped-def]
    phrase = read_phrase(text)
    return phrase, effect_of(phrase.statement, retry_said=phrase.retry_said)


@pytest.mark.parametrize(("text", "value"), [
    # a lab protocol
    ("If the pH meter errors, mark calibrated false and keep going.", {"calibrated": False}),
    # a ship's log
    ("If the wind sensor is dead, set wind_kn 0 and carry on with the log.", {"wind_kn": 0}),
    # a recipe card
    ("Should the scale app crash, flag weighed false, then continue.", {"weighed": False}),
    # a podcast run sheet
    ("If the loudness check fails, record lufs_ok false and move on.", {"lufs_ok": False}),
    # an HR onboarding checklist
    ('If the badge printer jams, mark badge_printed "no" and keep going.', {"badge_printed": "no"}),
])
def test_a_field_and_its_value_said_before_going_on_is_the_value_to_go_on_with(text: str, value: object) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.action is FallbackAction.DEFAULT, phrase
    assert effect.fallback.value == value
    assert phrase.problems == ()


@pytest.mark.parametrize("text", [
    "If the pH meter errors, mark calibrated false.",  # no going on said: not this row's
    "If the tide gauge is down, record the level by hand and carry on.",  # no value after the field
])
def test_a_field_and_value_without_going_on_or_without_a_value_is_not_a_value_to_go_on_with(text: str) -> None:
    _phrase, effect = _read(text)
    assert effect.fallback is None or effect.fallback.action is not FallbackAction.DEFAULT


@pytest.mark.parametrize(("text", "value"), [
    # a lab protocol
    ("If the plate reader hangs, carry on with `read_ok: false`.", {"read_ok": False}),
    # a ship's log
    ("Should the AIS feed drop, keep going with `berth: ANCHORAGE, eta_h: 6`.", {"berth": "ANCHORAGE", "eta_h": 6}),
    # a choir rehearsal schedule
    ("If the room system is down, go on with `room: \"hall B\"`.", {"room": "hall B"}),
    # a garden centre stock-take
    ("If the scanner dies, continue with `counted: 0` and do it by hand later.", {"counted": 0}),
])
def test_a_ticked_field_and_value_to_go_on_with_is_that_field_typed(text: str, value: object) -> None:
    phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.action is FallbackAction.DEFAULT, phrase
    assert effect.fallback.value == value
    assert phrase.problems == ()


@pytest.mark.parametrize(("text", "value"), [
    ("If it fails, continue with `n/a`.", "n/a"),  # no field: the text as written
    ("If it fails, continue with `\"note: none\"`.", "note: none"),  # quoted inside the ticks: a text
])
def test_a_ticked_value_that_is_no_field_and_value_stays_a_text(text: str, value: object) -> None:
    _phrase, effect = _read(text)
    assert effect.fallback is not None and effect.fallback.value == value
