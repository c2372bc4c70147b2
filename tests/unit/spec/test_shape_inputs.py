"""The workflow's inputs listed in the author's own shape: a numpydoc or Google-style parameter
list, `NAME=value` lines with comments, a table with type / required / default columns, a
sentence that names the values in backticks. An optional input keeps its default and is not
required; a line that is no input is warned at its line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.shape_inputs import default_of
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("grade-quiz", None), ("send-report", None), ("book-room", None), ("open-ticket", None)])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown", CATALOG)


def _inputs(spec):  # type: ignore[no-untyped-def]
    return {i.name: (i.type, i.required, i.default, i.where) for i in spec.inputs or ()}


def test_a_numpydoc_parameters_list_gives_typed_inputs_and_an_optional_one_keeps_its_default() -> None:
    spec = _read(
        "# Room booking (module docstring)\n\nParameters\n----------\nroom_code : str\n"
        "    The room to hold, as printed on the door.\nseats : int, optional\n"
        "    How many chairs. Default 12.\n\nSteps\n-----\n1. Run `book-room` for the room.\n"
        "2. Then `send-report`.\n"
    )
    assert _inputs(spec) == {"room_code": ("string", True, None, "doc.md:5"),
                             "seats": ("integer", False, 12, "doc.md:7")}
    assert not [w for w in spec.warnings if "not read" in w.message and w.line in (5, 6, 7, 8)]


def test_a_lesson_plans_google_style_args_block_is_read_as_its_inputs() -> None:
    spec = _read(
        "# Friday quiz\n\n## Args\n\n    class_code (str): Which class sits the quiz.\n"
        "    pass_mark (int, optional): Lowest passing mark. Defaults to 55.\n"
        "        Schools in the north use 60.\n\n## Lesson\n\n1. Run `grade-quiz` on the papers.\n"
        "2. Then `send-report` to the parents.\n"
    )
    inputs = _inputs(spec)
    assert inputs["class_code"][:3] == ("string", True, None)
    assert inputs["pass_mark"][:3] == ("integer", False, 55)
    [pass_mark] = [i for i in spec.inputs or () if i.name == "pass_mark"]
    assert "north use 60" in pass_mark.description  # the indented line goes on the description


def test_an_hr_checklist_table_reads_its_type_required_and_default_columns() -> None:
    spec = _read(
        "# New starter\n\n## Parameters\n\n| Parameter | Type | Required | Default | Notes |\n"
        "|---|---|---|---|---|\n| employee_id | string | yes | | HR id |\n"
        "| laptop_tier | string | no | standard | standard or pro |\n"
        "| buddy_count | int | | 1 | |\n| start_date | date | yes | - | first day |\n\n"
        "## Steps\n\n1. Run `open-ticket` for IT.\n2. Then `send-report` to the manager.\n"
    )
    assert _inputs(spec) == {
        "employee_id": ("string", True, None, "doc.md:7"),
        "laptop_tier": ("string", False, "standard", "doc.md:8"),
        "buddy_count": ("integer", False, 1, "doc.md:9"),
        "start_date": ("string", True, None, "doc.md:10"),
    }
    [tier] = [i for i in spec.inputs or () if i.name == "laptop_tier"]
    assert tier.description == "standard or pro"  # the type, required and default cells are not its text


def test_a_procfiles_env_lines_with_comments_are_inputs_with_defaults() -> None:
    spec = _read(
        "# worker Procfile notes\n\n## Knobs\n\n```\nQUEUE_NAME=reports  # which queue to drain\n"
        "MAX_BATCH=50  # rows per batch\n```\n\n## Steps\n\n1. Run `open-ticket` for the batch.\n"
        "2. Then `send-report`.\n"
    )
    assert _inputs(spec) == {"QUEUE_NAME": (None, False, "reports", "doc.md:6"),
                             "MAX_BATCH": (None, False, 50, "doc.md:7")}


def test_a_grant_proposals_inputs_sentence_names_its_values_in_backticks() -> None:
    spec = _read(
        "# Methods\n\n## What goes in\n\nThe funder sends the `cohort` list and the `budget_eur` (optional, "
        "default 5000); `grade-quiz` is run on each.\n\n## Steps\n\n1. Run `grade-quiz` on the cohort.\n"
        "2. Then `send-report` to the funder.\n"
    )
    assert _inputs(spec) == {"cohort": (None, True, None, "doc.md:5"), "budget_eur": (None, False, 5000, "doc.md:5")}


def test_a_line_of_the_list_that_is_no_input_is_warned_at_its_line_and_the_others_are_read() -> None:
    spec = _read(
        "# Status page update\n\n## Inputs\n\nincident_id: the incident\nPlease keep this list short.\n"
        "severity (str, optional): sev1 to sev4; default sev3\n\n## Steps\n\n1. Run `open-ticket`.\n"
        "2. Then `send-report`.\n"
    )
    assert _inputs(spec) == {"incident_id": (None, True, None, "doc.md:5"),
                             "severity": ("string", False, "sev3", "doc.md:7")}
    [warning] = [w for w in spec.warnings if w.line == 6]
    assert "is not an input line" in warning.message and "`name (type, optional)" in warning.message


def test_a_default_is_read_from_the_words_around_it() -> None:
    assert default_of("How many chairs. Default 12.") == (True, 12)
    assert default_of("Defaults to `false`.") == (True, False)
    assert default_of("which term (default: autumn)") == (True, "autumn")
    assert default_of("the default is 0.5 for most runs") == (True, 0.5)
    assert default_of("no fallback value here") == (False, None)


def test_a_readmes_blockquote_input_line_with_what_each_name_holds_declares_them() -> None:
    spec = _read(
        "# Room sweep\n\n> Input: `room_code` = the door label (floor/wing, from `rooms --list`), `seats` = e.g. `12`.\n\n"
        "Run `book-room` for the room.\n\nThen `send-report`.\n"
    )
    assert [(i.name, i.required) for i in spec.inputs or ()] == [("room_code", True), ("seats", True)]
    [room] = [i for i in spec.inputs or () if i.name == "room_code"]
    assert room.description == "the door label (floor/wing, from `rooms --list`)"
    assert not [w for w in spec.warnings if w.line == 3]


def test_a_latex_comments_inputs_line_declares_them_with_a_list_type() -> None:
    spec = _read(
        "% quiz-grading.tex\n% inputs: papers = list of {pupil, answers}; pass_mark (default 55); room\n\n"
        "\\begin{algorithmic}\n\\State \\Call{grade-quiz}{papers}\n\\State \\Call{send-report}{}\n"
        "\\end{algorithmic}\n"
    )
    inputs = {i.name: (i.type, i.required, i.default) for i in spec.inputs or ()}
    assert inputs == {"papers": ("array", True, None), "pass_mark": (None, False, 55), "room": (None, True, None)}


def test_a_sql_procedure_headers_comment_inputs_line_declares_them() -> None:
    spec = _read(
        "-- usp_open_tickets\n-- inputs: queue = the queue name, max_age_days = default 7\n\n"
        "Run `open-ticket` for each stale one.\n\nThen `send-report` to the lead.\n"
    )
    inputs = {i.name: (i.required, i.default) for i in spec.inputs or ()}
    assert inputs == {"queue": (True, None), "max_age_days": (False, 7)}
