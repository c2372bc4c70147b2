"""A plan's dependency graph, checked and built once per plan object.

`plan_graph(plan)` checks what the engine relies on (unique step ids, bound
skills, known dependencies, no cycle; a hand-edited plan may break any of them)
and returns who depends on whom. Plans are frozen, so the graph is kept for as
long as the plan object lives: `create_run` and `execute_run` in one process,
or every run of one plan in the MCP server, build it once.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from orchestrator.engine.render import binding_sources
from orchestrator.errors import ConfigError
from orchestrator.plan.model import Plan, PlanStep


@dataclass(frozen=True, slots=True)
class PlanGraph:
    steps: Mapping[str, PlanStep]  # id -> step, in plan order
    deps: Mapping[str, tuple[str, ...]]  # `depends_on`, then the steps the bindings read
    required: Mapping[str, tuple[str, ...]]  # sorted: the producers whose output a step needs
    dependants: Mapping[str, tuple[str, ...]]
    routers: Mapping[str, tuple[str, ...]]  # step -> the routing steps naming it


def unordered_steps(needs: Mapping[str, Iterable[str]]) -> list[str]:
    """The steps no execution order can reach: those on a dependency cycle or behind one.

    `needs` maps every step to the steps it depends on. Empty for a DAG. Linear in
    steps plus edges (Kahn's algorithm), so checking a 10 000-step chain is instant.
    """
    waiting = {sid: len(set(deps)) for sid, deps in needs.items()}
    dependants: dict[str, list[str]] = {sid: [] for sid in needs}
    for sid, deps in needs.items():
        for dep in set(deps):
            dependants.setdefault(dep, []).append(sid)
    ready = [sid for sid, n in waiting.items() if n == 0]
    while ready:
        sid = ready.pop()
        for dependant in dependants.get(sid, ()):
            waiting[dependant] -= 1
            if waiting[dependant] == 0:
                ready.append(dependant)
    return sorted(sid for sid, n in waiting.items() if n > 0)


def _build(plan: Plan) -> PlanGraph:
    steps = {s.id: s for s in plan.steps}
    if len(steps) != len(plan.steps):
        raise ConfigError(f"plan {plan.name} has two steps with one id", where=plan.name)
    deps: dict[str, tuple[str, ...]] = {}
    required: dict[str, tuple[str, ...]] = {}
    dependants: dict[str, list[str]] = {sid: [] for sid in steps}
    routers: dict[str, list[str]] = {sid: [] for sid in steps}
    for step in plan.steps:
        if step.skill not in plan.skills:
            raise ConfigError(f"step {step.id} uses skill {step.skill!r}, which the plan does not bind", where=step.id)
        every, needed = binding_sources(step)
        mine = tuple(dict.fromkeys([*step.depends_on, *sorted(every)]))
        unknown = sorted(d for d in mine if d not in steps)
        if unknown:
            raise ConfigError(f"step {step.id} depends on unknown step {unknown[0]!r}", where=step.id)
        deps[step.id] = mine
        required[step.id] = tuple(sorted(needed))
        for dep in mine:
            dependants[dep].append(step.id)
        for target in dict.fromkeys([*step.routes.values(), *([step.route_default] if step.route_default else [])]):
            if target in routers:
                routers[target].append(step.id)
    cycle = unordered_steps(deps)
    if cycle:
        raise ConfigError(f"plan {plan.name} has a dependency cycle among: {', '.join(cycle)}", where=cycle[0])
    return PlanGraph(
        steps=steps,
        deps=deps,
        required=required,
        dependants={sid: tuple(ds) for sid, ds in dependants.items()},
        routers={sid: tuple(rs) for sid, rs in routers.items()},
    )


# id(plan) -> (a weak reference to it, its graph); an entry leaves with its plan
_GRAPHS: dict[int, tuple[weakref.ref[Plan], PlanGraph]] = {}


def plan_graph(plan: Plan) -> PlanGraph:
    """The checked graph of `plan` (ConfigError naming the step when it is broken)."""
    key = id(plan)
    found = _GRAPHS.get(key)
    if found is not None and found[0]() is plan:
        return found[1]
    graph = _build(plan)

    def forget(ref: weakref.ref[Plan]) -> None:  # the plan is gone: drop its entry, not a successor's
        entry = _GRAPHS.get(key)
        if entry is not None and entry[0] is ref:
            _GRAPHS.pop(key, None)

    _GRAPHS[key] = (weakref.ref(plan, forget), graph)
    return graph
