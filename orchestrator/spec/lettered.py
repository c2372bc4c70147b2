"""Headings lettered as steps ("## A. Condition report", "### (b) Ship it", "## Part C - Sign"),
read as numbered step headings, with the letters the text uses for them read as those steps.

    ## A. Pull the register            ->  ## Step 1: A. Pull the register
    - Starts: after B                  ->  - Starts: after step 2

A document whose steps are lettered headings had each of them warned "not a spec section" and
lost, and the bullets of one taken for steps of their own. Two or more headings of one level
whose letters run A, B, C ... (or a, b, c; or I, II, III after a word such as "Part" or
"Phase"), of which at least two own a skill's name, are steps in that order. The document is
rewritten before it is parsed (each line keeps its number) and the reading is warned at the first
heading, with how to write it plainly. In the lines of those sections a capital letter of the
sequence right after a word that names a step ("from A", "after C", "as B", "A and B are back",
"part B") is read as that step; a lowercase letter or a roman numeral only after "step", "part",
"stage", "phase" or "section", as "a" and "I" are words too.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sections import names_a_skill
from orchestrator.spec.steps34b import field_letters

_rx = Patterns(__name__)

_WORD = r"(?:step|stage|phase|part|section|task)"
# "## A. Name", "## (b) Name", "## C) Name", "## Part D - Name", "## Phase II: Name"
_HEADING = _rx(rf"(?i)^(#{{1,6}}+)[ \t]++(?:(?P<word>{_WORD})[ \t]++)?+\(?(?P<mark>[a-z]|[ivx]{{1,4}}+)"
               r"(?:[.):]|[ \t]++[-–—:])[ \t]*+(?P<name>\S[^\n]*+)$")
_FENCE = _rx(r"^[ \t]{0,3}+(?:```|~~~)")
_ANY_HEADING = _rx(r"^(#{1,6}+)[ \t]")
# a letter after a word that names a step, not followed by a word that makes it an article
_CAPITAL_REF = _rx(
    rf"(?<![\w'’])(?P<lead>(?i:{_WORD}|from|after|as|needs?|needed|of|before|and|or|both|once|until|till|when|with|"
    r"than|on|for|&|/|,))(?P<gap>[ \t]++)(?P<mark>[A-Z])(?P<own>['’]s)?+(?![\w'’-])"
    r"(?![ \t]++(?!(?:and|or|is|are|has|have|had|ran|runs|finishes|finished|returns|returned|gives|gave|says|said|"
    r"comes|came|to|both|first|then|outputs|needs|started|starts|were|was|back|done|are)\b)[a-z])")
_WORD_REF = _rx(rf"(?i)(?<![\w'’])(?P<lead>{_WORD})(?P<gap>[ \t]++)(?P<mark>[a-z]|[ivx]{{1,4}}+)(?P<own>['’]s)?+(?![\w'’-])")
_PAREN_REF = _rx(r"(?i)(?<![\w(])\((?P<mark>[a-z]|[ivx]{1,4}+)\)(?![\w)])")  # "when (a) is done"
_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")


def _order(marks: list[str]) -> bool:
    """The marks run a, b, c ... or i, ii, iii ... from the first, in one case."""
    low = [m.lower() for m in marks]
    if len({m.isupper() for m in marks}) != 1:
        return False
    letters = [chr(ord("a") + i) for i in range(len(low))]
    return low == letters or low == list(_ROMAN[:len(low)])


def lettered_steps(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with its lettered step headings and their letters read as numbered steps (module
    docstring), and the (line, message) of the warning that says so; the text as it was and no
    warning when it has no such headings."""
    lines = text.split("\n")
    found: list[tuple[int, int, str, str, str]] = []  # index, level, word, mark, name
    heads: list[tuple[int, int]] = []  # every heading: index, level
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or (h := _ANY_HEADING.match(line)) is None:
            continue
        heads.append((i, len(h.group(1))))
        m = _HEADING.match(line.rstrip())
        if m is not None:
            found.append((i, len(m.group(1)), m.group("word") or "", m.group("mark"), m.group("name").strip()))
    if not found:
        return text, []
    level = found[0][1]
    run = [f for f in found if f[1] == level]
    marks = [f[3] for f in run]
    roman = marks[0].lower() == "i" and len(marks) > 1 and marks[1].lower() == "ii"
    if len(run) < 2 or not _order(marks) or (roman and not all(f[2] for f in run)):
        return text, []
    ends = []
    for index, _lvl, _w, _m, _n in run:  # a section ends at the next heading of its level or above
        ends.append(next((j for j, lv in heads if j > index and lv <= level), len(lines)))
    if sum(1 for (index, *_), end in zip(run, ends, strict=True)
           if names_a_skill("\n".join(lines[index + 1:end]))) < 2:
        return text, []
    number = {m: n for n, m in enumerate(marks, start=1)}
    upper = marks[0].isupper() and not roman
    out = list(lines)
    refs: list[int] = []
    for (index, _lvl, _w, mark, name), end in zip(run, ends, strict=True):
        out[index] = f"{'#' * level} Step {number[mark]}: {mark}. {name}"
        for j in range(index + 1, end):
            said = _WORD_REF.sub(lambda m: _step(m, number), out[j])
            said = _PAREN_REF.sub(lambda m: f"step {number[m.group('mark')]}" if m.group("mark") in number
                                  else m.group(0), said)
            if upper:
                said = _CAPITAL_REF.sub(lambda m: _step(m, number), field_letters(said, number))
            if said != out[j]:
                out[j] = said
                refs.append(j + 1)
    first = run[0]
    named = ", ".join(f"'{f[3]}. {f[4][:30]}'" for f in run[:3]) + (", ..." if len(run) > 3 else "")
    message = (f"the headings {named} are read as steps 1-{len(run)} in their order"
               + (f", and their letters in the text as those steps (lines {', '.join(map(str, refs[:8]))})"
                  if refs else "")
               + f": to write it plainly use `{'#' * level} Step 1: Name` and 'after Step 2'")
    return "\n".join(out), [(first[0] + 1, message)]


def _step(m: re.Match[str], number: dict[str, int]) -> str:
    """One letter reference as the step it names ("from C" -> "from step 3"); unknown letters as they were."""
    mark = m.group("mark")
    n = number.get(mark)
    if n is None:
        return m.group(0)
    lead = m.group("lead")
    word = "" if lead.lower() in ("step", "stage", "phase", "part", "section", "task") else "step "
    own = m.group("own") or ""
    head = lead if word else "step"
    return f"{head}{m.group('gap')}{word}{n}{own}"
