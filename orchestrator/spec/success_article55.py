"""An output said with "a" / "an" before it and one noun after it is had, not compared (fifty-fifth round).

    DONE = oven-plan has given a start time          (output `start`)  -> start is not empty
    finished when the scan has produced an archive path   (output `archive`) -> archive is not empty
    DONE = feed shows status scheduled               (no article)      -> status == "scheduled", as before

`spec.success_checks23` reads one bare word after an output's name as its value ("status scheduled"). After
"a" or "an" the output is a thing the step has given, and the word after it is the noun the output names
("a start time": the start, a time), so the part says the output is there: not empty. A quoted value, a
bound or an upper-case word after it ("a grade of "A"", "a score above 3") is still read as before.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# one lower-case noun and nothing else but a full stop or an aside: "time", "path.", "time (HH:MM)"
_NOUN = _rx(r"^[ \t]*+[a-z][a-z-]{1,30}+[ \t]*+[.!]*+[ \t]*+(?:\([^()]{0,60}+\))?+[ \t.!]*+$")
_ARTICLES = frozenset({"a", "an"})


def had_noun(before: str, tail: str) -> bool:
    """Whether the word `before` an output's name is an article and the `tail` after it one noun (docstring)."""
    return before.lower() in _ARTICLES and _NOUN.match(tail) is not None


_rx.save()
