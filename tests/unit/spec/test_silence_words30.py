"""`spec.silence_words30`: an approval's silence that skips its step ("No answer = skip it")."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.silence_words30 import silence_skips, without_person_wait


def parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


@pytest.mark.parametrize("sentence", [
    "No answer = do not order, skip it and note it in log.",  # a ship's log
    "If nobody replies by then, leave the reorder out and carry on.",  # a kitchen stock sheet
    "If she says nothing, move on to the next ticket.",  # a support ticket's macro
    "Without a sign-off by 9, skip this step; the rest still goes out.",  # a release runbook
    "No reply within the hour -> the reminder is skipped.",  # a lab notebook
])
def test_silence_that_skips_the_step(sentence: str) -> None:
    assert silence_skips(sentence)


@pytest.mark.parametrize("sentence", [
    "No answer = no order, stop the run.",  # silence is a no: a reject
    "No answer in 2 h = go ahead anyway.",  # silence is a yes
    "Skip it if the tank is already full.",  # a condition, no silence
    "No rain today, skip the watering.",  # "no" of something else
    "If nobody answers, skip it and abort the whole job.",  # stops the run
    "Skip it. No answer is needed from the lead.",  # the skip comes before the silence
])
def test_not_a_silence_skip(sentence: str) -> None:
    assert not silence_skips(sentence)


SHIFT_NOTE = """\
# Night shift

## Steps

### Step 1: Count
- Skill: `stock-count`

### Step 2: Reorder
- Skill: `reorder-stock`

The duty manager must approve the reorder first, wait up to 30 minutes for her. If nobody replies by then, leave
the reorder out and carry on.

### Step 3: Note
- Skill: `shift-note`
"""


def test_a_shift_note_s_approval_times_out_into_skip() -> None:
    step = parse(SHIFT_NOTE).steps[1]
    assert step.approval is not None
    assert (step.approval.timeout_s, step.approval.on_timeout) == (1800.0, "skip")


def test_a_silence_that_stops_the_run_stays_a_reject() -> None:
    text = SHIFT_NOTE.replace("leave\nthe reorder out and carry on.", "stop the run.")
    step = parse(text).steps[1]
    assert step.approval is not None
    assert step.approval.on_timeout == "reject"


@pytest.mark.parametrize(("rest", "left"), [
    ("Order over the agent so CHIEF MUST OK IT FIRST -- ring him, wait up to 2 hrs for answer.",  # a ship's log
     "Order over the agent so CHIEF MUST OK IT FIRST -- ring him."),
    ("The lead signs off; give her up to 3 hours, then retry twice.",  # an on-call runbook: the retry stays
     "The lead signs off, then retry twice."),
    ("Chef tastes it first and waits at most 10 minutes for her nod", "Chef tastes it first"),  # a prep sheet
])
def test_the_person_s_wait_is_taken_out_of_what_the_approval_sentence_says_besides(rest: str, left: str) -> None:
    assert without_person_wait(rest) == left


@pytest.mark.parametrize("rest", [
    "wait 10 minutes then try again",  # a retry's wait, no "up to"
    "give them the list",  # no time
    "retry up to 3 times",
])
def test_other_waits_stay(rest: str) -> None:
    assert without_person_wait(rest) == rest


@pytest.mark.parametrize(("rest", "seconds", "left"), [
    ("text him, wait 1 hr", 3600.0, "text him"),  # a site sheet: the approval's wait read is an hour
    ("email the bursar and wait 2 days", 172800.0, "email the bursar"),  # a school office
    ("ping Ravi - wait 30 mins", 1800.0, "ping Ravi"),  # a studio booking
])
def test_a_bare_wait_that_is_the_approval_s_is_taken_out(rest: str, seconds: float, left: str) -> None:
    assert without_person_wait(rest, seconds).strip(" ,;-") == left


@pytest.mark.parametrize(("rest", "seconds"), [
    ("text him, wait 10 min then try again", 3600.0),  # another length: a retry's wait, the policy reader's
    ("wait 1 hr", None),  # no approval wait read: left as it is
])
def test_a_bare_wait_of_another_length_stays(rest: str, seconds: float | None) -> None:
    assert without_person_wait(rest, seconds) == rest


APPROVAL_LOG = """\
# Release desk

## Steps

### Step 1: Build
- Skill: `build-image`

### Step 2: Ship
- Skill: `ship-image`

The release manager must OK it first, wait up to 2 hrs for her answer. Never ship twice.
"""


def test_an_approval_s_wait_in_its_own_sentence_is_no_retry_and_never_twice_stands() -> None:
    step = parse(APPROVAL_LOG).steps[1]
    assert step.approval is not None and step.approval.timeout_s == 7200.0
    assert step.retry is None or step.retry.max_retries == 0
