"""Two comment lines under a call, each a whole rule of its own (round 54), for the reader of code by its skill calls
(`spec.wired52`, which joins a comment line that opens with a conjunction to the line before it):

    /* retry it 3 times, wait 5s then double each time, cap at 40s */
    /* and each tank read gets 20s, no more */                  two rules: the retry at its line, the 20 s at its own

are kept apart when the second opens with "and", "also" or "plus", the first does not end mid-clause (`,`, "and",
"if", "the", ...), and each read alone states a rule whose fields the other does not set, the second a rule of its
own (a retry, a timeout, what happens on failure), not only a part of the first's ("and wait 10s between": the
retry's wait, joined).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OPENS = _rx(r"(?i)^(?:and|also|plus)[ \t,]++\S")
_DANGLING = _rx(r"(?i)(?:[,\-(&+:]|\band|\bor|\bthen|\bbut|\bthe|\ba|\bof|\bto|\bif|\bfor|\bwith|\bas|\bafter|\bwhen|\b(?:if|when|unless|once)(?:\s++\w++){1,2}+)\s*+$")
_OWN_FIELDS = frozenset({"retries", "timeout_s", "on_failure", "no_retry", "attempts"})


def _fields(text: str) -> set[str]:
    from orchestrator.spec.phrase import read_phrase

    phrase = read_phrase(text, ())
    if not phrase.read:
        return set()
    return set(phrase.statement.model_dump(exclude_defaults=True, exclude_none=True)) - {"applies_to"}


def own_rules(before: str, line: str) -> bool:
    """Whether comment `line`, opening with a conjunction, is a rule of its own apart from the line `before` it
    (module docstring)."""
    if _OPENS.match(line.strip()) is None or _DANGLING.search(before.rstrip()) is not None:
        return False
    first, second = _fields(before), _fields(line)
    return bool(first) and bool(second & _OWN_FIELDS) and not first & second


_rx.save()
