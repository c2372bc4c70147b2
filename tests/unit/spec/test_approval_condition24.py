"""An approval's condition said in prose keeps its ", OR ..." alternatives; a step it names by its item
label ("from 1a") or a word of its skill ("the rollup shows") is that step; a word of a named step's
output in other case, with a unit or as a plural count ("UKC": `ukc_m`, "any hits": `hit_count`) is
that field; a wait said in words with its time in brackets ("one business day (8 hours)") is the time
(`spec.approval_condition24`). A purchase-order policy, a nurse's handover, a lab's release sheet, a
crontab note; and texts that look alike but must not be read so."""

from __future__ import annotations

import pytest

from orchestrator.spec.approval_condition24 import (
    or_continued,
    said_field,
    steps_said,
    wait_glossed,
)
from orchestrator.spec.condition import approval_condition, approval_timeout
from orchestrator.spec.model import StepSpec
from orchestrator.spec.step_prose import sentences


@pytest.mark.parametrize(("text", "cond"), [
    # a purchase-order policy: sign-off needed above 5k, or for a new supplier
    ("if the order total is over 5,000, or the supplier count is 0, the buyer's manager must approve it first",
     "the order total is over 5,000, or the supplier count is 0"),
    # a nurse's handover: two alternatives, the second in capitals
    ("if the pain score is above 7, OR the systolic bp is under 90, the charge nurse must approve before it is given",
     "the pain score is above 7, OR the systolic bp is under 90"),
    # three alternatives on a lab's release sheet
    ("when the ph is under 6, or the ph is over 8, or the turbidity is over 4, QA has to sign off",
     "the ph is under 6, or the ph is over 8, or the turbidity is over 4"),
])
def test_the_alternatives_after_a_comma_stay_with_the_condition(text: str, cond: str) -> None:
    got, rest = approval_condition(text)
    assert got == cond
    assert "approve" in rest or "sign off" in rest


@pytest.mark.parametrize("cond", [
    "the total is over 500, Ms. Lee must approve",  # no alternative: the person follows
    "the total is over 500, and the lead has approved it",  # "and": the approval, not a condition
    "the total is over 500, or else",  # no condition after "or"
])
def test_no_alternative_is_taken_where_none_is_said(cond: str) -> None:
    assert or_continued(cond) is None


def test_an_honorifics_stop_ends_no_sentence() -> None:  # a memo; and milliseconds still end one
    said = [s for _, s in sentences("If the fee is over 500, Ms. Adeyemi must approve. Dr. Okafor signs the chart.")]
    assert said == ["If the fee is over 500, Ms. Adeyemi must approve.", "Dr. Okafor signs the chart."]
    assert len(sentences("Wait 250 ms. Then call it again.")) == 2


def _step(number: int, name: str) -> StepSpec:
    return StepSpec(id=f"step-{number}", number=number, name=name, where=f"doc.txt:{number}")


def test_a_forms_item_label_and_a_skills_word_name_their_step() -> None:
    steps = [_step(1, "APPRAISAL 1a"), _step(2, "APPRAISAL 1b"), _step(3, "Rollup")]
    skills = {"step-1": "tide-window", "step-2": "weather-routing", "step-3": "conflict-rollup"}
    assert steps_said("the UKC from 1a is under 0.5 m", steps, skills, []) == "the UKC from step 1 is under 0.5 m"
    assert steps_said("the rollup shows any hits at all", steps, skills, []) == "step 3 shows any hits at all"
    # a crontab note's roman item
    cron = [_step(1, "i"), _step(2, "ii")]
    assert steps_said("the lag from ii is over 30", cron, {"step-1": "a", "step-2": "b"}, []) == \
        "the lag from step 2 is over 30"


def test_words_naming_no_step_or_two_are_left_as_written() -> None:
    steps = [_step(1, "Check 1a"), _step(2, "Check 1a")]
    skills = {"step-1": "stock-check", "step-2": "price-check"}
    assert steps_said("the level from 1a is low", steps, skills, []) == "the level from 1a is low"  # two steps
    assert steps_said("the check shows any errors", steps, skills, []) == "the check shows any errors"  # two skills
    assert steps_said("the total from 2b is over 3", steps, skills, []) == "the total from 2b is over 3"  # no step
    # a word a later step's skill also has names no step
    later = [_step(3, "Recheck")]
    assert steps_said("the stock shows any gaps", steps[:1], {**skills, "step-3": "stock-recount"}, later) == \
        "the stock shows any gaps"


@pytest.mark.parametrize(("name", "fields", "field"), [
    ("hits", ["clear", "hit_count", "flagged"], "hit_count"),
    ("discrepancies", ["discrepancy_count"], "discrepancy_count"),
    ("UKC", ["window_open", "ukc_m"], "ukc_m"),
    ("Depth", ["depth_cm", "site"], "depth_cm"),
    ("BP", ["bp"], "bp"),
])
def test_a_named_steps_field_said_in_other_words(name: str, fields: list[str], field: str) -> None:
    assert said_field(name, fields) == field


@pytest.mark.parametrize(("name", "fields"), [
    ("hits", ["hits_total", "clear"]),  # no count said so
    ("status", ["status_code", "status_text"]),  # no unit: other words
    ("depth", ["depth_m", "depth_ft"]),  # two
    ("total", []),
])
def test_no_field_is_taken_where_the_words_fit_none_or_two(name: str, fields: list[str]) -> None:
    assert said_field(name, fields) is None


def test_a_wait_in_words_with_its_time_in_brackets() -> None:
    memo = "She gets one business day (8 hours) to respond; no answer = no, the matter is NOT opened"
    assert wait_glossed(memo).startswith("She gets 8 hours to respond;")
    assert approval_timeout(memo) == (28800.0, "reject")
    shift = "The duty pharmacist has a shift (12 h) to check it; no answer = no"
    assert approval_timeout(shift) == (43200.0, "reject")
    assert wait_glossed("Store it for a day (at 4 C) before use") == "Store it for a day (at 4 C) before use"
