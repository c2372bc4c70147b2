"""Guards written as a state machine's transitions: which branch runs, said between two states.

A design note for a state machine draws its flow as lines of arrows, one per transition:

    CHECKING  --(ok) [in_stock == true]--> RESERVING
    CHECKING  --(ok) [else]--------------> BACKORDERING
    PACKING   -- [weight > 30] --> FREIGHT

A guard in brackets on a transition into a step is that step's condition; `[else]` (or
`[otherwise]`, `[default]`) makes its step the otherwise-branch of the guarded transition
from the same state. A state is a step by its id, name, skill or the word its text begins
with (a table row's first cell). A step that has a condition or an otherwise of its own
keeps it; a transition with no guard, or into a state that is no step (`DONE`, `FAILED`),
says nothing here. Each guard read is shown in the plan (`read.condition`) and warned at its
line, so a guess is never silent.
"""

from __future__ import annotations

import re

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.spec.model import Reading, StepSpec, WorkflowSpec
from orchestrator.spec.transitions import GUARD_UNREAD_CODE, GUARD_UNREAD_SAYS

_STATE = r"[A-Za-z_][\w-]*+"
# FROM --(event) [guard]--> TO, the event and the dashes optional; one line, possessive runs (linear)
_ARROW = re.compile(
    rf"^[\s`*|]*+(?P<src>{_STATE})`?[ \t]++-{{1,80}}+(?:\((?P<event>[^()\n]{{0,80}}+)\))?[ \t]*+"
    rf"\[(?P<guard>[^\[\]\n]{{1,160}}+)\][ \t]*+-{{0,80}}+>[ \t]*+`?(?P<dst>{_STATE})"
)
_ELSE = re.compile(r"(?i)^\s*(?:else|otherwise|default)\s*$")
_LEAD = re.compile(r"\A[\s|*#_`>-]*+([A-Za-z][\w-]*+)")
_MAX_LINES = 5000  # a longer text is not looked through for transitions
UNKNOWN_SECTION_CODE = "spec.unknown-section"


def _named(name: str, steps: list[StepSpec], skill_of: dict[str, str]) -> StepSpec | None:
    low = name.lower()
    for s in steps:
        text = s.texts[0].text if s.texts else s.description
        lead = _LEAD.match(text)
        if low in (s.id.lower(), s.name.strip().strip("`").lower(), skill_of.get(s.id, "").lower()) or \
                (lead is not None and lead.group(1).lower() == low):
            return s
    return None


def read_transitions(spec: WorkflowSpec, skill_of: dict[str, str]) -> tuple[WorkflowSpec, list[Diagnostic]]:
    """The spec with each guarded transition's condition on its step, and a warning per guard read; the
    spec reader's warning that the guard at that line is not read (`spec.transitions`) is dropped."""
    steps = list(spec.steps)
    index = {s.id: i for i, s in enumerate(steps)}
    warnings: list[Diagnostic] = []
    guarded: dict[str, str] = {}  # source state (lower case) -> the step its guarded transition leads to
    for number, line in enumerate(spec.text.splitlines()[:_MAX_LINES], start=1):
        m = _ARROW.match(line)
        if m is None:
            continue
        dst = _named(m.group("dst"), steps, skill_of)
        if dst is None:
            continue
        dst = steps[index[dst.id]]
        guard = " ".join(m.group("guard").split())
        src = m.group("src").lower()
        if not _ELSE.match(guard):
            guarded.setdefault(src, dst.id)  # the branch an `[else]` from the same state is the other of
        if dst.when or dst.otherwise_where or dst.otherwise_of:
            continue  # its own condition stands
        where = f"{spec.path}:{number}"
        if _ELSE.match(guard):
            if src not in guarded:
                continue
            update = {"otherwise_where": where, "otherwise_of": guarded[src]}
            note = f"runs when the condition of {guarded[src]} is false (the transition's `[{guard}]`)"
        else:
            update = {"when": guard}
            note = f"runs only when `{guard}` (the transition's guard)"
        reading = Reading(what="condition", where=where, text=line.strip()[:160], note=note)
        steps[index[dst.id]] = dst.model_copy(update={**update, "readings": (*dst.readings, reading)})
        warnings.append(warning_at(where, spec.path, f"{dst.id} ({dst.name}): {note}, read from the transition "
                                   f"`{m.group('src')} -> {m.group('dst')}`; check the plan, or write the "
                                   "condition on the step", "plan.transition-guard"))
    if not warnings:
        return spec, []
    read = {w.line for w in warnings if w.line is not None}
    kept = tuple(_amended(d, read, spec.text) for d in spec.warnings  # "guard not read" there is no longer true
                 if not (d.line in read and d.code == GUARD_UNREAD_CODE and GUARD_UNREAD_SAYS in d.message))
    return spec.model_copy(update={"steps": tuple(steps), "warnings": kept}), warnings


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_NOT_READ = "its content is not read"


def _amended(d: Diagnostic, read: set[int], text: str) -> Diagnostic:
    """A section the spec reader did not read ("its content is not read") in which guards were read
    says which of its lines are: those down to the next heading."""
    if d.code != UNKNOWN_SECTION_CODE or d.line is None or not d.message.endswith(_NOT_READ):
        return d
    lines = text.splitlines()
    end = next((n for n in range(d.line + 1, len(lines) + 1) if _HEADING.match(lines[n - 1])), len(lines) + 1)
    inside = sorted(n for n in read if d.line < n < end)
    if not inside:
        return d
    said = ", ".join(map(str, inside))
    return d.model_copy(update={"message": d.message.removesuffix(_NOT_READ) + "its content is not read but for the "
                                           f"transitions' guards at lines {said}, read as steps' conditions"})
