"""A person's approval in text that no reader took (`spec.approval_hold`): a bullet a step's reader
did not know, a paragraph after the steps, a callout, a note under a checklist item. The step it guards
waits for the yes, its condition, wait and silence read where they can be, warned; never dropped with
only a warning. Documents: a ferry's sailing checklist, a choir's concert schedule, an HR onboarding
page with a callout, a lab protocol, a recipe card."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.approval_hold import (
    condition_in_scope,
    first_cue,
    own_list_count,
    person_wait,
)
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


FERRY = """# Ferry crossing

- [ ] **Check weather.** Run `check-weather` on the `route`. Gives back `wind_kts`.
- [ ] **Sail.** `depart-vessel` with the `wind_kts`.
    - wind_kts over 30? the master OKs it first. Give them 10 min; no answer = stay in port.
"""

CHOIR = """# Concert night

## Steps

1. Pick pieces with `pick-pieces`. It gives `pieces`, `piece_count`.
2. Print programmes with `print-programmes`.

If piece_count is over 6 on the night, the director must sign off before anything gets printed. She has a day to answer - if she hasn't, nothing is printed.
"""

ONBOARDING = """# New starter

## Steps

1. Create the account with `create-account`.
2. Order a laptop with `order-laptop`.

<aside>
⚠️ When the laptop looks pricey, the office manager has to approve it first. She has 2 days.
</aside>
"""

LAB = """# Plate reader run

## Steps

1. Thaw the samples with `thaw-samples`.
2. Read the plate with `read-plate`.

Someone senior must agree before we start, every time.
"""


def test_a_checklist_notes_approval_is_the_items_with_its_condition_wait_and_silence() -> None:
    step = _parse(FERRY).steps[1]
    assert step.approval is not None and step.approval.when is not None and "30" in step.approval.when
    assert (step.approval.timeout_s, step.approval.on_timeout) == (600.0, "reject")


def test_a_paragraph_after_the_steps_guards_the_step_its_words_after_before_name() -> None:
    spec = _parse(CHOIR)
    assert spec.steps[0].approval is None
    approval = spec.steps[1].approval
    assert approval is not None and approval.when == "piece_count is over 6"
    assert (approval.timeout_s, approval.on_timeout) == (86400.0, "reject")
    [said] = [w for w in spec.warnings if w.line == 8]
    assert said.code == "spec.approval" and "step-2" in said.message and "before anything gets printed" in said.message


def test_a_callouts_approval_with_an_unread_condition_waits_on_every_run_and_says_so() -> None:
    spec = _parse(ONBOARDING)
    approval = spec.steps[1].approval
    assert approval is not None and approval.when is None and approval.timeout_s == 172800.0
    [said] = [w for w in spec.warnings if w.code == "spec.approval"]
    assert "on every run, as its condition is not read" in said.message and "(laptop)" in said.message
    assert not any("not read (not a step)" in w.message and "approve" in w.message for w in spec.warnings)


def test_an_approval_naming_no_step_guards_the_first_so_nothing_runs_before_the_yes() -> None:
    spec = _parse(LAB)
    approval = spec.steps[0].approval
    assert approval is not None and approval.when is None and approval.timeout_s is None
    assert any("the first step" in w.message for w in spec.warnings if w.code == "spec.approval")


@pytest.mark.parametrize("sentence", [
    "the duty chef OKs it first",
    "the head of year approves it first",
    "the skipper signs it off first",
    "the landlord agrees to it beforehand",
])
def test_a_person_who_oks_it_first_is_an_approval_cue(sentence: str) -> None:
    assert first_cue(sentence)


@pytest.mark.parametrize("sentence", ["the oven warms up first", "it runs the tests first", "OK then, first the flour"])
def test_other_firsts_are_no_approval(sentence: str) -> None:
    assert not first_cue(sentence)


def test_a_scope_after_a_count_is_this_run_and_a_question_in_front_is_the_condition() -> None:
    assert condition_in_scope("If we would be baking more than 4 trays in one go, the pastry chef must agree "
                              "first.") == "we would be baking more than 4 trays"
    assert condition_in_scope("more than 20 guests on the same day? the manager OKs it first") == \
        "more than 20 guests"
    assert condition_in_scope("the manager OKs it first") is None


def test_a_numbers_thousands_comma_is_no_clauses_end_and_the_person_is_left_out() -> None:
    assert condition_in_scope("if the invoice_total is over 12,500 Priya (finance) OKs it first, give her a day") == \
        "the invoice_total is over 12,500"
    assert condition_in_scope("when fee_usd exceeds $2,000.50, the partner approves it first") == \
        "fee_usd exceeds $2,000.50"
    # near miss: a comma after a whole number still ends the clause
    assert condition_in_scope("if the count is over 5, Sam OKs it first") == "the count is over 5"


def test_a_count_is_the_length_of_the_one_list_the_step_is_given_that_holds_them() -> None:
    assert own_list_count("we would be loading more than 3 pallets", ["late_pallets", "dock"]) == \
        "late_pallets | length > 3"
    assert own_list_count("more than 3 pallets", ["pallets", "late_pallets"]) is None  # two lists: not guessed
    assert own_list_count("total > 3", ["pallets"]) is None


def test_time_given_a_person_is_the_approvals_wait_and_unsaid_silence_is_a_no() -> None:
    assert person_wait("Give her 3 hours.") == (10800.0, "reject", False)
    assert person_wait("He has 2 days to answer, then it goes out anyway.") == (172800.0, "approve", True)
    assert person_wait("Check again after 10 minutes.") is None


# a recipe card read by the planner: the count of trays is the list the bake step is given
RECIPE = """# Bake day

## Steps

1. Weigh the dough with `weigh-dough`.
2. Bake with `bake-trays`. If we would be baking more than 4 trays in one go, the head baker must agree before the oven is loaded. Give him 30 minutes.
"""


def test_a_recipe_cards_count_of_trays_waits_only_when_the_step_is_given_more_than_4() -> None:
    catalog = FakeCatalog(
        skill("weigh-dough", output_schema=obj(("ready_trays",), ready_trays={"type": "array"})),
        skill("bake-trays", input_schema=obj(("ready_trays",), ready_trays={"type": "array"}),
              output_schema=obj((), baked="integer")))
    plan = build_plan(_parse(RECIPE), catalog, settings=SETTINGS)
    approval = plan.steps[1].policy.approval
    assert approval is not None and approval.when == "steps['step-1'].output.ready_trays | length > 4"
    assert (approval.timeout_s, approval.on_timeout) == (1800.0, "reject")
    assert any("ready_trays | length > 4" in w.message for w in plan.warnings)


def test_an_approval_condition_the_planner_cannot_place_is_asked_on_every_run_not_refused() -> None:
    catalog = FakeCatalog(skill("weigh-dough", output_schema=obj((), trays={"type": "array"}, spare={"type": "array"})),
                          skill("bake-trays", output_schema=obj((), baked="integer")))
    text = RECIPE.replace("more than 4 trays in one go", "more than 4 batches in one go")
    plan = build_plan(_parse(text), catalog, settings=SETTINGS)
    approval = plan.steps[1].policy.approval
    assert approval is not None and approval.when is None
    assert any(w.code == "spec.condition-not-read" and "every run" in w.message for w in plan.warnings)


def test_an_amount_said_of_the_thing_the_step_handles_is_the_one_amount_it_is_given() -> None:
    from orchestrator.spec.approval_hold import own_amount

    assert own_amount("anything above 5,000", ["supplier", "lines", "order_total"]) == "order_total > 5000"
    assert own_amount("parcels over 30", ["weight", "amount", "total"]) is None  # two amounts: not guessed
    assert own_amount("more than 3 pallets", ["total"]) is None  # a count, not an amount


# a garage's job card: the approval is read by the step's own reader, and the "not read" note of the
# paragraph it stands in does not move it to another step
GARAGE = """# Job card

## Steps

1. Quote the repair with `quote-repair`.
2. Order parts with `order-parts`.

Parts note: if the quote is over 800, the workshop manager has to approve it before `order-parts` runs.
"""


def test_an_approval_naming_the_skill_after_before_guards_that_step_only() -> None:
    spec = _parse(GARAGE)
    assert spec.steps[0].approval is None
    assert spec.steps[1].approval is not None
