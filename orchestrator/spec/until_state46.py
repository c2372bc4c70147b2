"""A state that lasts until someone signs something off: the end of that state, never an approval of
this run.

    rate year 2027 (hard-coded until the board signs off 2028)      -> no approval: how long 2027 stays
    the old form stays in use until legal approves the new one      -> no approval
    keep the 5% rate, frozen until finance OKs next year's budget   -> no approval
    Hold the batch until the lead signs it off.                     -> an approval (a wait verb before it)

An `until` clause whose sign-off words (`signs off`, `approves`, `OKs`, `agrees`) follow a word saying
that something stays as it is (`hard-coded`, `fixed`, `frozen`, `pinned`, `kept`, `valid`, `in force`,
`in use`, `in place`, `stays`, `remains`) with no wait verb (`wait`, `hold`, `pause`, `stop`) between them
says how long that state lasts: the clause is taken out before a sentence is asked whether it needs a
person's approval (`condition.approval_sentence`).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_STATE_UNTIL = _rx(
    r"(?i)(?<![\w-])(?:hard-?coded|fixed|frozen|pinned|kept|valid|in\s++(?:force|use|place)|stays?|remains?)"
    r"(?![\w-])(?:(?!\b(?:wait|waits|hold|holds|pause|pauses|stop|stops)\b)[^.;()\n]){0,40}?"
    r"(?<![\w-])until\s++(?:[^.;()\n]){0,60}?(?<![\w-])(?:signs?\s++(?:it\s++)?off|approves?|OKs|okays|agrees)"
    r"(?![\w-])[^.;()\n]{0,60}+")


def without_state_until(sentence: str) -> str:
    """`sentence` with each `until` clause ending a state (module docstring) taken out."""
    return _STATE_UNTIL.sub(" ", sentence)


_rx.save()
