"""Code written as a C header or a macro language (round 54), for the reader of code by its skill calls (`spec.wired52`).

    /* fill in before you run: TANKS = list of {id, gravity},       a header comment that asks for things to be
     *                         KEG_DAY = the day we keg */          filled in, then `NAME = what it is`: each NAME a
                                                                   run input (`fill_in_names`)
    #define STYLE "PALE"                                          a constant (`spec.commands54.assignment`)
    for_each (tank, TANKS) { r = read_tank(tank_id = tank.id) }   a loop macro: item first, then the list
                                                                   (`macro_loop`; `FOREACH(x, xs)`, `list_for_each`)
    summary = summarise_tanks(readings = ALL(r));                 a call whose result goes to a name that is also a
                                                                   text key (`summary`, `message`): still a call
                                                                   (`assigned_call`)

Not read: a header comment of `NAME = value` lines with no word that asks for them (`defaults: RETRIES = 3`),
a macro with one argument or three, a loop macro with no block after it (`for_each(xs, f);`: a function applied).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `for_each (tank, TANKS) {`, `FOREACH(item, items)`, `list_for_each(pos, head) {`, `BOOST_FOREACH(x, xs)`: the item
# first, the list second, the block opened after it (or on the next line)
_MACRO_LOOP = _rx(r"^\s*+(?:[A-Za-z][A-Za-z0-9]{0,20}+_){0,2}(?:for_each|foreach|for_every|each|FOR_EACH|FOREACH|FOR_EVERY|EACH)"
                  r"\s*+\(\s*+[$]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+,\s*+(?P<list>[$]?[A-Za-z_][\w.\->\[\]\"']{0,120}+)"
                  r"\s*+\)\s*+(?:\{\s*+)?$")


def macro_loop(code: str) -> tuple[str, str] | None:
    """(list, item) of a loop macro that opens a block (module docstring), else None."""
    m = _MACRO_LOOP.match(code)
    return (m.group("list"), m.group("var")) if m is not None else None


# a comment asking for things to be given before the run: "fill in before you run:", "set these first:", "inputs:",
# "you give it:", "pass in:"; what comes after its colon (or on the lines after it) is `NAME = what it is`
_ASKS = _rx(r"(?i)^(?P<lead>[^:\n]{0,80}?\b(?:fill(?:\s++(?:in|out|these|this))?+|fill-ins?|set\s++(?:these|this|the\s++"
            r"following)|give|pass(?:\s++in)?+|provide|supply|enter|type\s++in|put\s++in|inputs?|params?|parameters|"
            r"arguments|args|(?:you|we)(?:['’]ll|\s++will)?+\s++need)\b[^:\n]{0,60}?):(?!=)\s*+(?P<rest>[^\n]{0,400}+)$")
_NAMED = _rx(r"(?:^|[,;]\s*+)(?P<name>[A-Za-z_]\w{0,60}+)\s*+(?:=(?!=)|:=)\s*+\S")


def fill_in_names(lines: Sequence[Any], code: Sequence[str] | None = None) -> list[tuple[str, int]]:
    """(name, line) of each run input a header comment asks to be filled in (module docstring); `lines` are
    `spec.wired52.Line`s (`comment`, `code`, `number`) before the first call. With `code` (the file's code lines),
    only the names the code reads as a name, outside quotes (a cell `B2` the code reads as `Range("B2")` is none)."""
    out: list[tuple[str, int]] = []
    k = 0
    while k < len(lines):
        ln = lines[k]
        m = _ASKS.match(ln.comment.strip()) if ln.comment and not ln.code.strip() else None
        k += 1
        if m is None:
            continue
        found = [(n.group("name"), ln.number) for n in _NAMED.finditer(m.group("rest").strip())]
        if m.group("rest").strip() and not found:
            continue  # "inputs: see the wiki": no `NAME = ...` after it
        while k < len(lines) and lines[k].comment and not lines[k].code.strip():
            more = [(n.group("name"), lines[k].number) for n in _NAMED.finditer(lines[k].comment.strip())]
            if not more or not _NAMED.match(lines[k].comment.strip()):
                break  # the list ends at a line that does not open with `NAME =`
            found += more
            k += 1
        out += [x for x in found if x[0] not in {o[0] for o in out}]
    if code is not None:
        bare = "\n".join(_QUOTED.sub('""', c) for c in code)
        out = [x for x in out if re.search(rf"(?<![\w$@%&.-]){re.escape(x[0])}(?![\w-])", bare)]
    return out


_QUOTED = _rx(r"\"[^\"\n]{0,400}+\"|'[^'\n]{0,400}+'")


_CALLED = _rx(r"[ \t]{0,20}+\(")
_ASSIGN_SEP = _rx(r"(?:(?<![=!<>:])=|:=|<-)[ \t]{0,20}+$")


def assigned_call(code: str, start: int, end: int) -> bool:
    """Whether the name at `code[start:end]` is called (`(` after it) and its result assigned (`x = name(`), so that
    the name before the `=` is a variable, not a key whose value is text."""
    return _CALLED.match(code, end) is not None and _ASSIGN_SEP.search(code[:start]) is not None


_rx.save()
