"""A loop over "every X that comes back" from a step whose skill's instructions say one output is a
list only in words ("`rows` (same list, trimmed)", "(the sorted list ...)"): that field is the list
looped over, warned; two such lists are an error naming both (`plan.wanted`, `plan.loop_field`)."""

from __future__ import annotations

from typing import Any

from plan_factory import SETTINGS, SaidCatalog

from orchestrator.errors import Severity
from orchestrator.plan.build import draft_plan
from orchestrator.plan.checks import check_plan
from orchestrator.plan.wanted import read_instructions
from orchestrator.spec import parse_spec_text


def _plan(text: str, bodies: dict[str, str]) -> tuple[Any, list[str], list[Any]]:
    spec = parse_spec_text(text, "w.md", "markdown")
    plan, built = draft_plan(spec, SaidCatalog(bodies), settings=SETTINGS)
    found = [*built, *check_plan(plan, spec)]
    errors = [d.render() for d in found if d.severity is Severity.ERROR]
    return plan, errors, [*plan.warnings, *(d for d in found if d.severity is Severity.WARNING)]


def test_an_output_said_to_be_the_same_list_as_an_input_takes_that_input_s_schema() -> None:
    said = read_instructions("Inputs: `entries` (list of `{title, author}`), `issue`.\n\nOutputs: `entries` "
                             "(same list, titles trimmed), `issue`.", "/s/SKILL.md", 1)
    schemas = {n.name: n.schema_ for n in said.outputs}
    assert schemas["entries"] == {"type": "array", "items": {"type": "object",
                                                              "properties": {"title": {}, "author": {}}}}
    assert schemas["issue"] is None


def test_a_list_said_with_an_article_and_a_word_before_it_is_a_list() -> None:
    said = read_instructions("Returns `wells` (the sorted list, by plate position), `plate` (a label).",
                             "/s/SKILL.md", 1)
    assert {n.name: n.schema_ for n in said.outputs} == {"wells": {"type": "array"}, "plate": None}


def test_a_newsletter_checklist_loops_over_the_one_list_its_first_step_hands_back() -> None:
    text = ("# Friday issue\n\n1. Collect the submissions with `collect-submissions`.\n"
            "2. For every entry that comes back, run `check-entry` on it.\n")
    bodies = {"collect-submissions": "Takes `issue`.\n\nOutputs: `issue`, `entries` (the same list as received, "
                                     "deduplicated), `count`.",
              "check-entry": "Takes `entry`.\n\nReturns `ok`."}
    plan, errors, warnings = _plan(text, bodies)
    assert errors == []
    loop = plan.step("step-2").for_each
    assert loop is not None and loop.source.pointer == "/entries"
    assert [w.line for w in warnings if w.code == "for-each-field"] == [4]


def test_a_lab_sop_with_two_lists_coming_back_is_an_error_naming_both() -> None:
    text = ("# Plate read SOP\n\n1. Read the plate with `read-plate`.\n"
            "2. For each well that comes back, run `score-well`.\n")
    bodies = {"read-plate": "Takes `plate_id`.\n\nOutputs: `wells` (a sorted list), `blanks` (a list).",
              "score-well": "Takes `well`.\n\nReturns `score`."}
    _, errors, _ = _plan(text, bodies)
    said = [e for e in errors if "array fields" in e]
    assert len(said) == 1 and said[0].startswith("w.md:4"), errors
    assert "`wells`" in said[0] and "`blanks`" in said[0] and "For each: well in step-1.wells" in said[0]


def test_a_podcast_run_sheet_and_a_ship_s_log_loop_over_their_one_list_too() -> None:
    sheet = ("# Episode prep\n\n1. Pull the segments with `pull-segments`.\n"
             "2. For each segment we get back, `level-audio` it.\n")
    log = ("# Watch handover\n\n1. Read the watch log with `read-watch`.\n"
           "2. For every entry returned, run `file-entry`.\n")
    for text, first, second, field in (
            (sheet, "pull-segments", "level-audio", "segments"), (log, "read-watch", "file-entry", "entries")):
        bodies = {first: f"Takes `episode`.\n\nOutputs: `{field}` (full list, in running order), `total`.",
                  second: "Takes `item`.\n\nReturns `done`."}
        plan, errors, _ = _plan(text, bodies)
        assert errors == [], (text, errors)
        assert plan.step("step-2").for_each.source.pointer == f"/{field}"
