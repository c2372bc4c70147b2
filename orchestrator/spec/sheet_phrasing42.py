"""Rows of the policy grammar (`spec.grammar`) for the forty-second round's recovery phrasings read on a marked day sheet, joined to the
grammar's tables through `spec.grammar_families8`. In words that are not the sheet's own:

- a time and then killing the call, no verb of giving before it: "30 sec then kill it", "2 min then drop the
  call", "90s, then abandon it": the attempt's time ("wait 10s then stop it", "1 min, then 5 min, then give
  up" are waits: no such thing);
- "don't hold us up" said plainly of a failure, then the value to go on with after a dash or colon:
  "scanner dead? don't hold us up - count = 0", "if the till is down, don't hold things up: total 0": go
  on, with that value (the value row of `spec.grammar_families24` reads the `name = value` pairs).
"""

from __future__ import annotations

from orchestrator.spec.grammar_families24 import _FAILED
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_values_said import _LINK, _PAIR
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# killing the call, never "give up" (the end of a series of waits: "wait 1 min, then 5 min, then give up")
_GIVE_UP = r"(?:kill|drop|abandon|bin|ditch|abort)\s+(?:it|that|this|them|the\s+[\w-]{1,30}+)\b"

EARLY: tuple[Row, ...] = (
    # "30 sec then kill it", "90s, then abandon it": the attempt's time
    Row("timeout", r"(?<![\w.])(?<!wait\s)(?<!after\s)(?<!then\s)(?<!,\s){D}\s*+,?\s*+then\s+(?:just\s+)?(?:" + _GIVE_UP + r")"),
    # "scanner dead? don't hold us up - count = 0": going on with that value
    Row("value_pairs", r"(?<!\w)(?:don'?t|do\s+not|never)\s+hold\s+(?:us|things|the\s+(?:run|rest|line|bus|show))\s+up\s*+"
        r"(?:-|\u2013|\u2014|:|,)\s*+(?:just\s+)?(?:use\s+|put\s+|set\s+|say\s+|call\s+it\s+)?(?P<pairs>" + _PAIR + r"(?:" + _LINK
        + _PAIR + r"){0,12}+)", needs=_FAILED + r"|\?"),
)
GATES = {"EARLY": r"|then|hold"}

_rx.save()
