"""A section no reader takes is said not to be read only when none of it was: a line of it
read (the whole run's limit) is named in the warning, with what it was read as."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("load-roster", None), ("post-handover", None)])
STEPS = "## Steps\n\n1. Run `load-roster` for the shift.\n2. Then `post-handover` to the channel.\n\n"


def _section_warning(text: str, line: int) -> str:
    spec = parse_spec_text(text, "doc.md", "markdown", CATALOG)
    [warning] = [w for w in spec.warnings if w.line == line and "section" in w.message]
    return warning.message


def test_a_sql_procedure_headers_caveats_with_a_run_limit_name_the_line_that_was_read() -> None:
    message = _section_warning(
        "# usp_close_ledger\n\n" + STEPS + "## Caveats\n\nOwner is the data team.\n\n"
        "The whole job has to finish within 45 minutes.\n", 8)
    assert message == ("section 'Caveats' is not a spec section; its content is not read but for line 12, "
                       "read as the whole run's limit")


def test_a_bpmn_exports_annotations_name_the_limit_line_among_others() -> None:
    message = _section_warning(
        "# Shift change (BPMN text export)\n\n" + STEPS + "## Annotations\n\nLane: ops. Pool: night desk.\n"
        "Total time: no more than 2 hours.\n", 8)
    assert message.endswith("but for line 11, read as the whole run's limit")


def test_a_shift_handover_note_with_nothing_read_is_said_not_read() -> None:
    message = _section_warning(
        "# Handover\n\n" + STEPS + "## Handover remarks\n\nPrinter on floor 2 is jammed again.\n", 8)
    assert message == "section 'Handover remarks' is not a spec section; its content is not read"


def test_a_lesson_plans_teacher_notes_limit_in_a_later_paragraph_is_named() -> None:
    message = _section_warning(
        "# Year 9 quiz\n\n" + STEPS + "## Teacher notes\n\nBring spare pencils.\n\nKeep it to a tidy "
        "hour: the whole lesson must be done within 60 minutes.\n", 8)
    assert "but for line 12" in message and "not read but for" in message
