"""A value to go on with said as what to assume, named by the step's outputs, and a value to go on with
that names earlier data (`plan.continue_from29`). Documents: a café's stock check, a ward rota, a
holiday-let booking sheet; negatives: an assumption naming no output, or two."""

from __future__ import annotations

import pytest

from orchestrator.plan.continue_from29 import assumed_output, unread_fields
from orchestrator.plan.recovery import step_policy
from orchestrator.policy import FallbackAction
from orchestrator.spec import parse_spec_text


@pytest.mark.parametrize(("text", "outputs", "value"), [
    # a café's stock check
    ("The till API is flaky - 30 s max, then assume 0 cups and that it's closed.", ["cups", "closed"],
     {"cups": 0, "closed": True}),
    # a ward rota
    ("If the rota system hangs just assume 3 nurses on shift.", ["nurses_on_shift", "ward"], {"nurses_on_shift": 3}),
    # a holiday-let booking sheet
    ("calendar sync is slow; give it a minute, then assume £120.50 a night, and that it isn't full.",
     ["price_per_night", "full"], {"price_per_night": 120.5, "full": False}),
])
def test_what_to_assume_is_the_output_named_by_its_words(text: str, outputs: list[str], value: dict[str, object]) -> None:
    assert assumed_output(text, outputs) == value


@pytest.mark.parametrize(("text", "outputs"), [
    ("then assume the worst", ["price"]),  # names no output
    ("assume 3 heads", ["head_count", "head_room"]),  # names two
    ("assume 2 rooms and that it's sunny", ["rooms", "full"]),  # a part names none: the whole is unread
    ("We assume nothing here.", ["cups"]),
    ("then assume 6.50 a head", []),  # the step declares no outputs
])
def test_an_assumption_that_names_no_one_output_is_not_read(text: str, outputs: list[str]) -> None:
    assert assumed_output(text, outputs) is None


def test_a_value_to_go_on_with_that_names_earlier_data_is_said() -> None:
    text = "If it errors just go on with served = 0 and leftovers = all the trays from the bake step."
    assert unread_fields(text, {"served": 0}, ["served", "leftovers"]) == ["leftovers = all the trays from the bake step"]
    assert unread_fields(text, {"served": 0, "leftovers": []}, ["served", "leftovers"]) == []
    assert unread_fields("if x = 3 then stop", {"served": 0}, ["served"]) == []  # no output of the step


def test_a_booking_sheets_assumption_is_the_steps_fallback_in_the_plan() -> None:
    body = ("# Lettings\n\n## Workflow Steps\n\n### Step 1: Quote the cottage\n- Skill: `quote-cottage`\n\n"
            "The calendar is slow - 2 mins max, then just assume 95 a night and that its free.\n")
    spec = parse_spec_text(body, "flow.md", "markdown")
    schema = {"type": "object", "properties": {"price_per_night": {"type": "number"}, "free": {"type": "boolean"}}}
    draft = step_policy(spec.steps[0], spec, None, output_schema=schema)
    assert draft.policy.fallback.action is FallbackAction.DEFAULT
    assert draft.policy.fallback.value == {"price_per_night": 95, "free": True}
    assert draft.policy.attempt_timeout_s == 120.0


@pytest.mark.parametrize(("text", "outputs", "value"), [
    # a print estimate: a unit's short form, a number after "a", and the going on that ends the sentence
    ("if the estimator wobbles, assume 320 pp and a 22 mm spine and keep going.", ["pages", "spine_mm"],
     {"pages": 320, "spine_mm": 22}),
    # a parcel desk
    ("scale offline? assume 4 pcs and a 3 kg parcel, then carry on", ["pieces", "parcel_kg", "label"],
     {"pieces": 4, "parcel_kg": 3}),
])
def test_a_short_unit_and_a_number_after_a_name_their_outputs(text: str, outputs: list[str],
                                                               value: dict[str, object]) -> None:
    assert assumed_output(text, outputs) == value


def test_a_going_on_alone_is_no_value() -> None:
    assert assumed_output("assume keep going", ["pages"]) is None
    assert assumed_output("assume 320 pp and a thick spine and keep going", ["pages", "spine_mm"]) is None


def test_a_going_on_whose_sentence_says_what_to_assume_goes_on_with_it() -> None:
    body = ("# Print run\n\n## Workflow Steps\n\n### Step 1: Size the book\n- Skill: `estimate-extent`\n\n"
            "If it wobbles, don't hold everything up: assume 320 pp and a 22 mm spine and keep going.\n")
    spec = parse_spec_text(body, "flow.md", "markdown")
    schema = {"type": "object", "properties": {"pages": {"type": "integer"}, "spine_mm": {"type": "number"}}}
    draft = step_policy(spec.steps[0], spec, None, output_schema=schema)
    assert draft.policy.fallback.action is FallbackAction.DEFAULT
    assert draft.policy.fallback.value == {"pages": 320, "spine_mm": 22}


@pytest.mark.parametrize(("text", "outputs", "value"), [
    ("if the booking site dies, pretend there were 3 bookings and carry on", ["booked_count", "site"],
     {"booked_count": 3}),
    ("If the depot feed is down just pretend we had two deliveries and keep going.", ["delivered", "route"],
     {"delivered": 2}),
    ("when the till export is broken pretend that we have zero refunds, carry on", ["refunded", "till"],
     {"refunded": 0}),
])
def test_a_pretended_count_is_the_output_of_the_same_stem(text: str, outputs: list[str],
                                                          value: dict[str, object]) -> None:
    """"pretend we had zero closures" names `closed_days`: "closures" and "closed" share the stem "clos";
    a number may be said in words."""
    assert assumed_output(text, outputs) == value


@pytest.mark.parametrize(("text", "outputs"), [
    ("pretend we had zero cats and keep going", ["closed_days", "window_start"]),  # no output of that stem
    ("pretend it is fine and keep going", ["closed_days", "window_start"]),  # no number, no output named
    ("pretend we had two bookings and carry on", ["booked_count", "booking_ref"]),  # two outputs of the stem
])
def test_a_pretence_naming_no_one_output_is_not_read(text: str, outputs: list[str]) -> None:
    assert assumed_output(text, outputs) is None
