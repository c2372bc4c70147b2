"""A radio log sheet kept as fixed-width text (a base station's log, a ship's or a net's log): the markdown it stands for.

    RIVERRUN ADVENTURES - BASE RADIO LOG    Ch 73         the sheet's title: `# RIVERRUN ADVENTURES - BASE RADIO LOG`
    TIME   FROM     TO       TRAFFIC                      the header: a time column, callsign columns, a message column
    1611   OPS(GW)  BASE     Base needs: the trip code,   one transmission a row: when, who sent it, to whom, what
                             heads out and heads in.      a line blank up to the message column: the row above goes on
    1612   OPS      BASE     Item 1, river-gauge for ...  -> ### Step 1: river-gauge, the message its text
    1613   OPS      BASE     Item 2, trip-headcount ...   -> ### Step 2: trip-headcount
    1619   BASE     OPS      Read back items 1 to 5.      another station's traffic: not the procedure's words

The header is a line of column titles parted by two blanks or more, the first a time column ("TIME",
"UTC", "DTG", "HRS") and the last a message column ("TRAFFIC", "MESSAGE", "MSG", "TEXT", "REMARKS",
"DETAILS"); a "FROM" (or "STN", "STATION", "CALLSIGN") column among them names the sender. A row opens
with a clock time ("1612", "16:12") and has its message from the message column on; a line blank up to
that column goes on the row above, each on its own line (so a finding points at it). The procedure is
read out as numbered items ("Item 3, ONLY if ...: skill ...", "Serial 2 - skill", "Point 4:"): the
label and its number are the step's numbering, never its words, and what follows is its text (a
condition said first stays the step's condition; the step's skill is the one named after that clause's colon, not
one the condition names). The items' sender is the author: its transmissions
before the first item are the lead, those after an item go on that item's step; every other station's
traffic (acknowledgements, read-backs, other trips) is no word of the plan, warned once with its
lines. A trailing "Over." / "Out." is radio procedure, not a sentence of the step. Three rows and
two items naming a skill make the shape; else the text is left as it is. Patterns anchored and bounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TIME_TITLES = frozenset({"time", "utc", "dtg", "hrs", "local", "time (utc)", "zulu"})
_FROM_TITLES = frozenset({"from", "stn", "station", "callsign", "call sign", "sender", "de"})
_TEXT_TITLES = frozenset({"traffic", "message", "msg", "text", "remarks", "details", "content"})
_TITLE = _rx(r"\S++(?:[ ]\S++)*+")
_ROW = _rx(r"^[ \t]{0,3}+(?:\d{4}|\d{1,2}:\d{2})(?:[ \t]|$)")
_ITEM = _rx(r"\b(?:item|serial|point|number|no\.)[ \t]++(\d{1,2}+)[ \t]*+(?:,|:|-|–|—)[ \t]*+", re.IGNORECASE)
_NAME = _rx(r"(?<![\w`-])`?+([A-Za-z][A-Za-z0-9_]{0,40}+(?:-[A-Za-z0-9_]{1,40}+){1,6}+)`?+")
_SIGN_OFF = _rx(r"(?:(?<=[.!?])|^)[ \t]*+(?:over(?:[ \t]++and[ \t]++out)?+|out|[A-Za-z0-9]{1,12}+[ \t]++out)"
                r"[ \t]*+\.?[ \t]*+$", re.IGNORECASE)
_LEAD_CLAUSE = _rx(r"(?:only[ \t]++)?+(?:if|when|unless|after|once|whenever)\b[^:\n]{0,160}+:", re.IGNORECASE)
_CALL_NOTE = _rx(r"\([^()]{0,20}+\)")


@dataclass
class _Row:
    at: int  # 0-based line
    sender: str
    lines: list[tuple[int, str]] = field(default_factory=list)  # (0-based line, message text)


def _columns(line: str) -> list[tuple[int, str]]:
    """(start, lower-case title) of each column title of a line, titles parted by two blanks or more."""
    out: list[tuple[int, str]] = []
    at = 0
    for part in line.split("  "):
        if part.strip():
            start = line.index(part.strip(), at)
            out.append((start, part.strip().lower()))
            at = start + len(part.strip())
    return out


def _header(lines: list[str]) -> tuple[int, int, int | None, int | None] | None:
    """(line, message column, sender column start, sender column end) of the log's header, or None."""
    for at, line in enumerate(lines[:40]):
        cols = _columns(line)
        if len(cols) < 3 or cols[0][1] not in _TIME_TITLES or cols[-1][1] not in _TEXT_TITLES:
            continue
        sender = next((i for i, (_, t) in enumerate(cols) if t in _FROM_TITLES), None)
        start = cols[sender][0] if sender is not None else None
        end = cols[sender + 1][0] if sender is not None else None
        return at, cols[-1][0], start, end
    return None


def _skill_named(text: str, vocabulary: Vocabulary) -> str | None:
    for m in _NAME.finditer(text):
        name = m.group(1)
        found = vocabulary.skill_for(name) if vocabulary.skills else (name if name.islower() else None)
        if found:
            return found
    return None


def radio_messages(lines: list[str]) -> dict[int, tuple[bool, str]]:
    """{1-based line: (whether it opens a transmission, its message)} of a radio log's rows and the lines that go on
    them, when `lines` are a log of this shape (a header and three rows); else {}. For the readers of the whole
    document's sentences (`spec.whole_doc`): the time and callsigns are no words of a sentence."""
    head = _header(lines)
    if head is None:
        return {}
    header_at, column = head[0], head[1]
    out: dict[int, tuple[bool, str]] = {}
    rows = 0
    for at in range(header_at + 1, len(lines)):
        line = lines[at]
        message = line[column:].strip() if len(line) > column and line[column - 1:column] in (" ", "\t") else ""
        if _ROW.match(line):
            rows += 1
            out[at + 1] = (True, _SIGN_OFF.sub("", message).rstrip())
        elif out and line.strip() and not line[:column].strip() and message:
            out[at + 1] = (False, _SIGN_OFF.sub("", message).rstrip())
    return out if rows >= 3 else {}


def radio_log_markdown(text: str, vocabulary: Vocabulary) -> tuple[str, list[int], list[tuple[int, str]]] | None:
    """(markdown, origin, warnings) of a radio log sheet whose traffic reads out numbered items (module docstring),
    or None."""
    lines = text.split("\n")
    head = _header(lines)
    if head is None:
        return None
    header_at, column, s_start, s_end = head
    rows: list[_Row] = []
    for at in range(header_at + 1, len(lines)):
        line = lines[at]
        if not line.strip() or set(line.strip()) <= set("-=_*"):
            continue
        message = line[column:].strip() if len(line) > column and line[column - 1:column] in (" ", "\t") else ""
        if _ROW.match(line):
            sender = line[s_start:s_end].strip() if s_start is not None else ""
            rows.append(_Row(at, _CALL_NOTE.sub("", sender).strip().upper()))
            if message:
                rows[-1].lines.append((at, message))
        elif rows and not line[:column].strip() and message:
            rows[-1].lines.append((at, message))
        else:
            return None  # a line that breaks the columns: no log of this shape
    if len(rows) < 3:
        return None
    items: list[tuple[int, int, str]] = []  # (row index, item number, skill)
    for index, row in enumerate(rows):
        flat = " ".join(t for _, t in row.lines)
        m = _ITEM.search(flat)
        while m is not None:
            after = flat[m.end():m.end() + 200]
            lead = _LEAD_CLAUSE.match(after)  # "ONLY if headcount says ...: skill": the skill after the clause
            skill = _skill_named(after[lead.end() if lead is not None else 0:], vocabulary)
            if skill is not None:
                items.append((index, int(m.group(1)), skill))
                break
            m = _ITEM.search(flat, m.end())
    if len(items) < 2 or len({i for i, _, _ in items}) < 2:
        return None
    authors = {rows[i].sender for i, _, _ in items}
    first = items[0][0]
    out: list[str] = []
    origin: list[int] = []
    warnings: list[tuple[int, str]] = []

    def put(text_: str, at_: int) -> None:
        out.append(text_)
        origin.append(at_)

    def put_row(row: _Row, drop_item: bool) -> None:
        for n, (at, message) in enumerate(row.lines):
            if drop_item:
                m = _ITEM.search(message)
                if m is not None:
                    message = (message[:m.start()] + message[m.end():]).strip()
                    drop_item = False
            if n == len(row.lines) - 1:
                message = _SIGN_OFF.sub("", message).rstrip()
            if message:
                put(message, at)
        put("", row.at)

    title = lines[0].split("  ")[0].strip() if header_at > 0 else ""
    if title:
        put(f"# {title}", 0)
        put("", 0)
    others: list[int] = []
    for index, row in enumerate(rows):
        step = next(((n, skill) for i, n, skill in items if i == index), None)
        if row.sender not in authors:
            others.append(row.at + 1)
            continue
        if step is not None:
            if index == first:
                put("## Steps", row.at)
                put("", row.at)
            put(f"### Step {step[0]}: {step[1]}", row.at)
            put("", row.at)
            put(f"- Skill: `{step[1]}`", row.at)  # the skill after the label, not one a condition names before it
            put("", row.at)
            put_row(row, True)
        else:
            put_row(row, False)
    if others:
        warnings.append((others[0], "the radio log's traffic from other stations (lines "
                         + ", ".join(str(n) for n in others) + ") read as the net's, not the procedure's: "
                         "only what " + "/".join(sorted(authors)) + " read out is read"))
    warnings.insert(0, (rows[items[0][0]].at + 1, f"the radio log's {len(items)} numbered items read as the steps, "
                                                  "each transmission's message its text"))
    return "\n".join(out), origin, warnings


_rx.save()
