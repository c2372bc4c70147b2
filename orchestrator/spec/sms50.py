"""An SMS or iMessage thread copied off a phone as plain text, read as a chat transcript (50th round).

    Conversation with Gaz (boss) +44 7700 900311         the thread's header
    Thu, 8 Apr 2027                                      a date line
    Gaz 07:21  ok. from the call u need: a, b n c        one text a line: who sent it, the clock time, the text
    Me 07:26  👍

A text opens with its sender (one to three capitalised words, no colon) and the clock time it was sent,
then the message. Such lines are turns (`spec.transcript`), and a thread of them is read as a messaging
app's export (`spec.chat_export`): the speaker who asks for the most skills is the author, another's
reply is kept only when it could set a rule, chatter ("👍", "[Image]") is blank. The clock time at a
text's head is when it was sent, never a value of the plan: it is gone with the head.

A line whose time is not followed by a message ("Gaz 07:22" alone) is a chat header (`spec.chat`), and
a line with a colon after the name ("Gaz: 07:22 ...") is a turn of another form, not this one.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a text's head: the sender (no colon) and the clock time it was sent, then the message
SMS_TURN = (r"^[ \t]*+(?P<who>[A-Z][\w.'’-]{0,24}+(?:[ \t][A-Z][\w.'’-]{0,24}+){0,2}+)[ \t]++"
            r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?+(?:[ \t]?+[AaPp]\.?[Mm]\.?)?+)[ \t]++(?P<text>[^\s:].*+)$")
_SMS = _rx(SMS_TURN)
# where a line opens the next text: a sentence of the one before ends there
SMS_HEAD = r"[A-Z][\w.'’-]{0,24}+(?:[ \t][A-Z][\w.'’-]{0,24}+){0,2}+[ \t]++\d{1,2}:\d{2}[ \t]"


def sms_heads(lines: list[str]) -> frozenset[int]:
    """The 1-based numbers of the lines that open a text, when `lines` are a phone's thread (four texts or
    more from two senders or more, and most of the thread's turns), else none."""
    found = [(n, m.group("who")) for n, line in enumerate(lines, start=1) if (m := _SMS.match(line))]
    if len(found) < 4 or len({who for _, who in found}) < 2:
        return frozenset()
    return frozenset(n for n, _ in found)


def sms_text(line: str) -> str:
    """A text's line with its sender and clock time dropped ("Gaz 07:40  whole lot ..." -> "whole lot ...")."""
    m = _SMS.match(line)
    return m.group("text") if m is not None else line


def is_sms(lines: list[str], turns: list[int]) -> bool:
    """Most turns open with a sender and a clock time, no colon between: a phone's text thread."""
    return sum(1 for i in turns if _SMS.match(lines[i])) * 2 > len(turns)


_rx.save()
