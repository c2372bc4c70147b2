"""A forum thread copied as markdown (`spec.forum_thread45`), read as a pasted chat (`spec.chat`): its
headers, marks and reactions are no text; the replies after the steps are placed on the step they name,
sentence by sentence where a reply names several, the later message's rule first; a form's field list
names the workflow inputs (`spec.inputs_lead`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.forum_thread45 import forum_lines
from orchestrator.spec.inputs_lead import inputs_lead

_THREAD = """\
# Nightly export - how it works now #88

**ana-m** opened this discussion on 3 Dec · 4 comments

**ana-m** commented 2 days ago

Here's the job:

1. `pull-orders` fetches the day's orders
2. `price-check` checks the totals
3. `send-report` mails the sheet

Fields on the web form: `shop`, `since_date`.

Ground rules:
- pull-orders: the API is slow, allow 90 seconds
- send-report: never resend, people get it twice

❤️ 4 👀 1

**lee_p** replied yesterday

what if price-check blows up mid-way? will pull-orders be run again?

> **ana-m** · 20 hours ago · Author
>
> ✔ Marked as answer
>
> price-check now gets 3 retries, 10s apart. And send-report can wait up to 5 minutes per try.

**lee_p** · 3 hours ago

pull-orders: allow 2 minutes, not 90 seconds - we timed it.
"""


def _spec():  # type: ignore[no-untyped-def]
    return parse_spec_text(_THREAD, "t.md", "markdown")


def test_two_forum_headers_make_a_thread_whose_headers_marks_and_reactions_are_blanked() -> None:
    lines = _THREAD.split("\n")
    blanked = {i + 1 for i in forum_lines(lines) or []}
    assert blanked == {3, 5, 19, 21, 25, 27, 31}
    assert not blanked & {7, 9, 13, 16, 17, 23, 29, 33}


def test_a_header_with_words_after_its_time_or_a_single_header_is_no_thread() -> None:
    assert forum_lines(["**Alex** · 3 days ago said the export is broken", "**Sam** · 2 days ago agreed"]) is None
    assert forum_lines(["**Alex** · 3 days ago", "", "1. `a-b` does a"]) is None


def test_the_steps_are_the_proposal_and_no_author_is_a_step() -> None:
    spec = _spec()
    assert [s.where for s in spec.steps] == ["t.md:9", "t.md:10", "t.md:11"]
    assert not any(w in s.name for s in spec.steps for w in ("ana", "lee"))


def test_a_form_field_list_names_the_workflow_inputs() -> None:
    assert [i.name for i in _spec().inputs] == ["shop", "since_date"]
    assert inputs_lead("The booking form's fields: `who`, `when`")
    assert inputs_lead("Form fields (for the bot): `member` and `svg_url`")
    assert not inputs_lead("Form fields are checked by `form-check` before saving.")


def test_a_rules_list_after_the_steps_gives_each_item_to_the_step_it_names() -> None:
    spec = _spec()
    texts = {s.id: [t.line for t in s.texts] for s in spec.steps}
    assert 16 in texts["step-1"] and 17 in texts["step-3"]
    assert not any("Ground rules" in w.message for w in spec.warnings)


def test_a_reply_naming_several_steps_is_read_a_sentence_at_a_time_and_a_question_sets_no_rule() -> None:
    spec = _spec()
    check, send = spec.steps[1], spec.steps[2]
    assert [t.text for t in check.texts if t.line == 29] == ["price-check now gets 3 retries, 10s apart."]
    assert [t.text for t in send.texts if t.line == 29] == ["And send-report can wait up to 5 minutes per try."]
    assert not any(t.line == 23 for s in spec.steps for t in s.texts)  # "what if ... ?": asked, not a rule
    # answered by line 29, which is read: no "not read" warning, a reading says so (`spec.chat._answered`)
    assert not any(w.line == 23 and "not read" in w.message for w in spec.warnings)
    assert any(r.where == "t.md:23" and "answered by the reply at line 29" in r.note for r in check.readings)


def test_the_later_reply_is_read_before_the_earlier_rule_of_the_same_step() -> None:
    pull = _spec().steps[0]
    assert [t.line for t in pull.texts][:2] == [33, 16]
    assert any(r.where == "t.md:33" and "later message" in r.note for r in pull.readings)


def test_a_paragraph_of_the_proposal_s_own_message_is_not_warned_a_later_reply_is() -> None:
    text = ("# Fix the nightly\n\n**sam** commented 3 days ago\n\n1. `pull-orders` gets them\n2. `send-report` mails them\n\n"
            "See also #212 (the old form).\n\n**jo** commented 2 days ago\n\nthanks, looks good\n")
    spec = parse_spec_text(text, "t.md", "markdown")
    warned = {w.line for w in spec.warnings if "reply in the pasted chat" in w.message}
    assert warned == {12}
