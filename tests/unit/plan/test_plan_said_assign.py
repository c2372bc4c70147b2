"""A step's text that gives an input its skill reads an earlier step's output with `=` or an arrow
("hives = the ranking's ranked list", "hive ← top_hive") binds it to that output, over a workflow
input of the same name; words that name no output of the step's ancestors, or two, bind nothing."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.said_assign import said_sources
from orchestrator.spec import parse_spec_text

RANK = skill("rank-hives", input_schema=obj(("hives",), hives="array"),
             output_schema=obj(("ranked", "top_hive"), ranked="array", top_hive="string"))
VISIT = skill("visit-hives", input_schema=obj(("hives", "hive"), hives="array", hive="string"),
              output_schema=obj(("booked",), booked="boolean"))
CATALOG = FakeCatalog(RANK, VISIT)


def _plan(text: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "p.md", "markdown"), CATALOG, settings=SETTINGS)


def test_a_beekeeping_log_s_own_label_binds_the_list_over_the_workflow_input() -> None:
    text = ("# Apiary round\n\n## Inputs\n\n- hives: every hive\n\n## Steps\n\n"
            "### Step 1: Rank\n\n- Skill: `rank-hives`\n\n"
            "### Step 2: Visit\n\n- Skill: `visit-hives`\n"
            "- Fed by: hives = the ranking's ranked list, hive = top_hive\n")
    plan = _plan(text)
    visit = plan.step("step-2")
    assert (visit.inputs["hives"].step, visit.inputs["hives"].pointer) == ("step-1", "/ranked")
    assert (visit.inputs["hive"].step, visit.inputs["hive"].pointer) == ("step-1", "/top_hive")
    assert "explicit: the text says 'hives = the ranking's ranked list'" in visit.provenance["inputs.hives"].note


def test_a_recipe_card_arrow_and_an_hr_checklist_colon_equals_are_read_the_same() -> None:
    producers = {"ranked": ["step-1"], "top_hive": ["step-1"], "crate": ["step-2"]}.get
    assert said_sources(["Uses: hive ← the top_hive off the ranking"], ["hive"], lambda f: producers(f) or []) == {
        "hive": ("step-1", "top_hive", "hive = the top_hive off the ranking")}
    assert said_sources(["- Reads: badge := desk's crate"], ["badge"], lambda f: producers(f) or [])["badge"][:2] == (
        "step-2", "crate")


def test_words_that_name_two_outputs_or_none_bind_nothing() -> None:
    producers = {"ranked": ["step-1"], "top_hive": ["step-1"]}.get
    assert said_sources(["hive = ranked or top_hive"], ["hive"], lambda f: producers(f) or []) == {}
    assert said_sources(['hive = "H-7"', "window_day = TBC"], ["hive"], lambda f: producers(f) or []) == {}
    assert said_sources(["crew = ranked"], ["hive"], lambda f: producers(f) or []) == {}  # not a name it reads


def test_a_chat_message_s_assignment_leaves_an_input_line_s_source_alone() -> None:
    text = ("# Round\n\n## Inputs\n\n- hives: every hive\n\n## Steps\n\n"
            "1. Rank with `rank-hives`.\n2. Visit with `visit-hives`; hives = ranked, hive = top_hive.\n"
            "   - Input: hives (workflow input), hive (from Step 1)\n")
    plan = _plan(text)
    assert plan.step("step-2").inputs["hives"].source == "input"  # the Input line says so: it wins


# -- a name also output by an earlier step the reading step does not wait for --------------------

TRIM = skill("trim-list", input_schema=obj(("guests",), guests="array"),
             output_schema=obj(("kept", "dropped"), kept="array", dropped="array"))
LOCK = skill("lock-list", input_schema=obj(("guests",), guests="array"),
             output_schema=obj(("kept", "dropped"), kept="array", dropped="array"))
TELL = skill("tell-host", input_schema=obj(("dropped",), dropped="array"), output_schema=obj(("told",), told="boolean"))
PARTY = FakeCatalog(TRIM, LOCK, TELL)


def _party(text: str, name: str = "p.md", fmt: str = "markdown"):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, name, fmt), PARTY, settings=SETTINGS)


def test_a_school_trip_sheet_warns_when_an_off_path_step_outputs_the_name_too() -> None:
    text = ("# Trip list\n\n## Inputs\n\n- guests: the list\n\n## Steps\n\n"
            "1. Trim with `trim-list`.\n2. Lock with `lock-list`.\n   - Depends on: none\n"
            "3. Tell the office with `tell-host`.\n")
    plan = _party(text)
    assert plan.step("step-3").inputs["dropped"].step == "step-2"
    [warned] = [w for w in plan.warnings if "which it does not wait for" in w.message]
    assert warned.line == 12 and "also by step-1" in warned.message


def test_a_yaml_crew_roster_that_waits_for_both_gets_no_such_warning() -> None:
    text = ("name: roster\ninputs:\n  guests: {type: array}\nsteps:\n  - id: a\n    skill: trim-list\n"
            "  - id: b\n    skill: lock-list\n    depends_on: [a]\n  - id: c\n    skill: tell-host\n")
    plan = _party(text, "r.yaml", "yaml")
    assert plan.step("c").inputs["dropped"].step == "b"
    assert not [w for w in plan.warnings if "which it does not wait for" in w.message]


def test_a_kitchen_rota_card_with_step_headings_names_the_step_it_did_not_wait_for() -> None:
    text = ("# Kitchen rota\n\nInputs: `guests`\n\n## 1. Trim\n\nRun `trim-list` on the guests.\n\n"
            "## 2. Lock\n\nRun `lock-list` on the guests.\n\n- Depends on: none\n\n"
            "## 3. Tell\n\nRun `tell-host` with who got dropped.\n")
    plan = _party(text, "rota.md")
    assert plan.step("step-3").inputs["dropped"].step == "step-2"
    [off] = [w for w in plan.warnings if "which it does not wait for" in w.message]
    assert off.line == 15 and "also by step-1" in off.message
