"""The model's reading of a spec's structure, kept in `<spec>.lock.json` (kind "structure").

    structure_doubts(spec, plan_warnings) -> list[Diagnostic]   what the rules are unsure of
    apply_structure(spec, spec_path, settings, skills, inputs...) -> (WorkflowSpec, Applied | None)
    mark_llm(plan, applied) -> Plan       the reading's decisions with provenance "llm"

Doubts are the plan guards' findings (`plan.guards`), work the reader could not place
(`spec.unread-work`) and a spec in which no step was read. Every plan reads the
lockfile (offline, deterministic): a "structure" entry made for exactly this text (its
sha256 is of the text as it is, since the reading cites lines) replaces the rule-read
steps with the reading's (`structure_reading.reading_steps`), and the policy reader
reads the new steps' texts again. An entry made for another text is stale: a warning
at the first line that changed says so, and the rule reading is used. With
`interpret` and doubts, the model is asked once (the `reader` the compile pipeline
passes), its answer is checked (`structure_reading.check_reading`; a failed check is a
PlanError at the line), the entry replaces any other structure entry, and the lockfile
is written. A reading from the lockfile is checked the same way.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from orchestrator.config import Settings
from orchestrator.errors import ConfigError, Diagnostic, PlanError, Severity
from orchestrator.hints import Hint, HintAction
from orchestrator.lockfile import LockEntry, Lockfile, load_lock, lock_path, save_lock
from orchestrator.plan.doubts import DOUBT_CODES, NO_STEPS_CODE
from orchestrator.plan.location import split_where
from orchestrator.plan.model import Plan, Provenance
from orchestrator.plan.structure_reading import (
    StructureReading,
    check_reading,
    paragraph,
    reading_inputs,
    reading_steps,
    spans,
    step_id,
)
from orchestrator.policy import OnFailure, PolicyStatement
from orchestrator.spec.model import SentenceReading, WorkflowSpec
from orchestrator.spec.prose import read_sentence, read_step_texts, sentences
from orchestrator.spec.source import Source
from orchestrator.spec.structure import StepIndex

KIND: Literal["structure"] = "structure"
STALE_CODE = "lock.stale"
# (the rule-read spec, its doubts) -> (the model's reading, the model that made it)
StructureReader = Callable[[WorkflowSpec, Sequence[Diagnostic]], tuple[StructureReading, str]]
_NOT_STRUCTURE = ("policy.", "sentence:", "input_schema", "output_schema")


@dataclass(frozen=True)
class Applied:
    """A structure reading in use: its steps' ids and the model that made it."""

    steps: tuple[str, ...]
    model: str
    where: str  # the lockfile


def exact_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def structure_doubts(spec: WorkflowSpec, plan_warnings: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The findings a structure reading answers (module docstring), in line order."""
    found = [d for d in (*spec.warnings, *plan_warnings) if d.code in DOUBT_CODES]
    if not spec.steps:
        found.append(Diagnostic(file=spec.path, line=1, message="the spec has no steps the rules could read",
                                code=NO_STEPS_CODE))
    return sorted(dict.fromkeys(found), key=lambda d: (d.line or 0, d.message))


def _first_change(old: str, new: str) -> int:
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    for tag, _, _, j1, _ in matcher.get_opcodes():
        if tag != "equal":
            return j1 + 1
    return 1


def _inside(where: str | None, path: str, ranges: Sequence[tuple[int, int]]) -> bool:
    line = split_where(where, path)[1] or 0
    return any(first <= line <= last for first, last in ranges)


def _diagnostic_inside(d: Diagnostic, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(first <= (d.line or 0) <= last for first, last in ranges)


def with_reading(spec: WorkflowSpec, reading: StructureReading, model: str) -> WorkflowSpec:
    """`spec` with the reading's steps, their texts read again by the policy reader."""
    steps = reading_steps(reading, spec, model)
    src = Source(spec.text, spec.path)
    read_step_texts(steps, src, StepIndex(steps).resolve)
    ranges = spans(reading)
    lines = spec.text.splitlines()
    for first in reading.workflow_lines:
        text, last = paragraph(lines, first)
        ranges.append((first, last))
        for sentence, line in sentences(text, first):
            read_sentence(sentence, line, src, section="workflow", steps=(), who="workflow", specific=False)
    fallbacks = [SentenceReading(text=f"fallback: {s.fallback}", where=f"{spec.path}:{s.line}", section="step",
                                 steps=(step_id(s.number),), source="llm", model=model, note=reading.reason,
                                 statement=PolicyStatement(on_failure=OnFailure(kind="use_skill", skill=s.fallback)))
                 for s in reading.steps if s.fallback]
    readings = [r for r in spec.readings if r.section not in ("step", "success", "column")
                and not _inside(r.where, spec.path, ranges)]
    unread = [u for u in spec.unread if u.section not in ("step", "success", "column")
              and not _inside(u.where, spec.path, ranges)]
    warnings = [w for w in spec.warnings if w.code != NO_STEPS_CODE and not _diagnostic_inside(w, ranges)]
    return spec.model_copy(update={
        "steps": steps,
        "inputs": reading_inputs(reading, spec),
        "readings": (*readings, *src.readings, *fallbacks),
        "unread": (*unread, *src.unread),
        "warnings": tuple(sorted(dict.fromkeys([*warnings, *src.warnings]), key=lambda d: (d.line or 0, d.message))),
    })


def _checked(reading: StructureReading, spec: WorkflowSpec, skills: set[str]) -> StructureReading:
    errors = check_reading(reading, spec.text.splitlines(), skills, [i.name for i in spec.inputs], spec.path)
    if errors:
        raise PlanError(errors)
    return reading


def _entry(lock: Lockfile, text: str, model: str) -> LockEntry | None:
    digest = exact_sha256(text)
    found = sorted((e for e in lock.entries if e.kind == KIND and e.sha256 == digest), key=lambda e: e.model)
    return next((e for e in found if e.model == model), found[0]) if found else None


def _from_lock(entry: LockEntry, path: Path) -> StructureReading:
    try:
        return StructureReading.model_validate(entry.reading)
    except ValidationError as exc:
        first = exc.errors()[0]
        at = "/".join(str(p) for p in first["loc"])
        raise ConfigError(f"the structure reading ({entry.where}) is not one: {at}: {first['msg']}; delete the "
                          "entry and have the model read the spec again", where=str(path),
                          hint=Hint(action=HintAction.INTERPRET)) from None


def _stale(lock: Lockfile, spec: WorkflowSpec) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for entry in (e for e in lock.entries if e.kind == KIND):
        line = _first_change(entry.text, spec.text)
        found.append(Diagnostic(
            file=spec.path, line=line, severity=Severity.WARNING, code=STALE_CODE, hint=Hint(action=HintAction.INTERPRET),
            message=f"the lockfile's reading of the structure ({entry.model}) was made for another text of the "
                    f"spec (the first change is at this line); it is not used: the rules' reading is"))
    return found


def apply_structure(
    spec: WorkflowSpec, spec_path: Path, settings: Settings, skills: set[str], *, interpret: bool = False,
    doubts: Callable[[WorkflowSpec], Sequence[Diagnostic]] | None = None, reader: StructureReader | None = None,
) -> tuple[WorkflowSpec, Applied | None]:
    """The spec with the lockfile's (or, with `interpret`, the model's) structure reading (module docstring)."""
    path = lock_path(spec_path)
    lock = load_lock(path) or Lockfile(spec=spec_path.name)
    entry = _entry(lock, spec.text, settings.model)
    if entry is not None:
        reading = _checked(_from_lock(entry, path), spec, skills)
        return with_reading(spec, reading, entry.model), _applied(reading, entry.model, path)
    stale = _stale(lock, spec)
    found = list(doubts(spec)) if interpret and doubts is not None else []
    if not found:
        return _with_warnings(spec, stale), None
    if reader is None:
        raise ConfigError("reading the structure the rules could not needs a model, and none was given")
    reading, model = reader(spec, found)
    reading = _checked(reading, spec, skills)
    first = found[0].line or 1
    kept = tuple(e for e in lock.entries if e.kind != KIND)
    new = LockEntry(kind=KIND, sha256=exact_sha256(spec.text), model=model or settings.model, text=spec.text,
                    where=f"{spec_path.name}:{first}", reading=reading.model_dump(mode="json", exclude_defaults=True),
                    reason=reading.reason)
    save_lock(path, lock.model_copy(update={"entries": kept}).with_entry(new))
    return with_reading(spec, reading, new.model), _applied(reading, new.model, path)


def _with_warnings(spec: WorkflowSpec, more: list[Diagnostic]) -> WorkflowSpec:
    if not more:
        return spec
    return spec.model_copy(update={"warnings": tuple(sorted(dict.fromkeys([*spec.warnings, *more]),
                                                            key=lambda d: (d.line or 0, d.message)))})


def _applied(reading: StructureReading, model: str, path: Path) -> Applied:
    return Applied(steps=tuple(step_id(s.number) for s in reading.steps), model=model, where=str(path))


def mark_llm(plan: Plan, applied: Applied) -> Plan:
    """The plan with each structural decision of the reading's steps (step, skill, dependencies,
    inputs, loop, condition, join, approval) given provenance "llm"; policies keep theirs."""
    ids = set(applied.steps)
    steps = []
    for step in plan.steps:
        if step.id not in ids:
            steps.append(step)
            continue
        provenance = {key: (Provenance(source="llm", where=p.where,
                                       note=f"read by the model ({applied.model}, {Path(applied.where).name})"
                                            + (f": {p.note}" if p.note else ""))
                            if p.source == "spec" and not key.startswith(_NOT_STRUCTURE) else p)
                      for key, p in step.provenance.items()}
        steps.append(step.model_copy(update={"provenance": provenance}))
    return plan.model_copy(update={"steps": tuple(steps)})
