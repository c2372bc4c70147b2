"""Workflow inputs written as a file's or a paper form's own blocks before the first step (`spec.input_blocks24`):
`?=` variables, Dockerfile `ARG` lines, shell `${X:=default}` lines, env-file blanks, dotted and underscored
fill-in lines, capitalised labels; and what looks like them but is no input."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.input_blocks24 import read_input_blocks
from orchestrator.spec.source import Source

STEPS = "\n1. `load-rows` loads them.\n2. `post-summary` posts it.\n"


def _inputs(text: str, path: str = "w.md") -> tuple[list[tuple[str, bool, object]], list[str]]:
    spec = parse_spec_text(text, path, "markdown")
    return ([(i.name, i.required, i.default) for i in spec.inputs or ()],
            [w.message for w in spec.warnings if w.code == "spec.reading"])


def _direct(text: str, first_step: int) -> tuple[list[tuple[str, bool, object]] | None, list[str]]:
    src = Source(text, "f.txt")
    found = read_input_blocks(src, [f"f.txt:{first_step}"])
    return (None if found is None else [(i.name, i.required, i.default) for i in found],
            [w.message for w in src.warnings])


def test_a_dockerfile_s_arg_lines_in_a_build_runbook_are_the_inputs() -> None:
    text = ("# Nightly image build\n\n"
            "```dockerfile\n"
            "FROM python:3.12-slim\n"
            "ARG RELEASE_TAG\n"
            "ARG BASE_REGISTRY=registry.local:5000   # where the base comes from\n"
            "ENV MODE=prod\n"
            "```\n" + STEPS)
    inputs, said = _inputs(text)
    assert inputs == [("RELEASE_TAG", True, None), ("BASE_REGISTRY", False, "registry.local:5000")]
    assert any("ARG lines" in m and "RELEASE_TAG, BASE_REGISTRY" in m for m in said)


def test_a_vet_clinic_paper_form_s_blanks_are_the_inputs_named_by_their_labels() -> None:
    text = ("PAWS & CLAWS CLINIC - ADMISSION SHEET\n\n"
            "Owner name: ______________\n"
            "Pet's weight (kg) ________\n"
            "Date of admission: __________ (YYYY-MM-DD)\n" + STEPS)
    inputs, said = _inputs(text, "form.txt")
    assert [n for n, _, _ in inputs] == ["owner_name", "pet_s_weight", "date_of_admission"]
    assert all(required for _, required, _ in inputs)
    assert any("blanks to fill in" in m for m in said)


def test_a_shell_script_header_s_overridable_defaults_are_the_inputs() -> None:
    text = ("Backup rotation - paste of the wrapper's header, the steps below are what it does\n\n"
            ': "${BACKUP_DAY:=2024-01-01}"\n'
            'RETAIN="${RETAIN:-14}"   # days to keep\n'
            ': "${BUCKET:?set the bucket}"\n'
            "LOG_DIR=/var/log/backup\n" + STEPS)
    inputs, _ = _inputs(text, "runbook.txt")
    assert inputs == [("BACKUP_DAY", False, "2024-01-01"), ("RETAIN", False, "14"), ("BUCKET", True, None)]


def test_an_env_file_s_empty_lines_are_inputs_and_its_set_lines_are_fixed() -> None:
    text = ("Support ticket #4411 - rerun the export\n\n"
            "TICKET_ID=\n"
            "CUSTOMER_REGION=\n"
            "EXPORT_FORMAT=csv\n"
            "RETRIES=2   # per-run override\n" + STEPS)
    inputs, _ = _inputs(text, "ticket.txt")
    assert inputs == [("TICKET_ID", True, None), ("CUSTOMER_REGION", True, None), ("RETRIES", False, "2")]


def test_a_lab_submission_form_s_capitalised_labels_name_the_inputs() -> None:
    text = ("NORTHGATE LAB - SAMPLE SUBMISSION\n"
            "Lab code: NG-7     Analyst: R. Osei\n\n"
            "SAMPLE DATE:      sample_date\n"
            "SAMPLE IDS:       samples        (list - one tube id per line)\n"
            "ASSAY:            assay          (as printed on the kit)\n"
            "INCUBATION: 37 C for everything\n\n"
            "HOW THE RUN GOES:\n" + STEPS)
    spec = parse_spec_text(text, "lab.txt", "markdown")
    assert [(i.name, i.type) for i in spec.inputs or ()] == [("sample_date", None), ("samples", "array"),
                                                             ("assay", None)]
    assert "the form's 'SAMPLE IDS'" in (spec.inputs or ())[1].description


def test_a_ship_s_form_dotted_lines_name_their_inputs_and_an_example_is_no_default() -> None:
    text = ("HARBOUR TUG JOB CARD\n"
            "Vessel ........ vessel_name   (e.g. MV KESTREL)\n"
            "Berth .........\n"
            "ETA ........... eta\n" + STEPS)
    inputs, _ = _inputs(text, "card.txt")
    assert inputs == [("vessel_name", True, None), ("berth", True, None), ("eta", True, None)]


def test_make_variables_set_with_a_query_are_inputs_and_a_literal_said_so_is_not() -> None:
    text = ("# reprice nightly\n"
            "RUN_DAY ?= $(shell date +%F)   # run input\n"
            "SHOP    ?= leeds\n"
            "MARGIN  ?= 0.2                 # fixed, not a knob\n"
            "PY      := python3\n"
            "report: data\n")
    found, warned = _direct(text, 6)
    assert found == [("RUN_DAY", True, None), ("SHOP", False, "leeds")]
    assert any("'MARGIN ?= 0.2' is read as a fixed value" in m for m in warned)
    assert any("RUN_DAY's default '$(shell date +%F)' is computed" in m for m in warned)


def test_a_make_variable_set_with_colon_equals_is_no_input_unless_its_comment_says_so() -> None:
    found, _ = _direct("FLOOR := 0.12   # finance's floor\nPY := python3\nSTORE := york  # workflow input\n", 4)
    assert found == [("STORE", False, "york")]


def test_a_table_of_contents_row_of_dots_is_no_input() -> None:
    text = ("Contents\n"
            "Introduction ........ 3\n"
            "Safety ............. 7\n"
            "Appendix B .......... iv\n")
    assert _direct(text, 6) == (None, [])


def test_a_heading_in_capitals_and_a_label_with_a_value_are_no_inputs() -> None:
    text = ("HOW THE JOB SHEET GETS MADE:\n"
            "TANK: 3000 L\n"
            "WATER VOLUME: 100 L/ha for everything\n"
            "Approved: Master\n"
            "Dep port ........ ABERDEEN\n"
            "STATUS: Draft\n")
    assert _direct(text, 8) == (None, [])


def test_lines_after_the_first_step_and_a_declared_inputs_section_are_not_read() -> None:
    after = "1. `load-rows` loads them.\nDATE OF RUN: run_date\n2. `post-summary` posts it.\n"
    assert _direct(after, 1) == (None, [])
    declared = "# Run\n\nSTORE: store_code\nREGION: region_code\n\n## Inputs\n- shop: the shop\n\n## Steps\n" + STEPS
    inputs, _ = _inputs(declared)
    assert [n for n, _, _ in inputs] == ["shop"]


def test_an_ellipsis_in_a_column_of_values_is_no_blank_to_fill_in() -> None:
    # a podcast run sheet's header: "TITLE   ..." stands for a value still to come, beside rows that hold one
    text = ("FILL IN BEFORE GO\n"
            "  EP#          212\n"
            "  TITLE        ...\n"
            "  GUEST        ...\n"
            "  DROP DATE    yyyy-mm-dd\n")
    assert _direct(text, 7) == (None, [])


def test_a_lone_capitalised_label_with_a_plain_word_is_a_value_not_an_input() -> None:
    # a change ticket's header: "STATUS: draft", "PRIORITY: high" say values; "RUN DATE: run_date" names one
    assert _direct("STATUS: draft\nPRIORITY: high\nOWNER: sam\n", 5) == (None, [])
    assert _direct("OWNER: priyanka\n", 3) == (None, [])
    found, _ = _direct("STATUS: draft\nRUN DATE: run_date\n", 4)
    assert found == [("run_date", True, None)]


def test_a_colon_inside_a_label_s_brackets_keeps_it_one_label_but_two_labelled_fields_on_a_line_are_not_one() -> None:
    one = ("BAKE SHEET\n\n"
           "  LOAF ................ (loaf_name)\n"
           "  OUT OF TIN (hh:mm) .... (out_at)\n" + STEPS)
    assert [n for n, _, _ in _inputs(one)[0]] == ["loaf_name", "out_at"]
    two = ("DELIVERY NOTE\n\n"
           "  DAY: ........ (drop_day)      DEPOT: .............. (depot)\n" + STEPS)
    # not one field labelled "DAY: ... DEPOT" whose name is drop_day: the line is left to the readers of several
    # fields (the skills' own names give the inputs then)
    assert [n for n, _, _ in _inputs(two)[0]] != ["drop_day"]
