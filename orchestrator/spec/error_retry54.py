"""A sentence that pictures a time-out and then retries on error: the retry is for every failure (round 54).

    It can hang, give it 5 mins max, and if it errors try it twice more with 30s between
    portal times out a lot - 2 min max per pull / on error try again twice more, 1 minute wait each time
    docket server is dog slow on Mondays; if nothing after 90s, kill it

The grammar reads a sentence that pictures a hang or a time-out ("It can hang", "times out a lot", "dog slow")
as a rule on time-outs: its retry then covered time-outs only, and the step kept no retry, so the error the
author said to retry failed the step at once (a silent misreading). Here (`widened54`, after the grammar):

- a retry said for errors in general ("if it errors", "on error", "on any error", "if it fails", "on failure",
  "errors out") is the step's own retry, for every failure: a time-out is a failure too, and nothing limits
  the retry to time-outs;
- a sentence that only pictures slowness and gives the attempt's limit ("dog slow; if nothing after 90s, kill
  it") is that limit, no rule on time-outs (a rule that holds nothing of its own).

A retry said for time-outs alone ("if it times out, retry 3 times", "on timeout try twice more") keeps its rule.
"""

from __future__ import annotations

from orchestrator.policy import ErrorClass, PolicyStatement
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ON_ERROR = _rx(r"(?i)\b(?:on\s++(?:an?\s++|any\s++)?(?:error|errors|failure|fail)|(?:if|when|whenever)\s++(?:it|"
                r"this|that|the\s++\w++|there(?:'s|\s++is)\s++an?)\s++(?:errors?|fails?|failure)|errors?\s++out)\b")
_TIMEOUT_ONLY = _rx(r"(?i)\b(?:on\s++(?:a\s++)?time-?outs?|(?:if|when)\s++(?:it|this|that)\s++times?\s++out|time-?outs?\s++only)\b")


def widened54(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` for every failure (module docstring); as it is otherwise."""
    if statement.applies_to is not ErrorClass.TIMEOUT or statement.whole_run or _TIMEOUT_ONLY.search(text):
        return statement
    retried = statement.retries is not None or statement.max_attempts is not None or statement.wait is not None
    if retried and _ON_ERROR.search(text) is not None:
        return statement.model_copy(update={"applies_to": None})
    bare = statement.model_copy(update={"applies_to": None, "timeout_s": None})
    if statement.timeout_s is not None and bare.is_empty():  # only the limit: no rule of its own
        return statement.model_copy(update={"applies_to": None})
    return statement


_rx.save()
