"""Checks on a sentence's reading that `spec.phrase` makes once its rows have read it: a time to give
up by with nothing said of trying again, a value written beside going on but not read, and a series of
waits that goes on ("3s, 6s, 12s ...")."""

from __future__ import annotations

import itertools
import re
from typing import Any

from orchestrator.policy import PolicyStatement, Wait
from orchestrator.spec import grammar as g
from orchestrator.spec.phrase_value import json_literal
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LITERAL = _rx(r"`?(?:\{[^{}]{0,400}\}|\[[^\[\]]{0,400}\])`?")
# a value said in words beside going on ("file it under chore with an empty bullet", "leave that one blank")
_VALUE_WORDS = _rx(r"\b(?:(?:mark|flag|tag|label)\s+(?:it|them|this|that|(?:that|this|the|each)\s+(?:one\s+)?[\w-]+)\s+(?:as\s+)?`[^`]{0,79}\w(?=`)|with\s+(?:an?\s+)?(?:empty|blank|zero|null|default|placeholder)\s+[\w-]+|(?:file|put|mark)\s+(?:it|them)\s+(?:under|as)\s+[\w-]+|leave\s+(?:that|this|those|these)(?:\s+ones?)?\s+(?:blank|empty)"
                     # "assume we've got 0 doses", "assume there are 12 pupils": a value with no field's name
                     r"|assum(?:e|ing)\s+(?:(?:we(?:'ve|\s+have)|you(?:'ve|\s+have))\s+(?:got\s+)?|there\s+(?:are|is|were|was)\s+|"
                     r"it(?:'s|\s+is|\s+was)\s+)?(?:-?\d{1,12}+(?:\.\d{1,6}+)?+|no|zero|none)\s+[\w-]{1,40}+)\b", re.I)

# a value said bare after going on's words ("carry on with room TBA", "put 4 in", "call it 7"): read by a row
# of `spec.grammar_families17` or said
_BARE_VALUE = _rx(r"(?<!\w)(?:with|as|put|enter|write|call\s+it|of)\s+(?:an?\s+|the\s+)?(?:[a-z_][\w-]{0,30}+\s+){0,2}?(?:\"[^\"]{1,80}+\"|``?[^`]{1,80}+``?|"
                  r"-?\d{1,12}+(?:\.\d{1,6}+)?+(?![\w%.]|\s*+(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?|"
                  r"times|tries|retries|attempts|goes|x)\b)|n/a\b|(?-i:[A-Z]{2,}+[A-Z0-9-]{0,30}+)(?![\w-]))", re.I)

_REPEAT = _rx(rf"{g.RETRY}|\bagain\b|\bevery\b|\bpoll|\btries\b|\battempts?\b|\bkeep\s+\w+ing\b|\buntil\b"
              r"|\btotal\b|\boverall\b|\baltogether\b|\bin\s+all\b|\bcombined\b|\bend\s+to\s+end\b", re.I)


def budget_without_repeat(norm: str, statement: PolicyStatement, retry_said: bool) -> PolicyStatement:
    """"the share hangs; give up after 45 s": a time to give up by, with nothing said of trying again,
    is how long the one attempt may take, not a time to retry in."""
    s = statement
    if s.for_up_to_s is None or s.timeout_s is not None or retry_said or _REPEAT.search(norm):
        return s
    if any(v is not None for v in (s.retries, s.max_attempts, s.wait)) or s.no_retry:
        return s
    return s.model_copy(update={"timeout_s": s.for_up_to_s, "for_up_to_s": None})


def lost_value(norm: str, statement: PolicyStatement) -> str | None:
    """A JSON value written in a sentence that goes on after a failure but keeps no value: never silent."""
    if statement.on_failure is None or statement.on_failure.kind != "continue":
        return None
    for m in _LITERAL.finditer(norm):
        found, value = json_literal(m.group(0))
        if found and isinstance(value, (dict, list)):
            return m.group(0)
    words = _VALUE_WORDS.search(norm) or _BARE_VALUE.search(norm)
    return words.group(0) if words else None



def geometric(r: Any, seq: tuple[float, ...], cap_s: float | None, jitter: bool | None) -> Wait:
    """"3s, 6s, 12s ... capped at 30s": the waits go on by the series' one factor, to the cap; a series
    that grows by no one factor keeps its waits, and says so."""
    ratios = {round(b / a, 6) for a, b in itertools.pairwise(seq) if a > 0}
    if len(seq) >= 2 and seq[0] > 0 and len(ratios) == 1 and next(iter(ratios)) > 1:
        return Wait(kind="exponential", start_s=seq[0], factor=next(iter(ratios)), cap_s=cap_s, jitter=jitter)
    r.problems.append(f"'{r.said('wait_seq')}' goes on ('{r.said('series_open')}') but not by one factor; "
                      "the waits listed are used")
    return Wait(kind="sequence", seconds=tuple(seq), jitter=jitter)


_rx.save()
