"""An input said to be one of several values, whichever exists: the family of ways people write it."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.either_input import Alternative, alternatives, either_inputs, read_text

HEAD = """# Claims

## Inputs
- claim (object): the claim

## Workflow Steps

### Step 1: Refund
- Skill: `refund-card`

### Step 2: Voucher
- Skill: `issue-voucher`

### Step 3: Tell
"""


def last_step_readings(body: str) -> list[tuple[str, list[tuple[str, str | None]], bool, int]]:
    spec = parse_spec_text(HEAD + body, "claims.md", "markdown")
    return [(r.name, [(a.words, a.step) for a in r.alternatives], r.deliberate, int(r.where.rsplit(":", 1)[1]))
            for r in either_inputs(spec.steps[-1])]


@pytest.mark.parametrize(("value", "meant"), [
    ("refund_no (if paid out) or code", [("refund_no", None), ("code", None)]),
    ("whichever of refund_no / code exists", [("refund_no", None), ("code", None)]),
    ("either the refund number or the store code", [("refund number", None), ("store code", None)]),
    ("refund-card's refund_no, or issue-voucher's code", [("refund_no", "refund-card"), ("code", "issue-voucher")]),
    ("refund_no from step 1 or code of step 2", [("refund_no", "step 1"), ("code", "step 2")]),
    ("step-1.refund_no | step-2.code", [("refund_no", "step-1"), ("code", "step-2")]),
    ("`step-1.refund_no` or `steps.step-2.output.code`", [("refund_no", "step-1"), ("code", "step-2")]),
    ("the refund number (step 1) or the code (from Voucher-Desk)", [("refund number", "step 1"), ("code", "Voucher-Desk")]),
    ("refund_no or code (whichever ran)", [("refund_no", None), ("code", None)]),
])
def test_each_way_of_writing_the_values_gives_them_in_order_with_the_step_written_beside(
    value: str, meant: list[tuple[str, str | None]]
) -> None:
    assert alternatives(value) == tuple(Alternative(words=w, step=s) for w, s in meant)


@pytest.mark.parametrize("value", [
    "refund_no",  # one value
    "retry twice or skip it when the mail server is down",  # a sentence with an "or" in it
    "data/raw/claims.csv",  # a path
    "refund_no, code",  # a list, not a choice
    "\"Stock 503, or timeout (part 3)\"",
])
def test_text_that_is_not_a_choice_of_values_is_no_reading(value: str) -> None:
    assert alternatives(value) is None


def test_a_sentence_gives_the_name_after_as_and_the_values_back_to_its_clause() -> None:
    (reading,) = read_text("Whichever ran: `notify` the customer by mail, with the claim and the refund number or "
                           "store code as ref. Retry once.", "claims.md:9")
    assert (reading.name, [a.words for a in reading.alternatives], reading.deliberate) == (
        "ref", ["refund number", "store code"], False)
    assert reading.text == "the refund number or store code as ref"


def test_a_label_inside_a_sentence_is_read_only_when_it_says_whichever_or_either() -> None:
    assert read_text("It lists each row: refund or voucher, then mails it.", "x:1") == []
    (reading,) = read_text("ref: whichever of refund_no / code exists.", "x:1")
    assert reading.deliberate and [a.words for a in reading.alternatives] == ["refund_no", "code"]


def test_an_assignment_on_the_input_line_is_kept_as_an_input_with_its_values() -> None:
    got = last_step_readings("- Skill: `notify`\n- Input: customer, `ref` = refund_no (if paid out) or code\n")
    assert got == [("ref", [("refund_no", None), ("code", None)], True, 16)]
    spec = parse_spec_text(HEAD + "- Skill: `notify`\n- Input: customer, `ref` = refund_no or code\n", "c.md",
                           "markdown")
    assert [f.name for f in spec.steps[-1].inputs] == ["ref", "customer"]
    assert not [w for w in spec.warnings if "ref" in w.message]


def test_an_input_whose_parentheses_name_each_step_s_value_is_read() -> None:
    got = last_step_readings("- Skill: `notify`\n- Input: ref (refund-card's refund_no, or issue-voucher's code)\n")
    assert got == [("ref", [("refund_no", "refund-card"), ("code", "issue-voucher")], True, 16)]


def test_a_labelled_bullet_and_a_plain_sentence_are_read_with_their_lines() -> None:
    got = last_step_readings("- Skill: `notify`\n- ref: whichever of refund_no / code exists\n")
    assert got == [("ref", [("refund_no", None), ("code", None)], True, 16)]
    got = last_step_readings("Then `notify` with the refund number or the code as `ref`.\n")
    assert got == [("ref", [("refund number", None), ("code", None)], False, 15)]


def test_a_word_after_by_or_a_plain_lowercase_word_after_from_is_no_step() -> None:
    assert alternatives("them by mail or chat") == (Alternative(words="them by mail"), Alternative(words="chat"))
    assert alternatives("the id from upstream or code") == (Alternative(words="id from upstream"),
                                                            Alternative(words="code"))
    assert alternatives("the id from `fetch` or code") == (Alternative(words="id", step="fetch"),
                                                           Alternative(words="code"))
