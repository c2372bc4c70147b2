"""Conditions said as "nothing failed" / "anything failed" and with number words ("more than zero"),
in documents of several kinds (a brewery release list, a lab protocol with a heading per step, a
ship's log, a newsletter checklist): the one word is an output that holds no value, an empty list
or 0 (`empty`), or holds one (`filled`); a number word is the number, never the text "zero"."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import read_condition


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("If nothing failed", "empty", "failed"),
    ("if none bounced", "empty", "bounced"),
    ("nobody has replied", "empty", "replied"),
    ("If anything failed", "filled", "failed"),
    ("if anyone complained", "filled", "complained"),
])
def test_nothing_or_anything_and_one_word_is_whether_that_output_holds_a_value(text: str, kind: str,
                                                                             word: str) -> None:
    read = read_condition(text)
    assert read is not None and len(read.clauses) == 1
    assert (read.clauses[0].kind, read.clauses[0].subject) == (kind, (word,))


@pytest.mark.parametrize("text", ["if nothing else", "if none were", "if anything is"])
def test_nothing_or_anything_with_no_word_of_its_own_is_not_read_so(text: str) -> None:
    read = read_condition(text)
    assert read is None or all(c.subject not in {("else",), ("were",), ("is",)} for c in read.clauses)


@pytest.mark.parametrize(("text", "op", "value"), [
    ("the missing count is more than zero", ">", 0),
    ("crew is fewer than three", "<", 3),
    ("the count is over twelve", ">", 12),
])
def test_a_number_word_is_its_number(text: str, op: str, value: int) -> None:
    read = read_condition(text)
    assert read is not None and (read.clauses[0].op, read.clauses[0].value) == (op, value)


def test_a_numbered_list_s_if_nothing_failed_and_if_anything_failed_are_a_branch_pair() -> None:
    spec = parse_spec_text("# Release\n\n1. Tally with `qc-tally`.\n2. If nothing failed, release with "
                           "`release-batch`.\n3. If anything failed, hold with `hold-batch`.\n", "r.md", "markdown")
    whens = [s.when for s in spec.steps]
    assert whens[0] is None and whens[1] and whens[2] and whens[1] != whens[2]
    assert read_condition(whens[1]).clauses[0].kind == "empty"  # type: ignore[union-attr]
    assert read_condition(whens[2]).clauses[0].kind == "filled"  # type: ignore[union-attr]


def test_a_lab_protocol_heading_if_none_clotted_is_the_step_s_condition() -> None:
    spec = parse_spec_text("# Assay\n\n## Steps\n\n### Step 1: Spin\n- Skill: `spin-down`\n\n"
                           "### Step 2: If none clotted\n- Skill: `plate-out`\n", "a.md", "markdown")
    assert spec.steps[1].when is not None and "clotted" in spec.steps[1].when


def test_a_ship_s_log_bullet_if_nobody_replied_is_read() -> None:
    spec = parse_spec_text("# Watch\n\n## Steps\n\n- Hail the harbour with `radio-call`.\n"
                           "- If nobody answered, log it with `log-entry`.\n", "w.md", "markdown")
    assert spec.steps[1].when is not None and "answered" in spec.steps[1].when
