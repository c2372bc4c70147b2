"""Round 52: a workflow input said in words named as the author says it when the words say more than the skill's
name ("the boiler type" for `boiler`: `boiler_type`; "what time they arrived" for `arrived_at`: `arrival_time`:
`plan.said_names52`), bound to the skill's name; near-misses keep the skill's name."""

from __future__ import annotations

from orchestrator.plan.prose_inputs import prose_inputs
from orchestrator.plan.said_names52 import event_field, event_time, kind_named


def test_a_word_before_the_name_or_a_matchers_word_keeps_the_skills_name() -> None:  # near-misses
    assert kind_named("the front door", "door") is None
    assert kind_named("the hive list", "hive") is None
    assert kind_named("the crate number", "crate") is None
    assert kind_named("door", "door") is None
    assert kind_named("the season label", "season") is None


def test_the_time_of_an_event_is_named_for_the_event() -> None:
    assert event_time("what time they arrived") is not None and event_time("what time they arrived")[0] == "arrival_time"
    assert event_time("when the customer phoned")[0] == "call_time"  # type: ignore[index]
    assert event_field("when the customer phoned", ["called_at", "zone"], []) == "called_at"
    assert event_field("what time they paid", ["paid_at", "payment_ts"], []) is None  # two could be it: neither
    assert event_time("what time it is") is None  # near-miss: no event said
    assert event_field("what time they arrived", ["arrived_at"], ["arrived_at"]) is None  # a step's output


def test_the_inputs_take_the_authors_names_and_say_which_skill_input_they_are() -> None:
    reads = {"boiler": ("the boiler", False), "arrived_at": ("when the engineer got there", False),
             "postcode": ("postcode", False)}
    said = [("the postcode", "s.md:3"), ("boiler type", "s.md:3"), ("what time they arrived", "s.md:3")]
    inputs, warnings = prose_inputs(said, reads, [], [], "s.md")
    assert [(i.name, i.description.rsplit("for skill input ", 1)[-1]) for i in inputs] == [
        ("postcode", "said in the text as 'the postcode'"), ("boiler", "said in the text as 'boiler type'"), ("arrival_time", "arrived_at")]
    assert "'boiler type' as `boiler`" in warnings[0].message  # a word after the name: the skill's name kept
