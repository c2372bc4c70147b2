"""Sheets with grids and notes under them (`spec.sheet_flow32`, with `spec.together_note31` and
`spec.grammar_families16`): a kitchen prep sheet whose "[1] & [2] -- BOTH AT ONCE" starts two bracketed
items together (and is no wait between tries), a staff rota and a lab worksheet whose notes say "Row 2:"
/ "Line 3b:" for the grid row they are about; and lines that look alike but are no start or no key."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.sheet_flow32 import noun_keyed
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("stock-pot", "veg-prep", "soup-finish", "shift-pull", "cover-check", "rota-post", "sample-log",
          "spin-plate", "read-plate", "flag-result", "file-report")


def _spec(text: str) -> Any:
    return parse_spec_text(text, "sheet.txt", "markdown", Vocabulary.of([(s, None) for s in SKILLS]))


def _by_skill(spec: Any) -> dict[str, Any]:
    return {next((m.text for m in s.mentions if m.text in SKILLS), s.skill or s.name): s for s in spec.steps}


def _placed(step: Any) -> list[str]:
    return [r.text for r in step.readings if r.what == "moved"]


PREP = """\
GREEN LANE KITCHEN                                 PREP SHEET
Service: ________   Covers: ________
=====================================================================
[1] & [2]  -- BOTH AT ONCE, don't wait for one to start the other --
  [1] STOCK ..... stock-pot (batch)                  -> litres
  [2] VEG ....... veg-prep (batch)                   -> trays

[3] SOUP ...... soup-finish (litres from [1], trays from [2])
"""


def test_a_prep_sheet_starts_two_bracketed_items_together() -> None:
    spec = _spec(PREP)
    steps = _by_skill(spec)
    assert steps["veg-prep"].starts_with == steps["stock-pot"].id
    assert not steps["veg-prep"].depends_on
    assert steps["soup-finish"].starts_with is None
    assert any("starts together" in w.message for w in spec.warnings if w.line == 4)


def test_dont_wait_for_one_to_start_the_other_is_no_wait_between_tries() -> None:
    said = read_phrase("[1] & [2] -- BOTH AT ONCE, don't wait for one to start the other --").statement
    assert said.retries is None and said.wait is None
    # a time after it is still a wait
    assert read_phrase("don't wait for one minute, retry at once").statement.wait is not None


def test_bracketed_items_joined_are_no_start() -> None:
    text = PREP.replace("[1] & [2]  -- BOTH AT ONCE, don't wait for one to start the other --",
                        "[1] & [2]  -- merge both together when done --")
    steps = _by_skill(_spec(text))
    assert steps["veg-prep"].starts_with is None


ROTA = """\
WARD 7 WEEKEND ROTA                               Week: ______
--------------------------------------------------------------
 ROW | TASK                      | SYSTEM
  1  | Pull the shifts           | shift-pull
  2  | Check every shift covered | cover-check
  3  | Post the rota             | rota-post
--------------------------------------------------------------
NOTES
 - Row 2: the HR server is slow at 6am. 30 s timeout.
 - Row 1 of the printout is the header, ignore it.
"""


def test_a_rota_note_keyed_by_its_row_goes_to_that_step() -> None:
    spec = _spec(ROTA)
    steps = _by_skill(spec)
    assert any("Row 2" in t for t in _placed(steps["cover-check"]))
    assert not any("Row 2" in t for t in _placed(steps["rota-post"]))


LAB = """\
HAEMATOLOGY LAB WORKSHEET                         Batch: ______
 LINE | ACTION                   | SYSTEM STEP  | USES
   1  | Log the sample           | sample-log   | tube id
   2  | Spin the plate           | spin-plate   | plate
   3a | Read the plate           | read-plate   | plate off line 2
   3b | Flag the result          | flag-result  | reading off line 3a

NOTES (lab lead)
 - Line 3a: the reader jams. 45 s timeout per plate.
 - Line up the tubes first; that takes 2 min.
"""


def test_a_lab_worksheet_note_keyed_line_3a_goes_to_its_step() -> None:
    steps = _by_skill(_spec(LAB))
    assert any("Line 3a" in t for t in _placed(steps["read-plate"]))
    assert not any("Line up" in t for step in steps.values() for t in _placed(step))


def test_noun_keys_need_a_label_and_a_separator() -> None:
    assert noun_keyed(" - Line 3b: send it once.") == ("3b", 5)
    assert noun_keyed("Row 2 - slow at 6am") == ("2", 4)
    assert noun_keyed("ITEM C: check the van") == ("C", 5)
    assert noun_keyed("Line 1 of the form is the header.") is None
    assert noun_keyed("Line up the trays: 2 min each.") is None
    assert noun_keyed("Rowing club: 2 boats") is None


LAB_BRANCH = LAB.replace("NOTES (lab lead)", "Line 3a only if line 2 says spun (spin_ok = yes); 3b is for everything else.\n\nNOTES (lab lead)")


def test_a_lab_worksheet_line_condition_and_its_other_branch() -> None:
    spec = _spec(LAB_BRANCH)
    steps = _by_skill(spec)
    assert "spin_ok" in str(steps["read-plate"].when)
    assert steps["flag-result"].otherwise_of == steps["read-plate"].id
    assert any("other branch" in w.message for w in spec.warnings if w.line == 8)


ROTA_BRANCH = """\
CAFE OPENING ROTA                                  Date: ______
 ROW | TASK                      | SYSTEM
  A  | Pull the shifts           | shift-pull
  B  | Check the cover           | cover-check
  C  | Post the rota             | rota-post
  D  | Log the gap               | sample-log
Row C only when B says covered (all_covered = yes); otherwise row D.
"""


def test_a_rota_row_condition_with_otherwise_row() -> None:
    steps = _by_skill(_spec(ROTA_BRANCH))
    assert "all_covered" in str(steps["rota-post"].when)
    assert steps["sample-log"].otherwise_of == steps["rota-post"].id


def test_only_in_another_sense_is_no_condition() -> None:
    text = LAB.replace("NOTES (lab lead)", "Line 3a only lists the plates; 3b is for everything else.\n\nNOTES")
    steps = _by_skill(_spec(text))
    assert not steps["read-plate"].when
    assert steps["flag-result"].otherwise_of is None


LAB_JOIN = LAB_BRANCH.replace("   3b | Flag the result          | flag-result  | reading off line 3a\n",
                              "   3b | Flag the result          | flag-result  | reading off line 3a\n"
                              "   4  | File it (after 3a OR 3b)  | file-report  | tube id\n")


def test_a_grid_row_after_both_branches_is_their_join() -> None:
    spec = _spec(LAB_JOIN)
    steps = _by_skill(spec)
    report = steps["file-report"]
    assert report.join == "any"
    assert set(report.depends_on) == {steps["read-plate"].id, steps["flag-result"].id}


def test_after_two_rows_that_are_no_branches_is_left() -> None:
    steps = _by_skill(_spec(LAB_JOIN.replace("Line 3a only if line 2 says spun (spin_ok = yes); 3b is for everything else.\n", "")))
    assert steps["file-report"].join != "any"


def test_a_hold_until_a_person_says_yes_is_an_approval_sentence() -> None:
    from orchestrator.spec.condition import approval_sentence
    from orchestrator.spec.sheet_flow32 import held_till_yes

    assert held_till_yes("Nothing goes to the press till Ana says yes.")  # a print shop's job sheet
    assert held_till_yes("No pallet leaves until the shift lead signs it off.")  # a warehouse dispatch note
    assert held_till_yes("Nothing is posted until the editor OKs it.")  # a newsroom checklist
    assert approval_sentence("If the bill is over 500: nothing is sent until Sam approves.")
    assert not held_till_yes("Nothing goes out until the van is back.")
    assert not held_till_yes("Nothing runs until step 2 is done.")
    assert not held_till_yes("Ana says yes to everything; nothing goes out late.")


PRINT = """\
NORTHSIDE PRINT                                    JOB SHEET
 ROW | TASK                      | SYSTEM
  1  | Pull the order            | shift-pull
  2  | Proof it                  | cover-check
  3  | Run the press             | rota-post
      If 2 finds more than 3 typos: nothing goes to rota-post till Ana says yes.
"""


def test_a_job_sheet_hold_till_yes_gives_the_step_an_approval() -> None:
    steps = _by_skill(_spec(PRINT))
    assert steps["rota-post"].approval is not None
