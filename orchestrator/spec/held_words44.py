"""Policy words left over in a sentence whose rule holding them was read: not called unread.

`spec.phrase` says "not understood: 'wait'" for a policy word no row took. Some such words belong to a
rule the sentence has already given: "retry x3, wait 10s first then double it each time" is read as an
exponential wait starting at 10 s, and the word "wait" is only the verb of it; "don't run it again, the
promoter sees every attempt" is read as no retry, and "attempt" is in the reason. `held` drops a left-over
word when the part of the policy it names was read (a wait or backoff for wait/delay, a retry count or no
retry for retry/attempt/tries/again/twice, or waits said one by one, each a retry, a timeout for timeout, a fallback for instead). The other branch of a
condition ("if NOT worse -> standard dressing instead") holds its "instead" too when the sentence opens
with the condition and names no failure: it says which step runs, not what follows one. A word of a part
that was not read is still said ("retry 3 times, wait for the lock" with no wait read keeps 'wait').
"""

from __future__ import annotations

from orchestrator.policy import PolicyStatement
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WAIT = _rx(r"(?i)^(?:wait(?:ing|s)?|delay(?:ed|s)?|back-?\s*off)$")
_TRIES = _rx(r"(?i)^(?:retr(?:y|ies|ied|ying)|re-?tr(?:y|ies|ied|ying)|attempts?|tries|again|try\s+(?:it\s+|this\s+)?again"
                 r"|once|twice|thrice)$")
_TIMEOUT = _rx(r"(?i)^(?:time-?\s*outs?|timed\s+out|times\s+out)$")
_INSTEAD = _rx(r"(?i)^instead$")
# a sentence that opens with a condition ("if NOT worse ->", "otherwise", "else") ...
_OPENS_CONDITION = _rx(r"(?i)^\W*+(?:if|when|unless|otherwise|else)\b")
# ... and names no failure: its "instead" is the other branch, not a fallback
_FAILURE = _rx(r"(?i)\b(?:fail\w*|errors?|erroring|errored|crash\w*|breaks?|broke|down|dies|dead|times?\s+out|timed\s+out"
               r"|hangs?|stuck|refus\w*|reject\w*|invalid|wrong|fault\w*|problems?|trouble|exceptions?|unavailable|missing"
               r"|not\s+work\w*|doesn'?t\s+work|won'?t\s+work)\b")


def held(words: tuple[str, ...], statement: PolicyStatement, text: str) -> tuple[str, ...]:
    """`words` without those whose rule `statement` holds (module docstring); `text` is the sentence."""
    tried = statement.no_retry or statement.retries is not None or statement.max_attempts is not None
    # waits said one by one are one retry each ("again after 2 s, again after 15 s"): the tries are read
    tried = tried or (statement.wait is not None and statement.wait.kind == "sequence" and len(statement.wait.seconds) > 1)
    branch = _OPENS_CONDITION.search(text) is not None and _FAILURE.search(text) is None
    kept: list[str] = []
    for word in words:
        w = " ".join(word.split())
        if (_WAIT.match(w) and statement.wait is not None) or (_TRIES.match(w) and tried) \
                or (_TIMEOUT.match(w) and statement.timeout_s is not None) \
                or (_INSTEAD.match(w) and (statement.on_failure is not None or branch)):
            continue
        kept.append(word)
    return tuple(kept)


_rx.save()
