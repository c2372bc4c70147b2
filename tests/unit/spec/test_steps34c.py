"""A condition said as what earlier work left or found ("only when Match left something unmatched"), and a
step whose paragraph opens with "otherwise" as the other branch (`spec.steps34c`): a ticket, a lab
protocol, a runbook; and texts that look alike but are not read so."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import read_condition
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("match-lines", "open-case", "close-week", "scan-hosts", "patch-hosts", "log-clean", "count-colonies",
          "restreak-plate", "bin-plate")


def _spec(text: str, name: str = "doc.md") -> Any:
    words = Vocabulary.of([(s, None) for s in SKILLS])
    return parse_spec_text(text, name, "markdown", words)


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("Match left something unmatched", "filled", "unmatched"),
    ("the sweep turned up anything vulnerable", "filled", "vulnerable"),
    ("triage found nothing urgent", "empty", "urgent"),
    ("the plate count came back with something contaminated", "filled", "contaminated"),
    ("step 3 left something unmatched", "filled", "unmatched"),
])
def test_what_earlier_work_left_or_found_is_a_filled_or_empty_clause(text: str, kind: str, word: str) -> None:
    read = read_condition(text)
    assert read is not None and len(read.clauses) == 1
    assert (read.clauses[0].kind, read.clauses[0].subject) == (kind, (word,))


@pytest.mark.parametrize("text", ["we found something to fix", "the audit found nothing at all",
                                  "the review turned up anything else", "Match left the office"])
def test_words_after_something_that_name_no_output_are_not_read_so(text: str) -> None:
    read = read_condition(text)
    assert read is None or all(c.subject not in (("to",), ("at",), ("else",)) for c in read.clauses)


TICKET = """\
## Sub-tasks

**FIN-1 Match** – run `match-lines` on the two exports.

**FIN-2 Open case** – only when Match left something unmatched: `open-case` with the unmatched list.

**FIN-3 Close week** – otherwise (nothing unmatched), `close-week` with the matched count from Match.
"""


def test_a_tickets_sub_tasks_read_the_condition_and_the_other_branch() -> None:
    spec = _spec(TICKET, "ticket.md")
    by_skill = {s.skill or s.name: s for s in spec.steps}
    opened = next(s for s in spec.steps if "Open case" in s.name)
    closed = next(s for s in spec.steps if "Close week" in s.name)
    assert opened.when == "Match left something unmatched"
    assert closed.otherwise_where is not None and closed.when is None
    assert by_skill  # the steps were read


RUNBOOK = """\
# Patch night

## Step 1: Scan
Run `scan-hosts` over the fleet.

## Step 2: Patch
Only if the scan turned up anything vulnerable: `patch-hosts` on those.

## Step 3: Log
Otherwise (nothing vulnerable), `log-clean` with the host count.
"""


def test_a_runbooks_heading_step_opening_with_otherwise_is_the_other_branch() -> None:
    spec = _spec(RUNBOOK, "runbook.md")
    patch, log = spec.steps[1], spec.steps[2]
    assert patch.when is not None and "vulnerable" in patch.when
    assert log.otherwise_where is not None


PROTOCOL = """\
# Colony check

1. **Count** – `count-colonies` on the plate.
2. **Restreak** – if the count found something contaminated, `restreak-plate` from a clean colony.
3. **Bin** – `bin-plate` when done. Otherwise keep it in the cold room.
"""


def test_an_otherwise_later_in_a_step_is_no_branch() -> None:
    spec = _spec(PROTOCOL, "protocol.md")
    binned = next(s for s in spec.steps if s.skill == "bin-plate" or "Bin" in s.name)
    assert binned.otherwise_where is None  # "Otherwise" is its second sentence, not its opening


PLAIN = """\
# Patch night

## Step 1: Scan
Run `scan-hosts` over the fleet.

## Step 2: Log
Run `log-clean`; otherwise the audit fails.
"""


def test_a_paragraph_that_does_not_open_with_otherwise_is_read_as_before() -> None:
    assert _spec(PLAIN, "runbook.md").steps[1].otherwise_where is None


@pytest.mark.parametrize("sentence", [
    "Lena wants to see the batch herself if there are more than 3 mails in it; if she hasn't said yes within "
    "24 hours, don't send.",
    "The chef wants to look over the order first and nothing is placed till she's said ok.",
    "Dr Osei would like to review the plate map; if he hasn't signed off by noon, bin the run.",
])
def test_a_person_who_wants_to_see_it_and_whose_yes_is_said_is_an_approval(sentence: str) -> None:
    from orchestrator.spec.condition import approval_sentence

    assert approval_sentence(sentence)


@pytest.mark.parametrize("sentence", ["The lead wants to see the report by Friday.",
                                      "Marta wants to check the logs after the run.",
                                      "He said yes to the new vendor last week."])
def test_wanting_to_see_it_without_a_yes_is_no_approval(sentence: str) -> None:
    from orchestrator.spec.condition import approval_sentence

    assert not approval_sentence(sentence)


MINUTES = """\
# Outreach (meeting notes)

- **1.** Run `match-lines` on the export.
- **2.** Then `open-case` with the lines from 1. Priya wants to see the cases herself if there are more than
  5 lines in it; if she hasn't said yes within 2 hours, don't open them.
"""


def test_minutes_read_the_approval_its_condition_and_its_wait() -> None:
    step = _spec(MINUTES, "minutes.md").steps[1]
    assert step.approval is not None and step.approval.timeout_s == 7200 and step.approval.on_timeout == "reject"
    assert step.approval.when is not None and "5" in step.approval.when


RELEASE = """\
# Release train

## Steps
1. Run `match-lines` on the changelog.
2. Run `open-case` with the lines from step 1.
3. Run `close-week`.

## Approvals

| Step | Who | When | No reply |
|------|-----|------|----------|
| 2 | release captain | only if #1 unmatched_count is over 3 | after 2 h, reject |
"""

LAB_SOP = """\
# Colony SOP

## Procedure
1. `count-colonies` on the plate.
2. `restreak-plate` from a clean colony.
3. `bin-plate`.

## Sign-offs

| Stage | Approver | Condition | Timeout |
|---|---|---|---|
| 3 | lab manager | always | 30 min, then approve |
"""

PURCHASE = """\
# Purchase run

## Steps
1. `scan-hosts` for the fleet.
2. `patch-hosts` on what it found.

## Gates

| # | Who | If no answer |
|---|-----|--------------|
| 2 | CAB chair | after 1 day, reject |
"""


@pytest.mark.parametrize(("text", "number", "seconds", "then", "when"), [
    (RELEASE, 2, 7200, "reject", True), (LAB_SOP, 3, 1800, "approve", False), (PURCHASE, 2, 86400, "reject", False)],
    ids=["release", "lab-sop", "purchase"])
def test_an_approvals_tables_row_is_its_steps_approval(text: str, number: int, seconds: int, then: str,
                                                       when: bool) -> None:
    spec = _spec(text, "doc.md")
    step = next(s for s in spec.steps if s.number == number)
    assert step.approval is not None and step.approval.timeout_s == seconds and step.approval.on_timeout == then
    assert (step.approval.when is not None) is when
    assert all(s.approval is None for s in spec.steps if s.number != number)
    assert any("approvals table" in w.message for w in spec.warnings)


ROSTER = """\
# Release train

## Steps
1. Run `match-lines` on the changelog.
2. Run `open-case` with the lines from step 1.

## Approvals

| Who | Role |
|-----|------|
| Dana | release captain |
"""


def test_a_table_of_approvers_without_a_step_column_gives_no_approval() -> None:
    spec = _spec(ROSTER, "doc.md")
    assert all(s.approval is None for s in spec.steps)
    assert any(w.line == 7 for w in spec.warnings)  # the section is still said not read
