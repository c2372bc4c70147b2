"""A value written right after an input's own name, the way a filled-in form or a list of settings says it.

    D) PUBLISH - callsheet-publish: date, location, unit_call 06:30, wrap = SUNSET from A   -> unit_call: "06:30"
    C) OT COST - overtime-costing. ..., crew_count = B's total, day_hours 11.             -> day_hours: 11
    Pack with `pallet_limit` 24, then label.                                              -> pallet_limit: 24

Call sheets, dockets, show reports and order forms list what a step is given as `name value` pairs
separated by commas: the input's exact name (snake_case, with at least one underscore, or in
backticks), spaces (or one colon), then one number or one clock time (HH:MM), and then the clause
ends (a comma, a semicolon, a full stop, a closing bracket, "and", or the line's end). That value is
the step's literal, not a workflow input. Not read: a name followed by anything else ("retry_count 3
times", a dotted blank "shoot_date ............", a name in brackets after a blank), a pair in a
clause that opens with "if", "when", "unless", "until" or "whether" (a condition), and a name said
with two different values (a guess between them: nothing is taken). The text is scanned once,
linearly.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PAIR = _rx(r"(?<![\w.-])(?:`(?P<q>[A-Za-z_][\w-]{0,40}+)`|(?P<n>[A-Za-z][A-Za-z0-9]{0,20}+(?:_[A-Za-z0-9]{1,20}+){1,6}+))"
            r"(?:[ \t]*+:[ \t]*+|[ \t]++)(?P<v>\d{1,2}+:\d{2}+|-?\d{1,9}+(?:\.\d{1,6}+)?+)"
            r"(?=[ \t]*+(?:[,;)]|\.(?!\d)|\n|$|and\b))")
_CLAUSE_BREAK = _rx(r"[,;.!?(\n]")
_CONDITION = _rx(r"(?i)(?<![\w-])(?:if|when|whenever|unless|until|whether|once)(?![\w-])")


def _in_condition(text: str, at: int) -> bool:
    """Whether the clause the pair at `at` is in opens with a condition word."""
    head = text[max(0, at - 120):at]
    breaks = list(_CLAUSE_BREAK.finditer(head))
    clause = head[breaks[-1].end():] if breaks else head
    return _CONDITION.search(clause) is not None


def _value(raw: str) -> int | float | str:
    if ":" in raw:
        return raw
    return float(raw) if "." in raw else int(raw)


def fill_ins(text: str) -> dict[str, tuple[int | float | str, str]]:
    """name -> (the value written right after it, the words as written), for each `name value` pair of
    the text (module docstring); a name said with two different values is left out."""
    found: dict[str, tuple[int | float | str, str]] = {}
    doubled: set[str] = set()
    for m in _PAIR.finditer(text):
        name = m.group("q") or m.group("n") or ""
        if _in_condition(text, m.start()):
            continue
        value = _value(m.group("v"))
        if name in found and found[name][0] != value:
            doubled.add(name)
        found.setdefault(name, (value, " ".join(m.group(0).split())))
    return {n: v for n, v in found.items() if n not in doubled}


def fill_in_said(name: str, text: str) -> tuple[int | float | str, str] | None:
    """(value, words) the text writes right after the input `name`, or None (module docstring)."""
    return fill_ins(text).get(name)


_rx.save()
