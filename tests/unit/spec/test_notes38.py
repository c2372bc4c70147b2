"""`spec.notes38`: "has to ok it first" is an approval, the approver asked "on Teams" is no escalation and
their "no answer" no step timeout, "only ever ONCE" / "no resend" is no retry, "as if it said logged: false"
is the value to go on with, and "the 'how many' number from the send" is the send's `<name>_count`; read on a
kennel runbook, a lab protocol, a depot note, a print-shop ticket, with look-alikes that are not."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.plan.output_aliases import Earlier, said_alias
from orchestrator.spec import parse_spec_text
from orchestrator.spec.as_if30 import _rewrite
from orchestrator.spec.notes38 import approver_silence, asks_approver, ok_verb, stem_count
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary


@pytest.mark.parametrize("sentence", [
    "IF the order is over 50 kg, the yard boss has to ok it first.",  # a depot note
    "The duty vet needs to OKAY this before the dog goes home.",  # a kennel runbook
    "Over 3 plates? Dr Lim must o.k. them first.",  # a lab protocol
    "the studio manager's got to ok the proof before printing",  # a print-shop ticket
])
def test_ok_as_a_verb_after_a_modal_is_a_persons_approval(sentence: str) -> None:
    assert ok_verb(sentence)


@pytest.mark.parametrize("sentence", [
    "It's ok to send the texts in the morning.",  # no modal: an adjective
    "The proof looks ok first time round, usually.",
    "If that is ok, then send it.",
    "The reading has to be ok, otherwise re-run the plate.",  # "be ok": no one's yes
    "ok, then the batch goes out",
])
def test_ok_that_says_no_ones_yes_is_not_an_approval(sentence: str) -> None:
    assert not ok_verb(sentence)


KENNEL = """\
# Boarding checkout

## Step 1: Bill
- Skill: `bill-stay`

## Step 2: Send home
- Skill: `release-dog`

If the bill is over 400, the duty vet has to ok it first. Ring her and wait up to 1 hour; no answer = don't release.
"""

LAB = """\
PLATE RUN - notes

- read the plate -> plate-read
- dispose of the plate -> plate-dispose
    Dr Lim has to OK it first, text her and wait 30 min. no answer = do not dispose
"""


@pytest.mark.parametrize(("text", "name", "fmt", "step"), [
    (KENNEL, "checkout.md", "markdown", 1),
    (LAB, "plate.txt", "markdown", 1),
])
def test_the_step_waits_for_the_person_with_their_wait_and_silence(text: str, name: str, fmt: str, step: int) -> None:
    words = Vocabulary.of([(s, None) for s in ("bill-stay", "release-dog", "plate-read", "plate-dispose")])
    spec = parse_spec_text(text, name, fmt, words)
    approval = spec.steps[step].approval
    assert approval is not None and approval.timeout_s in (3600.0, 1800.0) and approval.on_timeout == "reject"


def test_the_approver_asked_is_no_escalation_and_their_silence_no_step_timeout() -> None:
    said = read_phrase("The vet has to ok it first: message her on Teams, no answer = do not book.", frozenset())
    assert said.statement.on_failure is None and said.statement.applies_to is None
    assert any("how the approval is asked" in p for p in said.problems)  # warned, never silent
    assert asks_approver("Sam must approve it first - ping him on Slack", "ping him on Slack")
    assert approver_silence("the lead has to sign off first; no reply in an hour means no")


@pytest.mark.parametrize(("sentence", "message"), [
    ("If it fails, message Sam on Slack.", "message Sam on Slack"),  # no approval: an escalation
    ("if it times out, message the duty manager; she has to approve it first", "message the duty manager"),
    ("If the upload errors, email the lead; the lead must sign off first", "email the lead"),
])
def test_a_person_told_after_the_step_fails_stays_an_escalation(sentence: str, message: str) -> None:
    assert not asks_approver(sentence, message)
    assert read_phrase(sentence, frozenset()).statement.on_failure is not None


def test_no_answer_beside_a_step_timeout_stays_the_steps() -> None:
    assert not approver_silence("if it hangs, Sam has to approve a restart; no answer = leave it")
    assert not approver_silence("no answer from the API in 10 s: give up")  # no approval said


@pytest.mark.parametrize("sentence", ["only ever ONCE. no resend.", "Post it only ever once!",
                                      "no resubmit - it charges the card twice", "no re-run."])
def test_once_ever_and_no_resend_are_no_retry(sentence: str) -> None:
    assert read_phrase(sentence, frozenset()).statement.no_retry


@pytest.mark.parametrize("sentence", ["only ever once a day", "no resending needed, it is idempotent",
                                      "only ever once more, then stop"])
def test_a_schedule_or_a_noun_is_not_no_retry(sentence: str) -> None:
    assert not read_phrase(sentence, frozenset()).statement.no_retry


@pytest.mark.parametrize(("text", "outputs", "want"), [
    ("if the PMS logging falls over carry on as if it said logged: false", {"logged", "note"}, {"logged": False}),
    ("on error continue as though it returned status = \"skipped\"", {"status"}, {"status": "skipped"}),
    ("if the scale dies, act as if it gave kg: 0", {"kg", "ok"}, {"kg": 0}),
])
def test_as_if_it_said_a_pair_is_the_value_to_go_on_with(text: str, outputs: set[str], want: dict[str, Any]) -> None:
    got = _rewrite(text, frozenset(outputs))
    assert got is not None and f"`{__import__('json').dumps(want)}`" in got[0]


def test_as_if_it_said_a_pair_the_skill_does_not_return_is_not_read() -> None:
    assert _rewrite("if it fails carry on as if it said hello: world", frozenset({"logged"})) is None
    assert _rewrite("carry on as if it said logged: false", None) is None  # outputs not known


def test_a_count_word_from_a_step_binds_the_inputs_count_field() -> None:
    assert stem_count("sent", "number", {"sent_count", "batch_id"}) == "sent_count"
    assert stem_count("delivered", "the count", {"n_delivered", "bounced"}) == "n_delivered"
    assert stem_count("printed", "how many", {"printed_total"}) == "printed_total"
    earlier = [Earlier(id="step-1", number=1, label="send them send-sms-batch",
                       fields=frozenset({"sent_count", "batch_id"}))]
    alias = said_alias("sent", 'month, and the "how many went" number from the send', {}, earlier, ["sent", "month"])
    assert alias is not None and (alias.step, alias.field) == ("step-1", "sent_count")


def test_no_count_field_without_a_count_word_or_with_two() -> None:
    assert stem_count("sent", "the batch", {"sent_count"}) is None
    assert stem_count("sent", "number", {"sent_count", "sent_n"}) is None
    assert stem_count("sent", "number", {"count", "batch_id"}) is None  # not the name's count
