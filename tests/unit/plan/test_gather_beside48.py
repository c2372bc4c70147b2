"""A step after two steps that start together waits for the one it gathers from only, when its Input line
says the gather in words ("every till count from the loop, all together", `plan.steps34a`): the wait follows
the data (`_Planner.gathers_from` reads the Input line's words as the gather rule does). Texts: a shop's
cashing-up sheet, a field survey; near-miss: a step after the pair that names neither still waits for both."""

from __future__ import annotations

from plan_factory import SaidCatalog, plan_of_text, step_by_skill

_CATALOG = SaidCatalog({
    "count-till": "Inputs: `till`.\n\nOutputs: `till_id`, `takings`.",
    "fetch-float": "Inputs: `branch`.\n\nOutputs: `float_total`.",
    "bank-takings": "Inputs: `counts` (list).\n\nOutputs: `banked`.",
    "close-shop": "Inputs: `branch`.\n\nOutputs: `closed`.",
    "score-quadrat": "Inputs: `quadrat`.\n\nOutputs: `cover_pct`.",
    "log-weather": "Inputs: `site`.\n\nOutputs: `wind`.",
    "map-cover": "Inputs: `scores` (list).\n\nOutputs: `cover_map`.",
})

_CASHING_UP = """\
# Cashing up (back office)

Inputs: `tills` (list), `branch`

## Step 1: Count each till
- Skill: count-till
- For each: till in tills

## Step 2: Fetch the float (same time as step 1, it needs nothing from it)
- Skill: fetch-float
- Input: branch

## Step 3: Bank it
- Skill: bank-takings
- Input: every till count from the loop, all together
"""

_SURVEY = """\
# Meadow survey day

Inputs: `quadrats` (list), `site`

### Step 1: Score the quadrats
- Skill: score-quadrat
- For each: quadrat in quadrats

### Step 2: Weather (alongside step 1)
- Skill: log-weather
- Input: site

### Step 3: Map it
- Skill: map-cover
- Input: all the quadrat scores, collected
"""


def test_a_gather_after_a_pair_waits_for_the_loop_only() -> None:
    plan = plan_of_text(_CASHING_UP, _CATALOG)
    bank = step_by_skill(plan, "bank-takings")
    assert tuple(bank.depends_on) == ("step-1",)
    assert (bank.inputs["counts"].step, bank.inputs["counts"].gather) == ("step-1", True)


def test_a_collected_gather_after_a_pair_waits_for_the_loop_only() -> None:
    plan = plan_of_text(_SURVEY, _CATALOG)
    cover = step_by_skill(plan, "map-cover")
    assert tuple(cover.depends_on) == ("step-1",)
    assert (cover.inputs["scores"].step, cover.inputs["scores"].gather) == ("step-1", True)


def test_a_step_naming_neither_waits_for_both() -> None:
    text = _CASHING_UP.replace("- Skill: bank-takings\n- Input: every till count from the loop, all together",
                               "- Skill: close-shop\n- Input: branch")
    plan = plan_of_text(text, _CATALOG)
    assert set(step_by_skill(plan, "close-shop").depends_on) == {"step-1", "step-2"}
