"""A long diagnostic made short enough to read without losing what it says.

A warning quotes the author's text ('...'), which may be a whole paragraph, then says how it was
read and what to write: its verdict comes last. Cutting the message at a length cuts the verdict,
so here the quoted author text is cut instead, in its middle ("head … tail"), longest quote first,
each keeping its start and its end. The tool's own words are never cut; only a message still
longer than `HARD_CAP` once every quote is short (no quote to cut: a long path, many names) is cut
in its middle, as a last resort against a huge message.

    trim("step-1: '<600 characters of the author's text>' is not read: write ...", 400)
        → "step-1: '<first 180> … <last 180>' is not read: write ..."
"""

from __future__ import annotations

HARD_CAP = 1_000  # characters; the tool's own words (paths, names) stay whole below it
_KEEP = 30  # characters a quote keeps on each side of its cut, at least
_CUT = " … "
_OPENS_AFTER = frozenset(" ([{:=,\"")  # a quote opens after a blank or such a mark, never inside a word
_CLOSES_BEFORE = frozenset(" .,;:)]}!?…\"")  # ... and closes before one


def quoted_spans(message: str) -> list[tuple[int, int]]:
    """The (start, end) of each text in single quotes, its quotes left out: an apostrophe inside a
    word ("doesn't") neither opens nor closes one. One pass over the message."""
    spans: list[tuple[int, int]] = []
    start = -1
    last = len(message) - 1
    for i, ch in enumerate(message):
        if ch != "'":
            continue
        before = message[i - 1] if i > 0 else " "
        after = message[i + 1] if i < last else " "
        if start < 0:
            if (before in _OPENS_AFTER) and not after.isspace():
                start = i + 1
        elif not before.isspace() and (after in _CLOSES_BEFORE or i == last):
            if i - start > 0:
                spans.append((start, i))
            start = -1
    return spans


def _shortened(body: str, take: int) -> str:
    """`body` less `take` characters, cut in its middle."""
    length = len(body) - take - len(_CUT)
    head = (length + 1) // 2
    return body[:head] + _CUT + body[len(body) - (length - head):]


def trim(message: str, limit: int) -> str:
    """`message` at most `limit` characters long where its quotes allow (module docstring)."""
    if len(message) <= limit:
        return message
    excess = len(message) - limit
    cuts: dict[tuple[int, int], str] = {}
    for start, end in sorted(quoted_spans(message), key=lambda s: s[0] - s[1]):  # the longest first
        if excess <= 0:
            break
        room = (end - start) - 2 * _KEEP - len(_CUT)
        if room <= 0:
            continue
        take = min(room, excess)
        cuts[(start, end)] = _shortened(message[start:end], take)
        excess -= take
    out: list[str] = []
    last = 0
    for start, end in sorted(cuts):
        out += [message[last:start], cuts[(start, end)]]
        last = end
    out.append(message[last:])
    text = "".join(out)
    if len(text) > HARD_CAP:  # no quote left to cut: the middle, as a last resort
        half = (HARD_CAP - len(_CUT)) // 2
        text = text[:half] + _CUT + text[len(text) - half:]
    return text
