"""A percentage compared with what it is a percentage of, said after it, in a condition.

    any room type moved more than 25% vs its base          -> any room type moved more than 25%
    the fare rose over 10 percent compared with last week  -> the fare rose over 10 percent
    a line's cost grew by more than 5% relative to the budget -> a line's cost grew by more than 5%

A change said in percent is a change against some base ("vs its base", "versus the list price",
"compared to / with ...", "relative to ...", "against last year"): the base is what the step that
works the change out already compares with, never a second value the condition compares, so
`read_condition` leaves it aside (`without_base`) and reads the comparison before it. Only right
after a percentage ("25%", "10 percent", "5 pct") and only to the end of the condition: "over 25 vs
30" (no percent) or "25% vs its base and the total is over 1000" (more after it) are not cut.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_BASE = _rx(r"(?i)(?<=\d)(?P<pct>\s*+(?:%|per\s*+cent|percent|pct)(?![\w-]))\s++(?:vs\.?+|versus|compared\s++(?:to|with)|"
            r"relative\s++to|against)\s++(?:its|their|the|his|her|our|last|this|that)?+\s*+[\w'-]{1,30}+"
            r"(?:\s++[\w'-]{1,30}+){0,2}+\s*+$")


def without_base(body: str) -> str:
    """The condition without the base its percentage is said against (module docstring)."""
    m = _BASE.search(body)
    return body[: m.start()] + m.group("pct") if m is not None else body


_rx.save()
