"""A number the step's own text says beside a word of a skill input's name, read as that input's value.

    1. Brake wear pins. Enter PINS in brake-pin-assess, limit 1.0 mm.     -> limit_mm: 1.0
    5.3 ... with viability-summary against the bank standard of 85 %.
        Note: 85 % is the regeneration threshold for orthodox seeds.      -> threshold: 85

A step's skill may read a name (`limit_mm`, `threshold`) that nothing gives: no workflow input, no
earlier output, no value written as the name. When one clause of the step's own text (a sentence, or
a part of one between commas and semicolons) holds a word of that name (of three letters or more) and,
within eight words of it, one number, that number is the step's literal, warned at the step's line;
the plain way is `limit_mm: 1.0` in the step. A number that is a duration or a count of tries (`2 MIN`,
`3 times`, `5x`, `2 more tries`, `1 extra go`) is not read unless the name is one of a duration; a step or section number (`step 1`,
`from 5.3`, a row's number alone in brackets, "printed (3)", "allergens (1a)") never is, nor a
number across a table's `|` cell border, nor a man page's section after a name (`list-shards(1)`), nor a number for an
input whose schema takes no number, nor a number said for now ("`threshold` (60 for now)", "default 60"): that is an
input the run may be given. Two clauses that say two numbers for it: none is taken. A parenthesis right after the
number ("copies 120 (150 at Christmas)") is an aside about another time: its numbers are not the step's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.literal_units import number_owner
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.said_value import bind_literal
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CLAUSE = _rx(r"[.!?;][ \t\n]++|,[ \t\n]++|\n[ \t]*+\n|\|")
# a row or step number alone in brackets after a name: "printed (3)", "allergens (1a)": a reference, never a value
_BRACKET_REF = _rx(r"\([ \t]*+\d{1,3}+[a-z]?+[ \t]*+\)")
# "2 more tries", "1 extra go": a count of tries in a policy's words, never an input's value
# an aside in brackets right after the number said (and its unit): "copies 120 (150 at Christmas)": another time's
_ASIDE = _rx(r"(\d(?:[ \t]*+[A-Za-z%]{1,6}+)?+)[ \t]*+\([^()\n]{0,120}+\)")
_MORE = frozenset({"more", "extra", "further", "additional", "other"})
_TOKEN = _rx(r"-?\d++(?:\.\d++)?+(?![\w.])|[A-Za-z0-9][\w'.-]*+|%|#|§")
_NUMBER = _rx(r"^-?\d++(?:\.\d++)?+$")
_TIME = frozenset({"s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "h", "hr", "hrs",
                   "hour", "hours", "day", "days", "week", "weeks", "ms", "times", "x", "tries", "attempts",
                   "retries", "goes", "am", "pm"})
_REFERS = frozenset({"step", "steps", "section", "sections", "item", "no", "number", "part", "stage", "task",
                     "from", "see", "rev", "version", "v", "sop", "#", "§", "ep", "page", "line", "table"})
_NEAR = 8
# a number said as the value for now, not for good: the input stays one the run is given
_DEFAULT = frozenset({"default", "defaults", "initially", "currently", "usually", "normally"})
_FOR_NOW = frozenset({"for now", "by default", "to start", "at present", "right now", "this week", "this month",
                      "unless told", "unless changed"})


# a grid row's own number ("  1   | Pull the monograph | ..."): the row's, never a value (`spec.form_fills32`)
_ROW_LINE = _rx(r"(?m)(?:^|(?<=[-+=]{3}))[ \t]*+\d{1,3}+[a-z]?+[ \t]*+\|")  # at a line's start, or after a rule
_ROW_FIRST = _rx(r"^[ \t]*+(\d{1,3}+[a-z]?+)[ \t]*+\|")
_PER_UNIT = _rx(r"(\d)/(?=[A-Za-z])")  # "62.00/hr": an amount per hour, not a duration
_NOT = frozenset({"not", "never", "old", "was", "previous", "former"})  # "NOT the 58 on the old pad"


def _without_row_labels(text: str) -> str:
    """The text with its grid rows' own numbers dropped: a number that opens a line before a `|`, or the number the
    text opens with before a `|` wherever it stands before a `|` again (the row's text said twice)."""
    first = _ROW_FIRST.match(text)
    text = _ROW_LINE.sub("|", text)
    if first is None:
        return text
    return re.sub(r"(?<![\w.|])" + re.escape(first.group(1)) + r"[ \t]*+\|", "|", text)


def _clauses(text: str) -> list[list[str]]:
    text = _BRACKET_REF.sub(" ", _PER_UNIT.sub(r"\1 per ", _ASIDE.sub(r"\1 ", _without_row_labels(text))))
    return [[t.rstrip(".") or t for t in _TOKEN.findall(part)] for part in _CLAUSE.split(text) if part.strip()]


def literal_said(name: str, text: str, others: Iterable[str] = (), near: int = _NEAR) -> tuple[float | int, str] | None:
    """(the number, the clause's words) that `text` says for the input `name` (module docstring), or None;
    a number `others` (the other names the skill reads) own is not its (`literal_units.number_owner`);
    `near`: how many words apart the number and the name's word may be."""
    words = [w for w in name.lower().split("_") if len(w) >= 3]
    timed = any(w in _TIME for w in name.lower().split("_"))
    if not words:
        return None
    # the name's own unit between the number and its word ("100 L/ha water" for `water_l_ha`) is no word apart
    unit = {w for w in name.lower().split("_") if len(w) < 3} | {"per", "/"}
    found: dict[float, tuple[float | int, str]] = {}
    for tokens in _clauses(text):
        lower = [t.lower() for t in tokens]
        # "crash-free" for `min_crash_free`: a hyphened word of the name's own words is its word
        own = [t for t in lower if "-" in t and all(p in words for p in t.split("-") if p)]
        at = [i for i, t in enumerate(lower) if t in words or t in own]
        if not at:
            continue
        numbers = []

        def apart(i: int, j: int, lower: list[str] = lower) -> int:
            lo, hi = min(i, j), max(i, j)
            return 1 + sum(1 for t in lower[lo + 1:hi] if t not in unit) if hi > lo else 0

        for i, t in enumerate(tokens):
            if not _NUMBER.match(t) or not any(apart(i, j) <= near for j in at):
                continue
            after = lower[i + 1] if i + 1 < len(lower) else ""
            before = lower[i - 1] if i else ""
            if before in _REFERS or "_" in before or ("-" in before and before not in own) or (after in _TIME and not timed):  # `rain_total 0`: another name's
                continue
            if after in _MORE and i + 2 < len(lower) and (lower[i + 2] in _TIME or lower[i + 2] in ("go", "try")):
                continue  # "2 more tries, 10 s apart": a policy's count of tries
            if before in _NOT or (before in ("the", "a") and i > 1 and lower[i - 2] in _NOT):
                continue  # "NOT the 58 on the old pad": the value struck out, never the one meant
            if before in _DEFAULT or after in _DEFAULT or " ".join(lower[i + 1:i + 3]) in _FOR_NOW:
                continue  # "`threshold` (60 for now)", "default 60": a value the run may be given otherwise
            if number_owner(lower, i, name, others) != name:
                continue  # "100 L/ha water": `water_l_ha`'s; "ug 0.7": a label's
            numbers.append(t)
        values = {float(t) for t in numbers}
        if len(values) != 1:
            continue
        value = float(numbers[0])
        said: float | int = int(value) if "." not in numbers[0] else value
        found.setdefault(value, (said, " ".join(tokens)))
    return next(iter(found.values())) if len(found) == 1 else None


def takes_a_number(schema: Mapping[str, Any], name: str) -> bool:
    """Whether the skill's input `name` may be a number (its schema says no type, or a number's)."""
    props = schema.get("properties")
    said = props.get(name) if isinstance(props, Mapping) else None
    kind = said.get("type") if isinstance(said, Mapping) else None
    kinds = kind if isinstance(kind, list) else [kind]
    return kind is None or any(k in ("number", "integer") for k in kinds)


def bind_literals_said(step: StepSpec, names: Iterable[str], text: str,
                       bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                       path: str, others: Iterable[str] = ()) -> list[Diagnostic]:
    """Bind each of `names` (inputs nothing gives) to the number the step's text says beside its name, warned;
    `others`: the other names its skill reads."""
    found: list[Diagnostic] = []
    names = list(names)
    for name in names:
        said = literal_said(name, text, [*names, *others])
        if said is None:
            continue
        value, words = said
        found.append(bind_literal(step, path, name, value, f"the text says '{words}'",
                                  f"'{words}' says the number {value!r} beside its name: read as its value for this "
                                  "step", bindings, provenance))
    return found


_rx.save()
