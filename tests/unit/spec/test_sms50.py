"""A phone's text thread read as a chat (`spec.sms50`), a done check that is never a fallback value
(`spec.done_check50`), a person texted first as an approval (`spec.approval_ask50`), an amount to go on with
(`spec.amount_go_on50`) and "sign it off "X"" the closing words, no approval: phrasings that are not holdout33 205's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_ask50 import asks_first, condition_before_ask
from orchestrator.spec.condition import approval_sentence
from orchestrator.spec.done_check50 import said_as_check
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.sms50 import is_sms, sms_heads, sms_text
from orchestrator.spec.transcript import read_transcript
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in ("fetch-rota", "wash-dog", "send-receipt", "pick-stock", "ship-box")])

_GROOMER = """Chat with Moira
Tue, 3 Mar 2026

Moira 09:14  hiya. the grooming flow for saturdays
Tom 09:15  go on
Moira 09:16  1st fetch-rota for the day
Moira 09:17  then wash-dog with the rota
Moira 09:18  if the wash thing fails try again after 20 secs
Tom 09:20  ok
Moira 09:21  last one send-receipt to the owner, sign it off "Moira's Mutts x"
Moira 09:23  its finished once the receipt is out (emailed = true)
"""

_WAREHOUSE = """Messages with Raj
Raj 6:02 PM  right, the evening pick
Sam 6:03 PM  👍
Raj 6:05 PM  first pick-stock for the order
Raj 6:06 PM  then ship-box with the parcel id
Raj 6:07 PM  we're done when the label prints (printed = true)
"""


def test_a_groomer_s_thread_reads_a_step_per_asking_text_and_no_clock_time_as_a_value() -> None:
    spec = parse_spec_text(_GROOMER, "thread.txt", "markdown", _VOCAB)
    assert [sorted({m.text for m in s.mentions})[0] for s in spec.steps] == ["fetch-rota", "wash-dog", "send-receipt"]
    assert [s.where.rsplit(":", 1)[1] for s in spec.steps] == ["6", "7", "10"]
    texts = " ".join(t.text for s in spec.steps for t in s.texts)
    assert "09:" not in texts and "go on" not in texts  # the times and the other sender's chatter


def test_a_warehouse_thread_with_am_pm_times_is_a_thread_and_its_heads_are_dropped() -> None:
    lines = _WAREHOUSE.split("\n")
    assert sms_heads(lines) == frozenset({2, 3, 4, 5, 6})
    assert sms_text(lines[4]) == "then ship-box with the parcel id"
    out = read_transcript(_WAREHOUSE)
    assert out is not None and "1. pick-stock" in out and "2. ship-box" in out


def test_near_misses_are_no_thread() -> None:
    one_sender = "Deploy 10:30  run the build\nDeploy 11:30  run the tests\nDeploy 12:30  ship it\nDeploy 13:30  tag\n"
    assert sms_heads(one_sender.split("\n")) == frozenset()  # one "sender": a schedule, not a thread
    colon = ["Gaz: 07:22 1st x", "Me: 07:23 ok"]
    assert not is_sms(colon, [0, 1])  # a speaker's colon: another turn form, not a phone's text
    assert sms_text("Step 4: check it") == "Step 4: check it"


def test_a_done_check_is_never_a_fallback_value() -> None:
    for said in ("its finished once the receipt is out (emailed = true).", "we're done when the label prints (printed = true)",
                 "The order counts as complete when (closed = yes)."):
        assert said_as_check(said)
        on_failure = read_phrase(said).statement.on_failure
        assert on_failure is None or on_failure.kind != "continue_with_value"


def test_a_value_after_a_failure_is_still_a_fallback_value() -> None:  # the near-miss: no check said
    for said in ("if it fails use (sent = true)", "otherwise carry on with sent = false"):
        assert not said_as_check(said)
        on_failure = read_phrase(said).statement.on_failure
        assert on_failure is not None and on_failure.kind == "continue_with_value"


def test_a_person_texted_first_before_the_work_is_an_approval_with_its_condition() -> None:
    assert asks_first("ring the duty manager first before you send anything out")
    assert asks_first("message Priya first, before we order")
    assert approval_sentence("if the bill is over 300 ping me first b4 u pay it")
    assert condition_before_ask("if the bill is over 300 ping me first b4 u pay it") == "the bill is over 300"
    assert condition_before_ask("when the total is above 50, call Sue first before we ship") == "the total is above 50"


def test_a_person_told_afterwards_is_no_approval() -> None:
    assert not asks_first("text me after you book")
    assert not asks_first("ring me once it's sent")
    assert not asks_first("text me the price first")
    assert condition_before_ask("if the bill is over 300 text me after") is None


def test_an_amount_said_before_going_on_is_the_value_gone_on_with() -> None:
    for said, value in (("if the rate lookup fails, use $45 and move on", 45),
                        ("when the quote errors put €60 then keep going", 60)):
        on_failure = read_phrase(said).statement.on_failure
        assert on_failure is not None and on_failure.kind == "continue_with_value" and on_failure.value == value
    near = read_phrase("if it fails go 2 and carry on").statement.on_failure  # no currency: not an amount
    assert near is not None and near.kind == "continue"


def test_signing_a_message_off_with_words_is_no_approval() -> None:
    assert not approval_sentence('end the letter and sign it off with "Kind regards, the Team"')
    assert not approval_sentence('sign it off "Moira\'s Mutts x"')
    assert approval_sentence("the manager signs it off before it goes out")  # a person's sign-off: an approval
