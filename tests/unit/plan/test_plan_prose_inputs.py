"""The inputs a sentence says the run is given ("you'll need to give it the unit number, the class
list and your staff code") are read as workflow inputs, each matched to a name a skill reads, and
warned at the line; a part that matches no such name is said, never dropped without a word."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.wanted import read_instructions
from orchestrator.spec import parse_spec_text
from orchestrator.spec.prose_inputs import read_prose_inputs


def _said(text: str) -> list[tuple[str, int]]:
    return [(part, int(where)) for part, where in read_prose_inputs(text.splitlines(), str)]


# -- the sentence -------------------------------------------------------------------------------


def test_a_lesson_plan_s_intro_lists_what_the_teacher_hands_it() -> None:
    text = "# Week plan\n\nEvery Monday you'll need to give it the unit number, the class list\nand your staff code.\n"
    assert _said(text) == [("the unit number", 3), ("the class list", 3), ("your staff code", 3)]


def test_a_ship_s_log_says_what_the_skipper_feeds_it_with_a_plus_sentence_after() -> None:
    text = ("Log routine.\n\nWhat I give it each watch: the position fix, wind speed. Plus the barometer reading.\n"
            "Then it files the entry.\n")
    assert _said(text) == [("the position fix", 3), ("wind speed", 3), ("the barometer reading", 3)]


def test_a_recipe_card_and_a_podcast_run_sheet_say_it_their_own_way() -> None:
    assert _said("You feed it the dough weight + the oven temperature (in C).") == [
        ("the dough weight", 1), ("the oven temperature", 1)]
    assert _said("[00:03] so what you'll get from me every time is the episode number and the guest name.") == [
        ("the episode number", 1), ("the guest name", 1)]


def test_a_sentence_that_gives_nothing_to_the_run_lists_no_inputs() -> None:
    assert _said("Hand the tray to the porter, then give it a stir.") == []
    assert _said("```\nyou'll need to give it the token\n```\n") == []  # fenced code is no prose


# -- matched to the skills' inputs --------------------------------------------------------------

BUILD = skill("build-week", input_schema=obj(("unit_number", "class_list"), unit_number="integer",
                                             class_list="array"), output_schema=obj(("week",), week="object"))
SEND = skill("send-week", input_schema=obj(("week", "teacher"), week="object",
                                           teacher={"type": "string", "description": "staff code"}),
             output_schema=obj(("sent",), sent="boolean"))
CATALOG = FakeCatalog(BUILD, SEND)

_ONBOARDING = """\
# New-hire onboarding checklist

HR runs this for each new hire. You'll need to give it the start date, the hire's unit number,
the class list, your staff code and the badge photo.

1. Build the week with `build-week`.
2. Send it with `send-week` (the week from step 1).
"""


def _plan(text: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "w.md", "markdown"), CATALOG, settings=SETTINGS)


def test_each_part_is_matched_to_the_name_a_skill_reads_and_the_line_is_warned() -> None:
    plan = _plan(_ONBOARDING)
    assert [i.name for i in plan.inputs] == ["unit_number", "class_list", "teacher"]
    assert plan.step("step-2").inputs["teacher"].name == "teacher"
    [warned] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert warned.line == 3
    assert "'your staff code' as `teacher`" in warned.message
    assert "'the start date', 'the badge photo'" in warned.message  # said, not dropped
    assert "## Inputs" in warned.message


def test_an_inputs_section_is_what_the_spec_takes_and_the_sentence_is_not_read() -> None:
    text = _ONBOARDING.replace("1. Build", "## Inputs\n\n- unit_number: the unit\n- class_list: the list\n"
                                            "- teacher: staff code\n\n## Steps\n\n1. Build")
    plan = _plan(text)
    assert not [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]


# -- what a SKILL.md says it reads ---------------------------------------------------------------


def test_a_json_example_in_a_skill_s_instructions_ends_its_input_list() -> None:
    said = read_instructions('Reads `{"path": "/inputs/x", "limit": 5}` on stdin, waits `pause` seconds, '
                             "until `flag` shows.\n", "S.md")
    assert [(n.name, n.example) for n in said.inputs] == [("path", True), ("limit", True)]


def test_an_e_g_in_a_name_s_parenthesis_does_not_end_the_list() -> None:
    said = read_instructions("Inputs: `crew` (string, e.g. `port`), `tide`, `knots` (number).\n", "S.md")
    assert [n.name for n in said.inputs] == ["crew", "tide", "knots"]
    assert said.inputs[2].about == "number"


def test_a_step_s_sentence_that_hands_its_skill_a_value_lists_no_workflow_inputs() -> None:
    # a podcast run sheet: the sentence names the skill before "you give it", so it is a step's, not the run's
    assert _said("Then mix it down with mix-episode, you give it the raw takes and the intro sting.") == []
    assert _said("What you give it each week: the raw takes, and the intro sting.") == [
        ("the raw takes", 1), ("the intro sting", 1)]


# -- a part that says only the name's last word ("today's date" for `run_date`) --------------------


def test_a_part_that_says_only_the_last_word_of_one_name_is_that_name_and_the_warning_says_so() -> None:
    from orchestrator.plan.prose_inputs import prose_inputs

    cases = [  # a pharmacy request form, a grant form, a warehouse shift note, a field-survey plan
        ("today's date", {"run_date": ("", False), "shortage_list": ("", False)}, "run_date"),
        ("the deadline", {"submission_deadline": ("", False), "applicant": ("", False)}, "submission_deadline"),
        ("which bay", {"loading_bay": ("", False), "manifest": ("", False)}, "loading_bay"),
        ("your transects", {"survey_transect": ("", False), "observer": ("", False)}, "survey_transect"),
    ]
    for part, reads, name in cases:
        inputs, [warned] = prose_inputs([(part, "f.md:3")], reads, made=(), have=(), path="f.md")
        assert [i.name for i in inputs] == [name], part
        assert "only its last word" in warned.message


def test_the_last_word_alone_picks_nothing_when_two_names_end_in_it_or_a_step_makes_it() -> None:
    from orchestrator.plan.prose_inputs import prose_inputs

    two = {"start_date": ("", False), "end_date": ("", False)}
    inputs, [warned] = prose_inputs([("the date", "f.md:3")], two, made=(), have=(), path="f.md")
    assert inputs == [] and "not matched" in warned.message
    made = {"run_date": ("", False)}
    inputs, _ = prose_inputs([("today's date", "f.md:3")], made, made=("run_date",), have=(), path="f.md")
    assert inputs == []
