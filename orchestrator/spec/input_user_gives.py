"""What the person starting the run gives it, said in words `spec.prose_inputs` does not read: a line
that says the run needs things FROM someone, asks someone FOR them, or says what someone enters or
brings, with the things after its colon or in the lines indented under it.

    Info the tool needs from the operator: the batch code, the tank number.
    Data needed from the requester: cost centre, due date
    Before it starts it has to ask whoever's running it which week it is and which rooms are free.
    The run needs the crew list and the tide table from whoever starts it.
    What the deck officer enters at 0400          (a line alone, its items indented or bulleted under it)
        Position fix: lat/lon
        Wind and sea state
    Bring: the allergen sheet, the oven log

Each thing is kept as written ("the batch code", an item up to its colon) with its line, as
`spec.prose_inputs` keeps its parts: the planner (`plan.prose_inputs`) matches each to a name a
skill reads and warns at the line how each was read. Read only when the spec declares no inputs and
`spec.prose_inputs` found none. One pass over the lines; every pattern is anchored at a line's start
or at a lead word and bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from orchestrator.spec.prose_inputs import parts_of
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WHO = (r"(?:the\s++)?+(?:user|requester|requestor|operator|caller|customer|client|submitter|starter|"
        r"person\s++(?:who\s++)?+(?:runs|running|starts|starting|kicks|kicking)\s++(?:it|this|the\s++run)(?:\s++off)?+|"
        r"whoever(?:['’]s|\s++is)?+\s++(?:runs|running|starts|starting|kicks|kicking|launches|launching)\s++(?:it|this|the\s++run)"
        r"(?:\s++off)?+|you)")
_RUN = r"(?:the\s++)?+(?:process|run|workflow|job|tool|script|bot|system|automation|flow|it|this)"
# "Info the tool needs from the operator:", "Data needed from the requester:", "Needed from you:"
_NEEDED_FROM = _rx(rf"(?i)^[ \t*_#>-]*+(?:[a-z]++\s++){{0,3}}?(?:{_RUN}\s++)?+needs?+(?:ed)?+\s++from\s++{_WHO}\s*+[:—–-]\s*+")
# "it has to ask whoever's running it which week ...", "ask the operator for the batch code and ..."
_ASK = _rx(rf"(?i)\bask\s++{_WHO}\s++(?:for\s++)?+")
# "The run needs the crew list and the tide table from whoever starts it."
_NEEDS_FROM_END = _rx(rf"(?i)\b{_RUN}\s++needs\s++(?P<what>[^.:;\n]{{1,200}}+)")
_FROM_WHO = _rx(rf"(?i)(?<!\s)\s++from\s++{_WHO}\s*+[.;:]?+\s*+$")
# "What the deck officer enters at 0400", "What you bring:" (a line alone: its items under it)
_WHAT_ENTERS = _rx(r"(?i)^[ \t*_#>-]*+what\s++(?:the\s++|our\s++|your\s++|a\s++)?+(?:[a-z]++\s++){0,3}?(?:enters|types\s++in|"
                   r"fills\s++in|brings|provides|supplies|hands\s++(?:in|over)|keys\s++in|inputs|gives\s++(?:it|us))\b"
                   r"[^\n]{0,60}+$")
# "Bring: the allergen sheet", "To bring:", "Bring along:"
_BRING = _rx(r"(?i)^[ \t*_#>-]*+(?:to\s++)?+bring(?:\s++along|\s++with\s++you)?+\s*+:\s*+")
_ITEM = _rx(r"^[ \t]*+(?:[-*•+]|\d{1,2}+[.)])[ \t]++")
# an item that states a time ("Whole sequence capped at 90 min") or runs on like a sentence is no thing given
_TIMED = _rx(r"(?i)\b\d++(?:[.,]\d++)?+\s*+(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?)\b")
_STOP_AT = _rx(r"(?:(?<!\b[Nn]o)(?<!e\.g)(?<!i\.e)\.(?=\s|$)|[!?;](?=\s|$))")


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _sentence(text: str) -> str:
    end = _STOP_AT.search(text)
    return text[: end.start()] if end else text


def _items_under(lines: list[str], at: int) -> list[tuple[str, int]]:
    """(item up to its colon, line index) for each line indented or bulleted under line `at`."""
    head = _indent(lines[at])
    out: list[tuple[str, int]] = []
    for i in range(at + 1, min(len(lines), at + 41)):
        line = lines[i]
        if not line.strip():
            if out:
                break
            continue
        bullet = _ITEM.match(line)
        if _indent(line) <= head and bullet is None:
            break
        text = (line[bullet.end():] if bullet else line.strip()).split(":", 1)[0]
        if _TIMED.search(text) is None:
            out.append((text, i))
    return out


def _things(item: str) -> list[str]:
    """An item's parts, less those that run on like a sentence (more than six words)."""
    return [p for p in parts_of(item) if len(p.split()) <= 6]


def _found(lines: list[str]) -> list[tuple[str, int]]:
    for i, line in enumerate(lines):
        for lead in (_NEEDED_FROM, _BRING):
            m = lead.match(line)
            if m is not None:
                rest = line[m.end():].strip()
                if rest:
                    return [(p, i) for p in parts_of(_sentence(rest))]
                return [(p, j) for item, j in _items_under(lines, i) for p in _things(item)]
        if _WHAT_ENTERS.match(line):
            items = [(p, j) for item, j in _items_under(lines, i) for p in _things(item)]
            if items:
                return items
        m = _ASK.search(line)
        if m is not None:
            said = _sentence(line[m.end():])
            if said.strip():
                return [(p, i) for p in parts_of(said)]
        m = _NEEDS_FROM_END.search(line)
        if m is not None:
            tail = _FROM_WHO.search(_sentence(m.group("what")))
            if tail is not None:
                return [(p, i) for p in parts_of(_sentence(m.group("what"))[: tail.start()])]
    return []


def read_user_gives(lines: Iterable[str], where: Callable[[int], str]) -> tuple[tuple[str, str], ...]:
    """(thing as written, file:line) for each thing the first such line says the run is given (module
    docstring); () when no line says so."""
    found = _found(list(lines))
    return tuple((part, where(i + 1)) for part, i in found)


_rx.save()
