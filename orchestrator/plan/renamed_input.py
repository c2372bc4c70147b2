"""A workflow input the text names in the author's words, bound to the skill input it stands for.

    What the crew enters: Study plot readings, ...      -> workflow input `study_plot`
    1 · Study plot / read-study-plot (reads `plot`)     -> plot <- input study_plot

When the words a document uses for an input say more than the name a skill reads ("the study plot
readings" for `plot`, and the step's text says "study plot" too), the input is named as the author
calls it and holds `for skill input plot` (`plan.prose_inputs.author_name`). A step whose skill
reads that name and that nothing else fills takes it from that input; the binding says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from orchestrator.plan.location import from_spec
from orchestrator.plan.model import InputBinding
from orchestrator.spec.model import InputSpec

_MARK = "for skill input "


def take_renamed(step_id: str, needs: Iterable[str], said: Sequence[InputSpec], names: Sequence[str], mapped: Any,
                 where: str) -> None:
    """Bind each name of `needs` that nothing binds to the input said for it (module docstring)."""
    stands_for = {i.description.rsplit(_MARK, 1)[1]: i.name for i in said if _MARK in i.description}
    if not stands_for:
        return
    for name in needs:
        own = stands_for.get(name)
        if own is None or own not in names or name in mapped.bindings:
            continue
        mapped.bindings[name] = InputBinding(source="input", name=own, optional=True)
        mapped.provenance[f"inputs.{name}"] = from_spec(where, f"workflow input: {own}, said in the text for the "
                                                              f"value {step_id}'s skill reads as `{name}`")
