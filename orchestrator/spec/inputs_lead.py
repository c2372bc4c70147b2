"""A paragraph that lists what the workflow takes: "TIP: Inputs you need in hand: ... (`log`)",
"You'll need: `orders` and `as_of`", "Requires: `repo`", "Prerequisites - `token`". Its names in
backticks are the workflow's inputs; it is never a step, even when a name is shaped like a
skill's (`commit_log`). An admonition label before it (TIP, NOTE, INFO, HINT, IMPORTANT) is
no part of it.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NEED = r"(?:['’]ll|\s++will)?+\s++need"
INPUTS_LEAD = _rx(
    r"(?i)^\s*+(?:(?:tip|note|info|hint|important)\s*+:\s*+)?+(?:\*\*|__)?+"
    rf"(?:(?:the\s++)?+inputs?\s++(?:you|we){_NEED}|(?:what\s++)?+you{_NEED}|requires|required\s++inputs?|"
    r"prerequisites|before\s++you\s++start)(?!\w)[^:\n]{0,40}?(?:\*\*|__)?+\s*+[:—–-]"
)


def inputs_lead(text: str) -> bool:
    """The paragraph opens by saying what the workflow takes, so it lists inputs, not a step."""
    return INPUTS_LEAD.match(text) is not None


_rx.save()
