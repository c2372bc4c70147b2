"""Several inputs named on one fill-in line, and a label whose value is said to be fixed read as the literal of
the steps that name it (`spec.input_blocks25`); and what looks like them but is neither."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text


def _spec(text: str, path: str = "w.txt") -> tuple[list[str], dict[str, dict[str, object]], list[str]]:
    spec = parse_spec_text(text, path, "markdown")
    return ([i.name for i in spec.inputs or ()], {s.id: dict(s.input_values) for s in spec.steps},
            [f"{w.line}: {w.message}" for w in spec.warnings if w.code == "spec.reading"])


def test_a_ship_s_fill_in_form_names_three_inputs_on_one_dotted_line() -> None:
    text = ("MV CORRAN - DEPARTURE SHEET\n\n"
            "Crew on board ............ officers / ratings / cadets  (counts)\n"
            "Sailing date ............. sail_date\n\n"
            "1. `crew-manifest` lists the crew.\n2. `port-notice` tells the harbour.\n")
    inputs, _, said = _spec(text)
    assert inputs == ["officers", "ratings", "cadets", "sail_date"]
    assert any("officers, ratings, cadets, sail_date" in m for m in said)


def test_a_lab_protocol_header_names_two_inputs_with_commas_and_and() -> None:
    text = ("ELISA plate run\n\n"
            "Samples .......... plate_id, well_map and dilution\n\n"
            "1. `plate-reader` reads the plate.\n2. `curve-fit` fits the curve.\n")
    inputs, _, _ = _spec(text)
    assert inputs == ["plate_id", "well_map", "dilution"]


def test_a_prompt_book_s_fixed_label_is_the_literal_of_the_step_that_names_it() -> None:
    text = ("HAMLET - PROMPT BOOK\n\n"
            "PRESET:\n"
            "   tonight's date ........ show_date\n"
            "BAND CALL (fixed, don't ask for it): Ana, Ben, Cy\n\n"
            "1. `band-check` ticks off the band call against who arrived.\n"
            "2. `night-log` writes the log.\n")
    inputs, values, said = _spec(text)
    assert inputs == ["show_date"]
    assert values["step-1"] == {"band_call": ["Ana", "Ben", "Cy"]}
    assert values["step-2"] == {}
    assert any(m.startswith("5: 'BAND CALL' is read as a fixed value") and "step-1" in m for m in said)


def test_a_ticket_template_s_always_value_after_dots_is_a_literal() -> None:
    text = ("Incident ticket\n\n"
            "Reporter ............. reporter\n"
            "Queue ................ Platform Ops (always)\n\n"
            "1. `open-ticket` opens it in the queue.\n2. `page-owner` pages the owner.\n")
    inputs, values, _ = _spec(text)
    assert inputs == ["reporter"]
    assert values["step-1"] == {"queue": "Platform Ops"}


def test_a_dotted_table_of_contents_and_a_yes_no_line_are_no_inputs() -> None:
    text = ("Operations manual\n\n"
            "Introduction ........... 3\n"
            "Escalation ............. 12\n"
            "Weekend cover .......... yes / no\n"
            "Owner .................. owner\n\n"
            "1. `load-rows` loads them.\n2. `post-summary` posts it.\n")
    inputs, _, _ = _spec(text)
    assert inputs == ["owner"]


def test_a_label_with_a_value_not_said_fixed_is_no_literal_and_a_fixed_one_no_step_names_is_warned() -> None:
    text = ("Shift handover\n\n"
            "Operator ........... operator\n"
            "Site: Dockside\n"
            "Region (fixed): North\n\n"
            "1. `handover-note` writes the note for the site.\n2. `post-summary` posts it.\n")
    _, values, said = _spec(text)
    assert values["step-1"] == {}
    assert any("'Region' is said to be fixed" in m and "no step names it" in m for m in said)
