"""The branches a join names in the author's words: by the steps' titles, or by what the branches are.

    waits for → whichever of Offset quote / POD setup actually ran     step 3 or step 4, by their titles
    after whichever of Feed it or Let it rest went                      the same, "or" between them
    then the brief off whichever plan ran                               the latest choice: a step and its
    then `confirm`, whichever quote it was                              other branch (`otherwise_of`)

`plan.join_either` reads a join that names its steps by number ("step 3 or step 4") or by none ("whichever
of the two"); `named_steps` gives it the steps named by words: after "whichever of" / "either of" (or
"either"), the list up to a verb of running ("ran", "went", "happened", "was done", "fired"), split at "/",
"or", "," and "&"; each part an earlier step's title (its aside in brackets left out), skill, number, or the
words of one earlier step's title and none other ("the offset one"). All parts must name distinct earlier
steps, else None (the caller's other readings, then its warnings). `latest_choice` gives the branches of
"whichever <word> ran", which names no step: the latest step before that is another's other branch and
that other, a guess the caller warns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_RAN = r"(?:actually[ \t]++|really[ \t]++)?+(?:ran|run|went|happened|fired|was[ \t]++(?:done|run|used|picked)|got[ \t]++(?:done|run))"
# "whichever of A / B actually ran", "either of A or B ran"
_LIST = _rx(r"(?i)(?<![\w-])(?:whichever|either)[ \t]++(?:of[ \t]++)?+(?P<list>[^.;:\n()]{3,160}+)")
_RAN_AT = _rx(rf"(?i)(?<![ \t])[ \t]++{_RAN}(?![\w-])")
_SPLIT = _rx(r"(?i)(?<![ \t])[ \t]*+(?:/|,|&|(?<![\w-])or(?![\w-]))[ \t]*+")
# "whichever plan ran", "whichever quote went": a word, no step
_KIND = _rx(rf"(?i)(?<![\w-])whichever[ \t]++(?!of(?![\w-]))(?P<kind>[a-z][\w-]{{1,30}}+)[ \t]++"
            rf"(?:{_RAN}|it[ \t]++(?:was|is|turned[ \t]++out[ \t]++to[ \t]++be))(?![\w-])")  # "whichever quote it was"
_FILLER = frozenset({"the", "one", "step", "stage", "a", "that", "this", "bit"})


def _words(text: str) -> set[str]:
    return set(re.sub(r"[^a-z0-9]+", " ", re.sub(r"\([^()]*+\)", " ", text.lower())).split()) - _FILLER


def _one(said: str, earlier: Sequence[StepSpec]) -> str | None:
    """The earlier step `said` names (module docstring), or None."""
    said = said.strip(" \t`*_\"'’.")
    low = re.sub(r"(?<!\s)\s*+\([^()]*+\)", "", said).lower()
    number = re.fullmatch(r"(?:step[ \t]*+|#)?(\d{1,4})", low)
    for s in earlier:
        title = re.sub(r"(?<!\s)\s*+\([^()]*+\)", "", s.name).strip().lower()
        if low in (title, s.name.strip().lower(), s.id.lower()) or (s.skill and low == s.skill.strip("`").lower()) \
                or (number is not None and s.number == int(number.group(1))):
            return s.id
    words = _words(said)
    if not words:
        return None
    near = [s.id for s in earlier if words <= _words(s.name) or (s.skill and words <= _words(s.skill))]
    return near[0] if len(near) == 1 else None


def named_steps(text: str, earlier: Sequence[StepSpec]) -> list[str] | None:
    """The earlier steps a join names by words (module docstring), in the order said; None when it names none so."""
    for m in _LIST.finditer(text):
        said = m.group("list")
        if (ran := _RAN_AT.search(said)) is None:
            continue
        parts = [p for p in _SPLIT.split(said[:ran.start()]) if p.strip()]
        if not 2 <= len(parts) <= 6:
            continue
        ids = [_one(p, earlier) for p in parts]
        if all(ids) and len(set(ids)) == len(ids):
            return [i for i in ids if i is not None]
    return None


def latest_choice(text: str, earlier: Sequence[StepSpec]) -> list[str] | None:
    """The branches of "whichever <word> ran": the latest earlier step that is another's other branch, and that one."""
    if _KIND.search(text) is None:
        return None
    ids = {s.id for s in earlier}
    for s in reversed(earlier[-20:]):
        if s.otherwise_of and s.otherwise_of in ids:
            return [s.otherwise_of, s.id]
    return None


_rx.save()
