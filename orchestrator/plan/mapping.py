"""Dependencies between steps and where each step's input fields come from.

Dependencies, per step, first rule that gives any:
1. explicit `Depends on:` / `depends_on` (provenance: that line); `none` (or YAML
   `depends_on: []`) makes the step a root;
2. data references: an input name, a `step-N.field` reference, a `For each`
   source or a `{{ steps.X... }}` template that an earlier step produces
   (provenance: "data reference to step-1.existing_docs");
3. a route target of an LLM routing step depends on the router;
4. a step that says it does not wait ("Independent of step 1") is a root;
5. the previous step in the spec (provenance: "default: step order").

Input mapping, per input name (the step's input schema properties, its `Input:`
line, YAML `input:` keys), first rule that gives any:
literal YAML value (or template when it holds `{{`), an explicit reference,
the `For each` item, a workflow input, the latest ancestor that outputs the
name (pointer `/name`), the latest ancestor whose single declared output name
it is while its schema has no such property (pointer `""`, the whole output).
A name with no source is left out: when it is required, the static checks
report it as a missing input. Inside a `For each`, a value that is one whole
reference to the item (`{{ item }}`, `{{ n }}` for `n in nums`, `item.field`) is
bound to the item itself (source "item"), so it keeps its JSON type as a
`{{ steps.X.output.f }}` reference does; a longer template renders to text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator.plan.location import from_default, from_spec
from orchestrator.plan.model import ForEach, InputBinding, Provenance
from orchestrator.spec.model import StepSpec, WorkflowSpec

_STEP_REF = re.compile(r"\bsteps(?:\.([A-Za-z_][\w-]*)|\[\s*['\"]([^'\"]+)['\"]\s*\])")
_FOR_EACH = re.compile(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+?)\s*$")
_WHOLE_NAME = re.compile(r"^\s*\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\}\}\s*$")


class Produced(BaseModel):
    """What one step outputs: property names, and names that stand for its whole output."""

    model_config = ConfigDict(frozen=True)

    step: str
    index: int
    fields: frozenset[str] = frozenset()
    aliases: frozenset[str] = frozenset()

    def outputs(self, name: str) -> bool:
        return name in self.fields or name in self.aliases


class Dependencies(BaseModel):
    model_config = ConfigDict(frozen=True)

    step: str
    depends_on: tuple[str, ...]
    provenance: Provenance


def is_template(value: Any) -> bool:
    return isinstance(value, str) and "{{" in value


def steps_referenced(text: str) -> list[str]:
    """Step ids a template or expression reads (`steps.extract.output`, `steps['step-1']`)."""
    return [m.group(1) or m.group(2) for m in _STEP_REF.finditer(text)]


def parse_for_each(text: str | None) -> tuple[str, str] | None:
    """`item in list_field` -> ("item", "list_field")."""
    if not text:
        return None
    m = _FOR_EACH.match(text)
    return (m.group(1), m.group(2)) if m else None


def item_reference(ref: str, loop: tuple[str, str] | None) -> InputBinding | None:
    """`item`, `item.a.b` or the loop's own name (`n`, `n.a`) -> the item at that pointer.

    Only inside a `For each` step; `item` is always the current item, as the engine
    puts it in the template context under both names."""
    if loop is None:
        return None
    head, *rest = ref.strip().split(".")
    if head not in ("item", loop[0]):
        return None
    return InputBinding(source="item", pointer="".join(f"/{p}" for p in rest))


def resolve_reference(
    ref: str,
    workflow_inputs: Iterable[str],
    produced: Mapping[str, Produced],
) -> InputBinding | None:
    """`steps.X.output.a.b`, `inputs.x` -> a binding; None when it names nothing known."""
    parts = ref.split(".")
    if parts[0] == "inputs" and len(parts) >= 2:
        if parts[1] not in set(workflow_inputs):
            return None
        return InputBinding(source="input", name=parts[1], pointer="".join(f"/{p}" for p in parts[2:]))
    if parts[0] == "steps" and len(parts) >= 3 and parts[2] == "output":
        step, rest = parts[1], parts[3:]
        made = produced.get(step)
        if made is None:
            return None
        if rest and rest[0] in made.aliases and rest[0] not in made.fields:
            rest = rest[1:]
        return InputBinding(source="step", step=step, pointer="".join(f"/{p}" for p in rest))
    return None


def resolve_name(
    dotted: str,
    workflow_inputs: Iterable[str],
    earlier: Sequence[Produced],
) -> InputBinding | None:
    """A bare (possibly dotted) name: a workflow input, else the latest producer in `earlier`."""
    if dotted.startswith(("steps.", "inputs.")):
        return resolve_reference(dotted, workflow_inputs, {p.step: p for p in earlier})
    head, *rest = dotted.split(".")
    tail = "".join(f"/{p}" for p in rest)
    if head in set(workflow_inputs):
        return InputBinding(source="input", name=head, pointer=tail)
    for made in earlier:
        if head in made.fields:
            return InputBinding(source="step", step=made.step, pointer=f"/{head}{tail}")
    for made in earlier:
        if head in made.aliases:
            return InputBinding(source="step", step=made.step, pointer=tail)
    return None


def _data_references(
    step: StepSpec,
    needs: Sequence[str],
    workflow_inputs: set[str],
    earlier: Sequence[Produced],
    known: set[str],
) -> list[tuple[str, str]]:
    """(step id, what) for each reference of `step` to an earlier step's output."""
    found: list[tuple[str, str]] = []
    for field in step.inputs:
        if field.source and field.source.startswith("steps."):
            found += [(sid, field.source) for sid in steps_referenced(field.source) if sid in known]
    for value in step.input_values.values():
        if is_template(value):
            found += [(sid, "template") for sid in steps_referenced(str(value)) if sid in known]
    loop = parse_for_each(step.for_each)
    names = list(needs)
    if loop:
        if loop[1].startswith("steps."):
            found += [(sid, loop[1]) for sid in steps_referenced(loop[1]) if sid in known]
        else:
            names.append(loop[1].split(".")[0])
    if step.when:
        found += [(sid, "when") for sid in steps_referenced(step.when) if sid in known]
    for name in names:
        if name in step.input_values or name in workflow_inputs:
            continue
        made = next((p for p in earlier if p.outputs(name)), None)
        if made is not None:
            found.append((made.step, f"{made.step}.{name}"))
    return found


def derive_dependencies(
    spec: WorkflowSpec,
    produced: Mapping[str, Produced],
    needs: Mapping[str, Sequence[str]],
    workflow_inputs: Iterable[str],
) -> dict[str, Dependencies]:
    """Each step's dependencies and why (module docstring)."""
    inputs = set(workflow_inputs)
    routers = {target: s.id for s in spec.steps
               for target in [*s.routes.values(), *([s.route_default] if s.route_default else [])]}
    out: dict[str, Dependencies] = {}
    for index, step in enumerate(spec.steps):
        if step.depends_on or step.depends_where is not None:
            where = step.depends_where or step.where
            note = "depends_on" if step.depends_on else "depends on nothing: a root"
            if step.join == "any":
                note = "depends_on; runs once after whichever of them ran"
            out[step.id] = Dependencies(step=step.id, depends_on=tuple(dict.fromkeys(step.depends_on)),
                                        provenance=from_spec(where, note))
            continue
        earlier = sorted((produced[s.id] for s in spec.steps[:index] if s.id in produced),
                         key=lambda p: -p.index)
        earlier_ids = {s.id for s in spec.steps[:index]}
        refs = _data_references(step, needs.get(step.id, ()), inputs, earlier, earlier_ids)
        if refs:
            deps = tuple(dict.fromkeys(sid for sid, _ in refs))
            what = ", ".join(dict.fromkeys(w for _, w in refs))
            out[step.id] = Dependencies(step=step.id, depends_on=deps,
                                        provenance=from_spec(step.where, f"data reference to {what}"))
        elif step.id in routers:
            out[step.id] = Dependencies(step=step.id, depends_on=(routers[step.id],),
                                        provenance=from_spec(step.where, f"route target of {routers[step.id]}"))
        elif step.unordered_where is not None:
            out[step.id] = Dependencies(step=step.id, depends_on=(), provenance=from_spec(
                step.unordered_where, "does not wait for the step before it, reads no earlier output: a root"))
        elif index > 0:
            previous = spec.steps[index - 1].id
            out[step.id] = Dependencies(step=step.id, depends_on=(previous,),
                                        provenance=from_default("default: step order"))
        else:
            out[step.id] = Dependencies(step=step.id, depends_on=(), provenance=from_default("first step"))
    return out


def ancestors(step_id: str, deps: Mapping[str, Sequence[str]], order: Sequence[str]) -> list[str]:
    """Every step `step_id` transitively depends on, latest in spec order first."""
    seen: set[str] = set()
    todo = list(deps.get(step_id, ()))
    while todo:
        current = todo.pop()
        if current in seen or current == step_id:
            continue
        seen.add(current)
        todo += deps.get(current, ())
    position = {sid: i for i, sid in enumerate(order)}
    return sorted(seen, key=lambda s: -position.get(s, -1))


def map_inputs(
    step: StepSpec,
    needs: Sequence[str],
    required: Iterable[str],
    workflow_inputs: Iterable[str],
    upstream: Sequence[Produced],
) -> tuple[dict[str, InputBinding], dict[str, Provenance], ForEach | None]:
    """Bindings for the step's input names, their provenance, and its `For each`."""
    inputs = list(workflow_inputs)
    must = set(required)
    bindings: dict[str, InputBinding] = {}
    provenance: dict[str, Provenance] = {}
    field_where = {f.name: f.where for f in step.inputs}
    loop = parse_for_each(step.for_each)
    for_each: ForEach | None = None
    if loop:
        source = resolve_name(loop[1], inputs, upstream)
        if source is not None:
            for_each = ForEach(item=loop[0], source=source)
    explicit = {f.name: f.source for f in step.inputs if f.source}
    for name in dict.fromkeys([*needs, *step.input_values]):
        where = field_where.get(name, step.where)
        optional = name not in must
        binding: InputBinding | None
        note: str
        if name in step.input_values:
            value = step.input_values[name]
            whole = _WHOLE_NAME.match(value) if isinstance(value, str) else None
            if whole and (item := item_reference(whole.group(1), loop)) is not None:
                # `{{ n }}` alone is the item itself, keeping its JSON type, not its text
                binding, note = item.model_copy(update={"optional": optional}), f"for each item of {_of(loop)}"
            elif is_template(value):
                binding, note = InputBinding(source="template", template=str(value), optional=optional), "template"
            else:
                binding, note = InputBinding(source="literal", value=value, optional=optional), "literal value"
        elif name in explicit:
            ref = str(explicit[name])
            binding = item_reference(ref, loop) or resolve_name(ref, inputs, upstream)
            note = f"reference {ref}"
        elif loop and name == loop[0]:
            binding, note = InputBinding(source="item", optional=optional), f"for each item of {loop[1]}"
        else:
            binding = resolve_name(name, inputs, upstream)
            note = _describe(binding)
        if binding is None:
            continue
        if binding.optional != optional:
            binding = binding.model_copy(update={"optional": optional})
        bindings[name] = binding
        provenance[f"inputs.{name}"] = from_spec(where, note)
    return bindings, provenance, for_each


def _of(loop: tuple[str, str] | None) -> str:
    return loop[1] if loop else ""


def _describe(binding: InputBinding | None) -> str:
    if binding is None:
        return ""
    if binding.source == "input":
        return f"workflow input {binding.name}"
    if binding.pointer:
        return f"output of {binding.step} at {binding.pointer}"
    return f"whole output of {binding.step}"
