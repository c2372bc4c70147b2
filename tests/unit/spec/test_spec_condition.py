"""Conditions as people write them: read into clauses, found in prose, and an approval's condition and wait."""

from __future__ import annotations

import pytest

from orchestrator.spec.condition import (
    Clause,
    approval_condition,
    approval_sentence,
    approval_timeout,
    condition_sentence,
    otherwise_sentence,
    read_condition,
)


@pytest.mark.parametrize(("text", "clause"), [
    ("Step 4 reported valid = true", Clause(kind="compare", subject=("valid",), step="step-4", op="==", value=True)),
    ("Step four reported valid = true", Clause(kind="compare", subject=("valid",), step="step-4", value=True)),
    ("amount is over 1000", Clause(kind="compare", subject=("amount",), op=">", value=1000)),
    ("only if the total exceeds 1,000 EUR", Clause(kind="compare", subject=("total",), op=">", value=1000)),
    ("the score is at least 50", Clause(kind="compare", subject=("score",), op=">=", value=50)),
    ("confidence is below 0.7", Clause(kind="compare", subject=("confidence",), op="<", value=0.7)),
    ("the status is not 'done'", Clause(kind="compare", subject=("status",), op="!=", value="done")),
    ("the report date is 2024-11-12", Clause(kind="compare", subject=("report", "date"), value="2024-11-12")),
    ("the warehouse gave back no rows at all for yesterday", Clause(kind="empty", subject=("rows",))),
    ("rows are empty", Clause(kind="empty", subject=("rows",))),
    ("rows are not empty", Clause(kind="filled", subject=("rows",))),
    ("prod only", Clause(kind="value", value="prod")),
    ("Step 2 found any problems", Clause(kind="filled", subject=("problems",), step="step-2")),
    ("Step 2 found problems", Clause(kind="filled", subject=("problems",), step="step-2")),
    ("there are any open issues", Clause(kind="filled", subject=("open", "issues"))),
    ("the token is set", Clause(kind="filled", subject=("token",))),
])
def test_a_comparison_in_words_is_read_into_one_clause(text: str, clause: Clause) -> None:
    read = read_condition(text)
    assert read is not None and read.expression is None
    assert read.clauses == (clause,)


def test_an_expression_is_kept_as_written() -> None:
    for text in ("confidence < 0.7", "not steps['step-1'].output.docs_found", "valid is false", "{{ x > 1 }}"):
        read = read_condition(text)
        assert read is not None and read.clauses == ()
        assert read.expression == text.strip("{} ")


def test_a_value_after_or_compares_the_same_subject() -> None:
    read = read_condition("the category is billing or technical")
    assert read is not None and read.joins == ("or",)
    assert [(c.subject, c.value) for c in read.clauses] == [(("category",), "billing"), (("category",), "technical")]


def test_unless_negates() -> None:
    read = read_condition("unless dry_run is true")
    assert read is not None and read.negated and read.expression == "dry_run is true"
    read = read_condition("unless the mode is dry")
    assert read is not None and read.negated and read.clauses[0].subject == ("mode",)


def test_what_is_neither_an_expression_nor_a_comparison_is_not_read() -> None:
    assert read_condition("xyz foo bar") is None
    assert read_condition("") is None


@pytest.mark.parametrize(("sentence", "found"), [
    ("This one only runs if confidence < 0.7.", ("confidence < 0.7", False)),
    ("only when Step four reported valid = true", ("Step four reported valid = true", False)),
    ("Only when the warehouse gave back no rows: instead, mail the team.", ("the warehouse gave back no rows", False)),
    ("Runs only if the total is over 1,000.", ("the total is over 1,000", False)),
    ("Skip it when the list is empty.", ("the list is empty", True)),
    ("Runs unless dry_run is true.", ("dry_run is true", True)),
    ("If the mirror is down use the backup mirror.", None),
    ("Runs after Step 2.", None),
])
def test_a_sentence_that_makes_its_step_conditional_is_found(sentence: str, found: tuple[str, bool] | None) -> None:
    assert condition_sentence(sentence) == found


def test_otherwise_opens_a_step_that_runs_when_the_condition_before_it_was_false() -> None:
    assert otherwise_sentence("otherwise (valid is false): roll back") == ("valid is false", "roll back")
    assert otherwise_sentence("Else: tell the team") == (None, "tell the team")
    assert otherwise_sentence("Roll back otherwise") is None


def test_an_approval_value_gives_its_condition_and_its_wait() -> None:
    assert approval_condition("required if amount > 1000; wait up to 24h, then reject") == (
        "amount > 1000", "wait up to 24h, then reject")
    condition, rest = approval_condition("prod only. The release manager signs off; wait up to 2 hours, then reject.")
    assert condition == "prod only" and rest.startswith("The release manager")
    assert approval_condition("required (timeout 1h -> reject)") == (None, "required (timeout 1h -> reject)")
    assert approval_timeout("wait up to 24h, then reject") == (86400.0, "reject")
    assert approval_timeout("If nobody has looked at it within 6 hours, treat it as rejected") == (21600.0, "reject")
    assert approval_timeout("wait up to 2 min, then approve") == (120.0, "approve")
    assert approval_timeout("Retry after 5 seconds") == (5.0, None)  # no outcome: not an approval's wait


def test_a_sentence_saying_a_person_must_approve_asks_for_a_gate() -> None:
    assert approval_sentence("Before anything is sent, finance has to approve it.")
    assert approval_sentence("It needs a person's approval.")
    assert not approval_sentence("The reviewer step approves or rejects the pull request.")  # a skill's work
    assert not approval_sentence("The approval rate is reported.")


@pytest.mark.parametrize("text", [
    "If more than 30 pupils are going, the head teacher must agree before the coach is booked.",  # a school office
    "Over 500 kg the harbour master has to consent first.",  # a port's crane log
    "The ward sister needs to agree to it before the transfer goes out.",  # a ward checklist
    "For anything above 2 L the PI must agree first.",  # a lab protocol
])
def test_a_person_who_must_agree_or_consent_before_is_an_approval(text: str) -> None:
    assert approval_sentence(text)


@pytest.mark.parametrize("text", [
    "The totals must agree with the ledger before it is filed.",  # a check between values, no person's say
    "Both counts have to agree.",
])
def test_values_that_must_agree_are_no_approval(text: str) -> None:
    assert not approval_sentence(text)
