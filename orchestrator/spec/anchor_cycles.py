"""A guard on the skill-anchored reading (`spec.anchored`): no loop the author did not write.

The anchored reading finds steps by the skill names a document mentions, in document order, and
hands each step's sentences to the readers the other forms use. A sentence that lands in the wrong
step there, or is read in a way its author did not mean, can make a step route to, or wait for, a
step at or before itself:

    ☐ 4 · Text the finder → text-finder
        Phone + case no. from step 1, slot from step 3.     read as "route to step 1 / step 3"

and the plan then refused with a dependency cycle per loop and an unreachable-step error per
step behind them, five errors for one line read wrongly. The steps here are in document order, so
such a reading is a guess that went wrong: a route from a step back to itself or to an earlier
step, and a wait on a later step, are dropped, and ONE warning at the line says what was not read
and how to write it (a choice of the next step names later steps: `if band is red -> step 4`; a
wait names earlier ones: `after step 2`). The sentence read as routes is the step's text again, so
its data references and rules are read as any other text of the step.
"""

from __future__ import annotations

from orchestrator.spec.model import SpecText, StepSpec
from orchestrator.spec.source import Source


def untangle(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The anchored `steps` with routes back and waits forward dropped, each step warned once."""
    order = {s.id: n for n, s in enumerate(steps)}
    out: list[StepSpec] = []
    for n, step in enumerate(steps):
        back = {k: v for k, v in step.routes.items() if order.get(v, n + 1) <= n}
        default_back = step.route_default is not None and order.get(step.route_default, n + 1) <= n
        ahead = [d for d in step.depends_on if order.get(d, -1) >= n]
        if not back and not default_back and not ahead:
            out.append(step)
            continue
        update: dict[str, object] = {}
        said: list[str] = []
        if back or default_back:
            routes = {k: v for k, v in step.routes.items() if k not in back}
            update.update(routes=routes, route_default=None if default_back else step.route_default)
            if not routes and update["route_default"] is None:  # nor the reading that gave them: its
                gave = [r for r in step.readings if r.what == "route"]  # sentence is the step's text again
                update.update(route_on=None, routes_where=None,
                              readings=tuple(r for r in step.readings if r.what != "route"),
                              texts=(*step.texts, *(SpecText(text=r.text, line=_line(r.where), kind="prose")
                                                    for r in gave)))
            back_to = [*back.values(), *([step.route_default] if step.route_default and default_back else [])]
            targets = sorted(set(back_to), key=order.__getitem__)
            said.append(f"a choice of the next step that goes back to {', '.join(targets)}")
        if ahead:
            update["depends_on"] = tuple(d for d in step.depends_on if d not in ahead)
            said.append(f"a wait on {', '.join(ahead)}, which comes after it")
        line = _line(step.routes_where if (back or default_back) and step.routes_where else step.where)
        src.warn(line, f"{step.id} ({step.name[:40]}): its text was read as {' and '.join(said)}; the steps were "
                       "found by the skills the document names, in its order, so that reading would loop and is "
                       "dropped: the step runs after the ones before it as its text says. To choose the next "
                       "step write `if band is red -> step 4` naming later steps; to wait write `after step 2`",
                 "spec.anchored-loop")
        out.append(step.model_copy(update=update))
    return out


def _line(where: str) -> int:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 1
