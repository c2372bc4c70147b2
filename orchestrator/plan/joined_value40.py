"""One input made of several values put together in order (`InputBinding.joined`).

    printed=@rip_large.done+@rip_std.done        a Procfile's joined argument (`spec.procfile38`), given
                                                 to the planner as `steps.a.output.done + steps.b.output.done`
    `printed` = step-3.done + step-4.done        the same, written as a reference

Each part is read as one reference is (a step's output field, a workflow input); all of them found,
the binding is a joined value: a list, each list part's items each an item, any other value one
item, a step that did not run (skipped by its condition) adding nothing. A part found nowhere leaves
the input unbound (warned by the caller's check). Said in words ("the done lists of both rips put
together", "a's results followed by b's") it is read by `spec.joined_words40` into the same reference.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from orchestrator.plan.model import InputBinding

# `a + b (+ c ...)`: a part is a dotted reference, no spaces inside (no arithmetic of numbers: "x + 1")
_PART = r"[A-Za-z_][\w-]*+(?:\.[\w-]++|\['[^'\]]{1,60}+'\])++"
_JOINED = re.compile(rf"\A\s*+{_PART}(?:\s*+\+\s*+{_PART})++\s*+\Z")


def joined_parts(ref: str) -> list[str] | None:
    """The parts of a joined reference (`steps.a.output.x + steps.b.output.y`), None when it is not one."""
    if _JOINED.match(ref) is None:
        return None
    return [p.strip() for p in ref.split("+")]


def joined_binding(ref: str, resolve: Callable[[str], InputBinding | None]) -> InputBinding | None:
    """The joined value of `ref`'s parts, each resolved by `resolve`; None when it is no joined reference,
    a part resolves to nothing or to no step's or input's value, or no part is a step's."""
    parts = joined_parts(ref)
    if parts is None:
        return None
    bound: list[InputBinding] = []
    for part in parts:
        one = resolve(part)
        if one is None or one.source not in ("step", "input") or one.any_of or one.joined:
            return None
        bound.append(one.model_copy(update={"optional": False}))
    first = next((b.step for b in bound if b.source == "step"), None)
    if first is None:
        return None
    return InputBinding(source="step", step=first, joined=tuple(bound))


def joined_note(binding: InputBinding) -> str:
    """How the plan says a joined value's rule."""
    said = " + ".join(f"{p.step}.{p.pointer[1:].replace('/', '.') or '(whole output)'}" if p.source == "step"
                      else f"input {p.name}" for p in binding.joined)
    return f"joined in order into one list: {said} (a list's items each an item; a step that did not run adds nothing)"
