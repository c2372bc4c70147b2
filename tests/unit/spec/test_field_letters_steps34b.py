"""A step's letter that opens a labelled field's value, in a document of lettered step headings, is that
step (`spec.steps34b`, through `spec.lettered`). Each in a kind of its own, with negatives."""

from __future__ import annotations

from orchestrator.spec.lettered import lettered_steps
from orchestrator.spec.steps34b import field_letters

NUMBER = {"A": 1, "B": 2, "C": 3}


def test_a_runbook_s_bold_waits_on_field_names_both_letters() -> None:
    assert field_letters("**Waits on:** A and B", NUMBER) == "**Waits on:** step 1 and step 2"


def test_a_recipe_card_s_table_row_names_its_letters() -> None:
    assert field_letters("| Kicks off after | A, B |", NUMBER) == "| Kicks off after | step 1, step 2 |"


def test_a_lab_protocol_s_plain_after_field_names_one_letter() -> None:
    assert field_letters("After: C", NUMBER) == "After: step 3"


def test_a_letter_that_is_a_word_or_a_grade_stays() -> None:
    assert field_letters("**Note:** A quick check first", NUMBER) == "**Note:** A quick check first"
    assert field_letters("| Grade | B |", NUMBER) == "| Grade | B |"  # a lone letter under a label of no wait
    assert field_letters("Waits on: A and Z", NUMBER) == "Waits on: A and Z"  # Z is no step's letter
    assert field_letters("Needs: A-frame ladder", NUMBER) == "Needs: A-frame ladder"


def test_a_lettered_ticket_reads_its_waits_on_line_through_the_heading_reader() -> None:
    text = ("# Weekly reconcile\n\n## A. Pull the ledger\n\n**Runs:** `pull-ledger`\n\n"
            "## B. Pull the bank\n\n**Runs:** `pull-bank`\n\n"
            "## C. Match them\n\n**Runs:** `match-rows`\n**Waits on:** A and B\n")
    out, warned = lettered_steps(text)
    assert "**Waits on:** step 1 and step 2" in out and warned
