"""What the anchored reading does with units that are no step of their own (`spec.anchored`).

A unit that names a skill an earlier step already runs is a second step only when it is
listed beside that step (another item of the same list, another heading of the same level);
otherwise it says something about that step (a man page's TUNING paragraph, an FAQ answer
about an earlier step): its sentences, and those of every unit no step took, are placed by
`spec.elsewhere` (a step's policy, the run's success check, or warned at their line). A
unit naming a placed skill that yields nothing to place is warned and is not a step.
Every unit this module takes (placed or warned) is covered: the readers of the rest of the
document do not report it again; one it leaves is read by them as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from orchestrator.spec.approval_words25 import asks_gate, rejoined
from orchestrator.spec.cue_notes import note_label, row_label
from orchestrator.spec.elsewhere import (
    PLACED_CODE,
    StepKey,
    carries_policy,
    comparison,
    keys_of,
    named_step,
    success_said,
)
from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.outline import Unit
from orchestrator.spec.phantom_rest55 import run_lines
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.run_limit import WHOLE_SAID, read_run_limit
from orchestrator.spec.settings_section import read_settings, settings_unit
from orchestrator.spec.shape_comment import aside_title
from orchestrator.spec.sheet_flow32 import noun_keyed
from orchestrator.spec.source import Source
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.success_back27 import step_said_back
from orchestrator.spec.success_says47 import said_by
from orchestrator.spec.warnings39 import restates_check, say_restated, success_before
from orchestrator.spec.whole_limit import whole_limit


@dataclass
class Placed:
    """What was placed on the steps: per step number, its pieces (line, text, how) and its
    success clauses (line, clause); the steps that are not steps; the lines taken."""

    pieces: dict[int, list[tuple[int, str, str]]] = field(default_factory=dict)
    success: dict[int, list[tuple[int, str, str]]] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)  # indexes (from 0) of found units that are no step
    covered: set[int] = field(default_factory=set)


def _parents(root: Unit) -> tuple[dict[int, Unit], dict[int, str]]:
    """Each unit's parent, and the title of the heading it is under."""
    parent: dict[int, Unit] = {}
    heading: dict[int, str] = {}

    def walk(unit: Unit, title: str) -> None:
        here = unit.name if unit.kind == "heading" else title
        heading[id(unit)] = here
        for child in unit.children:
            parent[id(child)] = unit
            walk(child, here)

    walk(root, "")
    return parent, heading


def _pieces(unit: Unit) -> list[tuple[int, str]]:
    """A unit's own sentences, each with its line (a heading's title is no sentence)."""
    if unit.kind == "heading" and success_said(unit.name) is not None:  # "# it worked if x comes back ok: true"
        return [(unit.line, unit.name)]
    if unit.kind in ("heading", "root") or not unit.lines:
        return []
    lines = unit.lines
    return [(lines[min(offset, len(lines) - 1)][0], s) for offset, s in sentences(unit.text()) if s.strip()]


class Placer:
    """Places the sentences of units no step took (module docstring)."""

    def __init__(self, root: Unit, keys: list[StepKey], src: Source) -> None:
        self.keys = keys
        self.src = src
        self.parent, self.heading = _parents(root)
        self.out = Placed()
        self.labels: dict[str, int] = {}  # a step's row label ("A", "C1") -> its number

    def phantom(self, unit: Unit, earlier: Unit, parts: bool) -> bool:
        """Whether a unit naming a skill an earlier step (`earlier`'s) runs is no step of its own."""
        listed = not parts and unit.kind in ("item", "heading") and earlier.kind == unit.kind \
            and self.parent.get(id(unit)) is self.parent.get(id(earlier))
        return not listed

    def take(self, unit: Unit, own: int | None = None, pieces: list[tuple[int, str]] | None = None) -> bool:
        """Place the sentences of `unit` (and of the units under it), or only `pieces`; `own` is the
        step its text names (a phantom's). True when something was placed or warned (the unit is
        then covered)."""
        units = [unit] if pieces is not None else unit.walk()
        touched = False
        for u in units:
            said = rejoined(pieces) if pieces is not None else _pieces(u)  # wrapped lines: whole sentences
            if aside_title(self.heading.get(id(u), "")):  # under "Change History": a record, no step's text
                said = [(line, s) for line, s in said if self._keyed(line, s) is not None]  # but "2) ..." notes
                if not said:
                    continue
            current = own
            results: list[tuple[int, str, bool]] = []
            for line, sentence in said:
                done, current = self._sentence(line, sentence, current, self.heading.get(id(u), ""))
                results.append((line, sentence, done))
            if any(done for _, _, done in results) or own is not None:
                touched = True
                checked = False  # a success check said before in the unit (`spec.warnings39`)
                for line, sentence, done in results if any(done for _, _, done in results) else []:
                    checked = checked or (done and success_said(sentence, self.heading.get(id(u), "")) is not None)
                    if not done and restates_check(sentence) and (checked or success_before(self.src, line)):
                        say_restated(sentence, line, self.src)  # "If those two aren't true it's not done"
                    elif not done and read_run_limit(sentence, line, self.src, who="whole run"):
                        self.src.warn(line, f"'{sentence[:60]}' not read (not a step, and names no step's policy)",
                                      "spec.unread")
                self.out.covered.update(ln for ln in [*u.covers, *(n for n, _ in u.lines)])
        return touched

    def _keyed(self, line: int, sentence: str) -> str | None:
        """The row label keying the sentence's line ("  B: ..."), when a step's row has it."""
        key = note_label(self.src.line_text(line)) if 0 < line <= len(self.src.lines) else None
        if key is None or key not in self.labels:
            return None
        said = " ".join(self.src.line_text(line).split()).find(" ".join(sentence.split())[:12])
        noun = noun_keyed(self.src.line_text(line))  # "Line 3b: ..." (`spec.sheet_flow32`)
        return key if 0 <= said <= len(key) + 4 + (noun[1] if noun is not None else 0) else None  # the sentence opens the keyed line ("2)" may be cut)

    def _sentence(self, line: int, sentence: str, current: int | None, heading: str) -> tuple[bool, int | None]:
        if (key := self._keyed(line, sentence)) is not None:
            # "B - doesn't wait for A": a note keyed by the label of a step's row (`spec.cue_notes`)
            number = self.labels[key]
            self.out.pieces.setdefault(number, []).append((line, sentence, f"its row label '{key}'"))
            return True, number
        named = named_step(sentence, self.keys, self.src.vocabulary)
        clause = success_said(sentence, heading)
        if clause is not None:
            last = self.keys[-1].number
            skills = {k.skill: k.number for k in reversed(self.keys) if k.skill}  # a skill -> the first step running it
            if not comparison(clause) and (back := step_said_back(clause, self.labels, last, skills)) is not None \
                    and comparison(back[1]):  # "D comes back published = true" (`spec.success_back27`)
                named, clause = (back[0], back[2]), back[1]
            if not comparison(clause) and (said := said_by(sentence, clause)) is not None and 0 < said[0] <= last \
                    and comparison(said[1]):  # "finished when 4 says published = yes" (`spec.success_says47`)
                named, clause = (said[0], f"step {said[0]}, said to report it"), said[1]
            if comparison(clause):
                number, how = named if named is not None else (last, "the last step (the run's final output)")
                self.out.success.setdefault(number, []).append((line, clause, how))
            elif not _said_in_words(clause, sentence):  # outputs said in words: read by `spec.whole_net`
                self.src.warn(line, f"the run's success check '{clause[:80]}' is not a comparison of an output "
                                    "field with a value, so it is not checked; write one on the step whose output "
                                    "it is (`- Success criteria: FIELD >= N`)", "spec.success")
            return True, current
        if (cue := _cue(sentence)) is not None and _said_in_words(cue, sentence):
            return True, current  # "counts as good when the notice is out": read by `spec.whole_net`
        if not carries_policy(sentence) and not asks_gate(sentence):  # a person's sign-off too (`approval_words25`)
            return False, current
        phrase = read_phrase(sentence, self.src.vocabulary.skills)
        if phrase.statement.whole_run or WHOLE_SAID.search(sentence) or whole_limit(sentence) is not None:
            return False, current  # the whole run's limit: read by the readers of the rest
        target = named or ((current, "nothing; the sentence before it names the step") if current is not None else None)
        if target is not None:
            self.out.pieces.setdefault(target[0], []).append((line, sentence, target[1]))
            return True, target[0]
        if phrase.read:
            self.src.warn(line, f"'{sentence[:60]}' states a step's policy but names no step (or several), so it "
                                "is not read: write it under the step it is about, or name the step's skill in it",
                          PLACED_CODE)
            return True, current
        return False, current


def row_name(line: str) -> str:
    """The first cell of a table row a step was read from ("| RESERVING | reserve-stock | ..."): a
    state machine's or a checklist's name for the step, as sentences elsewhere call it."""
    first = line.strip()
    cells = [c.strip(" *_`") for c in first.strip("|").split("|")] if first.startswith("|") else []
    return cells[0] if cells and len(cells) > 1 and 0 < len(cells[0]) <= 40 else ""


class Found(Protocol):
    """What `place` needs of a unit the anchored reading found (`spec.anchored.Found`)."""

    unit: Unit
    skill: str
    parts: list[tuple[int, str]] | None
    extra: list[Unit]
    placed: list[tuple[int, str, str]]
    success: list[tuple[int, str, str]]


F = TypeVar("F", bound=Found)


def said_elsewhere(step: StepSpec, placed: list[tuple[int, str, str]], success: list[tuple[int, str, str]],
                   src: Source) -> StepSpec:
    """The step with what was said of it away from its text (`spec.anchored_place`): each piece
    warned at its line and kept as a reading; each success clause a check on its output."""
    readings = list(step.readings)
    for line, said, how in placed:
        src.warn(line, f"{step.id} ({step.name}): '{said[:60]}' is read as this step's policy though it is said away "
                       f"from the step (it names {how}): check the plan, or write it in the step's text", PLACED_CODE)
        readings.append(Reading(what="moved", where=src.where(line), text=" ".join(said.split())[:160],
                                note=f"read as {step.id}'s policy, said away from the step (it names {how})"))
    texts = list(step.texts)
    for line, clause, how in success:
        src.warn(line, f"{step.id} ({step.name}): '{clause[:60]}' is read as the run's success check, on this step's "
                       f"output ({how}): check the plan, or write `- Success criteria: {clause[:40]}` under the step",
                 PLACED_CODE)
        readings.append(Reading(what="success", where=src.where(line), text=" ".join(clause.split())[:160],
                                note=f"the run's success check, checked on {step.id}'s output ({how})"))
        texts.append(SpecText(text=clause, line=line, kind="success"))
    if not placed and not success:
        return step
    return step.model_copy(update={"readings": tuple(readings), "texts": tuple(texts)})


def place(root: Unit, found: list[F], leftover: list[Unit], src: Source,
          name: Callable[[F], str]) -> tuple[list[F], set[int]]:
    """The found units that are steps, with what other units say of them placed on them
    (`spec.anchored_place`); the lines taken so."""
    placer = Placer(root, [], src)
    steps: list[F] = []
    phantoms: list[tuple[F, int]] = []
    for f in found:
        earlier = next((g for g in steps if g.skill == f.skill), None)
        if earlier is not None and placer.phantom(f.unit, earlier.unit, f.parts is not None):
            phantoms.append((f, steps.index(earlier) + 1))
        else:
            steps.append(f)
    rows = [row_name(src.lines[at - 1] if 0 < (at := f.parts[0][0] if f.parts else f.unit.line) <= len(src.lines) else "")
            for f in steps]
    placer.labels = _row_labels([f.skill for f in steps], [f.parts[0][0] if f.parts else f.unit.line for f in steps],
                                src)
    placer.keys = keys_of([(i, f"{name(f)} {row}", f.skill) for i, (f, row) in enumerate(zip(steps, rows, strict=True),
                                                                                          start=1)])
    for f, own in phantoms:
        before = sum(map(len, placer.out.pieces.values())) + sum(map(len, placer.out.success.values()))
        if f.parts is not None:
            placer.take(f.unit, own, pieces=f.parts)
        else:
            for unit in [f.unit, *f.extra]:
                placer.take(unit, own)
        said = f.parts if f.parts is not None else [p for u in [f.unit, *f.extra] for w in u.walk() for p in w.lines]
        naming = [t for _, t in said if f.skill in t]
        checked = bool(naming) and all(_cue(t) is not None for t in naming)  # "// ok when <skill> comes back x = true"
        if before == sum(map(len, placer.out.pieces.values())) + sum(map(len, placer.out.success.values())):
            line = f.parts[0][0] if f.parts else f.unit.line
            if not checked:  # a line naming it in a success sentence is the run's check (`spec.whole_success`)
                src.warn(line, f"this names `{f.skill}`, which step-{own} already runs, but says neither a step of its "
                               f"own nor a time limit, retry or failure of step-{own}: it is not read; to run the skill "
                               "again write it as a step of its own", PLACED_CODE)
            run = run_lines(said, f.skill)  # "whole thing 10 min tops" under it: the run's (`spec.phantom_rest55`)
            placer.out.covered.update(n for n, _ in f.parts or [] if n not in run) if f.parts else placer.out.covered.update(
                ln for u in [f.unit, *f.extra] for w in u.walk() for ln in [*w.covers, *(n for n, _ in w.lines)]
                if ln not in run)
            placer.out.covered.difference_update(run)
    for unit in leftover:
        if settings_unit(unit):  # `[general]`: the workflow's settings, no step's (`spec.settings_section`)
            placer.out.covered.update(read_settings(unit, src))
            continue
        placer.take(unit)
    for number, f in enumerate(steps, start=1):
        f.placed = sorted(placer.out.pieces.get(number, []))
        f.success = placer.out.success.get(number, [])
    return steps, placer.out.covered


def _row_labels(skills: list[str], lines: list[int], src: Source) -> dict[str, int]:
    """Each step's row label (`spec.cue_notes.row_label` of the line naming its skill) -> its number, when
    at least two steps have one and no two the same."""
    found: dict[str, list[int]] = {}
    for number, (skill, at) in enumerate(zip(skills, lines, strict=True), start=1):
        for n in range(max(at, 1), min(at + 24, len(src.lines) + 1)):  # a form's header above its grid: 24 lines
            if skill in src.line_text(n):
                if (label := row_label(src.line_text(n))) is not None:
                    found.setdefault(label, []).append(number)
                break
    labels = {label: numbers[0] for label, numbers in found.items() if len(numbers) == 1}
    return labels if len(labels) >= 2 else {}


def _cue(sentence: str) -> str | None:
    from orchestrator.spec.whole_success import success_cue

    return success_cue(sentence)


def _said_in_words(clause: str, sentence: str) -> bool:
    from orchestrator.spec.success_words import said_in_words

    return said_in_words(clause, sentence)

