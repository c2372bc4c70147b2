"""A value said for a producer that did not run, after the skill ("order_t from (c), put 0 if (c) did not
happen", "discount from step 3, or 0 if it was skipped"): the value an input takes when its producer was
skipped (`plan.or_if_skipped30` reads it), not a condition of the step's own running, so the step's reader
does not warn it as a condition not read (`spec.step`).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_VALUE_IF_NOT_RUN = _rx(
    r"(?i)(?<![\w-])(?:otherwise|else|or|put|write|enter|record|use)[ \t,]++(?:just[ \t]++)?+"
    r"(?:-?\d{1,12}+(?:\.\d{1,6}+)?+|true|false|\"[^\"\n]{1,60}+\"|'[^'\n]{1,60}+')[ \t,]++"
    r"(?:if|when|in[ \t]++case)[ \t]++(?:it|that|they|the[ \t]++step|(?:step[ \t]++)?+(?:\([ \t]*+[\w.]{1,6}+[ \t]*+\)|[\w.]{1,6}+))"
    r"[ \t]++(?:did[ \t]++not|didn['’]t|never|was[ \t]++not|wasn['’]t)[ \t]++(?:run|ran|happen|happened)(?![\w-])|"
    r"(?<![\w-])(?:otherwise|else|or|put|write|enter|record|use)[ \t,]++(?:just[ \t]++)?+"
    r"(?:-?\d{1,12}+(?:\.\d{1,6}+)?+|true|false)[ \t,]++if[ \t]++(?:it|that)[ \t]++was[ \t]++skipped(?![\w-])")


def value_if_not_run(sentence: str) -> bool:
    """Whether the sentence says a value for when a producer did not run (module docstring)."""
    return _VALUE_IF_NOT_RUN.search(" ".join(sentence.split())) is not None


_rx.save()
