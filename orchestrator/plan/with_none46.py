""""with no X" beside a value to go on with: the output X empty (forty-sixth round).

    If the sheet won't parse, call it a 3.5 with no off-flavours and carry on.
        (sensory-panel outputs `mean_score`, `off_flavours`, `tasters`) -> {mean_score: 3.5, off_flavours: []}
    if the scanner dies, log it as 0 with no faults and move on      (outputs `count`, `faults`) -> faults: []

A sentence that goes on with a value may say, beside it, that an output has nothing: "with no X",
"and no X". X names one output of the step by its words (hyphens and spaces as `_`, singular or
plural: "off-flavours" is `off_flavours`, "fault" is `faults`). That output is its empty value in the
value gone on with: a list's `[]`, a number's 0, a text's "", and an output whose type is not said is
a list when its name is plural (`faults`), else left unread. A field the value already sets is kept;
words that name no output ("with no fuss") are no part of it.

    just carry on with no open days (empty list)      (clinic-calendar outputs `open_days`) -> {open_days: []}

The step's own fallback is read so too (round 48): "carry on with no X" alone goes on with the
contract's empty value, and X named among the outputs is that output empty, the others at their
contract's empty value as ever.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "with no off-flavours", "and no faults": the words after "no"
_NONE = _rx(r"(?i)(?<![\w-])(?:with|and)\s++no\s++(?P<words>[a-z][a-z-]{0,40}+(?:\s++(?!(?:and|or|but)(?![\w-]))[a-z][a-z-]{0,40}+)?+)")
_EMPTY = {"array": [], "number": 0, "integer": 0, "string": ""}


def _names(words: str) -> list[str]:
    """The output names the words may be, longest first: "off-flavours" -> off_flavours, off_flavour."""
    parts = [w.replace("-", "_") for w in words.lower().split()]
    found: list[str] = []
    for n in range(len(parts), 0, -1):
        name = "_".join(parts[:n])
        found += [name, name[:-1] if name.endswith("s") else f"{name}s"]
    return list(dict.fromkeys(found))


def _empty(name: str, prop: Any) -> tuple[bool, Any]:
    kind = prop.get("type") if isinstance(prop, Mapping) else None
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    for k in kinds:
        if k in _EMPTY:
            return True, _EMPTY[k]
    return (not kinds and name.endswith("s")), []


def said_none(text: str, props: Mapping[str, Any]) -> dict[str, Any]:
    """The outputs `text` says have nothing ("with no off-flavours"), each at its empty value."""
    out: dict[str, Any] = {}
    for m in _NONE.finditer(text):
        name = next((n for n in _names(m.group("words")) if n in props), None)
        if name is None:
            continue
        known, value = _empty(name, props[name])
        if known:
            out[name] = value
    return out


def with_none(value: Any, text: str, props: Mapping[str, Any]) -> Any:
    """`value` (the output to go on with) with the outputs `text` says have nothing set empty; a field
    the value sets is kept, and the contract's empty value (None) said so is those outputs alone."""
    if not (value is None or isinstance(value, dict)) or not text:
        return value
    extra = {k: v for k, v in said_none(text, props).items() if k not in (value or {})}
    return {**(value or {}), **extra} if extra else value


_rx.save()
