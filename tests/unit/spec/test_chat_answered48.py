"""A question in a pasted chat or forum thread ("could it have a retry?", "what if the scan fails?") sets no
rule: when the reply right after it answers it and is read (placed on a step the question names), the
question is neither the step's text nor warned as "not read"; a reading on the step says it was answered
(`spec.chat._answered`). Near-miss: a question whose answer is not read is still warned."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_SLACK = """\
# Warehouse pick flow

**Priya Shah** 9:02 AM

1. `fetch-orders` pulls the open orders
2. `print-labels` prints the labels
3. `notify-packers` pings the packing bench

**Tom Reyes** 9:40 AM

print-labels jammed twice on Monday. can we get it to try again?

**Priya Shah** 9:44 AM

print-labels now gets 3 retries, 20s apart.
"""

_FORUM = """\
# Greenhouse watering - new routine #7

**mo-grows** · 4 days ago · Maintainer

1. `read-moisture` reads every bed's sensor
2. `open-valves` opens the valves that need it

---

**ash-k** · 3 days ago

What if open-valves can't reach the controller? Flooding worries me.

> **mo-grows** · 3 days ago · Maintainer
>
> open-valves gives up after 40 seconds and the run fails there, no retry.
"""


def _warned(spec, line: int) -> bool:  # type: ignore[no-untyped-def]
    return any(w.line == line and "not read" in w.message for w in spec.warnings)


def test_a_question_answered_by_a_read_reply_is_not_warned_in_a_chat() -> None:
    spec = parse_spec_text(_SLACK, "c.md", "markdown")
    labels = spec.steps[1]
    assert not any(t.line == 11 for t in labels.texts)  # the question is no text of the step
    assert any(t.line == 15 for t in labels.texts)  # its answer is
    assert not any(w.line == 11 for w in spec.warnings if w.code in ("spec.unread", "spec.policy-unread"))
    assert any(r.where == "c.md:11" and "answered by the reply at line 15" in r.note for r in labels.readings)


def test_a_question_answered_by_a_read_reply_is_not_warned_in_a_forum_thread() -> None:
    spec = parse_spec_text(_FORUM, "f.md", "markdown")
    valves = spec.steps[1]
    assert any(t.line == 16 for t in valves.texts)
    assert not _warned(spec, 12)
    assert any(r.where == "f.md:12" and "line 16" in r.note for r in valves.readings)


def test_a_question_whose_answer_is_not_read_is_still_warned() -> None:
    text = _SLACK.replace("print-labels now gets 3 retries, 20s apart.", "no idea, ask Dana on Thursday.")
    spec = parse_spec_text(text, "c.md", "markdown")
    assert not any(r.where == "c.md:11" and "answered" in r.note for s in spec.steps for r in s.readings)
    assert any(w.line in (11, 15) for w in spec.warnings if w.code in ("spec.unread", "spec.policy-unread"))
