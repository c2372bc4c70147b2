"""Whether a value bound to a skill's input by a close name or as "the one value the text names" is
plainly another kind of thing than the input: a date given a list of orders, a count given a list,
a yes/no given a date. Such a binding is a guess that cannot be right, so it is not made; the input is
left unbound and said so (`plan.dataflow`).

The kind of a name comes from its words and from what its skill says of it (`(list of {...})`,
`YYYY-MM-DD`, `(integer)`):

- a date: a name with `date`, `day`, `dob`, `deadline`, `timestamp` or `as_of` in it, or one its skill
  writes as `YYYY-MM-DD` / `MM/DD/YYYY` / "a date";
- a list: one its skill says is a list or an array (`list of`, `[...]`), or, said nothing of, a name
  for many (`orders`, `rows`); a list of dates (`list of YYYY-MM-DD`) and a list of records (`list of
  {pet, owner}`) are two kinds;
- a number: one said to be an integer or a number, or named `count`, `total`, `n_...`;
- a yes/no: one said to be a boolean, or named `is_...` / `has_...`.

Two kinds known and different is a clash; anything not known is no clash (the name decides as before).
"""

from __future__ import annotations

from orchestrator.plan.model import InputBinding
from orchestrator.plan.near_input import singular_word
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SPLIT = _rx(r"[^0-9a-z]++")
_DATE_ABOUT = _rx(r"(?i)\b(?:yyyy|mm/dd|dd/mm|iso\s*+8601|a\s++date|the\s++date|date\s++(?:string|as))\b")
_LIST_ABOUT = _rx(r"(?i)^[\s(`]*+(?:a\s++|the\s++)?+(?:list|array|set|sequence)\b|\blist\s++of\b|^\s*+\[")
_DATE_OF = _rx(r"(?i)^\s*+(?:of\s++)?+[`'\"]?+(?:yyyy|mm/dd|dd/mm|dates?\b|days?\b)")
_RECORDS_OF = _rx(r"(?i)^\s*+(?:of\s++)?+[`'\"]?+(?:\{|objects?\b|records?\b|rows?\b|dicts?\b|maps?\b)")
_NUMBER_ABOUT = _rx(r"(?i)^[\s(`]*+(?:an?\s++)?+(?:integer|int|number|float|count)\b")
_FLAG_ABOUT = _rx(r"(?i)^[\s(`]*+(?:a\s++)?+(?:boolean|bool|true\s*+/\s*+false|yes\s*+/\s*+no)\b")

_DATE_WORDS = frozenset({"date", "day", "dob", "deadline", "timestamp", "dated"})
_NUMBER_WORDS = frozenset({"count", "total", "qty", "quantity", "num"})
_MANY = ("list", "dates", "records")
_CLASH = frozenset({*(frozenset({one, many}) for one in ("date", "number", "flag") for many in _MANY),
                    frozenset({"flag", "date"}), frozenset({"dates", "records"})})


def kind_of(name: str, about: str = "") -> str | None:
    """"date", "list", "number", "flag" or None: what the name stands for (module docstring)."""
    words = [w for w in _SPLIT.split(name.lower()) if w]
    if about:
        listed = _LIST_ABOUT.search(about)
        if listed is not None:
            of = about[listed.end():]  # what it is a list of: dates, or records
            return "dates" if _DATE_OF.match(of) else "records" if _RECORDS_OF.match(of) else "list"
        if _DATE_ABOUT.search(about):
            return "date"
        if _NUMBER_ABOUT.search(about):
            return "number"
        if _FLAG_ABOUT.search(about):
            return "flag"
    if not words:
        return None
    if _DATE_WORDS & set(words) or words[-2:] == ["as", "of"]:
        return "date"
    if words[0] in ("is", "has") and len(words) > 1:
        return "flag"
    if _NUMBER_WORDS & set(words) or (words[0] == "n" and len(words) > 1):
        return "number"
    last = words[-1]
    if not about and last.endswith("s") and not last.endswith(("ss", "us", "is")) and singular_word(last) != last:
        return "list"
    return None


def clash(wanted: str, wanted_about: str, given: str, given_about: str) -> str | None:
    """Why `given` cannot be the value of the input `wanted` ("`run_date` is a date, `picked` a list"), or
    None when nothing says they differ."""
    a, b = kind_of(wanted, wanted_about), kind_of(given, given_about)
    if a is None or b is None or frozenset({a, b}) not in _CLASH:
        return None
    return f"`{wanted}` is {_SAID[a]}, `{given}` {_SAID[b]}"


_SAID = {"date": "a date", "number": "a number", "flag": "a yes/no", "list": "a list", "dates": "a list of dates",
         "records": "a list of records"}



def value_name(binding: InputBinding) -> str:
    """The name a binding's value goes by: the workflow input's, else the last part of the step output's path."""
    if binding.source == "input":
        return binding.name or ""
    return (binding.pointer or "").strip("/").rsplit("/", 1)[-1]


_rx.save()
