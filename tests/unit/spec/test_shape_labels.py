"""A step's fields under the author's own names (Op / Performer / Takes / Reads / Gives back /
Emits / Output data), read by what the name means; a paragraph of one field a line is read a
line at a time; a label whose value is a sentence is not taken for a field."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.shape_labels import own_label
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("grade-quiz", None), ("send-report", None), ("open-ticket", None),
                         ("load-roster", None)])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown", CATALOG)


def _shape(spec):  # type: ignore[no-untyped-def]
    return [(s.name, s.skill, [(f.name, f.source) for f in s.inputs], [f.name for f in s.outputs])
            for s in spec.steps]


def test_a_lesson_plans_headings_with_tool_takes_and_gives_back_lines_are_read_a_line_at_a_time() -> None:
    spec = _read(
        "# Quiz day\n\n## Grade the papers\nTool: grade-quiz\nTakes: papers, pass_mark\n"
        "Gives back: scores, passed_count\n\n## Tell the parents\nTool: send-report\n"
        "Takes: scores from \"Grade the papers\"\nEmits: sent\n"
    )
    assert _shape(spec) == [
        ("Grade the papers", "`grade-quiz`", [("papers", None), ("pass_mark", None)], ["scores", "passed_count"]),
        ("Tell the parents", "`send-report`", [("scores", "steps.step-1.output.scores")], ["sent"]),
    ]


def test_a_shift_handovers_op_reads_and_emits_bullets_name_the_skill_and_its_values() -> None:
    spec = _read(
        "# Shift handover\n\n### 1. Pull the roster\n- Op: `load-roster`\n- Reads: shift_date\n"
        "- Produces: staff, gaps\n\n### 2. Post it\n- Op: `send-report`\n- Reads: staff and gaps from step 1\n"
        "- Emits: message_id\n"
    )
    assert [s.skill for s in spec.steps] == ["`load-roster`", "`send-report`"]
    assert [f.name for f in spec.steps[1].outputs] == ["message_id"]
    assert not [w for w in spec.warnings if "not understood" in w.message]


def test_a_bpmn_exports_tasks_with_performer_and_data_fields_are_steps_named_without_the_kind() -> None:
    spec = _read(
        "# Ticket triage (BPMN export)\n\n**Task: Open ticket**\nPerformer: open-ticket\n"
        "Input data: incident_id\nOutput data: ticket_id\n\n**Task: Notify**\nPerformer: send-report\n"
        "Input data: ticket_id (from Open ticket)\nOutput data: sent\n"
    )
    assert [(s.name, s.skill) for s in spec.steps] == [("Open ticket", "`open-ticket`"), ("Notify", "`send-report`")]
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("ticket_id", "steps.step-1.output.ticket_id")]


def test_a_grant_proposals_label_with_a_sentence_for_a_value_is_not_a_field() -> None:
    spec = _read(
        "# Methods\n\n## Step 1: Grade\nUse `grade-quiz` on the cohort.\nAction: call the school office first.\n"
        "Result: the marks are shared with the board.\n"
    )
    [step] = spec.steps
    assert step.skill is None and step.outputs == ()  # the skill is the binder's, from the backticks
    assert "Action: call the school office first." in step.description


def test_what_an_own_label_names() -> None:
    assert own_label("op", "`load-roster`") == "skill"
    assert own_label("performed by", "open-ticket") == "skill"
    assert own_label("action", "call the vendor") is None
    assert own_label("input data", "a, b and `c`") == "input"
    assert own_label("output fields", "ticket_id") == "output"
    assert own_label("result", "the page is live") is None
    assert own_label("colour", "red") is None
