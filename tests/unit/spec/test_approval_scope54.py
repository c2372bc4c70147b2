"""Round 54: what scopes a person's approval ("X only:", "only for X", "just when X"), a wait bound in any
spelling ("wait max 4 hrs", "up to a day", "allow her 90 minutes"; a clock time is no bound), what silence
means, a banner comment that is no part of the approval, and a comment line that opens a rule of its own
("on error try again ...") - in code read by its skill calls (`spec.wired52`) and in a markdown step's text."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_scope54 import (
    banner,
    clock_wait,
    scope_condition,
    scope_said,
    starts_rule,
    wait_bound,
    without_wait,
)
from orchestrator.spec.condition import approval_timeout
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary

INPUTS = {"grade-batch": {"batch"}, "send-note": {"batch", "grade"}, "file-it": {"note_ref"}}
OUTPUTS = {"grade-batch": {"grade", "score"}, "send-note": {"note_ref"}, "file-it": {"filed"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))
FIELDS = {"grade": "graded.grade", "batch": "inputs.batch"}


def step(spec: WorkflowSpec, skill: str) -> StepSpec:
    return next(s for s in spec.steps if s.skill == skill)


# -- the scope ------------------------------------------------------------------------------------------------
def test_a_scope_said_before_or_in_the_approval_sentence() -> None:
    assert scope_said("FAIL grade only: the head must OK it") == "FAIL grade"
    assert scope_said("Only for fail or resit grades, the head signs off first") == "fail or resit grades"
    assert scope_said("The head must approve, but just when the grade is fail.") == "the grade is fail"
    assert scope_said("The head must approve it first.") is None  # near-miss: no scope


def test_a_value_said_before_a_field_the_step_is_given_is_that_field_compared() -> None:
    assert scope_condition("FAIL grade", FIELDS) == 'graded.grade | lower == "fail"'
    assert scope_condition("fail/resit grades", FIELDS) == \
        'graded.grade | lower == "fail" or graded.grade | lower == "resit"'
    assert scope_condition("the grade is fail", FIELDS) == "the grade is fail"  # a comparison: kept as said
    assert scope_condition("FAIL grade") == 'grade | lower == "fail"'  # no fields known: the last word
    # near-misses: a scope naming no value the step is given; one word
    assert scope_condition("weekend orders", FIELDS) is None
    assert scope_condition("Monday", FIELDS) is None


# -- the wait ---------------------------------------------------------------------------------------------------
def test_a_wait_bound_in_any_spelling() -> None:
    assert wait_bound("email her & wait max 3 hrs.") == 10800
    assert wait_bound("wait no more than 90 minutes") == 5400
    assert wait_bound("we wait up to a day for him") == 86400
    assert wait_bound("allow her 2 hours to answer") == 7200
    assert wait_bound("wait for the van") is None  # near-miss: no length
    assert approval_timeout("ring him, wait max 2 hrs. no answer means go ahead") == (7200, "approve")
    assert approval_timeout("wait at most half an hour; silence = do NOT send") == (1800, "reject")
    assert without_wait("text him & wait max 2 hrs").rstrip() == "text him &"


def test_a_clock_time_is_no_bound() -> None:
    assert clock_wait("give him till 5pm") == "till 5pm"
    assert clock_wait("wait until 17:30 for her") == "until 17:30"
    assert wait_bound("give him till 5pm") is None
    assert clock_wait("the van comes by 5pm") is None  # near-miss: no wait said before it


# -- lines that are no part of a rule ---------------------------------------------------------------------------
def test_a_banner_and_a_line_opening_a_rule() -> None:
    assert banner("--- STEP 3: send the note ---------------")
    assert banner("==== 2. grade it ====")
    assert not banner("grade 2 - or 3 - only")  # near-miss
    assert starts_rule("on error try again twice more")
    assert starts_rule("If it fails, wait 5 min and go again")
    assert not starts_rule("on the portal side it is slow")  # near-miss


# -- in code read by its skill calls ---------------------------------------------------------------------------
LUA = """\
-- usage: lua grade.lua  (args come in from the caller)
local batch = arg.batch
local graded = run("grade-batch", "batch=" .. batch)
-- 30 s max per call, the grader is slow
-- on failure try again 3 times, 10 s apart

-- ==== STEP 2: the note ====
-- fail/resit grades only: Ms Oduya must OK the note before it goes -
-- text her & wait no more than 2 hours. no answer means go ahead.
local note = run("send-note", "batch=" .. batch, "grade=" .. fetch(graded, "grade"))
run("file-it", "note_ref=" .. fetch(note, "note_ref"))
"""

PY = """\
import sys
batch = sys.argv[1]
graded = run("grade-batch", batch=batch)
# ----- send it -----
# Only for FAIL grades: the head has to approve the note first, allow her up to a day.
# silence = do NOT send, the job stops there.
note = run("send-note", batch=batch, grade=graded["grade"])
run("file-it", note_ref=note["note_ref"])
"""


def test_code_an_approval_scoped_bounded_and_its_silence() -> None:
    spec = parse_spec_text(LUA, "grade.lua", "markdown", VOCAB)
    gate = step(spec, "send-note").approval
    assert gate is not None
    assert (gate.when, gate.timeout_s, gate.on_timeout) == (
        'graded.grade | lower == "fail" or graded.grade | lower == "resit"', 7200, "approve")
    said = next(r for r in step(spec, "send-note").readings if r.what == "approval")
    assert "STEP 2" not in said.text and said.text.startswith("fail/resit grades only")
    said = [t.text for t in step(spec, "grade-batch").texts]  # "on failure ...": a rule of its own, not joined on
    assert "on failure try again 3 times, 10 s apart" in said and "30 s max per call, the grader is slow" in said

    spec = parse_spec_text(PY, "grade.py", "markdown", VOCAB)
    gate = step(spec, "send-note").approval
    assert gate is not None
    assert (gate.timeout_s, gate.on_timeout) == (86400, "reject")
    assert gate.when is not None and "fail" in gate.when


def test_code_an_approval_said_without_scope_is_asked_every_run() -> None:  # near-miss
    text = LUA.replace("fail/resit grades only: Ms Oduya", "Ms Oduya")
    gate = step(parse_spec_text(text, "grade.lua", "markdown", VOCAB), "send-note").approval
    assert gate is not None and gate.when is None and gate.timeout_s == 7200


# -- in a markdown step's text ------------------------------------------------------------------------------------
MD = """\
# Grading

## Step 1: Grade
Use `grade-batch` with batch from the inputs.

## Step 2: Note
Use `send-note` with grade from step 1.
{approval}

## Step 3: File
Use `file-it` with note_ref from step 2.
"""


def _md_gate(approval: str) -> tuple[str | None, float | None, str, int | None]:
    spec = parse_spec_text(MD.format(approval=approval), "grading.md", "markdown", VOCAB)
    s = next(s for s in spec.steps if s.id == "step-2")
    assert s.approval is not None, approval
    return s.approval.when, s.approval.timeout_s, s.approval.on_timeout, s.retry.max_retries if s.retry else None


def test_markdown_the_same_three_readings() -> None:
    when, seconds, then, retries = _md_gate(
        "FAIL grade only: Ms Oduya must OK the note before it goes - text her & wait max 3 hrs. "
        "no reply = do NOT send, the job stops there.")
    assert (when, seconds, then, retries) == ('grade | lower == "fail"', 10800, "reject", None)
    when, seconds, then, _ = _md_gate(
        "Only for fail or resit grades, the head must sign off first; give her up to a day. "
        "No answer means go ahead.")
    assert (when, seconds, then) == ('grades | lower == "fail" or grades | lower == "resit"', 86400, "approve")
    when, seconds, then, _ = _md_gate("Just when the grade is fail: the head has to approve it, "
                                      "allow her 90 minutes to answer.")
    assert when is not None and when.lower().endswith("the grade is fail") and seconds == 5400  # as read before
