"""What the person starting a run gives it, said as a title over a list or in an opening "It needs ..."
sentence (`spec.given_list`). Documents: an AsciiDoc runbook, a Word outline saved as text, a lesson plan,
a podcast run sheet, a ship's log, a recipe card, a lab protocol, an HR onboarding checklist, a GitHub
issue; none a blind set's text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from orchestrator.spec.given_list import read_given_list

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))
from plan_factory import SaidCatalog, plan_of_text  # the plan tests' factory


def _said(text: str) -> list[tuple[str, int]]:
    return [(part, int(line)) for part, line in read_given_list(text.splitlines(), str)]


# -- a title over a list -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "parts"), [
    # an AsciiDoc runbook: a block title over its bullets
    ("= Pump check\n\n.What you give it\n* the pump tag (e.g. P-101)\n* the shift log -- from the SCADA box\n\n"
     "== 1. Read\n", [("the pump tag", 4), ("the shift log", 5)]),
    # a Word outline saved as text: numbered section, its items numbered under it
    ("3\tDATA NEEDED BEFORE YOU BEGIN\n3.1\tThe batch number (from the tank label).\n3.2\tThe assay sheet.\n"
     "4\tMETHOD\n4.1\tRun assay-check on it.\n", [("The batch number", 2), ("The assay sheet", 3)]),
    # a lesson plan: a bold line, bullets after a blank line
    ("# Fractions, week 3\n\n**Have these ready before you start:**\n\n- the class list\n- which room we're in\n\n"
     "1. Make the worksheet.\n", [("the class list", 5), ("which room we're in", 6)]),
    # a podcast run sheet: a heading, numbered items, two things in one item
    ("## What the producer hands it\n1. the episode number and the guest name\n2. the raw audio: a wav file\n",
     [("the episode number", 2), ("the guest name", 2), ("the raw audio", 3)]),
    # a ship's log: a line ending in a colon, lettered items
    ("Watch routine\nThings needed at the start:\na) today's position fix\nb) the barometer reading; in hPa\n",
     [("today's position fix", 3), ("the barometer reading", 4)]),
    # an HR checklist: an AsciiDoc labelled list under the title
    (".Information required\nstart date:: the first day\nlaptop model:: from the order\n",
     [("start date", 2), ("laptop model", 3)]),
])
def test_a_title_that_says_what_the_run_is_given_lists_its_items(text: str, parts: list[tuple[str, int]]) -> None:
    assert _said(text) == parts


@pytest.mark.parametrize("text", [
    ".What you get back\n* the report\n* the ticket\n",  # a title that says what comes out
    "## Inputs you might want later\n- the archive\n",  # words that say more than a need
    "3\tINFORMATION REQUIRED BEFORE STARTING\n4\tPROCEDURE\n4.1\tRun it.\n",  # no item under the title's number
    "**Have these ready before you start:**\n\nWe bake at dawn.\n",  # no list under it
])
def test_other_titles_and_titles_without_a_list_read_nothing(text: str) -> None:
    assert _said(text) == []


# -- an opening "It needs ..." sentence -----------------------------------------------------------------

@pytest.mark.parametrize(("text", "parts"), [
    # a GitHub issue: bold things, an example in parentheses
    ("# Sync tags #88\n\nI always forget one. It needs the **release tag** (e.g. `v2.1`) and the **repo list**.\n\n"
     "### Tasks\n- [ ] run `tag-repos`\n", [("the release tag", 3), ("the repo list", 3)]),
    # a recipe card
    ("Sourdough, big batch\nThis needs the starter weight, the flour type and your oven number.\n",
     [("the starter weight", 2), ("the flour type", 2), ("your oven number", 2)]),
    # a lab protocol
    ("PCR plate run. The run needs the plate id and the primer list. Then go.\n",
     [("the plate id", 1), ("the primer list", 1)]),
])
def test_an_opening_sentence_that_says_it_needs_things_lists_them(text: str, parts: list[tuple[str, int]]) -> None:
    assert _said(text) == parts


@pytest.mark.parametrize("text", [
    "It needs to finish before the 9am stand-up.",  # a need that is no thing
    "Then `merge-counts` runs. It needs the coded routes from `code-species`.",  # a step's sentence
    "# Week\n\n## 2. Merge\n\nIt needs the coded routes.\n",  # under a step's heading: the step's
    "- Load the sheet.\n\nIt needs the tide table.\n",  # after the list of steps began
])
def test_a_need_that_is_a_step_s_or_no_thing_reads_nothing(text: str) -> None:
    assert _said(text) == []


# -- through the plan: each thing is the input of the skill that reads it ----------------------------------

CATALOG = SaidCatalog({
    "read-pump": "Inputs: `pump_tag` (string), `shift_log` (text).\n\nOutputs: `reading`.\n",
    "file-check": "Inputs: `reading` (object), `week` (ISO week, e.g. 2025-W09), `samples` (list of rows).\n\n"
                  "Outputs: `filed`.\n",
})

_DOCS = [
    ("pump.adoc", ".What you hand it\n* the pump tag (e.g. P-101)\n* the shift log\n* the reporting week\n"
                  "* this week's samples\n\n== 1. Read\n\n`read-pump` on the tag.\n\n== 2. File\n\n`file-check`.\n"),
    ("sop.txt", "2\tINFORMATION REQUIRED BEFORE STARTING\n2.1\tThe pump tag.\n2.2\tThe shift log.\n"
                "2.3\tThe reporting week (ISO).\n2.4\tThe week's sample rows.\n\n"
                "## Step 1: Read\n\nUse `read-pump`.\n\n## Step 2: File\n\nUse `file-check`.\n"),
    ("podcast.md", "# Episode QA\n\nIt needs the **pump tag**, the **shift log**, the **reporting week** and the "
                   "**samples**.\n\n## Step 1: Read\n\nUse `read-pump`.\n\n## Step 2: File\n\nUse `file-check`.\n"),
    ("onboarding.md", "# Day one\n\n**What you give it:**\n\n- the pump tag\n- the shift log\n- the week\n"
                      "- the samples\n\n## Step 1: Read\n\nUse `read-pump`.\n\n## Step 2: File\n\nUse `file-check`.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_the_things_given_are_the_run_s_inputs_in_each_document_kind(name: str, doc: str) -> None:
    plan = plan_of_text(doc, CATALOG, name)
    assert {i.name for i in plan.inputs} >= {"pump_tag", "shift_log", "week", "samples"}
    filed = plan.step("step-2")
    assert filed.inputs["week"].source == "input" and filed.inputs["samples"].source == "input"
    said = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert said and "`week`" in said[0].message  # how each was read is said at the line


# -- a form's block of fields to fill in (a theatre show report, a boiler service sheet, a lab SOP section,
# a ferry loading sheet) --------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "parts"), [
    # a theatre show report: a capitals title, each field a label then two spaces or more
    ("SHOW REPORT - THE TEMPEST\n\nFILL IN BEFORE CURTAIN\n  SHOW NO      41\n  HOUSE COUNT  from box office\n"
     "  DSM          initials\n\nA  run-cues  ...\n", [("SHOW NO", 4), ("HOUSE COUNT", 5), ("DSM", 6)]),
    # a boiler service sheet: dot leaders after each label, the title ending in a colon
    ("GAS SAFE SERVICE SHEET\n DETAILS TO BE ENTERED BY ENGINEER ON ARRIVAL:\n   APPLIANCE ....... make and model\n"
     "   FLUE READING .... (CO/CO2 ratio)\n\n 1. check-flue on the reading\n",
     [("APPLIANCE", 3), ("FLUE READING", 4)]),
    # a lab SOP: a numbered section saying what the technician supplies, its items numbered under it
    ("5. WHAT THE TECHNICIAN SUPPLIES\n   5.1 Plate barcode (e.g. PL-0042).\n   5.2 Operator initials.\n\n"
     "6. PROCEDURE\n", [("Plate barcode", 2), ("Operator initials", 3)]),
    # a ferry loading sheet: "fill this in at the ramp"
    ("LOADING SHEET\nFill this in at the ramp:\n  SAILING     0715\n  LANE PLAN   from the booking system\n\n"
     "- then plan-deck\n", [("SAILING", 3), ("LANE PLAN", 4)]),
])
def test_a_form_s_fields_to_fill_in_are_what_the_run_is_given(text: str, parts: list[tuple[str, int]]) -> None:
    assert _said(text) == parts


@pytest.mark.parametrize("text", [
    # "fill in the gaps" is a task, not a block of fields; a list of labelled values under no such title
    "WORKSHEET\nFill in the gaps below\n  NAME      ...\n",
    "CREW LIST\n  SKIPPER     Ana\n  MATE        Joe\n",
    # a "what the X supplies" line that says more is something else
    "What the supplier supplies changes every season, so check the catalogue.\n  ITEM     price\n",
])
def test_a_labelled_block_under_no_fill_in_title_is_not_what_the_run_is_given(text: str) -> None:
    assert _said(text) == []
