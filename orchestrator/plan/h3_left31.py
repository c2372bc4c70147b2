"""A condition's text value spelled as the skill that gives the field spells it.

    IF the risk from (b) is HIGH: ...        skill: `risk` (low, medium or high: high from 8)
        -> steps['step-2'].output.risk == 'high'    (not 'HIGH', which the skill never gives)
    when the status is Done                   skill: `status` (one of open / done / cancelled)
        -> ... .status == 'done'

Authors write a value in capitals for emphasis ("is HIGH", "band = AUTO") or with a capital at the
start of a table cell; the skill's script compares nothing, it prints the value as its instructions
list it. A condition compiled to `<step's field> == '<text>'` (or `!=`) whose text is not among the
values the field's skill lists, but equals exactly one of them when case is ignored, is rewritten to
the skill's spelling and said at the condition's line (`plan.value-spelling`). The values listed are
the words of the first clause of what the skill's instructions say of the field ("low, medium or
high", "one of open / done / cancelled", "ok|failed"), or the texts it quotes (`"red"`, `"amber"`).
A text that matches no listed value, or two, is left as written: nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_COMPARE = re.compile(r"steps\['(?P<sid>[\w.-]{1,80}+)'\]\.output\.(?P<field>\w{1,80}+)\s*+(?:==|!=)\s*+"
                      r"'(?P<lit>[^'\\\n]{1,60}+)'")
_FIRST_CLAUSE = re.compile(r"^[^:;(.]{0,200}+")
_OPENING = re.compile(r"(?i)^\s*+(?:(?:one|any)\s++of\s*+:?\s*+|either\s++)")
_SEPARATOR = re.compile(r"(?i)\s*+(?:,|\||/|\bor\b|\band\b)\s*+")
_WORD = re.compile(r"[\w-]{1,40}+")
_QUOTED = re.compile(r"[\"“”'‘’`](?P<v>[\w -]{1,40}+)[\"“”'‘’`]")


def listed_values(about: str) -> list[str]:
    """The values the skill's words list for a field (module docstring); [] when they list none."""
    quoted = [m.group("v") for m in _QUOTED.finditer(about)]
    if len(quoted) >= 2:
        return quoted
    first = _FIRST_CLAUSE.match(about)
    said = _OPENING.sub("", first.group(0) if first else "").strip()
    parts = [p for p in _SEPARATOR.split(said) if p]
    if len(parts) < 2 or not all(_WORD.fullmatch(p) for p in parts):
        return []
    return parts


def value_spelling(expression: str, about_of: Callable[[str, str], str | None]) -> tuple[str, list[str]]:
    """The expression with each text compared to a step's field spelled as that field's skill lists
    it, and what was changed (module docstring). `about_of(step_id, field)` is what the step's skill
    says of the field, or None."""
    notes: list[str] = []

    def spelled(m: re.Match[str]) -> str:
        about = about_of(m.group("sid"), m.group("field"))
        lit = m.group("lit")
        values = listed_values(about) if about else []
        if not values or lit in values:
            return m.group(0)
        same = [v for v in values if v.casefold() == lit.casefold()]
        if len(same) != 1:
            return m.group(0)
        notes.append(f"'{lit}' is read as '{same[0]}', the value `{m.group('field')}` takes as its skill lists it "
                     f"({', '.join(values)}): if another value is meant, write it as the skill gives it")
        return m.group(0)[: m.start("lit") - m.start()] + same[0] + "'"

    return _COMPARE.sub(spelled, expression), notes
