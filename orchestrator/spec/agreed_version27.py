"""A document that holds superseded text beside the version that counts, read as that version.

    == Automating the scans? ==                <- a proposal, a draft list and the talk about it:
    # look it up with accession-lookup            set aside (blank), warned once with its lines
    : Cap at 5 minutes? / ::: Fine, 3.
    == Agreed version (12 Nov) ==              <- the version that counts: read as ever
    * 1. Lookup - accession-lookup ...
    : {{done}} thanks --[[User:T]]             <- a reply under it: set aside, warned

A heading or a line of its own that says the version counts ("Agreed version", "Final plan",
"Revised plan:", "Here's the final version:", "UPDATED plan", "Plan v2") and is followed by a
list marks it; its span runs to the next heading (a heading) or to the end of its list (a line).
When a step list stands outside that span, the author replaced it: from the first such list
before the marker up to the marker (the draft and the discussion of it, whose counts and
policies must not mix into the version) is set aside, and so is a rival list after the span.
A section that declares inputs, outputs or limits is kept wherever it stands. A line struck
through whole (`~~...~~`, `<s>`, `<del>`, `<strike>`) is set aside in any document; a banner with spaces inside its
tildes ("~~ BATCH CARD ~~") is no strike-through, as markdown itself does not strike it. Every
set-aside part is warned with its lines; each line keeps its number. A changelog's
"Version 1.2.0" heading, a "Final steps" section or an input named `version` marks nothing.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.wiki import is_wiki

_rx = Patterns(__name__)

_QUALIFIED = (r"(?:agreed|final|revised|updated|current|approved|latest|corrected|amended|new)"
              r"(?:[ \t]++(?:and[ \t]++)?+(?:agreed|final|approved))?+")
_NOUN = r"(?:version|plan|procedure|workflow|process|runbook|write-?up|steps[ \t]++list)"
_LEAD = (r"(?:(?:ok(?:ay)?+|so|right|update)[ \t]*+[,:]?+[ \t]++)?+"
         r"(?:(?:here(?:'s|[ \t]++is)|this[ \t]++is|below[ \t]++is)[ \t]++)?+(?:the[ \t]++|our[ \t]++|my[ \t]++)?+")
_TAIL = r"[ \t]*+(?:[(\[][^()\[\]\n]{0,40}+[)\]])?+[ \t]*+(?:[-–—,][ \t]*+[^\n:]{0,30}+)?+[ \t:.!*]*+$"
_COUNTS = _rx(r"(?i)^" + _LEAD + r"(?:" + _QUALIFIED + r"[ \t]++" + _NOUN
              + r"|" + _NOUN + r"[ \t]*+(?:v|version[ \t]*+)\d{1,2}+(?![.\d])"
              + r"|v\d{1,2}+(?![.\d])[ \t]*+" + _NOUN + r"?+"
              + r"|updated|revised)\b" + _TAIL)
_MD_HEADING = _rx(r"^[ \t]{0,3}+(#{1,6}+)[ \t]++([^\n]*+)$")
_WIKI_HEADING = _rx(r"^[ \t]*+(={1,6}+)[ \t]*+([^=\n][^\n]*?)[ \t]*+=++[ \t]*+$")
_BOLD_LINE = _rx(r"^[ \t]*+(?:\*\*|__|''')([^*_'\n]{1,80}+)(?:\*\*|__|''')[ \t:]*+$")
_MD_LIST = _rx(r"^[ \t]{0,6}+(?:[-*+•]|\d{1,3}+[.)])[ \t]++\S")
_WIKI_LIST = _rx(r"^[#*]{1,4}+[ \t]*+\S")
_WIKI_REPLY = _rx(r"^:")
_STRUCK = _rx(r"(?i)^[ \t]*+(?:(?:[-*+•]|\d{1,3}+[.)])[ \t]++)?+(?:~~(?![ \t])[^~\n]++(?<![ \t])~~|<(s|del|strike)>[^<\n]++</\1>)"
              r"[ \t.]*+$")
_KEPT = _rx(r"(?i)^(?:inputs?|outputs?|parameters|variables|settings|configuration|limits|success|done[ \t]++when)\b")


class SetAside(BaseModel):
    """The document with its superseded lines blank, and what was said about each part."""

    model_config = ConfigDict(frozen=True)

    text: str
    warnings: tuple[tuple[int, str], ...]


def _heading(line: str, wiki: bool) -> tuple[int, str] | None:
    """(level, title) of a heading line, or None."""
    found = _WIKI_HEADING.match(line) if wiki else _MD_HEADING.match(line)
    if found is None:
        return None
    return len(found.group(1)), found.group(2).strip().strip("#").strip()


def _is_list(line: str, wiki: bool) -> bool:
    return bool(_WIKI_LIST.match(line) if wiki else _MD_LIST.match(line))


def _marker(line: str, wiki: bool) -> tuple[int, str] | None:
    """(level, words) when the line says the version below it counts; level 0 for a line that
    is no heading."""
    heading = _heading(line, wiki)
    if heading is not None:
        return (heading[0], heading[1]) if _COUNTS.match(heading[1]) else None
    bold = _BOLD_LINE.match(line)
    plain = bold.group(1).strip() if bold else line.strip().lstrip(">").strip()
    if _is_list(line, wiki) or len(plain) > 70:
        return None
    return (0, plain.rstrip(":").strip()) if _COUNTS.match(plain) else None


def _kept(lines: list[str], wiki: bool) -> set[int]:
    """0-based lines of sections that declare inputs, outputs or limits (kept wherever they stand)."""
    kept: set[int] = set()
    level = 0
    for n, line in enumerate(lines):
        heading = _heading(line, wiki)
        if heading is not None:
            level = heading[0] if _KEPT.match(heading[1]) else 0 if heading[0] <= level else level
        if level:
            kept.add(n)
    return kept


def _span_end(lines: list[str], at: int, level: int, wiki: bool) -> int:
    """0-based end (exclusive) of the version marked on line `at`."""
    n = at + 1
    if level:  # a heading: up to the next heading of its level or above
        while n < len(lines):
            heading = _heading(lines[n], wiki)
            if heading is not None and heading[0] <= level:
                break
            n += 1
        return n
    seen_list = False  # a line: up to the end of the list under it
    while n < len(lines):
        line = lines[n]
        if _heading(line, wiki) is not None:
            break
        if _is_list(line, wiki):
            seen_list = True
        elif line.strip() and seen_list and not line[:1].isspace():
            break
        n += 1
    return n


def _lists(lines: list[str], rows: range, wiki: bool, kept: set[int]) -> list[int]:
    return [n for n in rows if n not in kept and _is_list(lines[n], wiki)]


def superseded_aside(text: str) -> SetAside | None:
    """The document with what its author replaced set aside, or None when nothing is."""
    wiki = is_wiki(text)
    lines = text.split("\n")
    blank: set[int] = set()
    warnings: list[tuple[int, str]] = []
    for n, line in enumerate(lines):
        if _STRUCK.match(line):
            blank.add(n)
            warnings.append((n + 1, "struck through by its author: set aside, not read"))
    marked = next(((n, m) for n, line in enumerate(lines) if n not in blank
                   and (m := _marker(line, wiki)) is not None), None)
    if marked is not None:
        at, (level, words) = marked
        end = _span_end(lines, at, level, wiki)
        kept = _kept(lines, wiki) | blank
        own = _lists(lines, range(at + 1, end), wiki, kept)
        before = _lists(lines, range(at), wiki, kept)
        after = _lists(lines, range(end, len(lines)), wiki, kept)
        if own and (before or after):
            said = f"superseded by '{words}' (line {at + 1}), the version that counts: only it is read"
            if before:
                gone = [n for n in range(before[0], at) if n not in kept and lines[n].strip()]
                blank.update(gone)
                warnings.append((before[0] + 1, f"lines {before[0] + 1}-{gone[-1] + 1} (an earlier list and the "
                                 f"talk about it) set aside: {said}, with none of the counts or policies said here"))
            if after:
                blank.update(after)
                warnings.append((after[0] + 1, f"the list on lines {after[0] + 1}-{after[-1] + 1} set aside: {said}"))
            if wiki:
                replies = [n for n in range(own[-1] + 1, end) if _WIKI_REPLY.match(lines[n])]
                blank.update(replies)
                warnings.extend((n + 1, f"a reply under '{words}' set aside: talk, not part of the workflow")
                                for n in replies)
    if not blank:
        return None
    out = ["" if n in blank else line for n, line in enumerate(lines)]
    return SetAside(text="\n".join(out), warnings=tuple(sorted(warnings)))
