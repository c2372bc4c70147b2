"""A step's arrows read as its data flow: `(table -> rows)`, `bundle -> modules`, and arrows around the
skill that does the step.

    Parse + load → `load-rows` with the cleaned `csv` → `rows`, `count`
    Rank → `rank-hosts` (gives `top`)

When the first name after an arrow is a skill of the catalog (or, with no catalog, a hyphenated name
followed by another arrow), the text before that arrow is the step's title, not its inputs, and the
skill is the doer, never an output: the names after the skill are what it takes ("with the cleaned
`csv`"), and only the names after a further arrow are what the step yields. The planner checks those
against what the skill's instructions say it returns (`plan.arrow_outputs`).
"""

from __future__ import annotations

import re

_ARROWS = ("->", "→", "=>")
_FIRST_NAME = re.compile(r"\s*(?:\*\*|\*|_)?`?([A-Za-z_][\w-]*)`?")


def _after_arrow(text: str) -> tuple[str, str] | None:
    """(what comes before the first arrow of `text`, what comes after it); None without one."""
    at = [(i, a) for a in _ARROWS if (i := text.find(a)) >= 0]
    if not at:
        return None
    i, arrow = min(at)
    return text[:i], text[i + len(arrow):]


def doer_outputs(outs: str, skills: frozenset[str]) -> str | None:
    """The text naming what a step yields when `outs` (what follows a step's first arrow) opens with the
    skill that does the step: what follows the skill's own arrow, or "" when it has none. None when
    `outs` does not open with a skill (its names are then the step's outputs, as before)."""
    m = _FIRST_NAME.match(outs)
    if m is None:
        return None
    name = m.group(1)
    rest = _after_arrow(outs[m.end():])
    if name not in skills and not (not skills and "-" in name and rest is not None):
        return None
    return rest[1] if rest is not None else ""
