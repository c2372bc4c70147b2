"""A value said with its unit after it, for a skill input named for the value and its unit (round 54).

    3. Label - print-label with the dish, ... and use-by 2 days.      skill reads `use_by_days`
       -> use_by_days = 2

The name is `<field>_<unit>` (`use_by_days`, `shelf_life_hours`, `dose_mg`); the text says the field's words
(hyphens and case aside: "use-by", "Shelf life"), then the number, then that unit in any of its spellings ("2
days", "1 day", "36 hrs", "250 mg"); "of", "is", "=" or ":" may stand before the number ("a shelf life of 3
days"). Another unit ("use-by 48 hours" for `use_by_days`) is no reading: nothing is converted. The text is
scanned a token at a time, linear in its length. `plan.said_value` reads it when its own forms do not.
"""

from __future__ import annotations

import json

from orchestrator.spec.regex_cache import Patterns

__all__ = ["unit_value"]

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TOKEN = _rx(r"\d++(?:\.\d++)?+|[A-Za-z]++|[%=:]")

# each unit a name may end in -> every way the text may write it
_GROUPS = (
    ("s", "sec", "secs", "second", "seconds"),
    ("min", "mins", "minute", "minutes"),
    ("h", "hr", "hrs", "hour", "hours"),
    ("day", "days"),
    ("week", "weeks", "wk", "wks"),
    ("month", "months"),
    ("year", "years", "yr", "yrs"),
    ("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"),
    ("g", "gram", "grams"),
    ("mg", "milligram", "milligrams"),
    ("l", "litre", "litres", "liter", "liters"),
    ("ml", "millilitre", "millilitres"),
    ("km", "kilometre", "kilometres"),
    ("m", "metre", "metres", "meter", "meters"),
    ("cm", "centimetre", "centimetres"),
    ("mm", "millimetre", "millimetres"),
    ("pct", "percent", "%"),
    ("c", "degrees", "deg"),
)
_SPELLINGS = {unit: frozenset(group) for group in _GROUPS for unit in group}
_BEFORE = frozenset({"of", "is", "=", ":"})


def unit_value(name: str, text: str) -> tuple[object, str] | None:
    """(the number, the words it was read from) for `name` = `<field>_<unit>` said "<field> N <unit>" in `text`."""
    words = [w for w in name.lower().replace("-", "_").split("_") if w]
    if len(words) < 2 or words[-1] not in _SPELLINGS:
        return None
    field, units = words[:-1], _SPELLINGS[words[-1]]
    tokens = _TOKEN.findall(text)
    lower = [t.lower() for t in tokens]
    n = len(field)
    for i in range(len(tokens) - n - 1):
        if lower[i:i + n] != field:
            continue
        j = i + n
        if lower[j] in _BEFORE:
            j += 1
        if j + 1 < len(tokens) and tokens[j][0].isdigit() and lower[j + 1] in units:
            return json.loads(tokens[j]), " ".join(tokens[i:j + 2])
    return None


_rx.save()
