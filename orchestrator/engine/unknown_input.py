"""What a run says when it is given an input its plan does not take.

`run --input limit_ms=10` (or a key of `--input-file`) that the plan has no input for is refused
before any step runs. The message names every such key, then the inputs the plan does take with
where each was read (`site (spec.md:6)`), and, for a key the spec's author described in words the
planner did not match to that name, the line that describes it: a warning of the plan that names
the key (`limit_ms` in backticks) or quotes words of it ("'the wind limit' not matched"). The fix
is then at that line: name the input there, or declare it in an Inputs section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.model import PlanInput

_WORD = re.compile(r"[a-z0-9]+")
_QUOTED = re.compile(r"'([^'\n]{1,80})'")
_SMALL = frozenset({"the", "a", "an", "of", "in", "id", "no", "to", "and", "or"})


def _words(name: str) -> set[str]:
    return {w.rstrip("s") if len(w) > 3 else w for w in _WORD.findall(name.lower().replace("_", " "))} - _SMALL


def _described_at(key: str, warnings: Iterable[Diagnostic]) -> Diagnostic | None:
    """The plan's warning that speaks of `key`: by its name in backticks, else by a quoted part that
    shares a word of it ('the wind limit' for `limit_ms`)."""
    words = _words(key)
    by_words: Diagnostic | None = None
    for w in warnings:
        if w.line is None:
            continue
        if f"`{key}`" in w.message:
            return w
        if by_words is None and words and any(words & _words(q) for q in _QUOTED.findall(w.message)):
            by_words = w
    return by_words


def unknown_inputs_message(keys: Sequence[str], inputs: Sequence[PlanInput], warnings: Sequence[Diagnostic]) -> str:
    """The refusal of the `keys` a plan with `inputs` does not take (module docstring)."""
    named = ", ".join(repr(k) for k in keys)
    message = f"unknown input{'s' if len(keys) > 1 else ''} {named}; the plan takes: " + ", ".join(
        f"{i.name} ({i.where})" if i.where else i.name for i in sorted(inputs, key=lambda i: i.name))
    for key in keys:
        said = _described_at(key, warnings)
        if said is not None:
            message += (f". The spec speaks of {key!r} at {said.file}:{said.line} without it becoming an input "
                        f"of that name: write `{key}` there, or declare it in an Inputs section (`- {key}: ...`)")
    return message
