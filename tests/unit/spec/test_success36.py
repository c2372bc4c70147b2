"""A success check said as what a step or party gives back (`spec.success36`). Documents: a locksmith's
job card, a lab protocol, a planning application checklist, a shop's spreadsheet of jobs, a build file's
HEALTHCHECK; negatives: a thing printed on a card, a thing given back that names no output, a gift."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.success36 import given_back, numbered_field, one_cell, rows_of
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.success_probe import success_checks as _checks

# a locksmith's job card: the party the last skill talks to sends back a job number (`job_ref`)
LOCKSMITH = ("# Lockout call\n\n## Steps\n\n### Step 1: Quote\n- Skill: `quote-job`\n- Output: `price`\n\n"
             "### Step 2: Book the van\n- Skill: `book-van`\n- Output: `job_ref`, `eta`\n\n")


def test_a_job_cards_party_sending_back_a_job_number_is_the_job_ref_present() -> None:
    spec = parse_spec_text(LOCKSMITH + "We're done when the dispatcher sends back a job number.\n", "j.md", "markdown")
    assert _checks(spec).get("step-2", {}).get("job_ref") is not None
    assert any("is read as the run's success check `job_ref is not empty`" in w.message for w in spec.warnings)


def test_a_lab_protocols_step_that_has_given_a_sample_number() -> None:
    text = ("# Intake\n\n## Steps\n\n### Step 1: Register\n- Skill: `lims-register`\n- Output: `sample_no`\n\n"
            "### Step 2: Label\n- Skill: `print-tube-label`\n- Output: `printed`\n\n"
            "## Done\n\nComplete when step 1 has given a sample number.\n")
    assert "sample_no" in _checks(parse_spec_text(text, "p.md", "markdown")).get("step-1", {})


def test_a_checklists_council_that_gave_back_a_reference() -> None:
    text = ("# Planning application\n\n## Steps\n\n### Step 1: Submit\n- Skill: `portal-submit`\n"
            "- Output: `application_id`\n\n## Sign-off\n\nFinished once the council gave back an application reference.\n")
    assert "application_id" in _checks(parse_spec_text(text, "a.md", "markdown")).get("step-1", {})


def test_a_spreadsheets_note_row_is_read_as_its_own_sentence() -> None:
    text = ("#,Task,Tool,Uses,After\n1,Take the order,take-order,items from the till,-\n"
            "2,Raise the invoice,raise-invoice,order from #1,1\n,,,,\nNOTES,,,,\n"
            '"Done when #2 gives back an invoice number.",,,,\n')
    outputs = {"take-order": frozenset({"order"}), "raise-invoice": frozenset({"invoice_no", "total"})}
    vocabulary = Vocabulary(skills=frozenset(outputs)).with_outputs(lambda s: outputs.get(s, frozenset()))
    spec = parse_spec_text(text, "jobs.csv", "markdown", vocabulary)
    assert any("is read as the run's success check" in w.message and w.line == 6 for w in spec.warnings), \
        [w.message for w in spec.warnings]


def test_a_build_files_healthcheck_parts_are_said_at_their_line() -> None:
    text = ("FROM runner:1\nRUN fetch-run\nRUN --no-retry send-report rows=@1.rows\n"
            'HEALTHCHECK CMD test "$(send-report.sent)" = "true" && test "$(fetch-run.missing)" = "0"\n')
    spec = parse_spec_text(text, "Skillfile", "dockerfile")
    said = [w.message for w in spec.warnings if w.line == 4 and "is read as the run's success check" in w.message]
    assert len(said) == 2


def test_a_number_printed_on_a_card_is_no_presence_check() -> None:
    spec = parse_spec_text(LOCKSMITH + "We're done when the job number is printed on the card.\n", "j.md", "markdown")
    assert "job_ref" not in _checks(spec).get("step-2", {})


def test_a_thing_given_back_that_names_no_output_stays_warned() -> None:
    spec = parse_spec_text(LOCKSMITH + "We're done when the customer sends back a thank-you card.\n", "j.md", "markdown")
    assert not _checks(spec)
    assert any("'the customer sends back a thank-you card' is not checked" in w.message for w in spec.warnings)


@pytest.mark.parametrize(("part", "said"), [
    ("Printwise send back an order number", ("Printwise", ["order", "number"])),
    ("line 4 has given an entry number", ("line 4", ["entry", "number"])),
    ('#4 gives back an entry number."', ("#4", ["entry", "number"])),
    ("the registry handed back a certificate no.", ("registry", ["certificate", "no"])),
    ("the order number is printed on the card", None),
    ("the team gives thanks", None),
])
def test_what_is_said_given_back(part: str, said: tuple[str, list[str]] | None) -> None:
    assert given_back(part) == said


def test_a_number_said_is_the_outputs_no_ref_or_id() -> None:
    assert numbered_field(["order", "number"], frozenset({"order_ref", "cost"})) == "order_ref"
    assert numbered_field(["order", "number"], frozenset({"order_no", "order_ref"})) == "order_no"
    assert numbered_field(["order", "date"], frozenset({"order_ref"})) is None
    assert numbered_field(["thank", "you", "card"], frozenset({"order_ref"})) is None


def test_a_sheets_note_cell() -> None:
    assert rows_of("a/b.CSV") == "," and rows_of("x.tsv") == "\t" and rows_of("x.md") == ""
    assert one_cell('"Done when #4 gives back an entry number.",,,,', ",") == "Done when #4 gives back an entry number."
    assert one_cell("NOTES,,,", ",") == "NOTES"
    assert one_cell("1,Pack,pack-box,,", ",") == "1,Pack,pack-box,,"
    assert one_cell("just prose", ",") == "just prose"
