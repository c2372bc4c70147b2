"""Static checks of a plan against its spec, before anything runs.

Errors (each names the spec line that caused it):

    cycle             steps that depend on each other in a loop (the cycle is spelled out)
    unknown-step      `depends_on`, a route, a recovery row, a convergence criterion or a
                      feedback target names a step that does not exist
    missing-input     a required input field has no source (no workflow input, no literal,
                      no earlier step outputs it)
    schema-mismatch   a producer's output schema cannot supply a field its consumer requires
                      (the property is not produced, or its type cannot match), or a
                      fallback's default value breaks its step's output contract; a joined
                      value (several values put together into one list) whose consumer takes no
                      list, or whose part cannot be one of its items
    unreachable       a step that can never run: its `When` reads an unknown name or is always
                      false, it depends on two branches of the same router, or it depends on
                      a step that can never run
    feedback          a feedback target that is not upstream of the validating step
    for-each          a `For each` over a value that is not an array (or has no source), or
                      over a step's object output with several array fields (which one?)
    missing-skill     a compensation or fallback skill that the catalog does not have
    not-executable    a step bound to an instructions-only skill (nothing can run it)
    limits            policies that cannot fit in the limits:
                        1 + retries + regenerations of a step > max_attempts_per_step;
                        regenerations of a step > max_regenerations_per_step;
                        a feedback loop whose bound exceeds either limit for its target;
                        the attempt timeouts along one dependency chain add up to more than
                        the wall time (the run would end before the steps could time out)

    join-source       a join input whose steps each give it under their own field names a step
                      that is not one of the steps it runs after (`join_sources`)
    starved           a step meant to run that could not get a required input: its producer
                      may continue with no output or an empty value it refuses, may be
                      skipped while it still runs, or a join's branch lacks it (flow_checks)

Warnings: the worst case over all steps exceeds the total attempt or regeneration
limits; a chain's retries and waits can exceed the wall time; an Input-line name
that has no source; regenerations on a skill that is not a script. (An approval's wait longer than the wall
time is none: the wait is a pause, not counted in the wall time, `plan.limit_vs_wait29`.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from orchestrator.contracts import JsonSchema
from orchestrator.errors import Diagnostic
from orchestrator.kinds import INSTRUCTIONS, kind_registry
from orchestrator.plan.carry_ref31 import carry_problems, stand_in
from orchestrator.plan.contract import at_pointer
from orchestrator.plan.flow_checks import check_flow, refusal
from orchestrator.plan.join_sources import join_source_problems
from orchestrator.plan.lineage import Lineage, positions
from orchestrator.plan.location import error_at, line_key, warning_at
from orchestrator.plan.loop_field import loop_choices
from orchestrator.plan.mapping import parse_for_each
from orchestrator.plan.model import InputBinding, Plan, PlanStep
from orchestrator.plan.schema import properties_of, required_of, supply_problems, types_of
from orchestrator.plan.unused_inputs import unused_inputs
from orchestrator.policy import FallbackAction
from orchestrator.spec.model import WorkflowSpec


class _Context:
    """The plan, its spec and the lookups every check uses."""

    def __init__(self, plan: Plan, spec: WorkflowSpec) -> None:
        self.plan = plan
        self.spec = spec
        self.path = spec.path
        self.steps = {s.id: s for s in plan.steps}
        self.specs = {s.id: s for s in spec.steps}
        self.order = [s.id for s in plan.steps]
        self.deps = {s.id: s.depends_on for s in plan.steps}
        self.lineage = Lineage(self.order, self.deps)
        self.declared = {i.name for i in plan.inputs}
        self._produces: dict[str, int] | None = None
        self._when_trees: dict[str, Any] = {}
        self.found: list[Diagnostic] = []

    def label(self, step_id: str) -> str:
        step = self.steps.get(step_id)
        return f"{step_id} ({step.name})" if step else step_id

    def error(self, where: str | None, message: str, code: str) -> None:
        self.found.append(error_at(where, self.path, message, code))

    def warn(self, where: str | None, message: str, code: str) -> None:
        self.found.append(warning_at(where, self.path, message, code))

    def where(self, step: PlanStep, decision: str) -> str | None:
        prov = step.provenance.get(decision)
        if prov is not None and prov.where and prov.source in ("spec", "llm"):
            return prov.where
        return step.where

    def upstream(self, step_id: str) -> _Upstream:
        return _Upstream(self.lineage, step_id)

    def when_tree(self, text: str) -> Any:
        """The parsed When (several checks read it; parsed once); raises TemplateError."""
        found = self._when_trees.get(text)
        if found is None:
            from jinja2.exceptions import TemplateError

            from orchestrator.templating import parse_expression, shared_environment

            try:
                found = parse_expression(shared_environment(), text)
            except TemplateError as exc:
                found = exc
            self._when_trees[text] = found
        if isinstance(found, Exception):
            raise found
        return found

    def producer_bits(self, name: str) -> int:
        """Bit i set when step i's output schema has the property `name`."""
        if self._produces is None:
            self._produces = {}
            for i, s in enumerate(self.plan.steps):
                for prop in properties_of(s.output_schema):
                    self._produces[prop] = self._produces.get(prop, 0) | (1 << i)
        return self._produces.get(name, 0)


class _Upstream:
    """A step's ancestors: `in` is one bit test, iterating lists them latest first."""

    def __init__(self, lineage: Lineage, step_id: str) -> None:
        self.lineage = lineage
        self.step_id = step_id

    def __contains__(self, other: object) -> bool:
        return isinstance(other, str) and self.lineage.is_ancestor(other, self.step_id)

    def __iter__(self) -> Iterator[str]:
        return iter(self.lineage.ancestors(self.step_id))


_LISTED = 10  # step ids named in one message; the rest are counted


def _listing(ids: list[str], total: int) -> str:
    return ", ".join(ids) + (f" and {total - len(ids)} more" if total > len(ids) else "")


def check_plan(plan: Plan, spec: WorkflowSpec) -> list[Diagnostic]:
    """Every static error and warning of `plan` (module docstring), in line order."""
    ctx = _Context(plan, spec)
    cyclic = _check_cycles(ctx)
    _check_references(ctx)
    _check_skills(ctx)
    _check_inputs(ctx)
    _check_edges(ctx)
    _check_joined(ctx)
    _check_for_each(ctx)
    _check_templates(ctx)
    _check_when_fields(ctx)
    _check_reachable(ctx, cyclic)
    _check_limits(ctx, cyclic)
    _check_default_values(ctx)
    for step, where, message in carry_problems(plan):  # a value to go on with from earlier data (`carry_ref31`)
        ctx.error(where or ctx.where(step, "policy.fallback"), message, "carry-ref")
    ctx.found += unused_inputs(plan, ctx.path)  # a declared input no step reads (`unused_inputs`)
    for step, name, message in join_source_problems(plan):
        ctx.error(_input_line(ctx, step, name), f"{ctx.label(step.id)}: {message}", "join-source")
    check_flow(plan, lambda step, name, message: ctx.error(_input_line(ctx, step, name),
                                                           f"{ctx.label(step.id)} would starve: {message}", "starved"),
               refusal)
    return sorted(dict.fromkeys(ctx.found), key=line_key)


def _input_line(ctx: _Context, step: PlanStep, name: str) -> str | None:
    spec_step = ctx.specs.get(step.id)
    lines = {f.name: f.where for f in spec_step.inputs} if spec_step else {}
    prov = step.provenance.get(f"inputs.{name}")
    return lines.get(name) or (prov.where if prov is not None and prov.source == "spec" else None) or step.where


def _check_cycles(ctx: _Context) -> set[str]:
    """Report each dependency cycle once; return the steps that are on one.

    Iterative depth-first search (a long chain must not exhaust the stack)."""
    on_cycle: set[str] = set()
    state: dict[str, int] = {}
    reported: set[frozenset[str]] = set()
    known: dict[str, list[str]] = {}
    for root in ctx.order:
        if root in state:
            continue
        trail: list[str] = []
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            node, index = stack.pop()
            if index == 0:
                state[node] = 1
                trail.append(node)
            deps = known.get(node)
            if deps is None:  # filtered once a node, not once an edge: a step may list many
                deps = known[node] = [d for d in ctx.deps.get(node, ()) if d in ctx.steps]
            if index < len(deps):
                stack.append((node, index + 1))
                dep = deps[index]
                if state.get(dep) == 1:
                    _report_cycle(ctx, trail[trail.index(dep):], on_cycle, reported)
                elif dep not in state:
                    stack.append((dep, 0))
            else:
                trail.pop()
                state[node] = 2
    return on_cycle


def _report_cycle(ctx: _Context, loop: list[str], on_cycle: set[str], reported: set[frozenset[str]]) -> None:
    on_cycle.update(loop)
    if frozenset(loop) in reported:
        return
    reported.add(frozenset(loop))
    first = min(loop, key=ctx.order.index)
    ring = [*loop[loop.index(first):], *loop[:loop.index(first)]]
    spelled = " -> ".join(ctx.label(s) for s in [*ring, ring[0]])
    ctx.error(ctx.where(ctx.steps[first], "depends_on"),
              f"dependency cycle: {spelled} (each depends on the next)", "cycle")


def _check_references(ctx: _Context) -> None:
    known = ", ".join(ctx.order)
    for step in ctx.plan.steps:
        for dep in step.depends_on:
            if dep not in ctx.steps:
                ctx.error(ctx.where(step, "depends_on"),
                          f"{ctx.label(step.id)} depends on `{dep}`, which is not a step of this "
                          f"workflow (steps: {known}); it can never run", "unknown-step")
        for branch, target in [*step.routes.items(), *([("anything else", step.route_default)]
                                                        if step.route_default else [])]:
            if target not in ctx.steps:
                ctx.error(ctx.where(step, "routes"), f"{ctx.label(step.id)}: route `{branch}` goes to `{target}`, "
                                                     f"which is not a step (steps: {known})", "unknown-step")
        feedback = step.policy.feedback
        if feedback is not None:
            where = ctx.where(step, "policy.feedback")
            if feedback.target_step not in ctx.steps:
                ctx.error(where, f"{ctx.label(step.id)}: feedback goes to `{feedback.target_step}`, "
                                 "which is not a step", "unknown-step")
            elif feedback.target_step not in ctx.upstream(step.id):
                ctx.error(where, f"{ctx.label(step.id)}: feedback regenerates {ctx.label(feedback.target_step)}, "
                                 "which is not upstream of it (it must produce this step's input)", "feedback")
    for row in ctx.spec.recovery:
        if row.step not in ctx.steps:
            ctx.error(row.where, f"Error Recovery row names `{row.step}`, which is not a step "
                                 f"(steps: {known})", "unknown-step")
    conv = ctx.spec.convergence
    for kind, table in (("retries", conv.step_retries), ("timeout", conv.step_timeouts_s),
                        ("unrecoverable", conv.step_unrecoverable), ("feedback", conv.feedback)):
        for sid in table:
            if sid not in ctx.steps:
                ctx.error(conv.where.get(f"{sid}.{kind}"), f"Convergence Criteria names `{sid}`, "
                                                           f"which is not a step (steps: {known})", "unknown-step")


def _check_skills(ctx: _Context) -> None:
    skills = ctx.plan.skills
    for step in ctx.plan.steps:
        skill = skills.get(step.skill)
        if skill is not None and skill.kind == INSTRUCTIONS:
            ctx.error(ctx.where(step, "skill"),
                      f"{ctx.label(step.id)}: skill `{skill.name}` has instructions only (no "
                      "skillweave.kind), so nothing can execute it; give it skillweave.* metadata "
                      "or bind another skill", "not-executable")
        kind = kind_registry().get(skill.kind) if skill is not None and skill.kind != INSTRUCTIONS else None
        if skill is not None and skill.kind != INSTRUCTIONS and kind is None:
            ctx.error(ctx.where(step, "skill"),
                      f"{ctx.label(step.id)}: skill `{skill.name}` is of kind `{skill.kind}`, which is not "
                      "installed (no entry point of the skillweave.kinds group names it)", "unknown-kind")
        if skill is not None and step.policy.regenerations and kind is not None and not kind.traits.regenerable:
            ctx.warn(ctx.where(step, "policy.regenerations"),
                     f"{ctx.label(step.id)}: {step.policy.regenerations} regeneration(s) planned but "
                     f"`{skill.name}` is a {skill.kind} skill; only scripts are regenerated",
                     "regeneration-kind")
        compensation = step.policy.compensation
        if compensation:
            _need_skill(ctx, compensation, ctx.where(step, "policy.compensation"),
                        f"{ctx.label(step.id)}: compensation")
        fallbacks = [(step.policy.fallback, ctx.where(step, "policy.fallback"))]
        fallbacks += [(r.fallback, r.where or step.where) for r in step.policy.rules if r.fallback is not None]
        for fallback, where in fallbacks:
            if fallback is not None and fallback.action is FallbackAction.SKILL:
                _need_skill(ctx, fallback.skill or "", where, f"{ctx.label(step.id)}: fallback")


def _need_skill(ctx: _Context, name: str, where: str | None, what: str) -> None:
    skill = ctx.plan.skills.get(name)
    if skill is None:
        ctx.error(where, f"{what} skill `{name}` is not in the catalog", "missing-skill")
    elif skill.kind == INSTRUCTIONS:
        ctx.error(where, f"{what} skill `{name}` has instructions only; nothing can execute it",
                  "not-executable")




def _check_inputs(ctx: _Context) -> None:
    for step in ctx.plan.steps:
        spec_step = ctx.specs.get(step.id)
        lines = {f.name: f.where for f in spec_step.inputs} if spec_step else {}
        for name in required_of(step.input_schema):
            if name in step.inputs:
                continue
            before = (1 << ctx.lineage.bit[step.id]) - 1
            others_bits = ctx.producer_bits(name) & before & ~ctx.lineage.ancestor_bits(step.id)
            others = [ctx.order[i] for _, i in zip(range(_LISTED), positions(others_bits, latest_first=False),
                                                   strict=False)]
            hint = (f"; {_listing(others, others_bits.bit_count())} outputs it but is not among its "
                    "dependencies" if others
                    else "; declare it as a workflow input or have an earlier step output it")
            ctx.error(lines.get(name, step.where),
                      f"{ctx.label(step.id)}: missing input `{name}`: not a workflow input, not a "
                      f"literal, and no earlier step outputs it{hint}", "missing-input")
        if spec_step is None:
            continue
        for f in spec_step.inputs:
            if f.name not in step.inputs and f.name not in required_of(step.input_schema) \
                    and f.name in properties_of(step.input_schema):
                ctx.warn(f.where, f"{ctx.label(step.id)}: input `{f.name}` has no source and is "
                                  "left out", "input-left-out")


def _check_edges(ctx: _Context) -> None:
    contract_where = {(c.producer, c.consumer): c.where for c in ctx.spec.contracts if c.consumer}
    for consumer in ctx.plan.steps:
        spec_step = ctx.specs.get(consumer.id)
        lines = {f.name: f.where for f in spec_step.inputs} if spec_step else {}
        wanted = properties_of(consumer.input_schema)
        needed = set(required_of(consumer.input_schema))
        for name, binding, producer in _step_sources(ctx, consumer):
            where = contract_where.get((producer.id, consumer.id)) or lines.get(name) or consumer.where
            pair = f"{ctx.label(producer.id)} -> {ctx.label(consumer.id)}"
            head = binding.pointer.split("/")[1] if binding.pointer.count("/") else ""
            out_props = properties_of(producer.output_schema)
            if _not_given_by(producer, binding.pointer):
                ctx.error(where, f"{pair}: `{name}` reads {binding.pointer} but the producer's output "
                                 f"has no `{head}`", "schema-mismatch")
                continue
            produced = gathered_schema(producer.output_schema, binding)
            problems = supply_problems(produced, wanted.get(name), "")
            if problems and binding.gather:
                problems = [f"{p}: {producer.id} is a For each step, so `{name}` gets a list, one per item "
                            "in item order" for p in problems]
            for problem in problems:
                ctx.error(where, f"{pair}: `{name}` cannot be supplied: {problem.replace('the value', 'it')}",
                          "schema-mismatch")
            if not problems and head and name in needed and head not in required_of(producer.output_schema) \
                    and out_props and required_of(producer.output_schema):
                ctx.warn(where, f"{pair}: `{name}` is required but the producer may leave `{head}` out",
                         "schema-optional")


def _not_given_by(producer: PlanStep, pointer: str) -> str:
    """The field `pointer` starts with when the producer's declared output has no such field, else ""."""
    head = pointer.split("/")[1] if pointer.count("/") else ""
    out_props = properties_of(producer.output_schema)
    return head if head and out_props and head not in out_props else ""


def _step_sources(ctx: _Context, consumer: PlanStep) -> list[tuple[str, InputBinding, PlanStep]]:
    """(input name, binding, producer) for each step a binding of `consumer` may read (each of a join's)."""
    out: list[tuple[str, InputBinding, PlanStep]] = []
    for name, binding in consumer.inputs.items():
        if binding.source != "step" or binding.joined:  # a joined value's parts: `_check_joined`
            continue
        for sid in binding.any_of or ((binding.step,) if binding.step else ()):
            if sid in ctx.steps:  # a join whose steps each give it under their own field: that step's
                one = binding.model_copy(update={"pointer": binding.pointer_of(sid)}) if binding.pointers else binding
                out.append((name, one, ctx.steps[sid]))
    return out


def _check_joined(ctx: _Context) -> None:
    """A joined value (`InputBinding.joined`) is a list: its consumer's schema must take one, and each step
    part's value (a list's items, else the value itself) must fit its items."""
    for consumer in ctx.plan.steps:
        spec_step = ctx.specs.get(consumer.id)
        lines = {f.name: f.where for f in spec_step.inputs} if spec_step else {}
        for name, binding in consumer.inputs.items():
            if not binding.joined:
                continue
            where = lines.get(name) or consumer.where
            wanted = properties_of(consumer.input_schema).get(name)
            kinds = types_of(wanted) if isinstance(wanted, dict) else []
            if kinds and "array" not in kinds:
                ctx.error(where, f"{ctx.label(consumer.id)}: `{name}` is joined from {len(binding.joined)} values into "
                                 f"one list, but its schema takes {' or '.join(kinds)}", "schema-mismatch")
                continue
            items = wanted.get("items") if isinstance(wanted, dict) else None
            for part in binding.joined:
                producer = ctx.steps.get(part.step or "") if part.source == "step" else None
                if producer is None:
                    continue
                if head := _not_given_by(producer, part.pointer):
                    ctx.error(where, f"{ctx.label(producer.id)} -> {ctx.label(consumer.id)}: `{name}` joins "
                                     f"{part.pointer} but the producer's output has no `{head}`", "schema-mismatch")
                    continue
                produced = gathered_schema(producer.output_schema, part)
                one = produced.get("items") if "array" in types_of(produced) else produced
                for problem in supply_problems(one if isinstance(one, dict) else {}, items, "an item"):
                    ctx.error(where, f"{ctx.label(producer.id)} -> {ctx.label(consumer.id)}: `{name}` joins "
                                     f"{part.pointer or 'the whole output'}, which cannot be one of its items: "
                                     f"{problem}", "schema-mismatch")


def gathered_schema(output_schema: JsonSchema, binding: InputBinding) -> JsonSchema:
    """The schema of the value a step binding reads: at its pointer, as a list when gathered."""
    produced = at_pointer(output_schema, binding.pointer) if binding.pointer else output_schema
    if binding.gather:
        return {"type": "array", "items": produced} if produced else {"type": "array"}
    return produced


def _check_for_each(ctx: _Context) -> None:
    for step in ctx.plan.steps:
        spec_step = ctx.specs.get(step.id)
        text = spec_step.for_each if spec_step else None
        loop = parse_for_each(text)
        if loop is None:
            continue
        if step.for_each is None:
            ctx.error(step.where, f"{ctx.label(step.id)}: For each over `{loop[1]}`, which no workflow "
                                  "input or earlier step provides", "for-each")
            continue
        source = step.for_each.source
        if source.source == "step" and source.step in ctx.steps:
            schema = gathered_schema(ctx.steps[source.step].output_schema, source)
        else:
            declared = {i.name: i.schema_ for i in ctx.plan.inputs}
            schema = declared.get(source.name or "", {})
        kinds = types_of(schema)
        choices = loop_choices(spec_step, ctx.spec, {s.id: s.output_schema for s in ctx.plan.steps}) \
            if spec_step else []
        if len(choices) > 1:
            item, producer = loop[0], source.step
            ctx.error(spec_step.field_where.get("for_each", step.where) if spec_step else step.where,
                      f"{ctx.label(step.id)}: For each over {producer}'s output, an object with "
                      f"{len(choices)} array fields ({', '.join(f'`{c}`' for c in choices)}): the text does "
                      f"not say which to loop over. Name it: `For each: {item} in {producer}.{choices[0]}`",
                      "for-each")
        elif kinds and "array" not in kinds:
            ctx.error(step.where, f"{ctx.label(step.id)}: For each over `{loop[1]}`, which is "
                                  f"{' or '.join(kinds)}, not an array", "for-each")


def _access_chain(node: object) -> list[str] | None:
    """`steps['a'].output.x` (Getattr/Getitem down to a Name) -> ["steps", "a", "output", "x"]."""
    from jinja2 import nodes

    keys: list[str] = []
    while isinstance(node, (nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Getattr):
            keys.append(node.attr)
        elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            keys.append(node.arg.value)
        else:
            return None
        node = node.node
    if not isinstance(node, nodes.Name):
        return None
    return [node.name, *reversed(keys)]


def _template_problems(ctx: _Context, step: PlanStep, template: str) -> list[str]:
    """Why an input template would fail when rendered (the engine renders templates with
    StrictUndefined: an unknown name, input, step or output field is an error there)."""
    from jinja2 import nodes
    from jinja2.exceptions import TemplateError

    from orchestrator.templating import MAX_TEMPLATE, BoundedEnvironment, check_source

    env = BoundedEnvironment()
    try:
        check_source(template, MAX_TEMPLATE)
        tree = env.parse(template)
        env.compile(tree)  # unknown filters and tests are found here; nothing is computed
    except TemplateError as exc:
        return [f"template `{template}` is not valid Jinja: {exc.message or exc}"]
    except (RecursionError, ValueError):  # nested too deeply; an integer of thousands of digits
        return [f"template `{template}` cannot be read: it nests too deeply or holds a number too long"]
    allowed = {"inputs", "steps", "item", *env.globals}
    if step.for_each is not None:
        allowed.add(step.for_each.item)
    allowed |= {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
    declared = ctx.declared
    upstream = ctx.upstream(step.id)
    problems: list[str] = []
    for name in dict.fromkeys(n.name for n in tree.find_all(nodes.Name) if n.ctx == "load"):
        if name not in allowed:
            problems.append(f"template `{template}` reads `{name}`; a template reads `inputs.NAME`, "
                            "`steps.ID.output.FIELD` or the `For each` item")
    chains = [c for c in map(_access_chain, tree.find_all((nodes.Getattr, nodes.Getitem))) if c]
    for chain in dict.fromkeys(tuple(c[:4]) for c in chains):
        if chain[0] == "inputs" and len(chain) >= 2 and chain[1] not in declared:
            problems.append(f"template `{template}` reads inputs.{chain[1]}, which is not a workflow input")
        elif chain[0] == "steps" and len(chain) >= 2:
            sid = chain[1]
            if sid not in upstream:
                what = "is not a step" if sid not in ctx.steps else "is not among its dependencies"
                problems.append(f"template `{template}` reads steps.{sid}, which {what}")
            elif len(chain) >= 3 and chain[2] != "output":
                problems.append(f"template `{template}` reads steps.{sid}.{chain[2]}; write "
                                f"steps.{sid}.output.{chain[2]}")
            elif len(chain) >= 4:
                props = properties_of(ctx.steps[sid].output_schema)
                if props and chain[3] not in props:
                    problems.append(f"template `{template}` reads steps.{sid}.output.{chain[3]}, but the "
                                    f"output of {ctx.label(sid)} has no `{chain[3]}` "
                                    f"(it has {', '.join(sorted(props))})")
    return list(dict.fromkeys(problems))


def _check_templates(ctx: _Context) -> None:
    for step in ctx.plan.steps:
        spec_step = ctx.specs.get(step.id)
        lines = {f.name: f.where for f in spec_step.inputs} if spec_step else {}
        for name, binding in step.inputs.items():
            if binding.source != "template" or not binding.template:
                continue
            for problem in _template_problems(ctx, step, binding.template):
                ctx.error(lines.get(name) or step.where, f"{ctx.label(step.id)}: input `{name}`: {problem}",
                          "template")


def _check_when_fields(ctx: _Context) -> None:
    """A When that reads an output field its producer does not have is always undefined
    there (false, or true under `not`): a typo the run would never report."""
    conditioned = [step for step in ctx.plan.steps if step.when]
    if not conditioned:
        return  # and Jinja2 is not imported
    from jinja2 import nodes
    from jinja2.exceptions import TemplateError

    for step in conditioned:
        assert step.when is not None
        try:
            tree = ctx.when_tree(step.when)
        except TemplateError:
            continue  # reported by _when_problems
        upstream = ctx.upstream(step.id)
        chains = [c for c in map(_access_chain, tree.find_all((nodes.Getattr, nodes.Getitem))) if c]
        for chain in dict.fromkeys(tuple(c[:4]) for c in chains):
            if chain[0] != "steps" or len(chain) < 3 or chain[1] not in upstream:
                continue
            field = chain[3] if chain[2] == "output" and len(chain) >= 4 else chain[2]
            if field == "output":
                continue
            props = properties_of(ctx.steps[chain[1]].output_schema)
            if props and field not in props:
                ctx.warn(ctx.where(step, "when"),
                         f"{ctx.label(step.id)}: When reads `{field}` of the output of {ctx.label(chain[1])}, "
                         f"which has no such field (it has {', '.join(sorted(props))}): it is always "
                         "undefined there", "when-field")


def _when_problems(ctx: _Context, step: PlanStep) -> list[str]:
    """Why the step's When can never be true or cannot be evaluated.

    A condition reads `inputs.NAME`, `steps['step-id'].output...` (a step it depends on)
    and the `For each` item; anything else is an unknown name."""
    if not step.when:
        return []
    from jinja2 import nodes
    from jinja2.exceptions import TemplateError

    try:
        tree = ctx.when_tree(step.when)
    except TemplateError as exc:
        return [f"When `{step.when}` is not an expression: {exc}"]
    upstream = ctx.upstream(step.id)
    allowed = {"inputs", "steps", "item"}
    if step.for_each is not None:
        allowed.add(step.for_each.item)
    declared = ctx.declared
    problems = []
    for node in tree.find_all(nodes.Name):
        if node.ctx == "load" and node.name not in allowed:
            problems.append(f"When reads `{node.name}`; a condition reads `inputs.NAME`, "
                            "`steps['step-id'].output...` or the `For each` item")
    for access in tree.find_all((nodes.Getattr, nodes.Getitem)):
        base = getattr(access, "node", None)
        key = access.attr if isinstance(access, nodes.Getattr) else getattr(getattr(access, "arg", None), "value", None)
        if not isinstance(base, nodes.Name) or not isinstance(key, str):
            continue
        if base.name == "steps" and key not in upstream:
            what = "is not a step" if key not in ctx.steps else "does not run before it"
            problems.append(f"When reads steps.{key}, which {what}")
        elif base.name == "inputs" and key not in declared:
            problems.append(f"When reads inputs.{key}, which is not a workflow input")
    if not problems and not any(True for _ in tree.find_all(nodes.Name)):
        try:
            value = _constant(tree, step.when)
        except Exception as exc:  # a constant expression that fails is reported, not raised
            return [f"When `{step.when}` cannot be evaluated: {exc}"]
        if not value:
            problems.append(f"When `{step.when}` is always false")
    return problems


def _constant(tree: Any, text: str) -> Any:
    """The value of a When that reads nothing: folded from its tree when that is plain
    (`false`, `1 > 2`), else compiled and evaluated within the template bounds
    (`'x' * 4000000000` stops early)."""
    from jinja2.nodes import EvalContext, Impossible

    from orchestrator.templating import compile_expression, evaluate, shared_environment

    env = shared_environment()
    try:
        return tree.as_const(EvalContext(env))  # operators and filters are never folded here
    except Impossible:
        return evaluate(compile_expression(env, text))


def _check_default_values(ctx: _Context) -> None:
    """A fallback's default value is the step's output: it must keep the output contract."""
    from orchestrator.contracts import ContractChecker

    checker: ContractChecker | None = None
    for step in ctx.plan.steps:
        fallbacks = [step.policy.fallback, *(r.fallback for r in step.policy.rules if r.fallback is not None)]
        for fallback in fallbacks:
            value = stand_in(fallback, step.output_schema)  # carried fields are checked by `carry_problems`
            if fallback.action is not FallbackAction.DEFAULT or value is None or not step.output_schema:
                continue
            checker = checker or ContractChecker()
            violations = checker.check(step.output_schema, value)
            if violations:
                ctx.error(ctx.where(step, "policy.fallback"),
                          f"{ctx.label(step.id)}: the fallback's default value breaks the step's output "
                          f"contract: {violations[0].render()}", "schema-mismatch")


def _check_reachable(ctx: _Context, cyclic: set[str]) -> None:
    dead: dict[str, str] = {}
    routers = {target: (s.id, branch) for s in ctx.plan.steps
               for branch, target in [*s.routes.items(), *([("*", s.route_default)] if s.route_default else [])]}
    routed = 0
    for target in routers:
        if target in ctx.lineage.bit:
            routed |= 1 << ctx.lineage.bit[target]
    for step in ctx.plan.steps:
        for problem in _when_problems(ctx, step):
            dead.setdefault(step.id, problem)
        branches: dict[str, str] = {}
        # a join ("whichever ran") waits for the branches it names, of which only one runs
        joined = set(step.depends_on) if step.join == "any" else set()
        upstream = [ctx.lineage.ids[i] for i in positions(ctx.lineage.ancestor_bits(step.id) & routed)]
        for sid in [s for s in upstream if s not in joined]:
            if sid in routers:
                router = routers[sid][0]
                if router in branches and branches[router] != sid:
                    dead.setdefault(step.id, f"it needs both {branches[router]} and {sid}, but "
                                             f"{ctx.label(router)} routes to only one of them")
                branches.setdefault(router, sid)
    dead_bits = 0
    for sid in dead:
        dead_bits |= 1 << ctx.lineage.bit[sid]
    for sid, reason in dead.items():
        step = ctx.steps[sid]
        after_bits = ctx.lineage.descendant_bits(sid) & ~dead_bits
        after = [ctx.order[i] for _, i in zip(range(_LISTED), positions(after_bits, latest_first=False),
                                              strict=False)]
        tail = f" (so neither can {_listing(after, after_bits.bit_count())}, downstream of it)" if after else ""
        ctx.error(ctx.where(step, "when") if step.when else ctx.where(step, "depends_on"),
                  f"{ctx.label(sid)} can never run: {reason}{tail}", "unreachable")


def _worst_attempts(step: PlanStep) -> tuple[int, int, int]:
    retries = max([step.policy.retry.max_retries, *(r.retry.max_retries for r in step.policy.rules if r.retry)])
    regens = max([step.policy.regenerations, *(r.regenerate or 0 for r in step.policy.rules)])
    return 1 + retries + regens, retries, regens


def _check_limits(ctx: _Context, cyclic: set[str]) -> None:
    limits = ctx.plan.limits
    total_attempts = 0
    total_regens = 0
    for step in ctx.plan.steps:
        attempts, retries, regens = _worst_attempts(step)
        total_attempts += attempts
        total_regens += regens
        where = ctx.where(step, "policy.retry") if retries >= regens else ctx.where(step, "policy.regenerations")
        if attempts > limits.max_attempts_per_step:
            ctx.error(where, f"{ctx.label(step.id)} plans up to {attempts} attempts (1 + {retries} retries "
                             f"+ {regens} regenerations) but max_attempts_per_step is "
                             f"{limits.max_attempts_per_step}: the policy cannot be honoured", "limits")
        if regens > limits.max_regenerations_per_step:
            ctx.error(ctx.where(step, "policy.regenerations"),
                      f"{ctx.label(step.id)} plans {regens} regenerations but max_regenerations_per_step "
                      f"is {limits.max_regenerations_per_step}", "limits")
        feedback = step.policy.feedback
        if feedback is not None and feedback.target_step in ctx.steps:
            target = ctx.steps[feedback.target_step]
            fwhere = ctx.where(step, "policy.feedback")
            own = _worst_attempts(target)[2]
            if feedback.max_attempts > limits.max_attempts_per_step:
                ctx.error(fwhere, f"{ctx.label(step.id)}: feedback may run {ctx.label(target.id)} "
                                  f"{feedback.max_attempts} times but max_attempts_per_step is "
                                  f"{limits.max_attempts_per_step}", "limits")
            if feedback.max_attempts - 1 + own > limits.max_regenerations_per_step:
                ctx.error(fwhere, f"{ctx.label(step.id)}: feedback regenerates {ctx.label(target.id)} up to "
                                  f"{feedback.max_attempts - 1} times on top of its own {own}, more than "
                                  f"max_regenerations_per_step {limits.max_regenerations_per_step}", "limits")
            total_attempts += feedback.max_attempts - 1
            total_regens += feedback.max_attempts - 1
        # an approval's wait longer than the wall time is no problem: a gate pauses the run (`plan.limit_vs_wait29`)
    wall_where = ctx.plan.limits_provenance.get("wall_time_s")
    wall_at = wall_where.where if wall_where is not None else None
    if total_attempts > limits.max_total_attempts:
        ctx.warn(wall_at, f"in the worst case the steps use {total_attempts} attempts, more than "
                          f"max_total_attempts {limits.max_total_attempts}: the run would stop there", "limits")
    if total_regens > limits.max_regenerations_total:
        ctx.warn(wall_at, f"in the worst case the steps use {total_regens} regenerations, more than "
                          f"max_regenerations_total {limits.max_regenerations_total}", "limits")
    if cyclic:
        return
    _check_chains(ctx, wall_at, wall_where is None or wall_where.source == "default")


def _longest(ctx: _Context, cost: dict[str, float]) -> tuple[float, list[str]]:
    best: dict[str, tuple[float, str | None]] = {}  # the longest total to a step, and the step before it
    for sid in ctx.order:
        prior = [(best[d][0], d) for d in ctx.deps.get(sid, ()) if d in best]
        total, before = max(prior, key=lambda x: x[0], default=(0.0, None))
        best[sid] = (total + cost.get(sid, 0.0), before)
    if not best:
        return 0.0, []
    end: str | None = max(best, key=lambda sid: best[sid][0])
    chain: list[str] = []
    while end is not None:
        chain.append(end)
        end = best[end][1]
    return best[chain[0]][0], chain[::-1]


def _path(chain: list[str]) -> str:
    if len(chain) <= 2 * _LISTED:
        return " -> ".join(chain)
    half = _LISTED // 2
    return " -> ".join([*chain[:half], f"({len(chain) - 2 * half} more)", *chain[-half:]])


def _check_chains(ctx: _Context, wall_at: str | None, default_wall: bool = False) -> None:
    """The attempt timeouts along the longest chain against the wall time (an error), then every retry and
    regeneration at its timeout (a warning); `default_wall`: no whole-run limit is said, the wall time is
    the default, and the warning says so (the run is stopped there, not by what the steps' own words allow)."""
    wall = ctx.plan.limits.wall_time_s
    once = {s.id: s.policy.attempt_timeout_s or 0.0 for s in ctx.plan.steps}
    total, chain = _longest(ctx, once)
    if total > wall:
        ctx.error(wall_at or ctx.plan.steps[0].where,
                  f"the attempt timeouts along {_path(chain)} add up to {total:g}s, more than the "
                  f"wall time {wall:g}s: the run would end before these steps could time out", "limits")
        return
    worst: dict[str, float] = {}
    for s in ctx.plan.steps:
        attempts, retries, _ = _worst_attempts(s)
        waits = sum(s.policy.retry.delay(i) for i in range(retries))
        worst[s.id] = attempts * (s.policy.attempt_timeout_s or 0.0) + waits
    total, chain = _longest(ctx, worst)
    if total > wall:
        if default_wall:  # "keep trying every quarter of an hour, for up to 2 hours" with no whole-run limit said
            ctx.warn(wall_at, f"with every retry and regeneration at its timeout, {_path(chain)} can take "
                              f"{total:g}s, more than the default wall time {wall:g}s (no whole-run limit is "
                              f"said): a run still retrying then is stopped at {wall:g}s, before its retries "
                              "have run their course; to let them, say how long the whole run may take",
                     "limits")
            return
        ctx.warn(wall_at, f"with every retry and regeneration at its timeout, {_path(chain)} "
                          f"can take {total:g}s, more than the wall time {wall:g}s", "limits")

