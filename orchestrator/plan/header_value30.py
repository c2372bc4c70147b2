"""A one-word input the step's text names with its qualifier ("the bunker port"), its value stated
for every run in the text before the steps (thirtieth round).

    Bunker port is Rotterdam unless I write otherwise here: ROTTERDAM     (a log's fill-in header)
    ...
    c) ... bunker-order with that margin_t and the bunker port.            -> port: "ROTTERDAM"

A skill reads `port`, `venue`, `room` (one word) that nothing gives. One word alone is not read by
its words before the steps ("port is open" reads like a condition: `plan.said_value`), but when the
step's own text names it as "the <word> <name>" ("the bunker port", "our home venue"), those two words
are the name the document uses: the text before the steps stating them with "is", "=" or ":" and a
value gives the step its literal, warned. A default with the author's override on the same line
("X is A unless I write otherwise here: B", "X: A, or what is filled in here: B") is the override.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.said_value import bind_literal, said_value
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_QUALIFIED = r"(?i)\b(?:the|our|this|that)[ \t]++(?P<q>[a-z]{3,20}+)[ \t]++{name}\b"
# "X is A unless I write otherwise here: B": the subject and the override
_OVERRIDE = _rx(r"(?im)^(?P<subj>[^\n:]{1,60}?)[ \t]++is[ \t]++[^\n:]{1,40}?\bunless\b[^\n:]{0,60}?"
                r"\b(?:otherwise|different|else)\b[^\n:]{0,20}?:[ \t]*+(?P<v>[^\s.,;][^\n]{0,40}+)$")
_NAME = _rx(r"^[a-z]{2,20}+$")


def _overrides(preamble: str) -> str:
    """The preamble with each defaulted line's override as its value ("Bunker port is ROTTERDAM")."""
    return _OVERRIDE.sub(lambda m: f"{m.group('subj').strip()} is {m.group('v').strip()}", preamble) \
        if "unless" in preamble else preamble


def qualified_value(name: str, text: str, preamble: str) -> tuple[object, str] | None:
    """(the value, the words read) for one-word `name` the step's `text` names with its qualifier, when
    the text before the steps states it (module docstring); None otherwise."""
    if _NAME.match(name) is None or name not in text.lower():
        return None
    import re

    for m in re.finditer(_QUALIFIED.replace("{name}", re.escape(name)), text):
        said = said_value(f"{m.group('q').lower()}_{name}", _overrides(preamble))
        if said is not None:
            return said
    return None


def bind_qualified(step: StepSpec, names: Iterable[str], text: str, preamble: str,
                   bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                   path: str) -> list[Diagnostic]:
    """Bind each of `names` (one-word inputs nothing gives) to the value the text before the steps states
    for the qualified name the step's text uses (module docstring), warned."""
    found: list[Diagnostic] = []
    for name in names:
        said = qualified_value(name, text, preamble)
        if said is None:
            continue
        how = f"the step's text names it as the {said[1].split(' is ')[0].split(':')[0].strip().lower()} and the " \
              f"text before the steps says '{said[1]}'"
        found.append(bind_literal(step, path, name, said[0], f"{how}, for the whole run",
                                  f"{how}: read as {said[0]!r} for every run", bindings, provenance))
    return found


_rx.save()
