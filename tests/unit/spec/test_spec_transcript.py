"""A chatbot or assistant conversation where a person dictates the flow: the person's turns that
ask for a skill are the steps, their other turns that step's text, and the bot's turns (its
questions, its summary of the flow) are neither steps nor policies."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_EXPORT = """\
Support assistant export · 2026-03-02
---------------------------------------
[14:00] Priya Nair: I'd like a refund flow. the input is a raw order id
[14:00] HelpBot: Great! What comes first?
[14:01] Priya Nair: run fetch-order on it
[14:01] HelpBot: Should it retry?
[14:02] Priya Nair: yes, retry twice, 5s apart
[14:02] HelpBot: And after that?
[14:03] Priya Nair: then it depends on the amount_band. high → request-manager-ok with the order
[14:04] Priya Nair: otherwise → issue-refund for the order, and if it still fails use manual-refund instead
[14:04] HelpBot: Anything once the refund is handled?
[14:05] Priya Nair: after whichever ran: notify-customer with the outcome
[14:06] HelpBot: Saved! fetch-order → (high: request-manager-ok | else: issue-refund) → notify-customer. Run it now?
[14:06] Priya Nair: later thanks
"""

_BOT_LINES = {4, 6, 8, 11, 13}


def _spec(text: str = _EXPORT):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "c.md", "markdown")


def _skill(step) -> str:  # type: ignore[no-untyped-def]
    return str(step.skill or step.mentions[0].text).strip("`")


def test_each_turn_that_asks_for_a_new_skill_is_a_step_and_the_summary_adds_none() -> None:
    spec = _spec()
    assert [_skill(s) for s in spec.steps] == ["fetch-order", "request-manager-ok", "issue-refund", "notify-customer"]
    assert [s.where for s in spec.steps] == ["c.md:5", "c.md:9", "c.md:10", "c.md:12"]


def test_a_skill_a_turn_falls_back_to_is_not_a_step() -> None:
    assert "manual-refund" not in [_skill(s) for s in _spec().steps]


def test_the_bot_s_turns_are_no_step_s_text_and_its_questions_no_warning() -> None:
    spec = _spec()
    assert not [t.line for s in spec.steps for t in s.texts if t.line in _BOT_LINES]
    assert not [w.message for w in spec.warnings if w.line in _BOT_LINES]


def test_a_turn_that_answers_the_bot_is_the_current_step_s_text() -> None:
    fetch = _spec().steps[0]
    assert [t.line for t in fetch.texts if t.line == 7] == [7]


def test_a_case_sent_to_a_skill_with_an_arrow_is_its_condition_and_otherwise_the_other_branch() -> None:
    _, manager, refund, _ = _spec().steps
    assert manager.when == "amount_band is high"
    assert refund.otherwise_where == "c.md:10" and refund.when is None


def test_the_speakers_are_never_step_names() -> None:
    assert not [s.name for s in _spec().steps if "Priya" in s.name or "HelpBot" in s.name]


def test_a_turn_after_the_bot_summed_up_the_flow_is_a_reply_warned_not_a_policy() -> None:
    spec = _spec()
    assert any(w.line == 14 and "reply" in w.message for w in spec.warnings)
    assert not [t for s in spec.steps for t in s.texts if t.line == 14]


def test_turns_opened_by_a_role_alone_are_a_transcript_too() -> None:
    text = ("User: I need a digest. first call collect-posts\nAssistant: Sure, any limits?\n"
            "User: give it 30 seconds per try\nAssistant: Then?\nUser: then use summarise-posts on them\n")
    spec = _spec(text)
    assert [_skill(s) for s in spec.steps] == ["collect-posts", "summarise-posts"]
    assert spec.steps[0].where == "c.md:1"
    assert [t.line for t in spec.steps[0].texts if t.line == 3] == [3]


def test_a_conversation_with_no_bot_is_read_as_before() -> None:
    text = ("# x\n\n[10:00] Ann: hi\n[10:01] Bo: first run load-rows\n[10:02] Ann: then use score-rows\n"
            "[10:03] Bo: ok, retry it twice\n")
    spec = _spec(text)  # the speakers are all people: every turn is the author's
    assert [_skill(s) for s in spec.steps] == ["load-rows", "score-rows"]
    assert [(r.steps, r.statement.retries) for r in spec.readings] == [(("step-2",), 2)]


def test_a_transcript_that_asks_for_no_skill_is_refused_at_its_first_turn_not_read_as_one_step() -> None:
    import pytest

    from orchestrator.errors import SpecError

    text = ("Export of a chat\n\n[08:00] Sam: I want something for the weekly report\n[08:00] DeskBot: What should it do?\n"
            "[08:01] Sam: gather the numbers and mail them\n[08:01] DeskBot: Noted.\n")
    with pytest.raises(SpecError) as info:
        _spec(text)
    [found] = info.value.diagnostics
    assert found.line == 3 and found.code == "spec.no-steps" and "run `fetch-orders` on it" in found.message


def test_speakers_without_times_are_turns_when_a_bot_is_one_of_them() -> None:
    text = ("Lena: start with `tally-uploads` on the uploads\nFormBot: Noted. Retries?\nLena: retry it twice\n"
            "FormBot: Next?\nLena: then use archive-batch\nFormBot: Saved.\n")
    spec = _spec(text)
    assert [_skill(s) for s in spec.steps] == ["tally-uploads", "archive-batch"]
    assert [(r.steps, r.statement.retries) for r in spec.readings] == [(("step-1",), 2)]


def test_labelled_lines_of_an_ordinary_spec_are_not_a_conversation() -> None:
    text = ("# x\n\nOwner: Dana\nReviewer: Omar\nOwner: again\nReviewer: again\n\n## Steps\n"
            "1. Load with `load-rows`.\n2. Score with `score-rows`.\n")
    assert [s.form for s in _spec(text).steps] == ["list", "list"]


def test_an_input_named_before_the_first_step_is_declared() -> None:
    text = _EXPORT.replace("the input is a raw order id", "the input is a raw order id, call it order_ref")
    assert [i.name for i in _spec(text).inputs] == ["order_ref"]


def test_a_role_on_a_line_of_its_own_opens_a_message_whose_lines_may_each_ask_for_a_step() -> None:
    text = ("# Exported chat\n\n**User:**\nHelp me chain two skills.\n\n**Assistant:**\nSure, which ones?\n\n"
            "**User:**\n1. run pull-invoices on the folder\n2. then post-summary with the totals, retry it twice\n\n"
            "**Assistant:**\nDone: pull-invoices then post-summary.\n")
    spec = _spec(text)
    assert [(_skill(s), s.where) for s in spec.steps] == [("pull-invoices", "c.md:10"), ("post-summary", "c.md:11")]
    assert [(r.steps, r.statement.retries) for r in spec.readings] == [(("step-2",), 2)]
    assert not [w for w in spec.warnings if w.line in (7, 14)]
