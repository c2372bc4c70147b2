"""A value the step's text names under another name than the skill's input it must fill.

    `render-changelog` takes the `new_version` ...      skill input `version`  <- `new_version`
    `tag-release` with ... the changelog `markdown`     skill input `changelog` <- `markdown`

A skill input that nothing gives is paired with a name the text gives that the skill does
not read when (1) the input's words are all words of that name (`version` in `new_version`,
`date` in `release_date`), or (2) the text writes the input's name as a word right next to
the value's (`the changelog `markdown``). A pair counts only when it is the one way to pair
both names; the planner binds it and warns at the step's line (a rename is never silent).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]


def _contains(value: str, wanted: str) -> bool:
    """`new_version` holds `version`; `release_date` holds `date`; `dates` does not hold `date_from`."""
    have, need = _words(value), _words(wanted)
    return bool(need) and have != need and all(w in have for w in need)


def _next_to(text: str, value: str, wanted: str) -> bool:
    """The text writes `wanted` as a word right before or after `value`: "the changelog `markdown`"."""
    v = re.escape(value)
    w = r"[\s_-]+".join(re.escape(x) for x in _words(wanted))
    return bool(re.search(rf"(?i)(?<![\w-]){w}\s+`?{v}`?(?![\w-])|(?<![\w-])`?{v}`?\s+{w}(?![\w-])", text))


def renames(unbound: Sequence[str], given: Sequence[str], text: str) -> list[tuple[str, str]]:
    """(skill input, the given name that fills it), each pair the only one for both names."""
    pairs: list[tuple[str, str]] = []
    tests: list[Callable[[str, str], bool]] = [lambda u, g: _contains(g, u), lambda u, g: _next_to(text, g, u)]
    for test in tests:
        left_u = [u for u in unbound if u not in {p[0] for p in pairs}]
        left_g = [g for g in given if g not in {p[1] for p in pairs}]
        for u in left_u:
            fits = [g for g in left_g if test(u, g)]
            if len(fits) == 1 and [x for x in left_u if test(x, fits[0])] == [u]:
                pairs.append((u, fits[0]))
    return pairs
