"""A skill input nothing gives, whose name is close to one workflow input's: the skill reads
`ideas` and the spec declares `subject_ideas`; it reads `entries` and the spec says `@Entries`;
it reads `rateTable` and the spec declares `rate_table`. Bound to that input, with a warning at
the step naming both, rather than left unbound or made a new workflow input nobody gives.

Close means, the case and underscores aside: the same name, or one name's words (split at `_`,
`-` and case changes) are a run of the other's at its start or end (`ideas` ~ `subject_ideas`,
`batch` is no match for `first_batch_size`), the shorter run at least four letters, or the
singular of one is the other (`entry` ~ `entries`). Only when exactly one input is close: two
close inputs are a guess between them, and nothing is bound. Nor when the step's text names
another value close to it ("takes the `new_version` from whichever bump ran" for `version`, with
the input `current_version`): the text says which, and the rename and join readers read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, MutableMapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.wanted import mentioned
from orchestrator.spec.model import StepSpec

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


def singular_word(word: str) -> str:
    """A lower-case word's singular, a short word as it is (`ideas` -> `idea`, `bus` stays)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _close(wanted: str, declared: str) -> bool:
    a, b = _words(wanted), _words(declared)
    if not a or not b:
        return False
    if "".join(a) == "".join(b) or tuple(map(singular_word, a)) == tuple(map(singular_word, b)):
        return True
    short, long = (a, b) if len(a) < len(b) else (b, a)
    if len(short) == len(long) or len("".join(short)) < _TOO_SHORT:
        return False
    return long[:len(short)] == short or long[-len(short):] == short


def close_names(a: str, b: str) -> bool:
    """Whether two names are close (module docstring): the same, plural and singular, or one's
    words a run at the other's start or end."""
    return _close(a, b)


_NAME_WRITTEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*+")


def near_input(wanted: str, inputs: Iterable[str], text: str = "") -> str | None:
    """The one workflow input whose name is close to `wanted` (module docstring), or None; None
    too when `text` names another close value."""
    found = [name for name in inputs if name != wanted and _close(wanted, name)]
    if len(found) != 1:
        return None
    said = {w for w in _NAME_WRITTEN.findall(text) if w not in (wanted, found[0]) and (
        "_" in w or (w[:1].islower() and any(c.isupper() for c in w)))}  # names as names: `new_version`, `rateTable`
    return None if any(_close(wanted, w) for w in said) else found[0]


def bind_near(step: StepSpec, left: Iterable[str], inputs: Iterable[str], text: str, required: Iterable[str],
              bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
              path: str) -> list[Diagnostic]:
    """Each skill input `left` unbound once every other rule has had its turn (the rename and
    join readers read a value the text names first) that has one close workflow input the text
    does not name: bound to it, warned at the step."""
    found: list[Diagnostic] = []
    names, must = list(inputs), set(required)
    for name in left:
        near = near_input(name, names, text)
        if near is None or mentioned(text, [near]):  # named: the rename rule's, `plan.rename`
            continue
        found.append(given_input(step, name, near, "close to", "whose name is close", name in must, bindings,
                                 provenance, path))
    return found


def given_input(step: StepSpec, name: str, own: str, short: str, why: str, required: bool,
                bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                path: str) -> Diagnostic:
    """The skill input `name` bound to the workflow input `own` as a guess (`short` / `why` say the reason in
    the provenance and the warning); the warning at the step."""
    bindings[name] = InputBinding(source="input", name=own, optional=not required)
    provenance[f"inputs.{name}"] = from_spec(step.where, f"workflow input: {own} ({short} `{name}`)")
    return warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which nothing gives; "
                      f"it is given the workflow input `{own}`, {why}: if that is not meant, write `{name}` in the "
                      "step with the value it takes", "plan.input-near")
