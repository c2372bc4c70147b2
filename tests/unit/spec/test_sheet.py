"""A spreadsheet pasted as CSV, TSV or semicolon rows (a podcast run sheet, a lab protocol, an HR
onboarding checklist, a recipe card) is read as a steps table: its header words name the columns,
each row is a step at its own line, quoted cells keep their commas, the rows under the table are
prose, and a column or row that cannot be read is said (`spec.sheet`, `spec.table_columns`)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.sheet import find_sheet
from orchestrator.spec.table_columns import columns_of, needs_key
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "pull-guest-bio", "cut-intro", "mix-episode", "publish-feed",
    "thaw-samples", "spin-down", "read-plate",
    "create-accounts", "order-laptop", "book-induction",
    "weigh-flour", "proof-dough", "bake-loaf")])

_PODCAST = (
    "Step,Tool/skill,Needs,Retry,Notes\n"
    "Guest bio,pull-guest-bio,-,2,\n"
    'Intro,cut-intro,1,-,"keep it short, under a minute"\n'
    "Mix,mix-episode,\"1, 2\",\"3 times, 30s apart\",\n"
    "Publish,publish-feed,3,-,\n"
    ",,,,\n"
    '"Whole run: 2 hours max.",,,,\n'
)


def _spec(text: str, name: str) -> object:
    return parse_spec_text(text, name, "markdown", _VOCAB)


def test_a_podcast_run_sheet_in_csv_is_read_row_by_row_with_its_quoted_commas() -> None:
    spec = _spec(_PODCAST, "run-sheet.csv")
    steps = spec.steps  # type: ignore[attr-defined]
    assert [s.skill for s in steps] == ["pull-guest-bio", "cut-intro", "mix-episode", "publish-feed"]
    assert [s.where.rsplit(":", 1)[1] for s in steps] == ["2", "3", "4", "5"]
    assert steps[2].depends_on == ("step-1", "step-2")
    limits = [(r.where, r.statement.timeout_s) for r in spec.readings if r.statement.whole_run]  # type: ignore[attr-defined]
    assert limits == [("run-sheet.csv:7", 7200)]  # the notes row under the table


def test_a_lab_protocol_in_tsv_reads_its_after_and_only_if_columns() -> None:
    text = ("Our plate assay, version 4\n"
            "No.\tAction\tSkill\tAfter\tOnly if\n"
            "1\tThaw\tthaw-samples\tnone\t-\n"
            "2\tSpin\tspin-down\t1\tsample_count > 8\n"
            "3\tRead\tread-plate\t2\t-\n")
    steps = _spec(text, "protocol.tsv").steps  # type: ignore[attr-defined]
    assert [s.skill for s in steps] == ["thaw-samples", "spin-down", "read-plate"]
    assert steps[1].when is not None and "8" in steps[1].when
    assert steps[2].depends_on == ("step-2",)


def test_an_onboarding_checklist_in_semicolons_warns_at_the_header_how_its_columns_were_read() -> None:
    text = ("#;Task;Skill;Owner;Depends on\n"
            "1;Accounts;create-accounts;IT desk;-\n"
            "2;Laptop;order-laptop;IT desk;1\n"
            "3;Induction;book-induction;HR;1\n")
    spec = _spec(text, "onboarding.csv")
    assert [s.depends_on for s in spec.steps] == [(), ("step-1",), ("step-1",)]  # type: ignore[attr-defined]
    said = [w.message for w in spec.warnings if w.line == 1]  # type: ignore[attr-defined]
    assert any("'Owner' as policy text" in m for m in said)
    assert any("column 'Owner'" in m for m in said)


def test_a_recipe_card_row_with_an_unquoted_comma_is_an_error_at_its_row() -> None:
    text = ("Step,Skill,Notes\n"
            "Weigh,weigh-flour,500 g\n"
            "Proof,proof-dough,warm place, one hour\n"
            "Bake,bake-loaf,\n")
    with pytest.raises(SpecError) as caught:
        _spec(text, "loaf.csv")
    assert [d.line for d in caught.value.diagnostics] == [3]
    assert "double quotes" in caught.value.diagnostics[0].message


@pytest.mark.parametrize("text", [
    "We go to the shop, buy flour, skill and patience, then bake.\nThen, later, we eat.\n",
    "- Skill, input, output\n- more, words, here\n",
    "| Step | Skill | Notes |\n|---|---|---|\n| a | b | c |\n",
    "Step,Skill,Notes\n\nnothing under the header\n",
])
def test_prose_with_commas_a_list_or_a_markdown_table_is_no_sheet(text: str) -> None:
    assert find_sheet(text) is None


def test_the_notes_rows_under_a_sheet_become_prose_lines_and_keep_their_numbers() -> None:
    sheet = find_sheet(_PODCAST)
    assert sheet is not None
    lines = sheet.text.split("\n")
    assert lines[0] == "" and lines[1] == "" and lines[6] == "- Whole run: 2 hours max."


def test_column_words_uses_beside_a_tool_column_and_needs_cells_of_step_numbers() -> None:
    assert columns_of(("Task", "Tool", "Uses", "After")) == ["name", "skill", "needs", "depends"]
    assert columns_of(("Step", "Skill / tool", "Needs")) == ["name", "skill", "needs"]
    assert columns_of(("Step", "Uses")) == ["name", "skill"]  # alone, "Uses" names the skill
    assert needs_key("1, 2") == "depends" and needs_key("#3 and #4") == "depends"
    assert needs_key("rows from #1") == "input"


def test_a_sheet_shown_in_a_fenced_block_is_an_example_not_the_steps() -> None:
    text = "# Notes\n\n```csv\nStep,Skill,Notes\nWeigh,weigh-flour,\nBake,bake-loaf,\n```\n"
    assert find_sheet(text) is None


def test_a_lone_carriage_return_inside_a_row_is_a_space_not_a_crash() -> None:
    # a cell pasted from a spreadsheet on an old Mac: csv refused the row and the reader crashed
    text = _PODCAST.replace('"keep it short, under a minute"', '"keep it short,\runder a minute"')
    text = text.replace("Publish,publish-feed", "Publish\r,publish-feed")
    steps = _spec(text, "run-sheet.csv").steps  # type: ignore[attr-defined]
    assert [s.skill for s in steps] == ["pull-guest-bio", "cut-intro", "mix-episode", "publish-feed"]
