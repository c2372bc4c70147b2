"""A markdown workflow spec (the template of seed 000) into a WorkflowSpec.

markdown-it-py parses the text; the document is cut at its `##` headings into
sections, recognised by name (`SECTIONS`: `## Error Recovery Strategy` and
`## Error Recovery` alike), and each section's blocks go to their reader. The
name of the workflow is a `<!-- name: x -->` comment if there is one, else the
slug of the `#` title without a trailing "Workflow"/"Specification".
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from pydantic import BaseModel, ConfigDict

from orchestrator.spec.blocks import Block, Bullet, Para, read_blocks, split_label
from orchestrator.spec.check import SpecParts
from orchestrator.spec.contract import read_contract
from orchestrator.spec.fields import qualify
from orchestrator.spec.model import (
    ContractSpec,
    ConvergenceSpec,
    InputSpec,
    RecoveryRowSpec,
    ScenarioSpec,
    StepSpec,
)
from orchestrator.spec.recovery import ConvergenceItem, read_convergence
from orchestrator.spec.recovery_section import read_recovery_section
from orchestrator.spec.source import Source
from orchestrator.spec.step import STEP_HEADING, read_step

SECTIONS: dict[str, str] = {
    **dict.fromkeys(("intent", "purpose", "goal", "overview", "summary"), "intent"),
    **dict.fromkeys(("inputs", "input", "workflow inputs", "parameters"), "inputs"),
    **dict.fromkeys(("workflow steps", "steps"), "steps"),
    **dict.fromkeys(("data contracts", "contracts", "data contract"), "contracts"),
    **dict.fromkeys(("state management", "state"), "state"),
    **dict.fromkeys(("convergence criteria", "convergence", "limits"), "convergence"),
    **dict.fromkeys(("error recovery strategy", "error recovery", "recovery", "error handling",
                     "recovery strategy", "error recovery table"), "recovery"),
    **dict.fromkeys(("testing plan", "test plan", "tests", "testing", "test scenarios",
                     "scenarios"), "testing"),
}  # fmt: skip
_SCENARIO_KINDS = (
    ("happy", "happy"), ("degrad", "degradation"), ("recover", "recovery"), ("retry", "recovery"),
    ("escalat", "escalation"), ("edge", "edge"),
)  # fmt: skip
_NAME_COMMENT = re.compile(r"<!--\s*(?:skillweave\s+)?name:\s*([\w.-]+)\s*-->")
_TITLE_TAIL = re.compile(r"(?i)[\s-]*(workflow|specification|spec)\s*$")


class Section(BaseModel):
    """A `##` section (or a `###` subsection) with its blocks."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    title: str
    line: int
    end: int  # the last line that belongs to it, 1-based
    blocks: tuple[Block, ...]
    subsections: tuple[Section, ...] = ()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _heading_text(node: SyntaxTreeNode) -> str:
    return "".join(c.content for c in node.children if c.type == "inline").strip()


def _cut(nodes: list[SyntaxTreeNode], level: str) -> list[tuple[str, int, list[SyntaxTreeNode]]]:
    """Split `nodes` at headings of `level` (e.g. "h2"): [(title, line, nodes)], ("", 0) first."""
    parts: list[tuple[str, int, list[SyntaxTreeNode]]] = [("", 0, [])]
    for node in nodes:
        if node.type == "heading" and node.tag == level:
            parts.append((_heading_text(node), (node.map[0] + 1) if node.map else 0, []))
        else:
            parts[-1][2].append(node)
    return parts


def _sections(nodes: list[SyntaxTreeNode], src: Source) -> tuple[list[Block], list[Section]]:
    parts = _cut(nodes, "h2")
    lines = [p[1] for p in parts[1:]] + [len(src.lines) + 1]
    sections: list[Section] = []
    for (title, line, body), nxt in zip(parts[1:], lines[1:], strict=True):
        subs = _cut(body, "h3")
        sub_lines = [s[1] for s in subs[1:]] + [nxt]
        subsections = tuple(
            Section(title=t, line=ln, end=end - 1, blocks=tuple(_blocks(b, src)))
            for (t, ln, b), end in zip(subs[1:], sub_lines[1:], strict=True)
        )
        sections.append(Section(title=title, line=line, end=nxt - 1,
                                blocks=tuple(_blocks(subs[0][2], src)), subsections=subsections))
    return _blocks(parts[0][2], src), sections


def _blocks(nodes: list[SyntaxTreeNode], src: Source) -> list[Block]:
    out: list[Block] = []
    for node in nodes:
        if node.type == "heading":
            out.append(Para(line=(node.map[0] + 1) if node.map else 1,
                            text=f"{node.markup} {_heading_text(node)}"))
        else:
            out.extend(read_blocks([node]))
    return out


def section_text(section: Section, src: Source) -> str:
    """The raw text under a section heading, comments and all."""
    return "\n".join(src.lines[section.line: section.end]).strip()


def _warn_blocks(blocks: tuple[Block, ...] | list[Block], src: Source, where: str) -> None:
    for block in blocks:
        text = getattr(block, "text", "")
        src.warn(block.line, f"{where}: '{str(text).strip()[:60]}' not read", "spec.unread")


def read_inputs(section: Section, src: Source) -> tuple[InputSpec, ...]:
    """`- name (type, optional): description; default: v` bullets."""
    inputs: list[InputSpec] = []
    blocks = list(section.blocks) + [b for s in section.subsections for b in s.blocks]
    for block in blocks:
        if not isinstance(block, Bullet):
            _warn_blocks([block], src, "inputs")
            continue
        m = re.match(r"^\s*`?([A-Za-z_][\w-]*)`?\s*(?:\(([^()]*)\))?\s*(?:[:—–-]\s*(.*))?$",
                     block.text, re.S)
        if not m:
            src.warn(block.line, f"input '{block.text[:60]}' not read; write `name (type): "
                                 "description`", "spec.unread")
            continue
        name, quals, desc = m.group(1), m.group(2) or "", (m.group(3) or "").strip()
        typ, _items, required, notes = qualify(quals, name, src, block.line)
        default = None
        d = re.search(r"(?i)\bdefault(?:s to|:|=|\s)\s*`?([^`;,)]+)`?", f"{quals} {desc}")
        if d:
            raw = d.group(1).strip()
            try:
                default = json.loads(raw)
            except ValueError:
                default = raw
            required = False
        inputs.append(InputSpec(name=name, type=typ, required=required, default=default,
                                description=", ".join(n for n in [*notes, desc] if n),
                                where=src.where(block.line)))
    return tuple(inputs)


def read_steps(section: Section, src: Source) -> list[StepSpec]:
    if section.blocks:
        _warn_blocks(section.blocks, src, "workflow steps")
    steps: list[StepSpec] = []
    for sub in section.subsections:
        m = STEP_HEADING.match(sub.title)
        if not m:
            src.warn(sub.line, f"heading '{sub.title}' is not a step (write `### Step N: Name`); "
                               "its content is not read", "spec.unread")
            continue
        steps.append(read_step(int(m.group(1)), m.group(2) or "", sub.line, list(sub.blocks), src))
    return steps


def read_contracts(section: Section, src: Source) -> list[ContractSpec]:
    if section.blocks:
        _warn_blocks(section.blocks, src, "data contracts")
    found = [read_contract(s.title, s.line, list(s.blocks), src) for s in section.subsections]
    return [c for c in found if c is not None]


def read_recovery(section: Section, src: Source, step_ids: list[str]) -> list[RecoveryRowSpec]:
    """Tables, bullets and paragraphs of the Error Recovery section (`spec.recovery_section`)."""
    blocks = list(section.blocks) + [b for s in section.subsections for b in s.blocks]
    return read_recovery_section(blocks, src, step_ids)


def _items(blocks: tuple[Block, ...], kind: str, src: Source) -> list[ConvergenceItem]:
    items: list[ConvergenceItem] = []
    for block in blocks:
        if isinstance(block, Bullet):
            items.append(ConvergenceItem(kind=kind, text=block.text, line=block.line))
            items += _items(tuple(block.children), kind, src)
        elif isinstance(block, Para):
            items += [ConvergenceItem(kind=kind, text=t, line=block.line + i)
                      for i, t in enumerate(block.text.splitlines()) if t.strip()]
        else:
            _warn_blocks([block], src, "convergence criteria")
    return items


def read_convergence_section(
    section: Section, n_steps: int, src: Source
) -> tuple[ConvergenceSpec, tuple[ContractSpec, ...]]:
    items = _items(section.blocks, "other", src)
    for sub in section.subsections:
        low = sub.title.lower()
        kind = "success" if "success" in low else "failure" if "fail" in low else "other"
        items += _items(sub.blocks, kind, src)
    return read_convergence(items, n_steps, src)


def _scenario_kind(name: str) -> str:
    low = name.lower()
    return next((kind for word, kind in _SCENARIO_KINDS if word in low), "other")


def read_testing(section: Section, src: Source) -> list[ScenarioSpec]:
    scenarios: list[ScenarioSpec] = []
    for block in section.blocks:
        if not isinstance(block, Bullet):
            _warn_blocks([block], src, "testing plan")
            continue
        label, value = split_label(block.text)
        if label is None or not value:
            src.warn(block.line, f"scenario '{block.text[:60]}' has no `Name: description` form; "
                                 "not read", "spec.unread")
            continue
        name = block.text.split(":", 1)[0].strip().strip("*_ ").strip()
        children = " ".join(b.text for b in block.children if isinstance(b, Bullet))
        scenarios.append(ScenarioSpec(name=name, description=" ".join([value, children]).strip(),
                                      kind=_scenario_kind(name),  # type: ignore[arg-type]
                                      where=src.where(block.line)))
    for sub in section.subsections:
        text = " ".join(str(getattr(b, "text", "")) for b in sub.blocks).strip()
        scenarios.append(ScenarioSpec(name=sub.title, description=text,
                                      kind=_scenario_kind(sub.title),  # type: ignore[arg-type]
                                      where=src.where(sub.line)))
    return scenarios


def read_markdown(src: Source) -> SpecParts:
    """Read every section of the document; findings go to `src`."""
    md = MarkdownIt("commonmark").enable("table")
    root = SyntaxTreeNode(md.parse(src.text))
    nodes = list(root.children)
    title, title_line = "", 0
    h1 = [n for n in nodes if n.type == "heading" and n.tag == "h1"]
    if h1:
        title, title_line = _heading_text(h1[0]), (h1[0].map[0] + 1) if h1[0].map else 1
        for extra in h1[1:]:
            src.warn((extra.map[0] + 1) if extra.map else 1,
                     f"a second title '{_heading_text(extra)}'; only the first is the title",
                     "spec.unread")
        nodes = [n for n in nodes if n is not h1[0]]
    comment = _NAME_COMMENT.search(src.text)
    stem = PurePath(src.path).name.split(".")[0]
    name = comment.group(1) if comment else slug(_TITLE_TAIL.sub("", title)) or slug(stem) or "workflow"
    preamble, sections = _sections(nodes, src)
    intent_parts = [b.text for b in preamble if isinstance(b, Para | Bullet)]
    _warn_blocks([b for b in preamble if not isinstance(b, Para | Bullet)], src, "preamble")
    found: dict[str, Section] = {}
    for section in sections:
        kind = SECTIONS.get(" ".join(re.sub(r"[^a-z ]", " ", section.title.lower()).split()))
        if kind is None and STEP_HEADING.match(section.title):
            kind = "step"
        if kind is None:
            src.warn(section.line, f"section '{section.title}' is not a spec section; its "
                                   "content is not read", "spec.unknown-section")
        elif kind in found:
            src.error(section.line, f"a second '{section.title}' section (the first is at line "
                                    f"{found[kind].line})", "spec.duplicate-section")
        elif kind != "step":
            found[kind] = section
    steps: list[StepSpec] = []
    steps_line = found["steps"].line if "steps" in found else title_line or 1
    if "steps" in found:
        steps = read_steps(found["steps"], src)
    for section in sections:  # `## Step 1: Name` at the top level also counts
        m = STEP_HEADING.match(section.title)
        if m and SECTIONS.get(section.title.lower()) is None:
            blocks = list(section.blocks) + [b for s in section.subsections for b in s.blocks]
            steps.append(read_step(int(m.group(1)), m.group(2) or "", section.line, blocks, src))
    ids = [s.id for s in steps]
    convergence, checks = (
        read_convergence_section(found["convergence"], len(steps), src)
        if "convergence" in found else (ConvergenceSpec(), ())
    )
    intent = section_text(found["intent"], src) if "intent" in found else ""
    return SpecParts(
        name=name,
        title=title,
        intent="\n\n".join(p for p in [*intent_parts, intent] if p),
        inputs=read_inputs(found["inputs"], src) if "inputs" in found else None,
        steps=tuple(steps),
        steps_line=steps_line,
        contracts=(*read_contracts(found["contracts"], src), *checks) if "contracts" in found else checks,
        state=section_text(found["state"], src) if "state" in found else "",
        convergence=convergence,
        recovery=tuple(read_recovery(found["recovery"], src, ids)) if "recovery" in found else (),
        scenarios=tuple(read_testing(found["testing"], src)) if "testing" in found else (),
        timeout_s=convergence.limits.wall_time_s if "wall_time_s" in convergence.limit_where else None,
    )

