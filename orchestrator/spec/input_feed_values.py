"""The values under an author's own input key (`feed:`, `wiring:`, `takes:`) that name where a value
comes from in the author's own notation, outside `{{ }}`:

    depot: pull orders -> depot          → step `pull orders`'s output `depot`
    points: geocode -> everything        → step `geocode`'s whole output (a For each step's: its results)
    depot: hub                           → the value of the document's top-level `hub:` (RTM-WAALHAVEN)

An arrow from some words to a field is read like a For each's arrow (`spec.for_each_arrow`): the words
name a step (its id, its name made plain), and `structure.resolve_references` turns them into its id;
a step they do not name is left for the planner, which says so. A bare value that is exactly the name
of a top-level key holding one plain value is that value. Each is a guess about the author's
notation, so each is warned at its line with the plain way to write it.
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ARROW = _rx(r"^(?P<step>[A-Za-z0-9_][^>→=]{0,79}?)[ \t]*+(?:->|→|=>)[ \t]*+"
             r"(?P<field>[A-Za-z_]\w{0,63}+|\*)[ \t]*+$")
_WHOLE = frozenset({"everything", "all", "whole", "output", "outputs", "results", "result", "*"})
_PLAIN = _rx(r"[^a-z0-9_]++")


def plain_step(words: str) -> str:
    """`pull orders` → `pull-orders`: the words made an id (as the form makes one of a step's name)."""
    return _PLAIN.sub("-", words.strip().lower()).strip("-")


def fed_value(text: str, constants: Mapping[str, str]) -> tuple[str, str, str] | None:
    """(the value as the form writes it, how it was read, how to write it plainly) for an arrow to a step's
    field or a top-level key's name (module docstring); None for any other text."""
    m = _ARROW.match(text.strip())
    if m is not None:
        step, field = plain_step(m.group("step")), m.group("field")
        if not step:
            return None
        if field.lower() in _WHOLE:
            ref = f"steps.{step}.output"
            return (f"{{{{ {ref} }}}}", f"the whole output of step `{m.group('step').strip()}` (its results, "
                                        "gathered, when it runs per item)", f"{{{{ {ref} }}}}")
        ref = f"steps.{step}.output.{field}"
        return f"{{{{ {ref} }}}}", f"step `{m.group('step').strip()}`'s output `{field}`", f"{{{{ {ref} }}}}"
    value = constants.get(text.strip())
    if value is not None:
        return value, f"the value of the top-level `{text.strip()}:` ('{value}')", value
    return None


_rx.save()
