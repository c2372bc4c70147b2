"""Where a markdown spec's steps are, in whichever shape they were written, and how they refer
to each other.

1. Step headings at any level and in the wordings people use (`STEP_HEADING`:
   "Step 2: x", "Stage 2 — x", "Step three: x"; a bare "2. x" or "1) x" too, unless
   it names a section). A step heading owns what follows it up to the next heading
   of its level or above, or the next step heading. A heading inside a known
   section other than the steps (a Testing Plan's "### 1. Happy path") is not a step.
   A `##` heading that opens with a word of sequence ("Then", "Finally, tell the floor")
   and names a skill is a step heading too, numbered after the steps before it; in a
   document of such sections, or one with steps in no other shape, so is every section
   of no known name that names a skill. Such a section is cut into the steps and the
   branches it holds (`spec.sections`); a list of branches under a numbered heading is a
   step per branch, the others numbered after every numbered step.
2. Without step headings, the steps section (`## Steps`, `## Runbook`, ...) is read
   as a list of steps, a table of steps, or runbook paragraphs (`step_forms`); with
   no steps section, a list or table of steps elsewhere (the preamble, an unnamed
   section) that names skills in backticks.
3. A paragraph in one step's section that starts with another, empty, step's name
   ("Stage 3 uses `billing-resolver`...") belongs to that step.
4. References between steps by number, id or name ("Extract", "stage 2") resolve
   to step ids (`StepIndex`); a free text (an Error Recovery row's failure) names a
   step by its name or by a word only that step's name has (`StepIndex.named_in`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from markdown_it.tree import SyntaxTreeNode
from pydantic import BaseModel, ConfigDict

from orchestrator.spec.blocks import Block, Bullet, Para, Table, read_blocks
from orchestrator.spec.branch_parallel import parallel_note
from orchestrator.spec.details_toggle29 import toggle_branches
from orchestrator.spec.fields import NUMBER, STEP_WORD, number_of, step_id
from orchestrator.spec.heading_step import action_heading, warn_action_heading
from orchestrator.spec.input_prose import attach_gets
from orchestrator.spec.list_branches import constants
from orchestrator.spec.model import FieldSpec, Reading, StepSpec
from orchestrator.spec.notebook_cells import cell_dependencies, cell_skill, cell_units
from orchestrator.spec.pair_item import pair_of, pair_steps
from orchestrator.spec.pair_sentence import sentence_pair, sentence_pair_steps
from orchestrator.spec.policy_text import first_duration
from orchestrator.spec.prose import sentences as prose_sentences
from orchestrator.spec.prose import whole_run_sentence
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.sections import (
    SIGN_OFF,
    Unit,
    after_previous,
    branch_step,
    clip_text,
    gate_approval,
    join_branches,
    lead_of,
    lead_taken,
    lead_units,
    names_a_skill,
    section_units,
    unit_name,
)
from orchestrator.spec.shape_paragraphs import guideline_items, paragraph_items, warn_paragraphs
from orchestrator.spec.source import Source
from orchestrator.spec.step import LABELS, numbered_heading, read_step, step_heading
from orchestrator.spec.step_forms import (
    RouteSink,
    is_step_table,
    list_steps,
    names_skill,
    paragraph_steps,
    starts_step,
    table_steps,
)
from orchestrator.spec.step_in_prose25 import split_lead_units

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

NOT_STEPS = _rx(
    r"(?i)^(?:notes?|appendix|references?|glossary|faq|background|examples?|open questions?|"
    r"changelog|history|todo|see also|links?|contacts?|owners?|misc\w*)\b"
)
_SAID_STEP = _rx(rf"(?i)\b{STEP_WORD}[\s_-]*{NUMBER}\b")
_ANOTHER_STEP = _rx(rf"(?i)^\s*(?:\*\*)?{STEP_WORD}\s+(\w+)(?:\*\*)?\s+(?!\s*[:.)\-–—])")


class StepGroup(BaseModel):
    """A step heading and the blocks it owns. `soft`: a heading without a number (a sequence
    word, "Then"; or a section that names a skill), numbered in order after the steps before it."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    number: int
    name: str
    line: int
    heading: str
    blocks: tuple[Block, ...]
    soft: bool = False


# a heading that is a word of sequence: "Then", "Finally, tell the floor", "After that", "Second"
_SEQUENCE_HEADING = _rx(
    r"(?i)^\W*(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|fifth|sixth|then|next|after\s+that|afterwards|"
    r"finally|lastly|last|at\s+the\s+end|to\s+start|to\s+finish|to\s+begin|now|once\s+\w+|after\s+\w+)\b"
    r"\s*(?:[,:.;—–-]\s*)?(?P<rest>.*)$")
def sequence_heading(title: str) -> str | None:
    """"Then", "Finally, tell the floor", "First, see what's low": the heading's name (the
    words after the sequence word, else the word); None when it opens with none."""
    m = _SEQUENCE_HEADING.match(title.strip().strip("*_"))
    if m is None:
        return None
    return m.group("rest").strip(" *_") or title.strip(" *_")


def _body_names_skill(nodes: list[SyntaxTreeNode]) -> bool:
    return any(names_a_skill(str(getattr(b, "text", ""))) or
               any(names_a_skill(c.text) for c in _flat([b]) if isinstance(c, Bullet | Para))
               for b in to_blocks(nodes))


def heading_text(node: SyntaxTreeNode) -> str:
    return "".join(c.content for c in node.children if c.type == "inline").strip()


def _line(node: SyntaxTreeNode) -> int:
    return (node.map[0] + 1) if node.map else 1


def _level(node: SyntaxTreeNode) -> int:
    return int(node.tag[1:]) if node.tag[1:].isdigit() else 6


def to_blocks(nodes: list[SyntaxTreeNode]) -> list[Block]:
    """Blocks of `nodes`; a heading becomes a paragraph with its `#` marks."""
    out: list[Block] = []
    for node in nodes:
        if node.type == "heading":
            out.append(Para(line=_line(node), text=f"{node.markup} {heading_text(node)}"))
        else:
            out.extend(read_blocks([node]))
    return out


_DECIMAL_HEADING = _rx(r"^\s*(?:\*\*)?\d+\.\d+\.?(?:\*\*)?\s+(\S.*)$")


_SUB_LABEL = _rx(r"^\s*(?:\*\*|__)?\(?\d+(?:[a-z]|\.\d+)[.):]?(?:\*\*|__)?[.):]?\s")


def _sub_labelled(node: SyntaxTreeNode) -> bool:
    """A list of two or more items labelled under a heading's number ("**2a.**", "2.1)", "(2b)")."""
    if node.type not in ("bullet_list", "ordered_list"):
        return False
    firsts = [item.children[0].children[0].content for item in node.children
              if item.children and item.children[0].type == "paragraph" and item.children[0].children]
    return sum(bool(_SUB_LABEL.match(t)) for t in firsts) >= 2


def split_step_headings(
    nodes: list[SyntaxTreeNode], section_kind: Callable[[str], str | None], *, sections: bool = False
) -> tuple[list[StepGroup], list[SyntaxTreeNode]]:
    """The step headings of a document (rule 1) with their blocks, and every other node.
    A heading that opens with a word of sequence ("Then", "Finally, tell the floor") is a
    step heading when what it owns names a skill; with `sections`, so is any heading of a
    section that is no spec section and names a skill ("## Put the order together")."""
    candidates = _split(nodes, section_kind, sections=sections)
    groups: list[StepGroup] = []
    rest: list[SyntaxTreeNode] = []
    for found, heading, _level, title, body in candidates:
        if found is None or heading is None:
            rest.extend([heading, *body] if heading is not None else body)
            continue
        soft = found[0] < 0
        if soft and not _body_names_skill(body):
            rest.extend([heading, *body])  # "## Next steps" that names no skill: not a step
            continue
        groups.append(StepGroup(number=found[0], name=found[1], line=_line(heading), heading=title,
                                blocks=tuple(to_blocks(body)), soft=soft))
    return groups, rest


def _split(
    nodes: list[SyntaxTreeNode], section_kind: Callable[[str], str | None], *, sections: bool
) -> list[tuple[tuple[int, str] | None, SyntaxTreeNode | None, int, str, list[SyntaxTreeNode]]]:
    """The document cut at the headings that may be steps: (number and name or None, heading,
    level, title, owned nodes); a soft heading has the number -1."""
    out: list[tuple[tuple[int, str] | None, SyntaxTreeNode | None, int, str, list[SyntaxTreeNode]]] = [
        (None, None, 0, "", [])]
    groups: list[tuple[int, str, int, int, str, list[SyntaxTreeNode]]] = []
    rest: list[SyntaxTreeNode] = out[0][4]
    current: tuple[int, str, int, int, str, list[SyntaxTreeNode]] | None = None
    enclosing: str | None = None  # the kind of the h2 section we are in
    # "### 1.1 Inventory" ... "### 1.5 Close" under "## 1. Rotation procedure": the sub-headings are
    # the steps, numbered in order; the numbered headings above them ("## 2. Rollback") are sections
    decimal = [n for n in nodes if n.type == "heading" and _DECIMAL_HEADING.match(heading_text(n))]
    outline = min((_level(n) for n in decimal), default=0) if len(decimal) >= 2 else 0
    if not outline and any(_sub_labelled(n) for n in nodes):  # "- **2a.** ..." under "### 2. Outreach":
        outline = 99  # the labelled items are the steps; the numbered headings are agenda items, not steps
    for node in nodes:
        if node.type == "heading" and outline and (m := _DECIMAL_HEADING.match(heading_text(node))):
            current = (len(groups) + 1, m.group(1).strip("*_ "), _line(node), _level(node), heading_text(node), [])
            groups.append(current)
            out.append(((current[0], current[1]), node, current[3], current[4], current[5]))
            continue
        if node.type == "heading" and outline and _level(node) < outline:
            current = None  # an outline's chapter heading: a section, never a step
            enclosing = section_kind(heading_text(node))
            out.append((None, None, 0, "", [node]))
            continue
        if node.type != "heading":
            if current is not None:
                current[5].append(node)
            else:
                if out[-1][1] is not None:
                    out.append((None, None, 0, "", []))
                out[-1][4].append(node)
            continue
        title, level = heading_text(node), _level(node)
        kind = section_kind(title)
        if level <= 2:
            enclosing = kind
        found = None if kind not in (None, "steps", "step") or (level > 2 and enclosing not in (None, "steps")) \
            else step_heading(title)
        if found is None and kind is None and (level <= 2 or enclosing in (None, "steps")):
            numbered = numbered_heading(title)
            if numbered is not None and _may_be_step(numbered[1]) and section_kind(numbered[1]) is None:
                found = numbered
        if found is None and kind is None and level <= 2 and _may_be_step(title):
            said = sequence_heading(title)
            if said is not None or sections:
                found = (-1, said or title.strip("*_ "))
        if found is None and kind == "intent" and sections and groups and level <= 2:
            found = (-1, title.strip("*_ "))  # "## Summary" after step headings: a step if it names a skill
        if found is not None:
            current = (found[0], found[1], _line(node), level, title, [])
            groups.append(current)
            out.append((found, node, level, title, current[5]))
            continue
        if current is not None and level > current[3] and kind is None:
            current[5].append(node)
            continue
        current = None
        if out[-1][1] is not None:
            out.append((None, None, 0, "", []))
        out[-1][4].append(node)
    del rest
    return out


def _may_be_step(title: str) -> bool:
    """No notes section's title ("## Notes", "## Links"), or one that says what to do with such a
    word ("## Note it in the log", `heading_step`)."""
    title = title.strip("*_ ")
    return not NOT_STEPS.match(title) or action_heading(title)


def move_paragraphs(groups: list[StepGroup], src: Source) -> list[tuple[StepGroup, tuple[Reading, ...]]]:
    """Rule 3: paragraphs that open with another, empty, step's name move to that step."""
    empty = {g.number: i for i, g in enumerate(groups) if not g.blocks}
    moved: list[list[Block]] = [[] for _ in groups]
    readings: list[list[Reading]] = [[] for _ in groups]
    kept: list[list[Block]] = [[] for _ in groups]
    for i, group in enumerate(groups):
        for block in group.blocks:
            m = _ANOTHER_STEP.match(block.text) if isinstance(block, Para) else None
            target = number_of(m.group(1)) if m else None
            if isinstance(block, Para) and target is not None and target != group.number and target in empty:
                moved[empty[target]].append(block)
                readings[empty[target]].append(Reading(
                    what="moved", where=src.where(block.line), text=" ".join(block.text.split())[:160],
                    note=f"paragraph under {group.heading!r} read as part of step-{target}"))
            else:
                kept[i].append(block)
    return [(g.model_copy(update={"blocks": (*kept[i], *moved[i])}), tuple(readings[i]))
            for i, g in enumerate(groups)]


def read_groups(groups: list[StepGroup], src: Source, sink: RouteSink) -> list[StepSpec]:
    """Each group a step; a soft group (a section read as steps) numbered after the steps before
    it, and cut into several when it holds several (`section_units`: a paragraph per skill, a
    list of branches)."""
    steps: list[StepSpec] = []
    branches: list[str] = []  # the steps of the latest list of branches
    spare = max((g.number for g in groups if not g.soft), default=0) + 1  # for branches under a numbered heading
    for group, moved in move_paragraphs(groups, src):
        number = group.number if not group.soft else max((s.number or 0 for s in steps), default=0) + 1
        blocks = list(group.blocks)
        if group.soft:  # "Thanks! Ping me if the numbers look odd.": a remark to the reader, not the step's
            for block in [b for b in blocks if isinstance(b, Para) and SIGN_OFF.match(b.text)]:
                src.warn(block.line, f"'{clip_text(block)[:60]}' is read as a remark to the reader, not as "
                                     "part of a step", "spec.unread")
                blocks.remove(block)
        blocks = toggle_branches(blocks, src)  # `<details>` toggles, one per case (`spec.details_toggle29`)
        units = section_units(blocks, paragraphs=group.soft)
        units = split_lead_units(units, src)  # a skill named mid-answer as doing work: its own step
        cells = None
        if not group.soft and not any(u.branch is not None for u in units):
            cells = cell_units(blocks)  # notebook cells that each call a skill: a step each
            units = [Unit(blocks=b) for b in cells] if cells else [Unit(blocks=blocks)]
        if not group.soft and not cells and len(units) == 1 and (pair := pair_of(group.name, blocks)) is not None:
            # "## 1. Bookings and sea state" with a paragraph per skill, "side by side": two steps
            spare = max(spare, max((s.number or 0 for s in steps), default=0) + 1, group.number + 1)
            steps += pair_steps(group.number, pair, group.line, f"heading '{group.heading}'", src, sink,
                                form="heading", second=spare)
            spare += 1
            branches = []
            continue
        if not group.soft and not cells and len(units) == 1 and blocks and isinstance(blocks[0], Para) and (
                found := sentence_pair(blocks[0].text, blocks[0].line, blocks[1:])) is not None:
            # "## 1. Prep" then "Start `a` on X and `b` on Y at the same time.": two steps
            spare = max(spare, max((s.number or 0 for s in steps), default=0) + 1, group.number + 1)
            steps += sentence_pair_steps(group.number, found, group.line, f"heading '{group.heading}'", src, sink,
                                         form="heading", second=spare)
            spare += 1
            branches = []
            continue
        if NOT_STEPS.match(group.heading.strip("*_ ")):  # "## Note it in the log": a step, said so
            warn_action_heading(group.heading, group.line, f"step-{number}", src)
        units, gates = _gates(units, group, src)
        before = steps[-1].id if steps else None
        numbers: list[int] = []
        for position, unit in enumerate(units):
            if not group.soft and position:  # "### Step 2: Pay out" with a list of branches: the others after all
                spare = max(spare, max((s.number or 0 for s in steps), default=0) + 1)
                number, spare = spare, spare + 1
            numbers.append(number)
            at = group.line if position == 0 and unit.branch is None else unit.blocks[0].line
            name = unit.name or (group.name if position == 0 and not unit.branch else unit_name(unit) or group.name)
            if cells and position:
                name = f"{group.name} ({cell_skill(unit.blocks)})"
            if unit.name is not None:
                at = unit.blocks[0].line
                wording = f"paragraph under '{group.heading}' read as step-{number} ({name}), named by its lead"
            elif position == 0:
                wording = "" if re.match(r"(?i)^\W*step\s+\d+\b", group.heading) else (
                    f"heading '{group.heading}' read as step-{number} ({group.name or 'unnamed'})"
                    + ("" if step_heading(group.heading) or numbered_heading(group.heading) else ", numbered in order"))
            else:
                what = "branch" if unit.branch is not None else "code cell" if cells else "paragraph"
                wording = f"{what} under '{group.heading}' read as step-{number} ({name})"
            readings = [Reading(what="step", where=src.where(at), text=group.heading if position == 0 and
                                unit.name is None else clip_text(unit.blocks[0]), note=wording)] if wording else []
            if unit.lead is not None:
                readings.append(Reading(what="route", where=src.where(unit.lead.line), text=clip_text(unit.lead),
                                        note="read as the lead of a choice between the branches below it"))
            step = read_step(number, name, at, unit.blocks, src,
                             readings=(*readings, *(moved if position == 0 else ())), routes_sink=sink)
            step = join_branches(step, branches, src)
            if cells and position:
                step = cell_dependencies(step, unit.blocks, [(s, u.blocks) for s, u in
                                                             zip(steps[len(steps) - position:], units, strict=False)],
                                         before, src)
            if group.soft and steps and unit.branch is None:
                step = after_previous(step, group.heading if position == 0 else "", unit, steps[-1].id, src)
            if position in gates:
                step = _gated(step, gates[position], src)
            if unit.name is not None:
                _lead_remarks(unit, step, src)
            if unit.branch is not None:
                step = branch_step(step, unit, [s for s in steps[len(steps) - position:] if
                                            any(r.what == "branch" for r in s.readings)], src)
                given = constants(str(getattr(unit.blocks[0], "text", "")))  # `service: freight` in the branch line
                if given:
                    step = step.model_copy(update={"input_values": {**given, **step.input_values}})
            steps.append(step)
            number += 1
        branches = [f"step-{n}" for n, u in zip(numbers, units, strict=True)
                    if u.branch is not None] or ([] if group.soft or not steps else branches)
    return steps


def _gates(units: list[Unit], group: StepGroup, src: Source) -> tuple[list[Unit], dict[int, Para]]:
    """The units that are steps, and the gate paragraph before each that has one (by position);
    a gate with no step after it is a warning at its line."""
    kept: list[Unit] = []
    gates: dict[int, Para] = {}
    for unit in units:
        if unit.aside:
            for block in unit.blocks:
                src.warn(block.line, f"'{clip_text(block)[:60]}' comes before the first step under "
                                     f"'{group.heading}' and names no skill; not read as a step", "spec.unread")
            continue
        if unit.gate is None:
            kept.append(unit)
            continue
        gates[len(kept)] = unit.gate
    for position, gate in list(gates.items()):
        if position >= len(kept):
            del gates[position]
            src.warn(gate.line, f"'{clip_text(gate)[:60]}' reads as a person's yes or no, but no step under "
                                f"'{group.heading}' follows it; not read: write it on the step it gates "
                                "(`Approval: required, timeout 2h -> approve`)", "spec.unread")
    return kept, gates


def _gated(step: StepSpec, gate: Para, src: Source) -> StepSpec:
    """A step after a gate paragraph needs that approval (unless its own text gave one)."""
    if step.approval is not None:
        src.warn(gate.line, f"{step.id}: '{clip_text(gate)[:60]}' reads as an approval, but the step states "
                            "its own; the step's is used", "spec.approval")
        return step
    policy, note = gate_approval(gate)
    where = src.where(gate.line)
    if policy.timeout_s is None and first_duration(gate.text) is not None:
        src.warn(gate.line, f"{step.id}: the approval in '{clip_text(gate)[:60]}' waits with no limit: its time was "
                            "not read; write 'if nobody answers within 2 hours, approve' (or reject)", "spec.approval")
    return step.model_copy(update={
        "approval": policy, "field_where": {**step.field_where, "approval": where},
        "readings": (*step.readings, Reading(what="approval", where=where, text=clip_text(gate), note=note)),
    })


def _lead_remarks(unit: Unit, step: StepSpec, src: Source) -> None:
    """A lead paragraph that names no skill and no yes or no, kept with the step before it: said."""
    for block in unit.blocks[1:]:
        if isinstance(block, Para) and (lead := lead_of(block.text)) is not None:
            src.warn(block.line, f"'{lead[0]}' opens like a step but names no skill; read as part of {step.id} "
                                 f"({step.name}): if it is a step, name its skill (`skill-name`); if a person "
                                 "says yes or no there, write who approves and how long they have", "spec.unread")


def read_container(
    blocks: list[Block], src: Source, sink: RouteSink, *, named: bool, warn_rest: bool = True
) -> tuple[list[StepSpec], set[int]] | None:
    """Rule 2: the steps of a section without step headings and the lines taken as steps;
    None when it holds none. `named`: the section is called a steps section, so runbook
    paragraphs count too. `warn_rest`: the blocks not taken are reported as not read."""
    if lead_units(list(blocks)) is not None:  # "**Prep.** Put it through *x*." paragraphs
        group = StepGroup(number=1, name="", line=blocks[0].line, heading="the section",
                          blocks=tuple(blocks), soft=True)
        return read_groups([group], src, sink), lead_taken(list(blocks))  # not "**4.1 Definitions.**"
    taken: set[int] = set()
    steps: list[StepSpec] | None = None
    if named and (paragraphs := paragraph_items(list(blocks), src)) is not None:  # `shape_paragraphs`
        warn_paragraphs(paragraphs, src)
        steps = list_steps(paragraphs, src, sink, taken)
        taken.update(b.line for item in paragraphs for b in item.children)
    rules = guideline_items(list(blocks))  # "Guardrails" and its list: rules, not steps
    past = -1  # the end of a list found to hold no steps: a later item of it starts a shorter list, no steps either
    for i, block in enumerate([] if steps is not None else blocks):
        if block.line in rules or i < past:
            continue
        if isinstance(block, Table) and is_step_table(block, src.vocabulary):
            steps = table_steps(block, src, sink)
            taken.add(block.line)
            break
        if isinstance(block, Bullet):
            items = [block]
            for after in blocks[i + 1:]:
                if not isinstance(after, Bullet) or after.ordered != block.ordered:
                    break
                items.append(after)
            labelled = sum(bool(_SUB_LABEL.match(b.text)) for b in items) >= 2
            end = i + len(items)
            if labelled:  # "2a."-"2d." with a remark after
                for aside in (b for b in items if not _SUB_LABEL.match(b.text)):
                    if whole_run_sentence(aside.text, aside.line, src, "an item without a label among the "
                                                                        "labelled steps, about the whole run"):
                        continue
                    src.warn(aside.line, f"'{aside.text.strip()[:60]}': an item without a label among the "
                                         "labelled steps is not read as a step; a policy it states is not in "
                                         "the plan", "spec.unread")
                items = [b for b in items if _SUB_LABEL.match(b.text)]
            if named or (len(items) >= 2 and sum(step_like(b) for b in items) >= 2):
                steps = list_steps(items, src, sink, taken)
                break
            if not labelled:  # its later items hold fewer step-like ones and no labels: skipped (linear)
                past = end
    runbook = [b for b in blocks if isinstance(b, Para) and starts_step(b.text)]
    if steps is None and ((named and runbook) or len([b for b in runbook if names_skill(b.text)]) >= 2):
        steps = paragraph_steps(blocks, src, sink, taken)
    if steps is None:
        return None
    steps, read = attach_gets(steps, [b for b in blocks if b.line not in taken], src)
    for block in blocks:
        if warn_rest and block.line not in taken and block.line not in read:
            if isinstance(block, Para) and (noted := parallel_note(block.text, block.line, steps, src)) is not None:
                steps = noted  # "Steps 1 and 2 don't depend on each other, kick them off together."
                continue
            report_unread(block, steps, src, "workflow steps")
    return steps, taken


_SKILL_SHAPED = _rx(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`|(?<![\w*])(?:\*\*|__)([a-z0-9]+(?:-[a-z0-9]+)+)(?:\*\*|__)")


def unplaced_skills(blocks: Iterable[Block], steps: Iterable[StepSpec]) -> list[str]:
    """The skill-shaped names (`fetch-mirror`, **check-stock**) the blocks name that no step runs."""
    used = {s.skill.strip("`* ") for s in steps if s.skill} | {m.text for s in steps for m in s.mentions}
    said = [a or b for block in _flat(blocks) for a, b in _SKILL_SHAPED.findall(str(getattr(block, "text", "")))]
    return sorted(set(said) - used)


def report_unread(block: Block, steps: list[StepSpec], src: Source, where: str) -> None:
    """A block no reader took: an error when it names a skill no step runs (work the reader could
    not place must not pass quietly), else a warning."""
    text = str(getattr(block, "text", "")).strip()
    unplaced = unplaced_skills([block], steps)
    if unplaced:
        src.error(block.line, f"{where}: '{text[:60]}' names {', '.join(f'`{n}`' for n in unplaced[:6])}, which no "
                              "step runs, and is not read as a step: write it as a step of its own",
                  "spec.unread-work")
    else:  # "the whole job has a 15-minute ceiling", "it only counts as good when ...": read or reported
        left = read_run_limit(text, block.line, src, who="whole run")
        if left == prose_sentences(text, block.line):
            src.warn(block.line, f"{where}: '{text[:60]}' not read (not a step)", "spec.unread")
        for sentence, at in [] if left == prose_sentences(text, block.line) else left:
            src.warn(at, f"{where}: '{sentence[:60]}' not read (not a step)", "spec.unread")


def step_like(item: Bullet) -> bool:
    """A list item that reads as a step outside a steps section: it opens like one, or it or its
    sub-items name a skill in backticks or carry a step's labelled lines (`- Skill:`, `- in:`), or it
    is labelled under a heading's number ("**2a.**", "2.1)")."""
    if starts_step(item.text) or names_a_skill(item.text):  # `- [ ] 1. **tidy-roster** ← course`
        return True
    if _SUB_LABEL.match(item.text):  # "- **2a.** Every Monday we ...": a sub-numbered item of a process
        return True
    for child in _flat(item.children):
        if isinstance(child, Bullet | Para) and names_skill(child.text):
            return True
        if isinstance(child, Bullet) and child.label and LABELS.get(child.label) in _STEP_LABELS:
            return True
    return False


_STEP_LABELS = frozenset(("skill", "input", "output", "depends"))


def _flat(blocks: Iterable[Block]) -> Iterable[Block]:
    for block in blocks:
        yield block
        if isinstance(block, Bullet):
            yield from _flat(block.children)


def give_routes(steps: list[StepSpec], sink: RouteSink, src: Source) -> list[StepSpec]:
    """Routes a sentence gave to another step ("depends on the category from Stage 1")."""
    by_id = {s.id: i for i, s in enumerate(steps)}
    for router, route, line in sink:
        if router not in by_id:
            src.error(line, f"the route names {router} as the step that decides, which the spec "
                            "does not have", "spec.unknown-step")
            continue
        step = steps[by_id[router]]
        steps[by_id[router]] = step.model_copy(update={
            "routes": {**step.routes, **route.branches},
            "route_default": route.default or step.route_default,
            "route_on": route.on or step.route_on,
            "routes_where": src.where(line),
        })
    return steps


class StepIndex:
    """Resolves how a spec refers to its steps: an id, "Step 2"/"stage two", a bare number,
    or a step's name (case and punctuation aside)."""

    def __init__(self, steps: Iterable[StepSpec]) -> None:
        self.ids: dict[str, str] = {}
        self.names: dict[str, str] = {}
        for step in steps:
            self.ids[step.id] = step.id
            if step.number is not None:
                self.ids.setdefault(f"step-{step.number}", step.id)
                self.ids.setdefault(str(step.number), step.id)
            self.names.setdefault(_key(step.name), step.id)
        self.skills: dict[str, str] = {}  # "from validate-claim": the step that runs that skill
        for step in steps:
            said = (step.skill or "").strip("`* ") or next((m.text for m in step.mentions if m.marked != "plain"), "")
            if said and "-" in said:
                self.skills.setdefault(said, step.id)

    def resolve(self, text: str) -> str | None:
        t = text.strip().strip("`*_ ").strip()
        if t in self.ids:
            return self.ids[t]
        sid = step_id(t)
        if sid is not None and sid in self.ids:
            return self.ids[sid]
        n = number_of(t.rstrip(".)"))
        if n is not None and str(n) in self.ids:
            return self.ids[str(n)]
        if t in self.skills and _key(t) not in self.names:
            return self.skills[t]
        key = _key(re.sub(rf"(?i)^(?:the\s+)?|\s+{STEP_WORD}$", "", t))
        found = self.names.get(key) or self.names.get(_key(t))
        if found is None and key:  # "the fetch step": the one step whose name has those words
            words = set(key.split())
            near = {sid for name, sid in self.names.items() if words <= set(name.split())}
            found = near.pop() if len(near) == 1 else None
        return found


    def every(self) -> list[str]:
        """Every step id, in the spec's order."""
        return list(dict.fromkeys(self.ids.values()))

    def named_in(self, text: str) -> tuple[str, str] | None:
        """The one step a free text names: by number anywhere in it ("Card declined (part 4)"),
        by its whole name, or by a word of its name that no other step's name has ("Mail
        server down" names "Send the mail"), with the words that did; None when it names
        none or several."""
        said = {self.ids[sid] for m in _SAID_STEP.finditer(text) if (sid := step_id(m.group(0))) in self.ids}
        if len(said) == 1:  # "Card declined (part 4)", "when step 2 times out"
            sid = said.pop()
            return sid, " ".join(_SAID_STEP.search(text).group(0).split())  # type: ignore[union-attr]
        if said:
            return None
        words = {_stem(w) for w in _key(text).split()}
        padded = f" {_key(text)} "
        whole = {sid for name, sid in self.names.items() if len(name) > 2 and f" {name} " in padded}
        if len(whole) == 1:
            sid = whole.pop()
            return sid, next(n for n, s in self.names.items() if s == sid)
        owners: dict[str, set[str]] = {}
        for name, sid in self.names.items():
            for word in {_stem(w) for w in name.split()} - _PLAIN:
                if len(word) > 2 and not word.isdigit():
                    owners.setdefault(word, set()).add(sid)
        hits = {next(iter(sids)): word for word, sids in owners.items() if len(sids) == 1 and word in words}
        if len(hits) != 1:
            return None
        return next(iter(hits.items()))


# words of a step's name that name no step in a failure description ("the", "step", "fails")
_PLAIN = frozenset(re.findall(r"\w+", """
    the a an of and or to in on for with by at from into out up all any each every step stage phase task
    run runs error errors fail fails failed failure timeout time retry check data result results output
    input file files it its this that after before then when if not no ok says
"""))


def _stem(word: str) -> str:
    """A word without a plural "s" ("kpis" and "kpi" alike)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _resolve_source(field: FieldSpec, index: StepIndex) -> FieldSpec:
    """`steps.parse.output.service` (a source that names its step by name) → that step's id."""
    m = re.match(r"^steps\.([^.]+)\.output(\..*)?$", field.source or "")
    if m is None or m.group(1) in index.ids:
        return field
    sid = index.resolve(m.group(1))
    return field.model_copy(update={"source": f"steps.{sid}.output{m.group(2) or ''}"}) if sid else field


def resolve_references(steps: list[StepSpec], index: StepIndex) -> list[StepSpec]:
    """Dependencies, route targets and input sources written as names become step ids."""
    out: list[StepSpec] = []
    for step in steps:
        deps = tuple(index.resolve(d) or d for d in step.depends_on)
        routes = {b: index.resolve(t) or t for b, t in step.routes.items()}
        default = (index.resolve(step.route_default) or step.route_default) if step.route_default else None
        if deps != step.depends_on or routes != step.routes or default != step.route_default:
            step = step.model_copy(update={"depends_on": tuple(dict.fromkeys(deps)), "routes": routes,
                                           "route_default": default})
        inputs = tuple(_resolve_source(f, index) for f in step.inputs)
        if inputs != step.inputs:
            step = step.model_copy(update={"inputs": inputs})
        loop = re.match(r"^(\w+ in )(steps\.[^.]+\.output.*)$", step.for_each or "")
        if loop is not None:
            source = _resolve_source(FieldSpec(name="x", source=loop.group(2), where=step.where), index).source
            if source != loop.group(2):
                step = step.model_copy(update={"for_each": f"{loop.group(1)}{source}"})
            # a loop over a step's list waits for that step, whatever else it was said to wait for
            made = re.match(r"^steps\.([^.]+)\.output", source or "")
            if made and made.group(1) in index.ids and step.depends_where is not None \
                    and made.group(1) not in step.depends_on and made.group(1) != step.id:
                step = step.model_copy(update={"depends_on": (*step.depends_on, made.group(1))})
        out.append(step)
    return out


_rx.save()
