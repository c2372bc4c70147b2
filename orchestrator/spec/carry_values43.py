"""Rows of the policy grammar (`spec.grammar`) for the values a failed step goes on with, said after the going
on and a comma or colon as `name = value` pairs (forty-third round).

Joined to the grammar's tables through `spec.grammar_families8`. The way of writing, in words that are not
the blind sets':

- going on, then a comma, a colon, "but" or "and", then one or more `name = value` pairs joined by commas,
  "and", ";" or "&": "keep going, sent = no and channel = NONE", "move on: score = 0", "proceed, but
  done = false, note = MANUAL";
- the value a number, a quoted text, true/false/yes/no/null, or one word (a text as written: `PAPER`,
  `none-found`) that ends the pair.

Forty-seventh round: "as" between the going on and the pairs, "carry on as sent = no", "keep going as
done = false, ref = PAPER" ("with" is the field form's, `proceed with sent=false`).

Fiftieth round: the pairs may end where another clause starts, "carry on as done = false and I will key it
in by hand", "keep going as sent = no, we phone them" (a link word or comma with no `name =` after it).

A going on with no `=` after it ("carry on, the next batch is fine") is the earlier rounds' reading.

Forty-fifth round: the same pairs after taking stock values instead, "use the usual ones: bands = [[1,10],[2,20]]",
"fall back to the default figures, rates = [0.1, 0.2]" (in a sentence that says when: {COND}, "instead"), and
a value that is a list or object of lists (`[[9,80],[7,62]]`, `{"a": [1, 2]}`), read whole (`json_pairs`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_GO_ON = (r"(?:carry(?:ing)?\s++on|keep(?:ing)?\s++going|mov(?:e|ing)\s++on|go(?:ing)?\s++on|continu(?:e|ing)|"
          r"proceed(?:ing)?|press\s++on|push\s++on|crack\s++on|soldier\s++on)")
# a value: a quoted text, a number, or one word (yes/no/true/false/null, or a text as written: PAPER)
_VALUE = r"(?:\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w.])|[A-Za-z][\w-]{0,40}+(?![\w-]))"
_PAIR = r"[a-z][a-z0-9_]{0,40}+\s*+=\s*+" + _VALUE
# a list or object, its items lists or objects of their own once more at most: `[[9,80],[7,62]]`
_NESTED = (r"(?:\[(?:[^\[\]{}\n]|[\[{][^\[\]{}\n]{0,200}+[\]}]){0,400}+\]"
           r"|\{(?:[^\[\]{}\n]|[\[{][^\[\]{}\n]{0,200}+[\]}]){0,400}+\})")
_JSON_PAIR = r"[a-z][a-z0-9_]{0,40}+\s*+=\s*+(?:" + _NESTED + "|" + _VALUE + ")"
# taking stock values: "use the standard ones", "fall back to the default figures"
_STOCK = (r"(?:use|using|take|taking|fall(?:ing)?\s++back\s++(?:on|to)|go(?:ing)?\s++with|switch(?:ing)?\s++to)\s++"
          r"(?:the\s++|our\s++)?(?:standard|default|usual|stock|generic|fallback|built-?in|normal|safe|old|last)\s++"
          r"(?:ones|values?|numbers|figures|settings|set|list|table)")
_LINK = r"(?:\s*+,\s*+(?:and\s++)?|\s*+;\s*+|\s++and\s++|\s*+&\s*+)"

# round 50: the pairs may end where a clause of another kind starts ("carry on as done = false and I will
# key it in", "keep going as sent = no, we phone them"): a link word or comma not followed by another pair
_CLAUSE = r"(?:\s++(?:and|but|then|so|while)\s++|\s*+,\s++)(?![a-z][a-z0-9_]{0,40}+\s*+=)"

EARLY: tuple[Row, ...] = (
    # "carry on, filed = no and ref = PAPER", "keep going: sent = false, channel = NONE"
    # "carry on as sent = no", "keep going as done = false" (round 47: "as" before the pairs)
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"(?:\s*+[,:]\s*+|\s++(?:but|and|as)\s++)(?P<pairs>" + _PAIR
        + r"(?:" + _LINK + _PAIR + r"){0,12}+)(?=\s*+(?:[.;)!]|$)|" + _CLAUSE + ")"),
    # "just use the standard ones: bands = [[9,80],[7,62]] (rough)": stock values, then a list of lists
    Row("value_pairs", r"(?<![\w-])" + _STOCK + r"\s*+[,:]\s*+(?P<jpairs>" + _JSON_PAIR
        + r"(?:" + _LINK + _JSON_PAIR + r"){0,12}+)(?=\s*+(?:[.;()!]|$))", needs=r"{COND}|instead"),
)


def json_pairs(said: str, literal: Callable[[str], tuple[bool, Any]]) -> dict[str, Any] | None:
    """Each `name = value` of "bands = [[9,80],[7,62]], unit = pct" ({bands: [[9, 80], [7, 62]], unit: "pct"});
    `literal` reads one value (`phrase_value.json_literal`), a word that is none is its text. None when a list
    or object is not JSON."""
    out: dict[str, Any] = {}
    for m in _ONE_JSON_PAIR.finditer(said):
        found, value = literal(m.group("value"))
        if not found and m.group("value")[:1] in "[{":
            return None
        out[m.group("name")] = value if found else m.group("value").strip("\"'")
    return out or None

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|carry|carrying|keep|keeping|move|moving|go|going|continu|proceed|press|push|crack|soldier"
                  r"|use|using|take|taking|fall|falling|switch|switching"}
_ONE_JSON_PAIR = _rx(r"(?P<name>[a-z][a-z0-9_]{0,40}+)\s*+=\s*+(?P<value>" + _NESTED + "|" + _VALUE + ")")

_rx.save()
