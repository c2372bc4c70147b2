""""with no X" beside a value to go on with: the output X empty (`plan.with_none46`, applied to a recovery
rule's value by `plan.dataflow.completed_policy`). Documents: a quality-control card, a warehouse
scanner note, a till reconciliation; negatives: words naming no output, an output typed as nothing empty."""

from __future__ import annotations

import pytest

from orchestrator.plan.dataflow import completed_policy
from orchestrator.plan.model import StepPolicy
from orchestrator.plan.with_none46 import said_none, with_none
from orchestrator.policy import ErrorClass, Fallback, FallbackAction, RecoveryRule

PROPS = {"count": {"type": "integer"}, "faults": {}, "notes": {"type": "string"}, "bins": {"type": "array"}}


@pytest.mark.parametrize(("text", "said"), [
    ("if the scanner dies, log it as 0 with no faults and move on", {"faults": []}),
    ("Can't read the sheet? Call it 12 with no bins and no notes, keep going.", {"bins": [], "notes": ""}),
    ("if the till feed is down, record it as 4 with no fault and carry on", {"faults": []}),
])
def test_with_no_x_sets_the_output_x_empty(text: str, said: dict[str, object]) -> None:
    assert said_none(text, PROPS) == said


@pytest.mark.parametrize("text", [
    "call it 0 with no fuss and move on",  # "fuss" is no output
    "no faults were found last week",  # not "with no" / "and no"
])
def test_words_naming_no_output_are_no_part_of_it(text: str) -> None:
    assert said_none(text, PROPS) == {}


def test_an_untyped_output_with_a_singular_name_is_left_unread() -> None:
    assert said_none("call it 3 with no reason and carry on", {"score": {}, "reason": {}}) == {}


def test_a_field_the_value_sets_is_kept() -> None:
    assert with_none({"count": 0, "faults": ["jam"]}, "log it as 0 with no faults", PROPS) == {"count": 0,
                                                                                              "faults": ["jam"]}


def test_a_recovery_rules_value_gets_the_empty_output_in_the_plan() -> None:
    """The quality card's "call it a 4.5 with no off-notes and carry on": {score: 4.5, off_notes: []}."""
    rule = RecoveryRule(on=ErrorClass.INVALID_INPUT, failure="If the card won't scan, call it a 4.5 with no off-notes "
                        "and carry on.", fallback=Fallback(action=FallbackAction.DEFAULT, value=4.5))
    schema = {"type": "object", "properties": {"score": {"type": "number"}, "off_notes": {"type": "array"}}}
    policy = completed_policy(StepPolicy(rules=(rule,)), schema)
    fallback = policy.rules[0].fallback
    assert fallback is not None and fallback.value == {"score": 4.5, "off_notes": []}


def test_the_steps_own_empty_value_said_with_no_x_is_that_output_empty() -> None:
    """A shop's "just keep going with no backorders (an empty list)": the contract's empty value named as
    `backorders` empty, the other outputs at their empty value (round 48)."""
    schema = {"type": "object", "properties": {"backorders": {"type": "array"}, "checked": {"type": "integer"}},
              "required": ["backorders", "checked"]}
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value=None))
    said = "If the stock feed dies, just keep going with no backorders (an empty list)."
    assert completed_policy(policy, schema, said).fallback.value == {"backorders": [], "checked": 0}
    assert with_none(None, "if the sensor is offline carry on with no open alarms", {"open_alarms": {}}) == {
        "open_alarms": []}


def test_the_steps_own_empty_value_naming_no_output_stays_the_contracts() -> None:
    """"carry on with no fuss": no output named, the contract's empty value as before; no sentence, nothing read."""
    policy = StepPolicy(fallback=Fallback(action=FallbackAction.DEFAULT, value=None))
    schema = {"type": "object", "properties": {"faults": {"type": "array"}}}
    assert completed_policy(policy, schema, "if it breaks carry on with no fuss").fallback.value is None
    assert completed_policy(policy, schema).fallback.value is None
