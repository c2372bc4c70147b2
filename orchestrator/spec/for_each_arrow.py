"""A `For each` written as an arrow from a step to its list: `per: pull orders -> stops`,
`for_each: Fetch catalogue → items`, "each: step 2 -> rows".

People who make up their own YAML or table schema name the list a loop runs over by the step
that makes it and the field, joined by an arrow. `arrow_for_each` reads it as a loop over that
step's field, each item named by the field's singular (`stops` -> `stop`), written
`stop in steps.<step words>.output.stops` so that `structure.resolve_references` turns the
step's words (an id, "step 2", its name or the skill it runs) into its id. It is a guess about
the author's notation, so it is warned at its line with the plain way to write it; a step the
words do not name is left for the planner, which says so.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)

_ARROW = _rx(r"^\s*+(?P<step>[^\s>→-][^>→]{0,79}?)\s*+(?:->|→|=>)\s*+(?P<field>[A-Za-z_][\w]{0,63}+)\s*+"
             r"(?:\[\s*+\*?\s*+\])?\s*+$")


def _singular(word: str) -> str:
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    return w[:-1] if w.endswith("s") and not w.endswith("ss") and len(w) > 2 else "item"


def arrow_for_each(text: str, src: Source, line: int) -> str | None:
    """`stop in steps.<step>.output.stops` for `pull orders -> stops` (module docstring), warned;
    None when the text is no arrow from some words to a field name."""
    m = _ARROW.match(text.strip().strip("`'\""))
    if m is None:
        return None
    words, field = m.group("step").strip(" `'\""), m.group("field")
    item = _singular(field)
    if item == field.lower():
        item = "item"
    key = "-".join(words.lower().split())
    if not key or "." in key:
        return None
    src.warn(line, f"for each '{text.strip()[:60]}' read as: each `{item}` of the `{field}` list that step "
                   f"'{words}' gives (a guess at the arrow); to say so plainly write `{item} in step-N.{field}`",
             "spec.for-each-arrow")
    return f"{item} in steps.{key}.output.{field}"


_rx.save()
