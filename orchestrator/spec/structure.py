"""Where a markdown spec's steps are, in whichever shape they were written, and how they refer
to each other.

1. Step headings at any level and in the wordings people use (`STEP_HEADING`:
   "Step 2: x", "Stage 2 — x", "Step three: x"; a bare "2. x" or "1) x" too, unless
   it names a section). A step heading owns what follows it up to the next heading
   of its level or above, or the next step heading. A heading inside a known
   section other than the steps (a Testing Plan's "### 1. Happy path") is not a step.
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
from orchestrator.spec.fields import NUMBER, STEP_WORD, number_of, step_id
from orchestrator.spec.input_prose import attach_gets
from orchestrator.spec.model import FieldSpec, Reading, StepSpec
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

_NOT_STEPS = re.compile(
    r"(?i)^(?:notes?|appendix|references?|glossary|faq|background|examples?|open questions?|"
    r"changelog|history|todo|see also|links?|contacts?|owners?|misc\w*)\b"
)
_SAID_STEP = re.compile(rf"(?i)\b{STEP_WORD}[\s_-]*{NUMBER}\b")
_ANOTHER_STEP = re.compile(rf"(?i)^\s*(?:\*\*)?{STEP_WORD}\s+(\w+)(?:\*\*)?\s+(?!\s*[:.)\-–—])")


class StepGroup(BaseModel):
    """A step heading and the blocks it owns."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    number: int
    name: str
    line: int
    heading: str
    blocks: tuple[Block, ...]


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


def split_step_headings(
    nodes: list[SyntaxTreeNode], section_kind: Callable[[str], str | None]
) -> tuple[list[StepGroup], list[SyntaxTreeNode]]:
    """The step headings of a document (rule 1) with their blocks, and every other node."""
    groups: list[tuple[int, str, int, int, str, list[SyntaxTreeNode]]] = []
    rest: list[SyntaxTreeNode] = []
    current: tuple[int, str, int, int, str, list[SyntaxTreeNode]] | None = None
    enclosing: str | None = None  # the kind of the h2 section we are in
    for node in nodes:
        if node.type != "heading":
            (current[5] if current is not None else rest).append(node)
            continue
        title, level = heading_text(node), _level(node)
        kind = section_kind(title)
        if level <= 2:
            enclosing = kind
        found = None if kind not in (None, "steps", "step") or (level > 2 and enclosing not in (None, "steps")) \
            else step_heading(title)
        if found is None and kind is None and (level <= 2 or enclosing in (None, "steps")):
            numbered = numbered_heading(title)
            if numbered is not None and not _NOT_STEPS.match(numbered[1]) and section_kind(numbered[1]) is None:
                found = numbered
        if found is not None:
            current = (found[0], found[1], _line(node), level, title, [])
            groups.append(current)
            continue
        if current is not None and level > current[3] and kind is None:
            current[5].append(node)
            continue
        current = None
        rest.append(node)
    return [StepGroup(number=n, name=name, line=line, heading=title, blocks=tuple(to_blocks(body)))
            for n, name, line, _, title, body in groups], rest


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
    steps: list[StepSpec] = []
    for group, moved in move_paragraphs(groups, src):
        wording = "" if re.match(r"(?i)^\W*step\s+\d+\b", group.heading) else (
            f"heading '{group.heading}' read as step-{group.number} ({group.name or 'unnamed'})"
            + ("" if step_heading(group.heading) or numbered_heading(group.heading) else ", numbered in order"))
        readings = ((Reading(what="step", where=src.where(group.line), text=group.heading, note=wording),)
                    if wording else ())
        steps.append(read_step(group.number, group.name, group.line, list(group.blocks), src,
                               readings=(*readings, *moved), routes_sink=sink))
    return steps


def read_container(
    blocks: list[Block], src: Source, sink: RouteSink, *, named: bool, warn_rest: bool = True
) -> tuple[list[StepSpec], set[int]] | None:
    """Rule 2: the steps of a section without step headings and the lines taken as steps;
    None when it holds none. `named`: the section is called a steps section, so runbook
    paragraphs count too. `warn_rest`: the blocks not taken are reported as not read."""
    taken: set[int] = set()
    steps: list[StepSpec] | None = None
    for i, block in enumerate(blocks):
        if isinstance(block, Table) and is_step_table(block):
            steps = table_steps(block, src, sink)
            taken.add(block.line)
            break
        if isinstance(block, Bullet):
            items = [block]
            for after in blocks[i + 1:]:
                if not isinstance(after, Bullet) or after.ordered != block.ordered:
                    break
                items.append(after)
            if named or (len(items) >= 2 and sum(step_like(b) for b in items) >= 2):
                steps = list_steps(items, src, sink, taken)
                break
    runbook = [b for b in blocks if isinstance(b, Para) and starts_step(b.text)]
    if steps is None and ((named and runbook) or len([b for b in runbook if names_skill(b.text)]) >= 2):
        steps = paragraph_steps(blocks, src, sink, taken)
    if steps is None:
        return None
    steps, read = attach_gets(steps, [b for b in blocks if b.line not in taken], src)
    for block in blocks:
        if warn_rest and block.line not in taken and block.line not in read:
            text = str(getattr(block, "text", "")).strip()
            src.warn(block.line, f"workflow steps: '{text[:60]}' not read (not a step)", "spec.unread")
    return steps, taken


def step_like(item: Bullet) -> bool:
    """A list item that reads as a step outside a steps section: it opens like one, or it or its
    sub-items name a skill in backticks or carry a step's labelled lines (`- Skill:`, `- in:`)."""
    if starts_step(item.text):
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
        out.append(step)
    return out

