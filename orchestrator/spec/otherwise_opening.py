"""A step proposed as the other branch of the one before, whose opening word is also a word of fallback.

    3) failing that `hoist-sails`                 a step of its own: the other branch of the step before
    12/05, 09:12 - Ann: 3) failing that → x       the same in a chat export
    - otherwise `x`                               the same
    `fetch-api`, failing that `use-cache`         not at the opening: `use-cache` is the fallback

"Failing that", "otherwise", "else", "if not" said at the very opening of a unit (after its list
marker, timestamp, speaker and step number: `spec.condition_opening.opening`) say which branch the
unit is, not what to do when the step before fails: `spec.skill_mentions.roles` reads the names
after them as the unit's doers, so the unit stays a step (before, "failing that `x`" with no comma
gave `x` to the step before as its fallback and the step was lost). `spec.condition_opening` then
reads the step as the other branch of the nearest step before with a condition, or warns that both run.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OTHER = _rx(r"(?i)^(?:(?:and|but|so|or)\s++)?(?:failing\s++that|otherwise|else|or\s++else|if\s++not)(?![\w-])"
             r"(?!\s++(?:use|fall|try|go\s++with|switch)\b)")


def otherwise_opening(text: str) -> int | None:
    """Where in `text` the otherwise words at its opening end (module docstring); None when it opens otherwise."""
    from orchestrator.spec.condition_opening import (
        opening,  # it reads conditions: asked late, no import cycle
    )

    words = opening(text)
    m = _OTHER.match(words)
    if m is None:
        return None
    at = text.find(words[: m.end()])
    return None if at < 0 else at + m.end()


_rx.save()
