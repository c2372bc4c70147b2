"""An email thread pasted as text, read as the text its messages say.

    From: Ana <ana@example.org>            <- a header: blanked
    Subject: RE: stock run
    make the waits 1, 2 and 4 minutes      <- the newest message
    Thanks,                                <- a sign-off and the signature under it: blanked
    Ana
    > From: Ben                            <- a quoted header: blanked
    > 1. Pull the counts with `pull-counts`  <- a quoted line: read without its `>`

A document with two or more message headers (a `From:` line with a `Sent:`, `Date:`, `To:` or
`Subject:` line near it, quoted or not; an "-----Original Message-----" or "On ..., X wrote:"
line) is a thread. Each line loses its quote marks (`>`, `>>`, `> >`), so the plan a quoted reply
proposes is read as plain markdown; header lines, attribution lines and each message's sign-off
with the signature under it ("Thanks," ... up to the next message) are blanked, so none is taken
for a step or warned as an instruction that was not read. Every line keeps its number. Each
line's message is kept (`Thread.message_of`, 0 the newest) for the reader of changes
(`spec.email_changes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

_QUOTE = _rx(r"^[ \t]{0,3}+((?:>[ \t]?+)++)")
_HEADER = _rx(r"(?i)^[ \t]*+(?:\*\*)?+(from|sent|date|to|cc|bcc|subject|reply-to)(?:\*\*)?+[ \t]*+:[ \t]*+(?:\*\*)?+")
_SEPARATOR = _rx(r"(?i)^[ \t]*+(?:-{3,}+[ \t]*+(?:original|forwarded)\s++message[ \t]*+-{3,}+|_{10,}+)[ \t]*+$"
                 r"|^[ \t]*+on\s[^\n]{4,120}\swrote:[ \t]*+$")
_SIGN_OFF = _rx(r"(?i)^[ \t]*+(?:thanks(?:\s++again|\s++all)?+|thank\s++you|many\s++thanks|cheers|ta|regards|"
                r"kind\s++regards|best(?:\s++regards|\s++wishes)?+|all\s++the\s++best|sincerely|yours|speak\s++soon|"
                r"--)[ \t]*+[,.!]?+[ \t]*+$")
_LONE_NAME = _rx(r"^[ \t]*+[A-Z][\w.'-]{0,20}+(?:[ \t]++[A-Z][\w.'-]{0,20}+){0,2}+[ \t]*+$")


@dataclass
class Thread:
    """The thread's text without quoting, headers and signatures, and each line's message."""

    text: str
    message_of: dict[int, int] = field(default_factory=dict)  # line (from 1) -> message (0 the newest)
    blanked: list[int] = field(default_factory=list)


def _is_header(line: str) -> bool:
    return _HEADER.match(line) is not None or _SEPARATOR.match(line) is not None


def email_thread(text: str) -> Thread | None:
    """The thread (module docstring), or None when the text is no email thread."""
    lines = text.split("\n")
    bare: list[str] = []
    depth: list[int] = []
    for line in lines:
        m = _QUOTE.match(line)
        depth.append(m.group(1).count(">") if m else 0)
        bare.append(line[m.end():] if m else line)
    keys = [(m.group(1).lower() if (m := _HEADER.match(b)) else "") for b in bare]
    starts = [i for i, k in enumerate(keys) if k == "from" and any(
        keys[j] not in ("", "from") for j in range(max(0, i - 4), min(len(bare), i + 5)))]
    starts += [i for i, b in enumerate(bare) if _SEPARATOR.match(b)]
    if len(starts) < 2 and not (starts and any(depth)):
        return None
    out = list(bare)
    thread = Thread(text="")
    begins = set(starts)
    message, previous_depth, signing, said = 0, depth[0], False, False
    for i, b in enumerate(bare):
        if b.strip() and (i in begins or depth[i] != previous_depth) and said:  # a header or a change of quoting
            message, signing, said = message + 1, False, False
        previous_depth = depth[i] if b.strip() else previous_depth
        thread.message_of[i + 1] = message
        if _is_header(b) or signing or _SIGN_OFF.match(b):
            signing = signing or bool(_SIGN_OFF.match(b))
            if b.strip():
                out[i] = ""
                thread.blanked.append(i + 1)
            continue
        if _LONE_NAME.match(b) and _ends_message(bare, depth, i):  # "Kev" alone at a message's end
            out[i] = ""
            thread.blanked.append(i + 1)
            continue
        said = said or bool(b.strip())
    thread.text = "\n".join(out)
    return thread


def _ends_message(bare: list[str], depth: list[int], i: int) -> bool:
    """Only blank lines follow in its message (up to a header, a change of quoting, or the end)."""
    for j in range(i + 1, len(bare)):
        if depth[j] != depth[i] or _is_header(bare[j]):
            return True
        if bare[j].strip():
            return False
    return True
