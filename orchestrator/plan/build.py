"""Assemble a Plan from a WorkflowSpec and the skill catalog. Pure: no I/O.

The order of the work: bind steps to skills (`bind`), build each step's output
contract (`contract`), derive dependencies from explicit lines, data references
or step order (`mapping`), map inputs, build input contracts and edge schemas,
merge policies (`recovery`), and seal the plan with its hash.

`draft_plan` never raises on a bad spec: it returns the plan it could build and
the errors found on the way (a step it could not bind keeps an empty `skill`),
so that `compile_spec` can report every error at once. `build_plan` (the
facade) raises when there is any.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Protocol

from orchestrator.config import Settings
from orchestrator.contracts import JsonSchema
from orchestrator.errors import Diagnostic, Severity, SkillError, SkillweaveError
from orchestrator.kinds import BoundSkill, kind_registry
from orchestrator.plan.bare_names import unread_warnings
from orchestrator.plan.bind import SkillChooser, bind_steps, explicit_name
from orchestrator.plan.carry_ref31 import resolve_carries
from orchestrator.plan.compare_checks import place_compares
from orchestrator.plan.contract import OutputContract, edge_schema, input_contract, output_contract
from orchestrator.plan.dataflow import (
    completed_policy,
    plan_flow,
    skill_instructions,
    with_instruction_outputs,
)
from orchestrator.plan.fan_words import read_fan_outs
from orchestrator.plan.flow_checks import hand_on_empty_values, refusal
from orchestrator.plan.guards import guard_plan
from orchestrator.plan.input_choices import said_choices
from orchestrator.plan.join_either import read_either_joins
from orchestrator.plan.location import error_at, from_default, from_spec, line_key, warning_at
from orchestrator.plan.loop_field import loop_over_fields
from orchestrator.plan.model import (
    Edge,
    InputBinding,
    Plan,
    PlanInput,
    PlanStep,
    Provenance,
    Scenario,
    SpecRef,
)
from orchestrator.plan.recovery import plan_limits, step_policy
from orchestrator.plan.run_checks37 import split_run_checks
from orchestrator.plan.runs34 import input_comparands
from orchestrator.plan.schema import field_schema, properties_of
from orchestrator.plan.transitions import read_transitions
from orchestrator.plan.truth_checks54 import truth_checks
from orchestrator.plan.unoutput39 import unoutput_checks
from orchestrator.plan.warn_true46 import drop_read_gathers
from orchestrator.plan.xrefs import read_xrefs
from orchestrator.spec.markup_words import unmarked_lines
from orchestrator.spec.model import FieldSpec, InputSpec, StepSpec, WorkflowSpec


class SkillSource(Protocol):
    """What the planner needs of one catalog entry (`orchestrator.skills.Skill`)."""

    def bound(self) -> BoundSkill: ...


class SkillCatalog(Protocol):
    """What the planner needs of the catalog (`orchestrator.skills.Catalog`).

    `get(name)` raises SkillError for a broken or shadowed skill, which the
    planner reports when a step binds that name.
    """

    def __iter__(self) -> Iterator[SkillSource]: ...

    def get(self, name: str) -> SkillSource: ...


# Reads an MCP tool's own schemas: (server, tool) -> (inputSchema, outputSchema). Used for
# mcp skills that declare none; starting servers is the caller's choice (`validate` does not).
ToolSchemas = Callable[[str, str], tuple[JsonSchema | None, JsonSchema | None]]


def _with_tool_schemas(
    bound: dict[str, BoundSkill], tool_schemas: ToolSchemas | None, spec: WorkflowSpec, found: list[Diagnostic]
) -> set[str]:
    """Fill the missing schemas of bound skills whose kind reads them from their tool
    (`KindTraits.tool_schemas`: mcp); the names filled."""
    filled: set[str] = set()
    if tool_schemas is None:
        return filled
    cache: dict[str, BoundSkill] = {}
    for sid, skill in list(bound.items()):
        if not skill.server or not skill.tool:
            continue
        kind = kind_registry().get(skill.kind)
        if kind is None or not kind.traits.tool_schemas:
            continue
        if skill.input_schema is not None and skill.output_schema is not None:
            continue
        if skill.name not in cache:
            try:
                tool_in, tool_out = tool_schemas(skill.server, skill.tool)
            except SkillweaveError as exc:
                found.append(warning_at(f"{skill.path}/SKILL.md", spec.path,
                                        f"skill `{skill.name}`: could not read the schemas of "
                                        f"{skill.server}/{skill.tool}: {exc.message}", "mcp-schema"))
                cache[skill.name] = skill
                continue
            cache[skill.name] = skill.model_copy(update={
                "input_schema": skill.input_schema if skill.input_schema is not None else tool_in,
                "output_schema": skill.output_schema if skill.output_schema is not None else tool_out,
            })
            filled.add(skill.name)
        bound[sid] = cache[skill.name]
    return filled


def canonical_json(plan: Plan) -> str:
    data = plan.model_copy(update={"sha256": ""}).model_dump(mode="json", by_alias=True)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def plan_sha256(plan: Plan) -> str:
    """sha256 of the plan's canonical JSON with `sha256` empty."""
    return hashlib.sha256(canonical_json(plan).encode()).hexdigest()


def seal(plan: Plan) -> Plan:
    return plan.model_copy(update={"sha256": plan_sha256(plan)})


_PATH_WORDS = {"path", "folder", "directory", "dir", "file"}


def is_path_input(item: InputSpec) -> bool:
    """A workflow input that names a host file or folder: `(path)`, `(folder)`, `format: path`."""
    first = (item.description or "").split(",")[0].strip().lower()
    return item.format == "path" or (item.type or "").lower() in _PATH_WORDS or first in _PATH_WORDS


def _plan_input(item: InputSpec, choices: list[str] | None = None) -> PlanInput:
    schema = field_schema(FieldSpec(name=item.name, type=item.type, description=item.description, where=item.where))
    if choices:  # "one of staging or prod", `# staging | prod` (`input_choices`)
        schema = {**schema, "type": "string", "enum": choices}
    if item.format and item.format != "path":
        schema["format"] = item.format
    if is_path_input(item):
        schema = {**schema, "type": "string", "format": "path"}
    return PlanInput(name=item.name, schema=schema, required=item.required, default=item.default, where=item.where)


def skills_of(catalog: Iterable[SkillSource]) -> dict[str, BoundSkill]:
    """Each catalog skill as the plan records it, by name (the first of a name wins)."""
    out: dict[str, BoundSkill] = {}
    for entry in catalog:
        skill = entry.bound()
        out.setdefault(skill.name, skill)
    return out


def _refused(catalog: SkillCatalog, names: Iterable[str]) -> dict[str, tuple[Diagnostic, ...]]:
    """The names the catalog refuses to hand out (broken or shadowed), with why."""
    out: dict[str, tuple[Diagnostic, ...]] = {}
    for name in dict.fromkeys(names):
        try:
            catalog.get(name)
        except SkillError as exc:
            out[name] = tuple(exc.diagnostics)
        except SkillweaveError:
            continue
    return out


def _extra_skills(spec: WorkflowSpec, skills: Mapping[str, BoundSkill], bound: Mapping[str, BoundSkill]) -> dict[str, BoundSkill]:
    """Skills named as compensation or fallback, when the catalog has them."""
    out: dict[str, BoundSkill] = {}
    names = [s.compensation for s in spec.steps]
    names += [r.rule.fallback.skill for r in spec.recovery if r.rule.fallback is not None]
    names += [r.statement.on_failure.skill for r in spec.readings if r.statement.on_failure is not None]
    if spec.fallback is not None:
        names.append(spec.fallback.skill)
    for name in names:
        if name and name in skills and name not in bound:
            out[name] = skills[name]
    return out


def draft_plan(
    spec: WorkflowSpec,
    catalog: SkillCatalog,
    *,
    settings: Settings,
    chooser: SkillChooser | None = None,
    tool_schemas: ToolSchemas | None = None,
) -> tuple[Plan, list[Diagnostic]]:
    """The plan and the errors found while building it (module docstring).

    `tool_schemas`, when given, fills the schemas an mcp skill does not declare from
    its tool's own `inputSchema`/`outputSchema` (provenance "mcp")."""
    path = spec.path
    spec = read_xrefs(spec)
    skills = skills_of(catalog)
    named = [n for n in (explicit_name(s, spec.format) for s in spec.steps) if n]
    refused = _refused(catalog, named)
    bindings, found = bind_steps(spec, skills, chooser, refused)
    matched = _refused(catalog, [b.skill for b in bindings.values()])
    for step in spec.steps:
        binding = bindings.get(step.id)
        if binding is not None and binding.skill in matched:
            found += [error_at(step.skill_where or step.where, path,
                               f"{step.id} ({step.name}): skill `{binding.skill}` cannot be used: {d.render()}",
                               "broken-skill") for d in matched[binding.skill]]
            del bindings[step.id]
    bound = {sid: skills[b.skill] for sid, b in bindings.items()}
    spec, guards = read_transitions(spec, {sid: b.skill for sid, b in bindings.items()})
    found += guards
    spec, joined = read_either_joins(spec)  # "from step 3 or step 4 (whichever ran)"
    found += joined
    from_tools = _with_tool_schemas(bound, tool_schemas, spec, found)
    instructions = skill_instructions(catalog)

    outputs: dict[str, OutputContract] = {}
    on_outputs, run_checks = split_run_checks(spec)  # the run's checks are evaluated after the run
    on_outputs, run_checks = truth_checks(on_outputs, run_checks, bound, instructions)  # filed=1: true (round 54)
    for step in spec.steps:
        outputs[step.id], diags = output_contract(step, bound.get(step.id), on_outputs, path)
        found += diags
    found += with_instruction_outputs(outputs, spec, bound, instructions)
    found += unread_warnings(bound, instructions, path)  # "Inputs: the product's name" read as no names (`plan.bare_names`)
    found += unoutput_checks(spec, on_outputs, bound, instructions)  # a check on a field none outputs (`plan.unoutput39`)
    spec, loop_notes, loop_warnings = loop_over_fields(spec, outputs)
    found += loop_warnings
    spec, fan_notes, fan_warnings = read_fan_outs(spec, outputs, bound, instructions)
    loop_notes.update(fan_notes)
    found += fan_warnings
    produced_by = {s.id: frozenset(properties_of(outputs[s.id].schema_)) for s in spec.steps}
    input_schemas: dict[str, tuple[dict[str, object], str]] = {}
    for step in spec.steps:
        schema, note, diags = input_contract(step, bound.get(step.id), spec.contracts, produced_by, path)
        input_schemas[step.id] = (schema, note)
        found += diags
    flow = plan_flow(spec, bound, outputs, {sid: schema for sid, (schema, _) in input_schemas.items()}, instructions)
    found += flow.found
    inputs = flow.inputs

    steps: list[PlanStep] = []
    for step in spec.steps:
        made = flow.steps[step.id]
        in_schema, in_note = made.input_schema, input_schemas[step.id][1]
        bindings_in, prov_in, for_each = made.bindings, made.provenance, made.for_each
        draft = step_policy(step, spec, bound.get(step.id), bound, outputs[step.id].schema_)
        found += draft.warnings
        prov: dict[str, Provenance] = {}
        if step.id in bindings:
            prov["skill"] = bindings[step.id].provenance
        prov["depends_on"] = made.depends.provenance
        prov.update(prov_in)
        skill_md = f"{bound[step.id].path}/SKILL.md" if step.id in bound else None
        prov["input_schema"] = (from_spec(step.inputs[0].where, in_note) if step.inputs
                                else Provenance(source="skill", where=skill_md, note=in_note))
        out = outputs[step.id]
        prov["output_schema"] = (from_spec(out.where, out.note) if out.where
                                 else Provenance(source="skill", where=skill_md, note=out.note))
        skill_now = bound.get(step.id)
        if skill_now is not None and skill_now.name in from_tools:
            tool_where = f"{skill_now.server}/{skill_now.tool}"
            prov["output_schema"] = Provenance(source="mcp", where=tool_where,
                                               note=f"{prov['output_schema'].note}; tool schemas")
            if not step.inputs:
                prov["input_schema"] = Provenance(source="mcp", where=tool_where, note="tool inputSchema")
        if out.aliases:
            prov["output_schema"] = prov["output_schema"].model_copy(
                update={"note": f"{out.note}; `{', '.join(sorted(out.aliases))}` names the whole output"})
        if for_each is not None:
            said = f" ({loop_notes[step.id]})" if step.id in loop_notes else ""
            prov["for_each"] = from_spec(step.field_where.get("for_each", step.where),
                                         f"For each: {step.for_each}{said}")
        prov.update(_readings(step))
        prov.update(draft.provenance)
        steps.append(PlanStep(
            id=step.id,
            name=step.name,
            skill=bindings[step.id].skill if step.id in bindings else "",
            depends_on=made.depends.depends_on,
            follows=made.depends.follows,
            inputs=bindings_in,
            for_each=for_each,
            when=made.when,
            routes=dict(step.routes),
            route_default=step.route_default,
            route_on=step.route_on,
            join="any" if step.join == "any" else None,
            not_given=tuple(n for n in made.not_given if n not in bindings_in),
            input_schema=in_schema,
            output_schema=out.schema_,
            policy=completed_policy(draft.policy.model_copy(update={"approval": made.approval})
                                    if made.approval is not None else draft.policy,
                                    out.schema_, prov["policy.fallback"].note if "policy.fallback" in prov else ""),
            provenance=prov,
            where=step.where,
        ))
    edges = _edges(spec, steps)
    limits, limits_prov = plan_limits(spec, {s.id: s.policy for s in steps},
                                      {s.id: s.provenance["policy.retry"].where for s in steps})
    plan_skills = {**{b.name: b for b in bound.values()}, **_extra_skills(spec, skills, bound)}
    warnings = [*_unread(spec.warnings, flow.read_at), *(d for d in found if d.severity is Severity.WARNING)]
    warnings = drop_read_gathers(warnings, steps)  # "all the room-volume results together", gathered (`plan.warn_true46`)
    warnings += [d.model_copy(update={"severity": Severity.WARNING}) for d in getattr(catalog, "problems", ())]
    assumed = {f"{s.id}:" for s in steps if "the value to assume" in s.provenance["policy.fallback"].note}
    if assumed:  # "assume 256 pp ... and keep going", read by the step's outputs (`plan.continue_from29`): not unread
        warnings = [w for w in warnings if not ("looks like the value to go on with, but it was not read" in w.message
                                                and w.message.split(" ", 1)[0] in assumed)]
    lines = spec.text.splitlines() if spec.format == "yaml" else []
    choices = {i.name: said_choices(i, lines, spec.format == "yaml", spec.path) for i in inputs}
    warnings += [w for _, found in choices.values() for w in found]
    plan_inputs = tuple(_plan_input(i, choices[i.name][0]) for i in inputs)
    compares, compare_warnings, read_again = place_compares(spec, steps, plan_inputs)
    if read_again:  # a success warning "not checked" whose comparisons of two values are checked
        warnings = [w for w in warnings if w.code != "spec.success" or (w.line, w.message) not in read_again]
    warnings += compare_warnings
    plan = Plan(
        name=spec.name,
        spec=SpecRef(path=spec.path, sha256=spec.sha256, format=spec.format),
        inputs=plan_inputs,
        steps=tuple(steps),
        edges=edges,
        skills=dict(sorted(plan_skills.items())),
        limits=limits,
        limits_provenance=limits_prov,
        scenarios=tuple(Scenario(name=s.name, description=s.description, kind=s.kind, where=s.where)
                        for s in spec.scenarios),
        compare_checks=compares,
        run_checks=tuple(c for c in run_checks if any(s.id == c.step for s in steps)),
        warnings=tuple(sorted(dict.fromkeys(warnings), key=line_key)),
        mcp_config=str(settings.mcp_config) if settings.mcp_config else None,
    )
    plan = input_comparands(hand_on_empty_values(plan, refusal))  # `>= 'min_accuracy'`, an input (`runs34`)
    plan, carried = resolve_carries(plan)  # a value to go on with taken from earlier data (`carry_ref31`)
    if carried:
        plan = plan.model_copy(update={"warnings": tuple(sorted((*plan.warnings, *carried), key=line_key))})
    warned_at = {(w.line, w.code) for w in plan.warnings}  # a reader's own warning at the line wins
    had = set(plan.warnings)  # a set: 8 000 warnings are not compared pairwise
    guarded = [w for w in guard_plan(plan, set(skills), unmarked_lines(spec.text.splitlines()), _owned(spec))
               if w not in had and (w.line, w.code) not in warned_at]
    if guarded:
        plan = plan.model_copy(update={"warnings": tuple(sorted((*plan.warnings, *guarded), key=line_key))})
    errors = sorted((d for d in found if d.severity is Severity.ERROR), key=line_key)
    return seal(plan), errors


def _owned(spec: WorkflowSpec) -> dict[int, frozenset[str]]:
    """line -> the steps whose text (`StepSpec.texts`) the reader read it as (`plan.guards.guard_plan`)."""
    out: dict[int, set[str]] = {}
    for step in spec.steps:
        for text in step.texts:
            for n in range(text.line, text.line + text.text.count("\n") + 1) if text.line else ():
                out.setdefault(n, set()).add(step.id)
    return {n: frozenset(ids) for n, ids in out.items()}


# what the spec reader could not read, that the planner reads as a join's input (`join_sources`):
# `- ref: page_id or ticket_id`, `ref (page-oncall's page_id, or open-ticket's ticket_id)`
_READ_AS_JOIN = frozenset({"spec.unknown-label", "spec.field-type"})


def _unread(warnings: Iterable[Diagnostic], read_at: set[str]) -> list[Diagnostic]:
    """The spec's warnings, but for those about a line the planner read as a join's input."""
    return [d for d in warnings if d.code not in _READ_AS_JOIN or f"{d.file}:{d.line}" not in read_at]


def _readings(step: StepSpec) -> dict[str, Provenance]:
    """The structural readings of the step's prose as provenance: `read.step` (how the text
    was taken as a step), `read.routes`, `read.join`, `read.depends_on`, ... (one per kind;
    several of a kind are `read.input.2`, ...)."""
    out: dict[str, Provenance] = {}
    for reading in step.readings:
        key = f"read.{reading.what}"
        n = 1
        while key in out:
            n += 1
            key = f"read.{reading.what}.{n}"
        out[key] = from_spec(reading.where, f"{reading.note}: \"{reading.text}\"")
    if step.routes_where and (step.routes or step.route_default):
        routes = ", ".join(f"{b} -> {t}" for b, t in step.routes.items())
        default = f"; anything else -> {step.route_default}" if step.route_default else ""
        on = f" (the choice is the output's `{step.route_on}`)" if step.route_on else ""
        out["routes"] = from_spec(step.routes_where, f"{routes}{default}{on}")
    return out


def _edges(spec: WorkflowSpec, steps: list[PlanStep]) -> tuple[Edge, ...]:
    """One edge per producer -> consumer: each dependency, with the fields it feeds."""
    by_id = {s.id: s for s in steps}
    contract_where = {(c.producer, c.consumer): c.where for c in spec.contracts if c.consumer}
    edges: list[Edge] = []
    for consumer in steps:
        fed: dict[str, list[tuple[str, InputBinding]]] = {}
        for name, binding in consumer.inputs.items():
            if binding.source == "step" and binding.joined:  # each step part feeds the field (its pointer)
                for part in binding.joined:
                    if part.source == "step" and part.step:
                        fed.setdefault(part.step, []).append((name, part))
            elif binding.source == "step" and binding.any_of:  # each of a join's steps feeds the field (its pointer)
                for sid in binding.any_of:
                    fed.setdefault(sid, []).append((name, binding.model_copy(update={"pointer": binding.pointer_of(sid)})))
            elif binding.source == "step" and binding.step:
                fed.setdefault(binding.step, []).append((name, binding))
        if consumer.for_each is not None and consumer.for_each.source.step:
            fed.setdefault(consumer.for_each.source.step, [])
        for producer_id in dict.fromkeys([*consumer.depends_on, *fed]):
            producer = by_id.get(producer_id)
            if producer is None:
                continue
            fields = fed.get(producer_id, [])
            where = contract_where.get((producer_id, consumer.id))
            provenance = (from_spec(where, "Data Contracts") if where
                          else from_default("input mapping" if fields else "order only: no data handed over"))
            edges.append(Edge(
                producer=producer_id,
                consumer=consumer.id,
                fields=tuple(n for n, _ in fields),
                schema=edge_schema(fields, producer.output_schema, consumer.input_schema) if fields else {},
                provenance=provenance,
            ))
    return tuple(edges)
