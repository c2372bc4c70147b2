"""Values said in words for the names skills read (`plan.given_words`, `plan.prose_inputs`): a thing the run
is given said with its unit left out ("how much flour we've got on hand" for `flour_on_hand_kg`), said as a
choice ("which weather buoy to read" for `station` (buoy id)), and an earlier step's value said with its
step ("the cargo's limit from step 2" for that step's `max_c`). Documents: a recipe card, a ship's log, a
lab protocol, a lesson plan, a podcast run sheet, an HR onboarding checklist, a greenhouse log; none a
blind set's text. A workflow input said in words is never given a step output the text does not name."""

from __future__ import annotations

import pytest
from plan_factory import SaidCatalog, plan_of_text

from orchestrator.plan.given_words import which_named

# -- a thing given, its unit not said ----------------------------------------------------------------------

UNITS = SaidCatalog({
    "weigh-up": "Inputs: `dough_on_hand_kg` (number), `oven_temp_c` (number).\n\nOutputs: `plan`.\n",
})

_UNIT_DOCS = [
    # a recipe card
    ("card.md", "Bread day. You feed it how much dough we've got on hand and the oven temp.\n\n"
                "1. Weigh up with `weigh-up`.\n"),
    # a ship's log (a need heading over a list)
    ("log.md", "YOU'LL NEED\n- the dough on hand\n- oven temp\n\n## Step 1: Weigh\n\nUse `weigh-up`.\n"),
    # an HR onboarding checklist (an AsciiDoc title)
    ("hr.adoc", ".What you hand it\n* dough on hand (kg)\n* the oven temp in C\n\n== 1. Weigh\n\n`weigh-up`.\n"),
    # a lesson plan (an opening need)
    ("lesson.md", "# Baking class\n\nIt needs the dough on hand and the oven temp.\n\n## Step 1: Weigh\n\n"
                  "Use `weigh-up`.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _UNIT_DOCS)
def test_a_thing_given_is_the_name_that_adds_a_unit_and_the_unit_is_said(name: str, doc: str) -> None:
    plan = plan_of_text(doc, UNITS, name)
    assert {"dough_on_hand_kg", "oven_temp_c"} <= {i.name for i in plan.inputs}
    [said] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert "its unit `kg` not said" in said.message


def test_a_name_of_a_unit_and_small_words_alone_is_never_matched_by_any_part() -> None:
    doc = "You feed it the oven temp.\n\n1. Weigh up with `weigh-up`.\n"
    plan = plan_of_text(doc, SaidCatalog({"weigh-up": "Inputs: `on_kg` (number), `oven_temp_c`.\n\nOutputs: `p`.\n"}))
    [said] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert "`on_kg`" not in said.message and "as `oven_temp_c`" in said.message


# -- "which X" ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("part", "about", "name"), [
    ("which weather buoy to read", {"station": "buoy id: B-1 or B-2", "when": "a date"}, "station"),  # ship's log
    ("which room we're in", {"room_id": "", "class_list": ""}, "room_id"),  # lesson plan
    ("which fridge the plates sit in", {"unit": "fridge code, e.g. F2", "plates": ""}, "unit"),  # lab protocol
    ("which mic to use", {"mic_name": "", "episode": ""}, "mic_name"),  # podcast run sheet
])
def test_which_thing_is_the_name_whose_words_or_description_are_that_thing_s_id(
        part: str, about: dict[str, str], name: str) -> None:
    found = which_named(part, about, set())
    assert found is not None and found[0] == name and "which" in found[1]


@pytest.mark.parametrize(("part", "about"), [
    ("which room we're in", {"room_id": "", "room_name": ""}),  # two names: a guess, no reading
    ("which buoy", {"station": "the reading it takes"}),  # nothing says buoy
    ("the buoy", {"buoy_id": ""}),  # no "which": other rules' to read
])
def test_which_thing_with_no_single_name_reads_nothing(part: str, about: dict[str, str]) -> None:
    assert which_named(part, about, set()) is None


def test_which_thing_through_the_plan_is_warned_with_how_it_was_read() -> None:
    catalog = SaidCatalog({"read-buoy": "Inputs: `station` (buoy id: BUOY-1 or BUOY-2).\n\nOutputs: `waves`.\n"})
    doc = ".What you hand it\n* which weather buoy to read -- normally BUOY-1\n\n== 1. Sea\n\n`read-buoy`.\n"
    plan = plan_of_text(doc, catalog, "ferry.adoc")
    assert plan.step("step-1").inputs["station"].source == "input"
    [said] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert "`station`" in said.message and "which buoy" in said.message and "## Inputs" in said.message


# -- "the X from step N" -------------------------------------------------------------------------------------

FROM = SaidCatalog({
    "look-up": "Inputs: `crop` (string).\n\nOutputs: `max_c` (warmest it takes), `max_kg` (heaviest), `name`.\n",
    "check-log": "Inputs: `crop` (string), `limit_c` (number), `name` (string).\n\nOutputs: `ok`.\n",
})

_FROM_DOCS = [
    # a greenhouse log
    ("greenhouse.md", "# Night check\n\n## Step 1: Look up\n\nUse `look-up` on the crop.\n\n## Step 2: Check\n\n"
                      "Use `check-log` on the crop and the name from step 1. It uses the crop's limit from step 1.\n"),
    # a recipe card
    ("card.md", "Inputs: `crop`\n\n1. Look it up with `look-up`.\n2. Check with `check-log`, after step 1, "
                "the heat limit out of step 1 and the name.\n"),
    # a lab protocol
    ("protocol.md", "# Incubator run\n\n## Step 1: Look up\n\n`look-up` with the crop.\n\n## Step 2: Check\n\n"
                    "`check-log` with the crop and step-1's name. Take the upper limit off step 1.\n"),
    # a podcast run sheet
    ("runsheet.md", "# Show prep\n\n- **Look up**: `look-up` on the crop.\n- **Check**: `check-log`, the name from "
                    "step 1, and the limit from step 1 too.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _FROM_DOCS)
def test_an_input_said_with_its_step_is_that_step_s_one_output_in_its_unit(name: str, doc: str) -> None:
    plan = plan_of_text(doc, FROM, name)
    check = plan.step("step-2")
    assert (check.inputs["limit_c"].source, check.inputs["limit_c"].step, check.inputs["limit_c"].pointer) == \
        ("step", "step-1", "/max_c")
    [said] = [w for w in plan.warnings if w.code in ("plan.input-from-step-words", "plan.output-alias")]  # r24: the alias reader
    assert "check the plan" in said.message and "max_c" in said.message


def test_two_outputs_in_the_unit_or_a_step_not_run_before_give_nothing() -> None:
    two = SaidCatalog({
        "look-up": "Inputs: `crop`.\n\nOutputs: `max_c`, `min_c`, `name`.\n",
        "check-log": "Inputs: `crop`, `limit_c` (number), `name`.\n\nOutputs: `ok`.\n",
    })
    doc = ("# Night check\n\n## Step 1: Look up\n\nUse `look-up` on the crop.\n\n## Step 2: Check\n\n"
           "Use `check-log` on the crop and the name from step 1. It uses the crop's limit from step 1.\n")
    plan = plan_of_text(doc, two, "greenhouse.md")
    assert "limit_c" not in plan.step("step-2").inputs or plan.step("step-2").inputs["limit_c"].step != "step-1"
    assert not [w for w in plan.warnings if w.code == "plan.input-from-step-words"]
    later = ("# Night check\n\n## Step 1: Check\n\nUse `check-log` on the crop, the limit from step 2.\n\n"
             "## Step 2: Look up\n\nUse `look-up` on the crop.\n")
    plan = plan_of_text(later, FROM, "greenhouse.md")
    assert not [w for w in plan.warnings if w.code == "plan.input-from-step-words"]


# -- a workflow input said in words is the input, never a step output the text does not name ------------------

SEASON = SaidCatalog({
    "tally": "Inputs: `sheets` (list).\n\nOutputs: `counts`, `unknown` (names not matched).\n",
    "post": "Inputs: `season` (label like 2025-winter), `counts`, `unknown_names` (list).\n\nOutputs: `posted`.\n",
})


@pytest.mark.parametrize(("name", "doc"), [
    ("issue.md", "# Post the count\n\nIt needs the **season label** and the **sheets**.\n\n### Tasks\n\n"
                 "- [ ] **Tally** with `tally`\n- [ ] **Post** with `post` - season label + the counts and the "
                 "unknown names\n"),
    ("club.adoc", ".What you hand it\n* the season label\n* the sheets\n\n== 1. Tally\n\n`tally` the sheets.\n\n"
                  "== 2. Post\n\n`post` the season label, the counts and the unknown names.\n"),
])
def test_a_season_said_in_words_is_the_workflow_input_not_an_output_named_nearby(name: str, doc: str) -> None:
    plan = plan_of_text(doc, SEASON, name)
    post = plan.step("step-2")
    assert post.inputs["season"].source == "input" and post.inputs["season"].name == "season"
    assert "step-1" not in {b.step for n, b in post.inputs.items() if n == "season"}


# -- a name said only inside a longer one is no reference of its own ----------------------------------------

LATE = SaidCatalog({
    "scan-loans": "Inputs: `loans` (list).\n\nOutputs: `late` (list of loans).\n",
    "work-fees": "Inputs: `accounts` (list).\n\nOutputs: `late_fees` (list).\n",
    "send-notes": "Outputs: `sent`.\n",
})


@pytest.mark.parametrize(("name", "doc"), [
    # a library's overdue run
    ("library.md", "# Overdue\n\n1. Scan with `scan-loans`.\n2. Work out fees with `work-fees`.\n"
                   "3. `send-notes` with the late fees.\n"),
    # an HR onboarding checklist (headings)
    ("hr.md", "# Payroll\n\n## Step 1: Scan\n\nUse `scan-loans`.\n\n## Step 2: Fees\n\nUse `work-fees`.\n\n"
              "## Step 3: Notes\n\nUse `send-notes` on the late fees list.\n"),
    # a podcast run sheet (a table of cues)
    ("show.md", "# Show\n\n| # | Cue | Skill | Notes |\n|---|---|---|---|\n| 1 | Scan | `scan-loans` | |\n"
                "| 2 | Fees | `work-fees` | |\n| 3 | Notes | `send-notes` | given the Late Fees |\n"),
    # a greenhouse log (an AsciiDoc file)
    ("log.adoc", "= Log\n\n== 1. Scan\n\n`scan-loans`.\n\n== 2. Fees\n\n`work-fees`.\n\n== 3. Notes\n\n"
                 "`send-notes` on the late fees.\n"),
])
def test_a_name_said_inside_a_longer_one_makes_no_dependency(name: str, doc: str) -> None:
    plan = plan_of_text(doc, LATE, name)
    assert "step-1" not in plan.step("step-3").depends_on
    assert "step-2" in plan.step("step-3").depends_on


def test_a_name_said_on_its_own_too_is_still_a_reference() -> None:
    doc = ("# Overdue\n\n1. Scan with `scan-loans`.\n2. Work out fees with `work-fees`.\n"
           "3. `send-notes` with the late list and the late fees.\n")
    plan = plan_of_text(doc, LATE, "library.md")
    assert {"step-1", "step-2"} <= set(plan.step("step-3").depends_on)

