"""An iCalendar file (`.ics`: a meeting invite, a reminder exported from Outlook or Google Calendar)
read as the markdown its event's DESCRIPTION stands for, on the file's own lines.

    BEGIN:VCALENDAR ... BEGIN:VEVENT                       the calendar's frame: nothing
    SUMMARY:Term set-up                                 -> # Term set-up            (## when several events)
    DESCRIPTION:Hi\\, you need the TERM.\\n\\n1) load-x  -> Hi, you need the TERM.
     with the term. If it errors try it                      1) load-x with the term. If it errors try it
      twice more.\\n2) next-step ...                          twice more.
                                                             2) next-step ...
    DTSTART, RRULE, ATTENDEE, LOCATION, BEGIN:VALARM ... END:VALARM (the alarm's own
    TRIGGER and DESCRIPTION), X-ALT-DESC                     nothing: when and to whom, not what

RFC 5545's content lines are undone first: a line that opens with a space or a tab continues the
line before it, wherever the fold fell (`email-pare` / ` nts` is `email-parents`); a property's
name and parameters end at the first `:` outside double quotes. A TEXT value is unescaped:
`\\n` / `\\N` a line break, `\\,` `\\;` `\\\\` the character itself.

The description's words stay on the file's lines: each word on the line it starts on, a quoted
"..." value kept whole on the line its quote opens, and a line of the description (after its
`\\n`) starts on the line its first word is on, or the first free line after the lines above,
since an escaped line break inside a folded line leaves the next line of the text no line of its
own; an empty line of the description (a paragraph break) is kept when it has a line of its own:
one that would take the line the next line of text starts on is dropped, so that text keeps the
author's line ("... Office\".\n\nIt's done when ..." folded onto one line: the check is said there). A line that would open with a list marker or `#` takes that word onto the line before.
So a finding names the author's line, or the one after it. A file is an iCalendar file when
its first line that is not blank is `BEGIN:VCALENDAR` and some event, to-do or journal entry in
it has a DESCRIPTION; any other file is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# NAME *(";" param) ":" value, a parameter's value may be quoted ("a:b" is no end of the name)
_PROPERTY = _rx(r"^(?P<name>[A-Za-z][A-Za-z0-9-]{0,60}+)(?:;(?:[^\":\n]|\"[^\"\n]{0,400}+\"){0,800}+)?+:(?P<value>.*+)$")
_ITEM = _rx(r"^(?:\d{1,3}[.)]|[a-zA-Z][.)]|[-*+•])[ \t]")
_MARKER = _rx(r"^(?:\d{1,3}[.)]|[-*+>|•]|#{1,6}+)$|^#")
_ESCAPE = {"n": "\n", "N": "\n", ",": ",", ";": ";", "\\": "\\"}
_EVENTS = frozenset(("VEVENT", "VTODO", "VJOURNAL"))


@dataclass
class _Event:
    """One event's summary and description: their text and, per character, the file's line (1-based)."""

    summary: tuple[str, int] | None = None
    description: list[tuple[str, int]] = field(default_factory=list)


def is_calendar(text: str) -> bool:
    """An iCalendar file (module docstring: its first line, and a description in an event)."""
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")
    return first.upper() == "BEGIN:VCALENDAR" and _events(text) != []


def _unfolded(text: str) -> list[tuple[str, list[int]]]:
    """The content lines, each with the file's line of every character (folds undone)."""
    lines: list[tuple[str, list[int]]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        raw = raw.removesuffix("\r")
        if raw[:1] in (" ", "\t") and lines:
            chars, where = lines[-1]
            lines[-1] = (chars + raw[1:], where + [number] * (len(raw) - 1))
        elif raw.strip():
            lines.append((raw, [number] * len(raw)))
    return lines


def _events(text: str) -> list[_Event]:
    """Each event, to-do or journal entry that has a description, in the file's order; a component
    inside one (an alarm) is skipped, its own description included."""
    events: list[_Event] = []
    stack: list[str] = []
    for chars, where in _unfolded(text):
        m = _PROPERTY.match(chars)
        if m is None:
            continue
        name, value = m.group("name").upper(), m.group("value")
        if name in ("BEGIN", "END"):
            kind = value.strip().upper()
            if name == "BEGIN":
                stack.append(kind)
                if kind in _EVENTS and len(stack) <= 2:
                    events.append(_Event())
            elif kind in stack:
                del stack[len(stack) - 1 - stack[::-1].index(kind):]
            continue
        if not stack or stack[-1] not in _EVENTS or not events:
            continue
        start = m.start("value")
        if name == "SUMMARY" and events[-1].summary is None:
            events[-1].summary = ("".join(c for c, _ in _unescaped(value, where[start:])).strip(), where[0])
        elif name == "DESCRIPTION" and not events[-1].description:
            events[-1].description = _unescaped(value, where[start:])
    return [e for e in events if "".join(c for c, _ in e.description).strip()]


def _unescaped(value: str, where: list[int]) -> list[tuple[str, int]]:
    """A TEXT value's characters, each with its line: `\\n` a line break, `\\,` a comma, ..."""
    out: list[tuple[str, int]] = []
    at = 0
    while at < len(value):
        char = value[at]
        if char == "\\" and at + 1 < len(value) and value[at + 1] in _ESCAPE:
            out.append((_ESCAPE[value[at + 1]], where[at]))
            at += 2
            continue
        out.append((char, where[at]))
        at += 1
    return out


def _words(chars: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """One line of the description as its words, each with the line it starts on; a double-quoted
    value is one word."""
    words: list[tuple[str, int]] = []
    word, line, quoted = "", 0, False
    for char, at in chars:
        if char in " \t" and not quoted:
            if word:
                words.append((word, line))
            word = ""
            continue
        if not word:
            line = at
        word += char
        if char in "\"“”":
            quoted = not quoted if char == "\"" else char == "“"
    if word:
        words.append((word, line))
    return words


class _Page:
    """The lowered file: one slot per line of the file (more only when the text runs past its end)."""

    def __init__(self, count: int) -> None:
        self.lines = [""] * count
        self.free = 1  # the first line nothing has been written on or after

    def put(self, line: int, text: str) -> int:
        """`text` on `line`, growing the page when it runs past the file's end."""
        while len(self.lines) < line:
            self.lines.append("")
        self.lines[line - 1] = text
        self.free = max(self.free, line + 1)
        return line


SAID = ("the file is an iCalendar file: its event's DESCRIPTION is read as the text (folded lines joined, `\\n` a "
        "line break, `\\,` a comma; each line of it on the file's line where it starts, or the next free one) and its "
        "SUMMARY as the title; the calendar's other properties (times, attendees, repeats, alarms) are not read")


def calendar_markdown(text: str) -> str | None:
    """The file as the markdown its events' descriptions stand for (module docstring); None when
    `text` is no iCalendar file."""
    if not is_calendar(text):
        return None
    events = _events(text)
    page = _Page(len(text.split("\n")))
    for event in events:
        if event.summary is not None and event.summary[0]:
            heading = "#" if len(events) == 1 else "##"
            page.put(max(event.summary[1], page.free), f"{heading} {event.summary[0]}")
        _lay_out(page, event.description)
    return "\n".join(page.lines)


def _lay_out(page: _Page, chars: list[tuple[str, int]]) -> None:
    """The description's lines on the page (module docstring)."""
    lines: list[list[tuple[str, int]]] = [[]]
    for char, at in chars:
        if char == "\n":
            lines.append([])
            lines[-1].append(("", at))  # where the line's break is: an empty line's place
            continue
        lines[-1].append((char, at))
    pending_blank: int | None = None
    for number, line in enumerate(lines):
        real = [(c, at) for c, at in line if c]
        words = _words(real)
        if not words:
            if number > 0:
                where = line[0][1] if line else page.free
                pending_blank = max(where, page.free) if pending_blank is None else pending_blank
            continue
        item = _ITEM.match(" ".join(w for w, _ in words[:2]) + " ") is not None
        if pending_blank is not None:
            crowded = words[0][1] <= max(pending_blank, page.free)  # no free line for the break and the line both
            if not (crowded and (item or pending_blank >= page.free)):
                page.put(max(pending_blank, page.free), "")
            pending_blank = None
        _paragraph(page, words, item)


def _paragraph(page: _Page, words: list[tuple[str, int]], item: bool) -> None:
    """One line of the description: each word on the line it starts on, or the line being written
    when the line above pushed it down; a word that would open a line as a list marker stays on the
    line before."""
    indent = " " * (len(words[0][0]) + 1) if item else "  "
    at = max(words[0][1], page.free)
    current = [words[0][0]]
    opening = True
    for word, line in words[1:]:
        if line > at and not _MARKER.match(word):
            page.put(at, ("" if opening else indent) + " ".join(current))
            at, current, opening = line, [word], False
            continue
        current.append(word)
    page.put(at, ("" if opening else indent) + " ".join(current))


_rx.save()
