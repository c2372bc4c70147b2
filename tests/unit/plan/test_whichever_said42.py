"""Round 42's planner readings (holdout28 173): "plan (from 2 or 3)" a value of whichever of two steps ran
(`plan.said_step.said_either`, when the two cannot both run: `plan.mapping.negated`), and an input said in
the text's own words for a skill input whose name it shortens (`plan.input_names_kept.described_as`)."""

from __future__ import annotations

from orchestrator.plan.input_names_kept import described_as, keep_names
from orchestrator.plan.mapping import negated
from orchestrator.plan.said_step import said_either, said_step
from orchestrator.spec.model import InputSpec


def test_a_value_from_one_of_two_steps_is_said_either_way() -> None:
    assert said_either("crew_name, route (from 4 or 5) and eta -> the board", "route") == ("step-4", "step-5")
    assert said_either("sends the `quote` from step 2 or step 3 to the buyer", "quote") == ("step-2", "step-3")
    assert said_either("the price from stage 6/7", "price") == ("step-6", "step-7")


def test_near_misses_one_step_and_another_value_and_both_steps() -> None:
    assert said_either("the route (from 4) and eta", "route") is None
    assert said_either("eta, route (from 4 or 5)", "eta") is None  # the bracket is the route's
    assert said_either("the route from steps 4 and 5", "route") is None
    assert said_step("route (from step 4 or 5)", "route") is None  # no longer step 4 alone
    assert said_step("route (from step 4)", "route") == "step-4"


def test_two_conditions_said_the_other_way_cannot_both_hold() -> None:
    assert negated("worse", "unless worse") and negated("not (x > 3)", "x > 3")
    assert negated("late", "if not late")
    assert not negated("worse", "better") and not negated("worse", "not worse today")


def _said(name: str, words: str) -> InputSpec:
    return InputSpec(name=name, description=f"said in the text as '{words}'", where="n.txt:3")


def test_an_input_said_in_words_is_the_skill_input_its_name_shortens() -> None:
    assert described_as(_said("dep_mm", "the parcel depth"), "depth")
    assert described_as(_said("temp_c", "core temperature"), "temperature")
    said = [_said("dep_mm", "the parcel depth"), _said("post_code", "the postcode")]
    kept, marks = keep_names(said, [("step-1", "measures the depth and weight", {"depth", "weight"})],
                             lambda _s, _f: False)
    assert marks == {"depth": "dep_mm"} and "for skill input depth" in kept[0].description


def test_near_misses_another_name_unsaid_words_and_a_field_made_before() -> None:
    assert not described_as(_said("size_mm", "the parcel height"), "height")  # its name does not shorten it
    assert not described_as(_said("dep_mm", "the parcel height"), "depth")  # its words do not say it
    assert not described_as(_said("ht_mm", "the parcel height"), "height")  # two letters shorten nothing
    said = [_said("dep_mm", "the parcel depth")]
    assert keep_names(said, [("step-1", "weighs it", {"depth"})], lambda _s, _f: False)[1] == {}
    assert keep_names(said, [("step-2", "the depth", {"depth"})], lambda _s, _f: True)[1] == {}


def test_the_pairs_said_the_other_way_are_found_in_one_pass() -> None:
    from orchestrator.plan.mapping import negated_pairs

    said = [("a", "worse"), ("b", "unless worse"), ("c", "not (x > 3)"), ("d", "x > 3"), ("e", "late"), ("f", "better")]
    assert negated_pairs(said) == {frozenset(("a", "b")), frozenset(("c", "d"))}
    assert negated_pairs([(f"s{i}", "false") for i in range(5000)]) == set()  # no pair, and no pairwise pass
