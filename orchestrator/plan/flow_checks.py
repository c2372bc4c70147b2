"""Static checks of the data flow across branches and fallbacks: no step meant to run starves.

    starved   a step requires an input from a step that can end without that value while the
              step itself still runs:
              - the producer's fallback continues with no output (`continue`, `on_error:
                continue`), or falls back to the contract's empty value where the consumer's
                contract refuses it, or to a value that lacks the field;
              - the producer is skipped (its condition is false, it is the Otherwise of a
                condition that held, a route did not choose it, it follows only skipped
                steps, or its approval's silence skips it) and the consumer is not skipped
                with it: it does not follow only the producer's branch and has no same
                condition;
              - a join ("whichever ran") requires a name that only some of its branches output.
              Each message names the consumer, the input, the producer, and how to fix it.

A `For each` producer is never starved of: items that continue are left out of its
gathered list, which is there (empty at worst).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from orchestrator.plan.model import InputBinding, Plan, PlanStep, Provenance
from orchestrator.plan.schema import properties_of
from orchestrator.plan.silence_skip30 import silence_skip_why
from orchestrator.policy import Fallback, FallbackAction

Report = Callable[[PlanStep, str, str], None]  # (consumer, input name, message)


def _fallbacks(step: PlanStep) -> Iterator[Fallback]:
    """The step's fallbacks; under `on_error: continue` a `fail` one continues instead."""
    said = [step.policy.fallback, *(r.fallback for r in step.policy.rules if r.fallback is not None)]
    for fallback in said:
        if fallback.action is FallbackAction.FAIL and step.policy.on_error == "continue":
            yield Fallback(action=FallbackAction.CONTINUE)
        else:
            yield fallback


def _required_sources(step: PlanStep) -> Iterator[tuple[str, InputBinding]]:
    for name, binding in step.inputs.items():
        if binding.source == "step" and not binding.optional and binding.step and not binding.joined:
            yield name, binding  # (a joined value is there when none of its steps ran: an empty list)
    if step.for_each is not None and step.for_each.source.source == "step" and step.for_each.source.step:
        yield f"the list of its For each ({step.for_each.item})", step.for_each.source


def _complementary(whens: list[str | None]) -> bool:
    """Two of the conditions are each other's negation (`x` and `not (x)`): one of the two steps runs."""
    said = {w.strip() for w in whens if w}
    return any(f"not ({w})" in said for w in said)


class _Branches:
    """Which steps may be skipped, and which are skipped whenever another is."""

    def __init__(self, plan: Plan) -> None:
        self.steps = {s.id: s for s in plan.steps}
        self.order = [s.id for s in plan.steps]
        self.routed = {target: s.id for s in plan.steps
                       for target in [*s.routes.values(), *([s.route_default] if s.route_default else [])]}
        self.index = {sid: i for i, sid in enumerate(self.order)}
        self.skippable: dict[str, str] = {}  # step -> why it may be skipped
        carried: set[str] = set()  # may be skipped because every step it depends on is (`PlanStep.follows`)
        for sid in self.order:
            step = self.steps[sid]
            deps = [d for d in step.depends_on if d in self.steps]
            if deps and all(d in (carried if d in step.follows else self.skippable) for d in deps) \
                    and not (step.join == "any" and _complementary([self.steps[d].when for d in deps])):
                carried.add(sid)  # (whichever of a condition and its otherwise ran: one always did)
            if step.when:
                self.skippable[sid] = f"is skipped when its condition `{step.when}` is false"
            elif sid in self.routed:
                self.skippable[sid] = f"runs only when {self.routed[sid]} routes to it"
            elif sid in carried:
                self.skippable[sid] = f"is skipped when {' and '.join(deps)} are"
            elif (silence := silence_skip_why(step)) is not None:  # `plan.silence_skip30`
                self.skippable[sid] = silence

    def skipped_with(self, producer: str) -> set[str]:
        """The steps skipped whenever `producer` is."""
        out = {producer}
        carried: set[str] = set()  # skipped then because every step they depend on is
        when = self.steps[producer].when
        for sid in self.order[self.index[producer] + 1:]:
            step = self.steps[sid]
            deps = [d for d in step.depends_on if d in self.steps]
            if deps and all(d in (carried if d in step.follows else out) for d in deps):
                out.add(sid)
                carried.add(sid)
            elif when and step.when == when:
                out.add(sid)
        return out


def refusal(schema: object, value: object) -> str | None:
    """Why `value` breaks `schema` (its first violation), or None."""
    from orchestrator.contracts import ContractChecker

    violations = ContractChecker().check(schema if isinstance(schema, dict) else {}, value)
    return violations[0].render() if violations else None


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at a JSON pointer; KeyError when a part is absent."""
    value = document
    for part in [p for p in pointer.split("/") if p]:
        if not isinstance(value, dict) or part not in value:
            raise KeyError(pointer)
        value = value[part]
    return value


def check_flow(plan: Plan, report: Report, accepts: Callable[[Any, Any], str | None]) -> None:
    """Report every starved step (module docstring). `accepts(schema, value)` says why a value
    breaks a schema, or None."""
    branches = _Branches(plan)
    steps = branches.steps
    for consumer in plan.steps:
        for name, binding in _required_sources(consumer):
            sources = [s for s in (binding.any_of or (binding.step,)) if s in steps]
            # (a source no condition, route or silence can skip runs on every run: the join waits for it too)
            if consumer.join == "any" and set(sources) & set(consumer.depends_on) \
                    and any(s in branches.skippable for s in sources):
                missing = [d for d in consumer.depends_on if d in steps and d not in sources
                           and d in branches.skippable]  # one that always runs is always among those that ran
                for d in missing:
                    report(consumer, name, f"{consumer.id} runs after whichever of {', '.join(consumer.depends_on)} "
                                           f"ran, but `{name}` comes only from {', '.join(sources)}: when {d} is "
                                           f"the one that ran, it has no `{name}`. Have {d} output it, or make "
                                           f"`{name}` optional")
                continue
            if binding.any_of:
                continue  # exclusive branches: one of them runs
            producer = steps.get(sources[0]) if sources else None
            if producer is None:
                continue
            if producer.for_each is None:
                for fallback in _fallbacks(producer):
                    problem = _after_fallback(fallback, producer, consumer, name, binding, accepts)
                    if problem:
                        report(consumer, name, problem)
                        break
            why = branches.skippable.get(producer.id)
            if why is not None and consumer.id not in branches.skipped_with(producer.id):
                report(consumer, name, f"{consumer.id} requires `{name}` from {producer.id}, which {why}; "
                                       f"{consumer.id} still runs then, without it. Give {consumer.id} the same "
                                       f"condition, make `{name}` optional, or read it through a join "
                                       "(\"whichever ran\")")


def _after_fallback(fallback: Fallback, producer: PlanStep, consumer: PlanStep, name: str, binding: InputBinding,
                    accepts: Callable[[Any, Any], str | None]) -> str:
    head = f"{consumer.id} requires `{name}` from {producer.id}"
    if fallback.action is FallbackAction.CONTINUE:
        return (f"{head}, which may continue with no output when it fails (its fallback: continue), and "
                f"{consumer.id} refuses its contract's empty value there. Give the fallback a value "
                f"(\"continue with value X\"), make `{name}` optional, or let the run fail there")
    if fallback.action is not FallbackAction.DEFAULT:
        return ""
    from orchestrator.contracts import empty_value
    from orchestrator.plan.carry_ref31 import stand_in

    if fallback.carry and any(not c.field for c in fallback.carry):
        return ""  # the whole output carried from earlier data: `carry_ref31.carry_problems` checks it
    stated = stand_in(fallback, producer.output_schema)
    value = stated if stated is not None else empty_value(producer.output_schema)
    said = "its fallback's value" if stated is not None else "its contract's empty value"
    try:
        handed = resolve_pointer(value, binding.pointer)
    except KeyError:
        return (f"{head}, whose fallback hands on {said}, {value!r}, which has no `{binding.pointer}`. Give the "
                f"fallback a value with it, or make `{name}` optional")
    wanted = properties_of(consumer.input_schema).get(name)
    problem = accepts(wanted, handed) if isinstance(wanted, dict) and wanted else None
    if problem:
        return (f"{head}, whose fallback hands on {said} there, {handed!r}, which {consumer.id} refuses: {problem}. "
                f"Give the fallback a value {consumer.id} accepts (\"continue with value X\")")
    return ""


def _required_from(plan: Plan, producer: str) -> list[tuple[PlanStep, str, InputBinding]]:
    """(consumer, input name, binding) for each required input read from `producer` alone."""
    return [(consumer, name, binding) for consumer in plan.steps for name, binding in _required_sources(consumer)
            if binding.step == producer and not binding.any_of]


def empty_value_taken(plan: Plan, step: PlanStep, accepts: Callable[[Any, Any], str | None]) -> bool:
    """Whether every step that requires `step`'s output accepts its contract's empty value there
    (and one does): a `continue` fallback then hands that value on instead of nothing."""
    from orchestrator.contracts import empty_value

    needing = _required_from(plan, step.id)
    if not needing or step.for_each is not None or not properties_of(step.output_schema):
        return False
    value = empty_value(step.output_schema)
    for consumer, name, binding in needing:
        try:
            handed = resolve_pointer(value, binding.pointer)
        except KeyError:
            return False
        wanted = properties_of(consumer.input_schema).get(name)
        if isinstance(wanted, dict) and wanted and accepts(wanted, handed):
            return False
    return True


def _swap(f: Fallback, failing_too: bool) -> Fallback:
    """CONTINUE (and, under `on_error: continue`, FAIL) becomes the contract's empty value."""
    if f.action is FallbackAction.CONTINUE or (failing_too and f.action is FallbackAction.FAIL):
        return Fallback(action=FallbackAction.DEFAULT)
    return f


def hand_on_empty_values(plan: Plan, accepts: Callable[[Any, Any], str | None]) -> Plan:
    """A step whose fallback continues with no output, while later steps require its output and
    accept its contract's empty value, continues with that value instead (DEFAULT, no value)."""
    steps: list[PlanStep] = []
    for step in plan.steps:
        continuing = any(f.action is FallbackAction.CONTINUE for f in _fallbacks(step))
        if not continuing or not empty_value_taken(plan, step, accepts):
            steps.append(step)
            continue
        on_error = step.policy.on_error == "continue"
        rules = tuple(r if r.fallback is None else r.model_copy(update={"fallback": _swap(r.fallback, on_error)})
                      for r in step.policy.rules)
        policy = step.policy.model_copy(update={"fallback": _swap(step.policy.fallback, on_error), "rules": rules})
        prov = dict(step.provenance)
        said = prov.get("policy.fallback")
        readers = ", ".join(dict.fromkeys(c.id for c, _, _ in _required_from(plan, step.id)))
        note = f"continues with its contract's empty value, which {readers} accept(s)"
        prov["policy.fallback"] = said.model_copy(update={"note": f"{said.note}; {note}"}) if said else \
            Provenance(source="default", note=note)
        steps.append(step.model_copy(update={"policy": policy, "provenance": prov}))
    return plan.model_copy(update={"steps": tuple(steps)})
