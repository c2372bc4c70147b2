"""Rows of the policy grammar (`spec.grammar`) for the values a failed step goes on with, said after the going
on and a comma or colon as `name = value` pairs (forty-third round).

Joined to the grammar's tables through `spec.grammar_families8`. The way of writing, in words that are not
the blind sets':

- going on, then a comma, a colon, "but" or "and", then one or more `name = value` pairs joined by commas,
  "and", ";" or "&": "keep going, sent = no and channel = NONE", "move on: score = 0", "proceed, but
  done = false, note = MANUAL";
- the value a number, a quoted text, true/false/yes/no/null, or one word (a text as written: `PAPER`,
  `none-found`) that ends the pair.

A going on with no `=` after it ("carry on, the next batch is fine") is the earlier rounds' reading.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_GO_ON = (r"(?:carry(?:ing)?\s++on|keep(?:ing)?\s++going|mov(?:e|ing)\s++on|go(?:ing)?\s++on|continu(?:e|ing)|"
          r"proceed(?:ing)?|press\s++on|push\s++on|crack\s++on|soldier\s++on)")
# a value: a quoted text, a number, or one word (yes/no/true/false/null, or a text as written: PAPER)
_VALUE = r"(?:\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w.])|[A-Za-z][\w-]{0,40}+(?![\w-]))"
_PAIR = r"[a-z][a-z0-9_]{0,40}+\s*+=\s*+" + _VALUE
_LINK = r"(?:\s*+,\s*+(?:and\s++)?|\s*+;\s*+|\s++and\s++|\s*+&\s*+)"

EARLY: tuple[Row, ...] = (
    # "carry on, filed = no and ref = PAPER", "keep going: sent = false, channel = NONE"
    Row("value_pairs", r"(?<![\w-])" + _GO_ON + r"\s*+(?:[,:]|\s(?:but|and))\s*+(?P<pairs>" + _PAIR
        + r"(?:" + _LINK + _PAIR + r"){0,12}+)(?=\s*+(?:[.;)!]|$))"),
)

# the words a sentence needs for the table to be tried (`grammar.GATES`)
GATES = {"EARLY": r"|carry|carrying|keep|keeping|move|moving|go|going|continu|proceed|press|push|crack|soldier"}
