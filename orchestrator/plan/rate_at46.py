"""A rate said with "at" in a step's words: the value of the skill's one input that is a rate (round 46).

    4/ vat-check on net_p at 0.2                  (skill reads net_p, vat_rate)  ->  vat_rate: 0.2
    convert the invoice total at 1.17             (skill reads amount, fx_rate)  ->  fx_rate: 1.17
    price the hours at a rate of 0.85             (skill reads hours, rate)      ->  rate: 0.85

A skill input whose name's last word is `rate` (`vat_rate`, `fx_rate`, `rate`) that nothing gives takes
the one number the step's text says right after "at" ("at 0.2", "at a rate of 0.2"). Not read: a number
with a unit or a time after it ("at 5 pm", "at 3 mins", "at 20%", "at 09:00": a time or an amount, not a
rate as the skill reads it), a number in a step reference ("at 2/"), "at most 3" / "at least 2" (a
bound), two different numbers said with "at" (a guess: nothing is bound), and any input that is no rate.
Bound by `plan.literal_units.bind_unit_literals`, warned at the step with the plain way to write it.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_AT = _rx(r"(?i)(?<![\w-])at[ \t]++(?:a[ \t]++rate[ \t]++of[ \t]++|the[ \t]++rate[ \t]++of[ \t]++)?+"
          r"(\d{1,9}+(?:\.\d{1,9}+)?+)(?![\w:/%£$€-]|\.\d)(?:[ \t]++([A-Za-z']{1,12}+))?+")
_UNITS = frozenset({"am", "pm", "h", "hr", "hrs", "hour", "hours", "min", "mins", "minute", "minutes", "s", "sec",
                    "secs", "second", "seconds", "o'clock", "oclock", "percent", "pc", "per", "days", "day", "weeks",
                    "kg", "g", "mg", "km", "m", "mm", "cm", "mi", "miles", "l", "ml", "pence", "p", "quid", "pounds",
                    "dollars", "euros", "cents", "points", "pts", "degrees", "deg", "c", "f", "gbp", "usd", "eur"})


def is_rate(name: str) -> bool:
    """Whether a skill input's name ends in the word `rate` (`vat_rate`, `fx-rate`, `rate`)."""
    return name.lower().replace("-", "_").rsplit("_", 1)[-1] == "rate"


def rate_at(name: str, text: str) -> tuple[float | int, str] | None:
    """(the number, the words said) when `name` is a rate and the text says one number after "at" (module
    docstring); None otherwise."""
    if not is_rate(name) or len(text) > 20_000:
        return None
    found: dict[str, str] = {}
    for m in _AT.finditer(text):
        if m.group(2) is not None and m.group(2).lower() in _UNITS:
            continue
        found.setdefault(m.group(1), text[m.start():m.end(1)])
    if len(found) != 1:
        return None
    number, words = next(iter(found.items()))
    return (float(number) if "." in number else int(number)), words


_rx.save()
