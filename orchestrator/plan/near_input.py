"""A skill input nothing gives, whose name is close to one workflow input's: the skill reads
`ideas` and the spec declares `subject_ideas`; it reads `entries` and the spec says `@Entries`;
it reads `rateTable` and the spec declares `rate_table`. Bound to that input, with a warning at
the step naming both, rather than left unbound or made a new workflow input nobody gives.

Close means, the case and underscores aside: the same name, or one name's words (split at `_`,
`-` and case changes) are a run of the other's at its start or end (`ideas` ~ `subject_ideas`,
`batch` is no match for `first_batch_size`), the shorter run at least four letters, or the
singular of one is the other (`entry` ~ `entries`). Only when exactly one input is close: two
close inputs are a guess between them, and nothing is bound.
"""

from __future__ import annotations

from collections.abc import Iterable

_TOO_SHORT = 4


def _words(name: str) -> tuple[str, ...]:
    out: list[str] = []
    word = ""
    for i, c in enumerate(name):
        if c in "_-":
            out.append(word)
            word = ""
            continue
        if c.isupper() and word and (name[i - 1].islower() or (i + 1 < len(name) and name[i + 1].islower())):
            out.append(word)
            word = ""
        word += c.lower()
    out.append(word)
    return tuple(w for w in out if w)


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _close(wanted: str, declared: str) -> bool:
    a, b = _words(wanted), _words(declared)
    if not a or not b:
        return False
    if "".join(a) == "".join(b) or tuple(map(_singular, a)) == tuple(map(_singular, b)):
        return True
    short, long = (a, b) if len(a) < len(b) else (b, a)
    if len(short) == len(long) or len("".join(short)) < _TOO_SHORT:
        return False
    return long[:len(short)] == short or long[-len(short):] == short


def near_input(wanted: str, inputs: Iterable[str]) -> str | None:
    """The one workflow input whose name is close to `wanted` (module docstring), or None."""
    found = [name for name in inputs if name != wanted and _close(wanted, name)]
    return found[0] if len(found) == 1 else None
