"""The model's reading of a spec's STRUCTURE (its step graph), checked, then made into steps.

    StructureReading                       the `read_structure` tool's input (its JSON Schema)
    check_reading(reading, lines, skills, inputs, path) -> list[Diagnostic]   empty: usable
    reading_steps(reading, spec, model) -> WorkflowSpec   the spec with the reading's steps

A reading numbers its steps 1..n (`step-N` in the plan) and cites, for each, the line of
the spec it comes from and the last line of its text. Every reference inside it
(depends_on, an input's source, for_each, otherwise_of) is a step number of the same
reading, or a workflow input by name. The answer is checked before it is used: every
step cites a line of the spec that holds text, every skill is in the catalog, every
condition is read by the spec's condition reader, every source names a step of the
reading or a workflow input, an item source sits in a For each step, and the steps
and their references form no cycle. Each failed check is an error at the line it is
about (the step's line, else the spec's first line), saying why.

A step of the reading that starts on the line of a step the rules read keeps that
step's texts (its prose, cells and bullets, for the policy reader) and outputs; its
structure (skill, dependencies, inputs, loop, condition, join, approval) is the
model's. Any other step's text is its lines, read by the policy reader as prose. The paragraphs
the reading names as being about the whole workflow (`workflow_lines`) are read by the
policy reader for the run (a whole-run time limit, a catch-all for every step).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import Diagnostic
from orchestrator.policy import ApprovalPolicy
from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import FieldSpec, InputSpec, Reading, SpecText, StepSpec, WorkflowSpec

READING_CODE = "interpret.structure"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReadSource(_Frozen):
    """Where one input's value comes from: a workflow input (`name`), a step's output field
    (`step`, `field`; "" for the whole output), the For each item's field (`field`; "" the
    item itself), or every result of a For each step, gathered in item order (`step`, `field`)."""

    kind: Literal["input", "step", "item", "gathered"]
    name: str = ""
    step: int | None = None
    field: str = ""


class ReadBinding(_Frozen):
    name: str = Field(min_length=1)
    source: ReadSource


class ReadForEach(_Frozen):
    """The step runs once per item of `field` of step `step`'s output."""

    step: int
    field: str = Field(min_length=1)
    item: str = Field(default="item", pattern=r"^[A-Za-z_]\w*$")


class ReadStep(_Frozen):
    number: int = Field(ge=1)
    line: int  # the spec line the step comes from
    last_line: int | None = None  # the last line of its text; None: its own line only
    title: str = Field(min_length=1)
    skill: str = Field(min_length=1)
    depends_on: tuple[int, ...] = ()
    inputs: tuple[ReadBinding, ...] = ()
    for_each: ReadForEach | None = None
    condition: str | None = None  # as the author wrote it, in words the condition reader reads
    otherwise_of: int | None = None  # runs exactly when that step's condition was false
    join: Literal["all", "any"] = "all"  # "any": after whichever of its dependencies ran
    approval: ApprovalPolicy | None = None
    fallback: str | None = None  # a skill the text says to run when the step fails


class ReadInput(_Frozen):
    """A workflow input the text names."""

    name: str = Field(pattern=r"^[A-Za-z_][\w-]*$")
    line: int
    description: str = ""


class StructureReading(_Frozen):
    steps: tuple[ReadStep, ...]
    inputs: tuple[ReadInput, ...] = ()
    # the first line of each paragraph outside the steps that is about the whole workflow
    # ("the whole thing shouldn't take more than an hour"): read by the policy reader for the run
    workflow_lines: tuple[int, ...] = ()
    reason: str = ""


def step_id(number: int) -> str:
    return f"step-{number}"


def _error(path: str, line: int | None, message: str) -> Diagnostic:
    return Diagnostic(file=path, line=line, message=f"the model's reading of the structure: {message}",
                      code=READING_CODE)


def _references(step: ReadStep) -> list[tuple[int, str]]:
    """(step number, what refers to it) of every step reference of `step`."""
    out = [(n, "depends_on") for n in step.depends_on]
    out += [(b.source.step, f"input `{b.name}`") for b in step.inputs
            if b.source.kind in ("step", "gathered") and b.source.step is not None]
    if step.for_each is not None:
        out.append((step.for_each.step, "for_each"))
    if step.otherwise_of is not None:
        out.append((step.otherwise_of, "otherwise_of"))
    return out


def _cycle(steps: Sequence[ReadStep]) -> list[int] | None:
    """A cycle of step numbers through their references, or None."""
    edges = {s.number: sorted({n for n, _ in _references(s)}) for s in steps}
    state: dict[int, int] = {}  # 1: on the path, 2: done
    path: list[int] = []

    def visit(node: int) -> list[int] | None:
        state[node] = 1
        path.append(node)
        for nxt in edges.get(node, ()):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt in edges and nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def check_reading(reading: StructureReading, lines: Sequence[str], skills: Iterable[str],
                  inputs: Iterable[str], path: str) -> list[Diagnostic]:
    """The errors of a reading (module docstring); `inputs` are the workflow inputs the rules read."""
    known_skills = set(skills)
    if not reading.steps:
        return [_error(path, 1, "it has no steps")]
    found: list[Diagnostic] = []
    numbers = [s.number for s in reading.steps]
    known = set(numbers)
    declared = set(inputs) | {i.name for i in reading.inputs}
    for i in reading.inputs:
        if not 0 < i.line <= len(lines) or not lines[i.line - 1].strip():
            found.append(_error(path, 1, f"workflow input `{i.name}` cites line {i.line}, which is "
                                         f"{'past the end of the spec' if i.line > len(lines) or i.line < 1 else 'blank'}"))
    for line in reading.workflow_lines:
        if not 0 < line <= len(lines) or not lines[line - 1].strip():
            found.append(_error(path, 1, f"a workflow-wide paragraph cites line {line}, which is "
                                         f"{'blank' if 0 < line <= len(lines) else 'not in the spec'}"))
    seen: set[int] = set()
    for step in reading.steps:
        cited = 0 < step.line <= len(lines)
        at = step.line if cited else 1
        name = f"step {step.number} ({step.title})"
        if step.number in seen:
            found.append(_error(path, at, f"step number {step.number} is used twice"))
        seen.add(step.number)
        if not cited:
            found.append(_error(path, 1, f"{name} cites line {step.line}, which the spec does not have "
                                         f"(it has {len(lines)} lines)"))
        elif not lines[step.line - 1].strip():
            found.append(_error(path, at, f"{name} cites line {step.line}, which is blank"))
        if step.last_line is not None and not step.line <= step.last_line <= len(lines):
            found.append(_error(path, at, f"{name} says its text ends at line {step.last_line}, outside "
                                          f"{step.line}..{len(lines)}"))
        if step.skill not in known_skills:
            found.append(_error(path, at, f"{name} runs skill `{step.skill}`, which is not in the catalog"))
        if step.fallback is not None and step.fallback not in known_skills:
            found.append(_error(path, at, f"{name} falls back to skill `{step.fallback}`, which is not in the catalog"))
        for number, what in _references(step):
            if number == step.number and what != "depends_on":
                found.append(_error(path, at, f"{name}: {what} names the step itself"))
            elif number not in known:
                found.append(_error(path, at, f"{name}: {what} names step {number}, which the reading does not have"))
        for binding in step.inputs:
            source = binding.source
            if source.kind == "input" and source.name not in declared:
                found.append(_error(path, at, f"{name}: input `{binding.name}` comes from workflow input "
                                              f"`{source.name}`, which the spec does not declare"))
            elif source.kind in ("step", "gathered") and source.step is None:
                found.append(_error(path, at, f"{name}: input `{binding.name}` names no step"))
            elif source.kind == "item" and step.for_each is None:
                found.append(_error(path, at, f"{name}: input `{binding.name}` comes from the item, but the "
                                              "step has no for_each"))
        if step.condition is not None and read_condition(step.condition) is None:
            found.append(_error(path, at, f"{name}: the condition '{step.condition}' cannot be read (write a "
                                          "comparison such as `step 2 reported passed = true`)"))
        if step.approval is not None and step.approval.when is not None and read_condition(step.approval.when) is None:
            found.append(_error(path, at, f"{name}: the approval's condition '{step.approval.when}' cannot be read"))
    if not found:
        cycle = _cycle(reading.steps)
        if cycle:
            first = next(s for s in reading.steps if s.number == cycle[0])
            found.append(_error(path, first.line, "its steps wait for each other in a cycle: "
                                                  + " -> ".join(f"step {n}" for n in cycle)))
    return found


def _source(source: ReadSource) -> str:
    if source.kind == "input":
        return f"inputs.{source.name}"
    if source.kind == "item":
        return f"item.{source.field}" if source.field else "item"
    ref = f"steps.{step_id(source.step or 0)}.output"
    return f"{ref}.{source.field}" if source.field else ref


def _texts(step: ReadStep, lines: Sequence[str]) -> tuple[SpecText, ...]:
    last = step.last_line or step.line
    body = "\n".join(lines[step.line - 1:last]).strip()
    return (SpecText(text=body, line=step.line),) if body else ()


def _step(step: ReadStep, spec: WorkflowSpec, ruled: StepSpec | None, model: str) -> StepSpec:
    where = f"{spec.path}:{step.line}"
    lines = spec.text.splitlines()
    own = " ".join(lines[step.line - 1].split())[:120]
    fields = tuple(FieldSpec(name=b.name, where=where, source=_source(b.source)) for b in step.inputs)
    loop = (f"{step.for_each.item} in steps.{step_id(step.for_each.step)}.output.{step.for_each.field}"
            if step.for_each is not None else None)
    update = {
        "id": step_id(step.number), "number": step.number, "name": step.title, "where": where,
        "skill": step.skill, "skill_where": where, "inputs": fields, "input_values": {},
        "depends_on": tuple(step_id(n) for n in step.depends_on), "depends_where": where,
        "for_each": loop, "when": step.condition,
        "otherwise_where": where if step.otherwise_of is not None else None, "otherwise_text": None,
        "otherwise_of": step_id(step.otherwise_of) if step.otherwise_of is not None else None,
        "approval": step.approval, "join": step.join, "routes": {}, "route_default": None, "route_on": None,
        "unordered_where": None, "mentions": (),
        "readings": (Reading(what="step", where=where, text=own, note="step"),),
    }
    if ruled is not None:
        return ruled.model_copy(update=update)
    return StepSpec(**update, form="paragraph", texts=_texts(step, lines))  # type: ignore[arg-type]


def reading_steps(reading: StructureReading, spec: WorkflowSpec, model: str) -> tuple[StepSpec, ...]:
    """The reading's steps as the spec model's steps (module docstring)."""
    by_line = {s.where.rpartition(":")[2]: s for s in spec.steps}
    return tuple(_step(s, spec, by_line.get(str(s.line)), model) for s in reading.steps)


def reading_inputs(reading: StructureReading, spec: WorkflowSpec) -> tuple[InputSpec, ...]:
    """The spec's workflow inputs and the ones only the reading names."""
    have = {i.name for i in spec.inputs}
    more = tuple(InputSpec(name=i.name, description=i.description, where=f"{spec.path}:{i.line}")
                 for i in reading.inputs if i.name not in have)
    return (*spec.inputs, *more)


def paragraph(lines: Sequence[str], line: int) -> tuple[str, int]:
    """The paragraph starting at `line` (up to a blank line), and its last line."""
    last = line
    while last < len(lines) and lines[last].strip():
        last += 1
    return "\n".join(lines[line - 1:last]), last


def spans(reading: StructureReading) -> list[tuple[int, int]]:
    """The lines of each step's text, (first, last)."""
    return [(s.line, s.last_line or s.line) for s in reading.steps]
