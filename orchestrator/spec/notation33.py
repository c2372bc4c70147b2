"""Recovery phrasings said in passing, and a setting's line as a policy of its own (thirty-third round).

`plain` writes one notation in the words the grammar reads, before any row is tried (`spec.phrase`):

- a database session setting's number without a unit: "SET statement_timeout = 5000" is 5000 ms (the
  unit PostgreSQL and MySQL read there);
- a configuration key that names a time limit with its unit in the key, and a bare number:
  "activeDeadlineSeconds: 1800", "timeoutSeconds: 30", "deadline_ms = 2500", "timeout_minutes: 5" is the
  number with that unit ("activeDeadlineSeconds: 1800 s"); a key without a unit in its name is left.

Rows of the policy grammar (`EARLY`, `IGNORE`, joined through `spec.grammar_families8`):

- a retry said, then "and again once more (after that)" / "then once more after that": a second retry
  ("leave it a minute and try again, and again once more after that" is 2 retries, the wait read as written);
- "a couple of goes / tries / shots / swings": said, never read: two tries (one retry) or two retries is
  not said (`spec.normalize` leaves the words; "a couple of times", "a couple of retries" stay two retries);
- a database session setting that bounds a statement: "SET statement_timeout = '2min'", "SET lock_timeout
  TO '30s'", "SET SESSION max_execution_time = 5 s": the attempt's time (a number without a unit is milliseconds, above);
- a key of the form above after `plain`: "activeDeadlineSeconds: 1800 s" is the step's time, or the whole
  run's where the line says so ("# the whole pipeline", `spec.policy_notation25`);
- "... before you call it a day", "then call it quits": the failure after the tries;
- ", full stop", ", period", ", end of story" after a policy: emphasis, not a failure to stop with.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "activeDeadlineSeconds: 1800", "deadline_ms = 2500": the key's words, its unit, the number
_UNIT_KEY = _rx(r"(?i)(?<![\w-])(\w{0,40}?(?:timeout|deadline|time_?limit))"
                r"(_s|_?ms|_?(?:seconds|secs|sec|millis|minutes|mins|min))"
                r"(\s{0,3}+[:=]\s{0,3}+)(\d{1,9}+)(?![\w.:])")
_UNITS = {"seconds": "s", "secs": "s", "sec": "s", "s": "s", "ms": "ms", "millis": "ms", "minutes": "min",
          "mins": "min", "min": "min"}


# "SET statement_timeout = 5000": a number without a unit is milliseconds there (PostgreSQL, MySQL)
_SQL_MS = _rx(r"(?i)(?<![\w-])(set\s{1,3}+(?:local\s{1,3}+|session\s{1,3}+|global\s{1,3}+)?(?:statement_timeout|lock_timeout|"
              r"max_execution_time|idle_in_transaction_session_timeout)\s{0,3}+(?:=|to)\s{0,3}+)'?(\d{1,9}+)'?(?![\w.:])"
              r"(?!\s{1,3}+(?:ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|us)\b)")


def plain(text: str) -> str:
    """`text` with a time-limit key's unit written after its number (module docstring); a text without
    one is returned as it is."""
    if ":" not in text and "=" not in text and " to " not in text.lower():
        return text
    text = _SQL_MS.sub(lambda m: f"{m.group(1)}{m.group(2)} ms", text)
    return _UNIT_KEY.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)} {_UNITS[m.group(2).lower().lstrip('_')]}",
                         text)


_TRIES = r"(?:goes|go|tries|attempts|shots|swings|stabs|bites|whacks|runs)"
_TIME_KEY = (r"(?<![a-z0-9-])(?:timeout|deadline|time[\s_]?limit)(?:[\s_](?:s|ms)|[\s_]?(?:seconds|secs|sec|millis|minutes|mins|"
             r"min))"
             r"\s{0,3}+[:=]\s{0,3}+{D}")

# "and again once more", "then once more after that", "and again after that": one more retry than the one said
# ("after that" is left to `grammar`'s IGNORE row that explains it)
_MORE = (r"(?:and|then|and\s+then)\s+(?:again\s+once\s+more\b|(?:once\s+more|again)(?=\s+after\s+(?:that|this|it)\b))")
_RETRY_AGAIN = r"\b(?:try|retry|re-?run|run|send|post|push|fire|do)\s+(?:it\s+|that\s+|this\s+|them\s+)?again\b"

EARLY: tuple[Row, ...] = (
    # "try again, and again once more after that": a second retry (the first and its wait are read by their rows)
    Row("retries", r"(?<![\w-])again\s*+,?\s*+" + _MORE, value=2, needs=_RETRY_AGAIN),  # "again" left by the wait's row
    Row("retries", r"(?<![\w-])" + _MORE, value=2, needs=_RETRY_AGAIN),
    # "a couple of goes": two tries or two retries, not said
    Row("ambiguous", r"(?<![\w-])(?:a\s+|another\s+)?couple\s+of\s+" + _TRIES + r"\b",
        value="two tries (one retry) or two retries is not said: write the number of retries (e.g. 'retry twice')"),
    # "SET statement_timeout = '2min'": the attempt's time
    Row("timeout", r"(?<![\w-])set\s+(?:local\s+|session\s+|global\s+)?(?:statement_timeout|lock_timeout|query_timeout|"
        r"max_execution_time|idle_in_transaction_session_timeout)\s*+(?:=|to)\s*+'?{D}"),
    # "activeDeadlineSeconds: 1800 s  # the whole pipeline" (after `plain`): the whole run's time where the aside says so
    Row("run_timeout", _TIME_KEY + r"(?=[^#(\n]{0,40}+(?:#|//|\()\s*+(?:for\s+|on\s+)?(?:the\s+)?(?:whole|entire|full)\s)"),
    # "activeDeadlineSeconds: 1800 s" (after `plain`): the step's time
    Row("timeout", _TIME_KEY),
    # "two more goes before you call it a day": the failure after them
    Row("fail", r"(?<![\w-])(?:before|then|and|or)\s+(?:you\s+|we\s+|i\s+|they\s+)?call(?:ing)?\s+it\s+(?:(?:a|1)\s+day|(?:a|1)\s+night|quits)\b"),
)

IGNORE: tuple[Row, ...] = (
    # "one attempt, full stop": emphasis
    Row("ignore", r"(?<=[\w)])\s*+[,;-]\s*+(?:full\s+stop|period|end\s+of\s+story|no\s+exceptions)\s*+(?:[.!]|$)"),
)

GATES = {
    "EARLY": r"|again|couple|set|timeout|deadline|limit|call",
    "IGNORE": r"|full\s+stop|period|end\s+of\s+story|no\s+exceptions",
}


_rx.save()
