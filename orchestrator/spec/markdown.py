"""A markdown workflow spec (the template of seed 000) into a WorkflowSpec.

markdown-it-py parses the text. The steps are found first, in whichever shape
they were written (`structure`: step headings at any level and wording, else a
list, table or runbook paragraphs); the rest of the document is cut at its `##`
headings into sections, recognised by name (`SECTIONS`: `## Error Recovery
Strategy` and `## Error Recovery` alike, a trailing "(roughly)" aside), and each
section's blocks go to their reader. Steps are referred to by number, id or name
anywhere (Depends on, routes, Data Contracts, the Error Recovery table). Without
an Inputs section, a preamble line "Inputs: `a`, `b`" or "The input is `a`"
declares the workflow inputs. The name of the workflow is a `<!-- name: x -->`
comment if there is one, else the slug of the `#` title without a trailing
"Workflow"/"Specification".
"""

from __future__ import annotations

import json
import re
from pathlib import PurePath

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from pydantic import BaseModel, ConfigDict

from orchestrator.spec.agreed_version27 import superseded_aside
from orchestrator.spec.anchored import Anchored, blank
from orchestrator.spec.arrow_items49 import arrow_items_markdown
from orchestrator.spec.blocks import Block, Bullet, Fence, Para, Table, split_label
from orchestrator.spec.chart_beside import warn_chart_beside
from orchestrator.spec.chat import blank_chat_headers, chat_replies
from orchestrator.spec.check import SpecParts
from orchestrator.spec.contract import read_contract
from orchestrator.spec.details_blocks import place_toggles, set_aside
from orchestrator.spec.elsewhere import place_blocks, run_success
from orchestrator.spec.email_changes import email_changes
from orchestrator.spec.email_thread import email_thread
from orchestrator.spec.fields import parse_fields, qualify
from orchestrator.spec.form35 import read_filled_inputs
from orchestrator.spec.form_fills32 import read_form_inputs
from orchestrator.spec.form_lines import form_markdown
from orchestrator.spec.gherkin import gherkin_to_markdown, gherkin_with_origin
from orchestrator.spec.gherkin_fence29 import fenced_feature
from orchestrator.spec.given_list import read_given_list
from orchestrator.spec.graph_mermaid import find_flowchart, flowchart_steps
from orchestrator.spec.input_ask_key import asked_anywhere, asked_inputs
from orchestrator.spec.input_blocks24 import read_input_blocks
from orchestrator.spec.input_blocks25 import with_block_literals
from orchestrator.spec.input_user_gives import read_user_gives
from orchestrator.spec.inputs_heading import (
    at_params,
    inputs_section_said,
    listed_after_lead,
    name_first,
    said_in_first_step,
)
from orchestrator.spec.inputs_lead import inputs_lead
from orchestrator.spec.intro_inputs import read_intro_inputs
from orchestrator.spec.join_words import join_words
from orchestrator.spec.legend28 import legend_markdown
from orchestrator.spec.lettered import lettered_steps
from orchestrator.spec.log_entries import log_markdown
from orchestrator.spec.markup37_bpmn import payload_inputs
from orchestrator.spec.model import (
    ContractSpec,
    ConvergenceSpec,
    InputSpec,
    ScenarioSpec,
    StepSpec,
)
from orchestrator.spec.outline_numbers import numbered_markdown
from orchestrator.spec.outline_slides import outline_markdown
from orchestrator.spec.own_inputs54 import read_own_inputs
from orchestrator.spec.parallel_said24 import said_roots
from orchestrator.spec.prose import sentences as policy_sentences
from orchestrator.spec.prose_inputs import (
    given_names,
    gives_lead,
    listed_in_words,
    read_prose_inputs,
    read_prose_records,
)
from orchestrator.spec.radio_log53 import radio_log_markdown
from orchestrator.spec.recipes import blank_recipe_file, read_recipe_file, recipe_file_of
from orchestrator.spec.recovery import ConvergenceItem, read_convergence
from orchestrator.spec.recovery_section import RecoveryRows, read_recovery_section
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.ruled42 import ruled_markdown
from orchestrator.spec.run_limit import intent_limit_unread, read_run_limit
from orchestrator.spec.said_literals import with_fixed_values
from orchestrator.spec.same_inputs45 import read_same_inputs
from orchestrator.spec.section_kinds import merge_same_kind, merged_text, same_title
from orchestrator.spec.sections import place_branches
from orchestrator.spec.shape_aside import definitions_unread
from orchestrator.spec.shape_comment import unboxed
from orchestrator.spec.shape_inputs import assigned_inputs, block_inputs, table_inputs, uncomment
from orchestrator.spec.shape_sections import not_read_said
from orchestrator.spec.shape_success import success_section
from orchestrator.spec.sheet import find_sheet, sheet_steps
from orchestrator.spec.sheet_inputs45 import sheet_inputs
from orchestrator.spec.skill_headings import names_skill, skill_section
from orchestrator.spec.source import Source
from orchestrator.spec.sql_script32 import no_steps, psql_inputs, step_values
from orchestrator.spec.start_names46 import read_start_names
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.steps34c import approvals_table
from orchestrator.spec.steps_lead import steps_lead
from orchestrator.spec.steps_lettered_sub import lettered_sub_steps
from orchestrator.spec.structure import (
    NOT_STEPS,
    StepGroup,
    StepIndex,
    give_routes,
    heading_text,
    read_container,
    read_groups,
    report_unread,
    resolve_references,
    split_step_headings,
    to_blocks,
    unplaced_skills,
)
from orchestrator.spec.success import TITLE as SUCCESS_TITLE
from orchestrator.spec.table35 import value_gates, value_inputs, value_table
from orchestrator.spec.task_export import task_export_markdown
from orchestrator.spec.task_sheet46 import task_sheet_markdown
from orchestrator.spec.transcript import transcript_start
from orchestrator.spec.transitions import state_names, warn_guards
from orchestrator.spec.wiki import remap, wiki_markdown

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

SECTIONS: dict[str, str] = {
    **dict.fromkeys(("intent", "purpose", "goal", "overview", "summary", "why", "background",
                     "motivation", "context", "why we want this", "what it does", "about", "what this is for",
                     "what it is for", "what this does", "introduction", "intro", "description",
                     "the problem", "problem", "use case"), "intent"),
    **dict.fromkeys(("inputs", "input", "workflow inputs", "parameters", "ingredients", "you will need",
                     "you ll need", "what you need", "what you ll need", "what you will need", "materials",
                     "you need", "bring", "what to bring", "needed", "requirements", "args", "arguments", "params",
                     "knobs", "inputs you need", "inputs needed", "what goes in", "what it takes"), "inputs"),
    **dict.fromkeys(("workflow steps", "steps", "the steps", "workflow", "pipeline", "procedure",
                     "runbook", "process", "stages", "phases", "tasks", "how it works",
                     "step by step", "flow", "the workflow", "plan of work", "how to run", "how to run this",
                     "how it runs", "how to do it", "what to do", "what happens", "instructions", "recipe",
                     "sequence", "order of operations", "the process", "the procedure", "the pipeline",
                     "the runbook", "workflow steps", "processing steps", "the plan", "plan"), "steps"),
    **dict.fromkeys(("data contracts", "contracts", "data contract"), "contracts"),
    **dict.fromkeys(("state management", "state"), "state"),
    **dict.fromkeys(("convergence criteria", "convergence", "limits"), "convergence"),
    **dict.fromkeys(("error recovery strategy", "error recovery", "recovery", "error handling",
                     "recovery strategy", "error recovery table", "failure handling",
                     "when things go wrong", "errors", "failures"), "recovery"),
    **dict.fromkeys(("reliability", "resilience", "retries", "retry policy", "failure policy"), "recovery"),
    **dict.fromkeys(("testing plan", "test plan", "tests", "testing", "test scenarios",
                     "scenarios"), "testing"),
}  # fmt: skip
_SCENARIO_KINDS = (
    ("happy", "happy"), ("degrad", "degradation"), ("recover", "recovery"), ("retry", "recovery"),
    ("escalat", "escalation"), ("edge", "edge"),
)  # fmt: skip
_NAME_COMMENT = _rx(r"<!--\s*(?:skillweave\s+)?name:\s*([\w.-]+)\s*-->")
_TITLE_TAIL = _rx(r"(?i)(?<![\s-])[\s-]*(workflow|specification|spec)\s*$")


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


_heading_text = heading_text


def section_kind(title: str) -> str | None:
    """The section a `##` title names (`SECTIONS`), asides in brackets and numbering aside."""
    t = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", title.lower())
    t = re.sub(r"^\s*(?:\d+[.)]|[ivx]+\.)\s*", "", t)
    words = re.sub(r"[^a-z ]", " ", t).split()
    found = SECTIONS.get(" ".join(words))
    if found is None and len(words) > 1 and words[-1] in _TITLE_FILLER:  # "How to run it", "Limits we have"
        found = SECTIONS.get(" ".join(words[:-1]))
    if found is None and len(words) > 1 and words[0] in ("the", "our", "a", "my"):
        found = SECTIONS.get(" ".join(words[1:]))
    return found


_TITLE_FILLER = frozenset(("it", "this", "here", "them", "we", "have", "used", "apply", "section"))


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
    return to_blocks(nodes)


def section_text(section: Section, src: Source) -> str:
    """The raw text under a section heading, comments and all."""
    return "\n".join(src.lines[section.line: section.end]).strip()


def _warn_blocks(blocks: tuple[Block, ...] | list[Block], src: Source, where: str) -> None:
    for block in blocks:
        text = getattr(block, "text", "") or " | ".join(getattr(block, "header", ()))  # a table: its header
        src.warn(block.line, f"{where}: '{str(text).strip()[:60]}' not read", "spec.unread")


def read_inputs(section: Section, src: Source) -> tuple[InputSpec, ...]:
    """`- name (type, optional): description; default: v` bullets."""
    inputs: list[InputSpec] = []
    blocks = list(section.blocks) + [b for s in section.subsections for b in s.blocks]
    for block in blocks:
        if isinstance(block, Table):
            inputs += table_inputs(block, src)
            continue
        if not isinstance(block, Bullet):  # `name : type` a line, `name (type): text` (`shape_inputs`)
            listed = block_inputs(block, src) if isinstance(block, Para | Fence) else None
            if listed is None:
                _warn_blocks([block], src, "inputs")
            inputs += listed or []
            continue
        m = re.match(r"^\s*(?:\*\*|__)?`?([A-Za-z_][\w-]*)`?(?:\*\*|__)?\s*+(?:\(([^()]*)\)\s*+)?"
                     r"(?:(?:\*\*|__)?[:—–-](?:\*\*|__)?\s*(.*))?$", name_first(block.text), re.S)  # label first (`spec.inputs_heading`)
        if not m:
            src.warn(block.line, f"input '{block.text[:60]}' not read; write `name (type): "
                                 "description`", "spec.unread")
            continue
        name, quals, desc = m.group(1), m.group(2) or "", (m.group(3) or "").strip()
        typ, _items, required, notes = qualify(quals, name, src, block.line)
        default = None
        default_said = re.compile(r"(?i)\bdefault(?:s to|:|=|\s)\s*`?([^`;,)]+)`?")
        d = default_said.search(quals) or default_said.search(desc)  # `(number, default 0.2): the rate`
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


def read_steps(section: Section, src: Source, steps: list[StepSpec]) -> None:
    """The steps section when the steps have headings: what else it holds is not read (an
    error when it names a skill no step runs)."""
    for block in section.blocks:
        report_unread(block, steps, src, "workflow steps")
    for sub in section.subsections:
        src.warn(sub.line, f"heading '{sub.title}' is not a step (write `### Step N: Name`); "
                           "its content is not read", "spec.unread")


def read_contracts(section: Section, src: Source, index: StepIndex | None = None) -> list[ContractSpec]:
    if section.blocks:
        _warn_blocks(section.blocks, src, "data contracts")
    resolve = index.resolve if index is not None else None
    found = [read_contract(s.title, s.line, list(s.blocks), src, resolve) for s in section.subsections]
    return [c for c in found if c is not None]


def read_recovery(section: Section, src: Source, index: StepIndex) -> RecoveryRows:
    """Tables, bullets and paragraphs of the Error Recovery section (`spec.recovery_section`),
    their steps found by number, id or name (`StepIndex`)."""
    blocks = list(section.blocks) + [b for s in section.subsections for b in s.blocks]
    return read_recovery_section(blocks, src, index)


def _items(blocks: tuple[Block, ...], kind: str, src: Source) -> list[ConvergenceItem]:
    items: list[ConvergenceItem] = []
    for block in blocks:
        if isinstance(block, Bullet):
            items.append(ConvergenceItem(kind=kind, text=block.text, line=block.line))
            items += _items(tuple(block.children), kind, src)
        elif isinstance(block, Para):
            lines = [(block.line + i, t) for i, t in enumerate(block.text.splitlines()) if t.strip()]
            if all(_LABEL_LINE.match(t) for _, t in lines):  # "Wall time: 10 min" a line each
                items += [ConvergenceItem(kind=kind, text=t, line=at) for at, t in lines]
            else:  # prose wrapped over lines: a criterion a sentence
                items += [ConvergenceItem(kind=kind, text=t, line=at) for t, at in policy_sentences(block.text, block.line)]
        else:
            _warn_blocks([block], src, "convergence criteria")
    return items


_LABEL_LINE = _rx(r"^\s*[^:.]{1,40}:\s*\S")


def read_convergence_section(
    section: Section, n_steps: int, src: Source, index: StepIndex | None = None
) -> tuple[ConvergenceSpec, tuple[ContractSpec, ...]]:
    items = _items(section.blocks, "other", src)
    for sub in section.subsections:
        low = sub.title.lower()
        kind = "success" if "success" in low else "failure" if "fail" in low else "other"
        items += _items(sub.blocks, kind, src)
    return read_convergence(items, n_steps, src, index=index)


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


_INLINE_INPUTS = _rx(
    r"(?i)^\s*+(?:\*\*|__)?\s*+(?:workflow\s+)?(?:inputs?|in|parameters|params|arguments|args|takes|given)(?:\s*+\([^()\n]{0,60}\))?\s*+(?::\s*+(?:\*\*|__)|(?:\*\*|__)?\s*+(?::|→|->|=>))"
    r"\s*(.+)$", re.S)
_NAMED_VALUES = _rx(r"`([A-Za-z_]\w*)`\s*(?:=|:)\s*([^`,;]*?)\s*(?:[,;]|$)")
_INPUTS_SENTENCE = _rx(r"(?i)\b(?:the\s+)?(?:workflow\s+)?inputs?\s+(?:is|are)\b|\binputs?\s*:"
                             r"|\b(?:one|two|three|four|\d+)\s+inputs?\b|\btakes?\s+(?:as\s+)?inputs?\b"
                             r"|\b(?:parameters|params|inputs|arguments)\s+(?:come|are\s+passed|are\s+given)\s+in\b"
                             r"|\binputs?\s+(?:for|of)\s+the\s+[\w -]{1,30}:")  # "Parameters come in through papermill:"
_OUTPUTS_SAID = _rx(r"(?i)\b(?:out\s+comes?|outputs?|returns?|gives?\s+back|produces?|result\s+is)\b")


def _said_input(m: re.Match[str], clause: str, where: str) -> InputSpec:
    """A name in a sentence that declares the inputs: "optional" before it, "default 280" after."""
    before, after = clause[max(0, m.start() - 16):m.start()].lower(), clause[m.end():m.end() + 40]
    default = re.match(r"(?i)\s*+[(,]?\s*+(?:optional\s*+,?\s*+)?default(?:s to|:|=|\s)\s*`?([^`;,)\s]+)`?", after)
    value: object = None
    if default:
        try:
            value = json.loads(default.group(1))
        except ValueError:
            value = default.group(1)
    optional = "optional" in before or default is not None or after.lower().lstrip(" (").startswith("optional")
    return InputSpec(name=m.group(1), required=not optional, default=value, where=where)


def read_inline_inputs(blocks: list[Block], src: Source) -> tuple[InputSpec, ...] | None:
    """Without `## Inputs`: a preamble line `Inputs: `a` (int), b` or a sentence "The input is
    `a` ... and `b`" declares the workflow inputs (each read kept as a warning-free input)."""
    found: list[InputSpec] = []
    definitions_unread(blocks, src)  # "**4.1 Definitions.** ... (`invoice_text`)": said, not read (`shape_aside`)
    listed: set[int] = set()  # the bullets a lead read ("Bring:" and a list of names, `inputs_heading`)
    for at, block in enumerate(blocks):
        if not isinstance(block, Para | Bullet) or block.line in listed:
            continue
        if (items := listed_after_lead(blocks, at, src)) is not None:
            listed.update(b.line for b in items)
            found += read_inputs(Section(title="", line=block.line, end=items[-1].line, blocks=tuple(items)), src)
            continue
        if inputs_lead(block.text):  # "You'll need: the log (`commit_log`) and `version`": all its names
            found += [_said_input(m, block.text, src.where(block.line + block.text.count("\n", 0, m.start())))
                      for m in re.finditer(r"`([A-Za-z_]\w*)`", block.text)]
            continue
        labelled = False
        lines = block.text.splitlines()
        for offset, raw_line in enumerate(lines):
            if (asked := asked_inputs(raw_line, src, block.line + offset)) is not None:
                labelled = True  # `ask_for = crane_id, telemetry` (`input_ask_key`)
                found += asked
                continue
            m = _INLINE_INPUTS.match(uncomment(raw_line))  # `% inputs: ...`, `> Input: ...` (`shape_inputs`)
            if m:
                labelled = True
                more = []
                for after in lines[offset + 1:]:  # a value that goes on over the next lines
                    if re.match(r"^\s*(?:\*\*|__)?[A-Za-z][\w ]{0,20}(?:\*\*|__)?\s*:", after):
                        break
                    more.append(after)
                if (params := at_params([m.group(1), *more], block.line + offset, src)) is not None:
                    found += params  # "Params: @Period CHAR(7) ..." a line (`inputs_heading`)
                    continue
                text = " ".join([m.group(1), *(uncomment(x) for x in more)]).strip().rstrip(".")
                if (assigned := assigned_inputs(text, src, block.line + offset)) is not None:
                    found += assigned  # "`prs` = merged PRs (number/title, from `gh pr list`), `version` = ..."
                    continue
                named = _NAMED_VALUES.findall(text)
                if len(named) >= 2 and _NAMED_VALUES.sub("", text).strip(" ,;") == "":
                    # "`inventory` = the nightly dump, `as_of` = run date": names with what each holds
                    found += [InputSpec(name=n, description=v.strip(), where=src.where(block.line + offset))
                              for n, v in named]
                    continue
                fields = parse_fields(text, src, block.line + offset)
                found += [InputSpec(name=f.name, type=f.type, description=f.description,
                                    required=f.required, where=f.where) for f in fields]
        if labelled:
            continue
        for offset, sentence in sentences(block.text):
            said = _INPUTS_SENTENCE.search(sentence)
            given = None if said else gives_lead(sentence)  # "You give it three things: ... (`a`)"
            lead = said or given
            if lead is not None:
                clause = _OUTPUTS_SAID.split(sentence[lead.start():], maxsplit=1)[0]  # not "out comes `text`"
                names = list(re.finditer(r"`([A-Za-z_]\w*)`", clause)) if said else given_names(clause)
                found += [_said_input(m, clause, src.where(block.line + offset)) for m in names]
    unique = {i.name: i for i in reversed(found)}
    return tuple(unique[n] for n in dict.fromkeys(i.name for i in found)) or None


_PSEUDO = _rx(r"^(?:\*\*|__)?([A-Za-z][A-Za-z ]{1,40}?)(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$")
_FENCE = _rx(r"^\s{0,3}(```|~~~)")


def promote_pseudo_headings(text: str) -> tuple[str, list[tuple[int, str]]]:
    """Before the first `##` heading, a line on its own that names a spec section ("Inputs",
    "Steps:", "**Limits**") followed by a list, a table or a blank line is that section's
    heading (a `## ` is put before it for the parser; the lines keep their numbers), unless a
    real heading already names that section. Returns the text and the (line, title) promoted."""
    lines = text.split("\n")
    real = {section_kind(m.group(1)) for m in re.finditer(r"(?m)^#{2,6}\s+(.+?)\s*#*\s*$", text)}
    out, promoted, fenced = list(lines), [], False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        if fenced:
            continue
        if re.match(r"^#{2,6}\s", line):
            break
        m = _PSEUDO.match(line)
        if m is None or (i > 0 and lines[i - 1].strip()):
            continue
        kind = section_kind(m.group(1))
        after = lines[i + 1].lstrip() if i + 1 < len(lines) else ""
        if kind is None or kind in real or kind == "intent":
            continue
        if after and not re.match(r"^(?:[-*+]\s|\d+[.)]\s|\|)", after):
            continue
        out[i] = f"## {m.group(1).strip()}"
        promoted.append((i + 1, m.group(1).strip()))
        real.add(kind)
    return "\n".join(out), promoted


def _charts_aside(sections: list[Section], src: Source) -> list[Section]:
    """Of several sections that each could hold the steps (`## Flow`, `## Steps`), one that
    holds only fenced blocks (a Mermaid chart, a diagram) is an overview, not the steps: it is
    set aside with a warning, so the other one is read."""
    steps_kind = [sec for sec in sections if section_kind(sec.title) == "steps"]
    charts = [sec for sec in steps_kind if sec.blocks and not sec.subsections
              and all(isinstance(b, Fence) for b in sec.blocks)]
    if len(steps_kind) < 2 or not charts or len(charts) == len(steps_kind):
        return sections
    for chart in charts:
        src.warn(chart.line, f"section '{chart.title}' holds only a chart or code block; it is not read as the "
                             "steps (the steps are read from the other section)", "spec.chart-not-steps")
    return [sec for sec in sections if sec not in charts]


def _find_steps(
    nodes: list[SyntaxTreeNode], src: Source
) -> tuple[list[StepSpec], list[Block], list[Section], int | None]:
    """The steps (module docstring), the preamble's blocks, the other sections, and the
    line of the steps section (None when there is none)."""
    sink: list = []  # type: ignore[type-arg]
    groups, rest = split_step_headings(nodes, section_kind)
    if groups and all(g.soft for g in groups):  # "## First, ...", "## Then": a section a step
        groups, rest = split_step_headings(nodes, section_kind, sections=True)
    preamble, sections = _sections(rest, src)
    sections = _charts_aside(sections, src)
    named = next((sec for sec in sections if section_kind(sec.title) == "steps"), None)
    steps: list[StepSpec] = []
    if not groups and named is not None and named.subsections:
        # `## Steps` with a heading per step that carries no number: numbered in order
        groups = [StepGroup(number=i, name=sub.title, line=sub.line, heading=sub.title, blocks=sub.blocks)
                  for i, sub in enumerate(named.subsections, start=1)]
        named = named.model_copy(update={"subsections": ()})
    elif not groups and named is None and (named := skill_section(sections, section_kind, src)) is not None:
        # "## Loaf" / "### Weigh" with `- Skill: x`: the headings that name a skill, a step each
        groups = [StepGroup(number=i, name=sub.title, line=sub.line, heading=sub.title, blocks=sub.blocks)
                  for i, sub in enumerate((s for s in named.subsections if names_skill(s.blocks)), start=1)]
        named = named.model_copy(update={"subsections": tuple(s for s in named.subsections if not names_skill(s.blocks))})
    if groups:
        steps = read_groups(groups, src, sink)
        if named is not None:
            read_steps(named, src, steps)
    else:
        containers: list[tuple[list[Block], bool]] = []
        if named is not None:
            containers.append((list(named.blocks) + [b for sub in named.subsections for b in sub.blocks], True))
        containers += [(preamble, False)]
        containers += [(list(sec.blocks), False) for sec in sections if section_kind(sec.title) is None]
        for blocks, is_named in containers:
            found = read_container(blocks, src, sink, named=is_named, warn_rest=blocks is not preamble)
            if found is not None:
                steps, taken = found
                if blocks is preamble:
                    preamble = [b for b in preamble if b.line not in taken]
                break
        if not steps:  # no steps anywhere else: the sections that name a skill, a step each
            groups, rest = split_step_headings(nodes, section_kind, sections=True)
            if groups:
                preamble, sections = _sections(rest, src)
                named = next((sec for sec in sections if section_kind(sec.title) == "steps"), None)
                steps = read_groups(groups, src, sink)
    steps = give_routes(steps, sink, src)
    steps = resolve_references(steps, StepIndex(steps))
    return steps, preamble, sections, named.line if named is not None else None


# a paragraph that asks for work: a verb of doing before a skill's name, a word of sequence, or
# the skill's name opening it ("Run the **check-stock** skill", "Then `draft-digest` ...")
_LOOKS_LIKE_WORK = _rx(
    r"(?i)\b(?:run|runs|call|calls|use|uses|invoke|execute|trigger|hand|pass|send|feed|start|kick\s+off)\b"
    r"[^.;]{0,40}?(?:`|\*\*|__)[a-z0-9]+-|^\W*(?:first|then|next|after\s+that|afterwards|finally|lastly|once|now)\b"
    r"|^\W*(?:`|\*\*|__)[a-z0-9]+(?:-[a-z0-9]+)+(?:`|\*\*|__)\s+\w+")


def _unknown_section(section: Section, steps: list[StepSpec], src: Source) -> None:
    """A section no reader takes. When its paragraphs name skills that no step runs, it looks
    like work the reader could not place: an error with the count and the lines, never a quiet
    "ok" that runs less than the spec says; else a warning."""
    blocks = [*section.blocks, *(b for sub in section.subsections for b in sub.blocks)]
    since = len(src.readings)
    warn_guards(blocks, state_names(steps, src), src)  # "A --(ok) [x > 0]--> B": each guard at its line
    if SUCCESS_TITLE.match(section.title):  # "## It's ready when…": each sentence a check, a limit or a sign-off
        success_section(blocks, src, steps, section.title)
        return
    for b in blocks:  # a limit of the whole run in a section of notes is still the run's limit
        if isinstance(b, Para | Bullet):
            read_run_limit(b.text, b.line, src, who="whole run")
    if src.vocabulary and not unplaced_skills(blocks, steps) and steps:  # "Ops notes": steps' policies (`elsewhere`)
        left = place_blocks(blocks, steps, src, section.title)
        if left is not None:
            for sentence, line in left:
                src.warn(line, f"section '{section.title}': '{sentence[:60]}' not read (it names no step's policy)",
                         "spec.unread")
            return
    unplaced = unplaced_skills(blocks, steps)
    naming = [(b.line, u) for b in blocks if (u := unplaced_skills([b], steps))]
    work = [line for line, _ in naming if _LOOKS_LIKE_WORK.search(next(str(getattr(b, "text", "")) for b in blocks
                                                                        if b.line == line))]
    if unplaced and not work:
        src.warn(section.line, f"{not_read_said(section.title, section.line, section.end, src, since)}, and "
                               f"{len(naming)} of its paragraphs name skills no step runs "
                               f"({', '.join(f'`{n}`' for n in unplaced[:6])})", "spec.unknown-section")
        return
    if unplaced and not NOT_STEPS.match(section.title.strip("*_ ")):  # "## Notes": a remark, not work
        lines = ", ".join(str(line) for line, _ in naming)
        src.error(section.line, f"section '{section.title}' is not read, yet {len(naming)} of its paragraphs "
                                f"name skills no step runs ({', '.join(f'`{n}`' for n in unplaced[:6])}; lines "
                                f"{lines}): write them as steps (`## Step N: name`, a numbered list) or move them "
                                "under a section the reader knows", "spec.unread-work")
        return
    if _RUN_CHECK.match(section.title):  # "## It's ready when…": when the run is done, not read
        src.warn(section.line, f"section '{section.title}' reads as a success check; {_RUN_CHECK_ADVICE}",
                 "spec.unknown-section")
        return
    src.warn(section.line, not_read_said(section.title, section.line, section.end, src, since),
             "spec.unknown-section")  # a line of it read (a run's limit) is named (`shape_sections`)


# a paragraph or section that says when the whole run counts as done ("Check: ...", "It's ready when…")
_RUN_CHECK = re.compile(r"(?i)^\W*(?:checks?|success(?:\s+criteri(?:a|on))?|done\s+when|ready\s+when|"
                        r"it['’]?s\s+(?:ready|done|good)\s+when|acceptance(?:\s+criteri(?:a|on))?|"
                        r"definition\s+of\s+done|we['’]?re\s+done\s+when|it\s+(?:passes|counts\s+as\s+good)\s+when)\b")
_RUN_CHECK_ADVICE = ("a check of the whole run has no place in the plan, so it is not checked: write it as a "
                     "`Success:` line on the step whose output it tests (`Success: count > 0`)")


def _run_checks(blocks: list[Para | Bullet], src: Source) -> None:
    """A preamble paragraph that says when the run counts as done is said not to be checked."""
    for block in blocks:
        if _RUN_CHECK.match(block.text) and re.search(r"[`=<>]|\b(?:equals?|must|should|is|are)\b", block.text):
            src.warn(block.line, f"'{block.text.strip()[:60]}' reads as a success check; {_RUN_CHECK_ADVICE}",
                     "spec.unread")


def _whole_run_limits(blocks: list[Para | Bullet], src: Source) -> None:
    """A sentence of the preamble that limits the whole run ("Total time: no more than 3 hours")
    is read as that limit; any other sentence there stays the intent (it names no step)."""
    from orchestrator.spec.prose import whole_run_sentence

    for block in blocks:
        for sentence, line in policy_sentences(block.text, block.line):
            if any(r.statement.whole_run and r.where == src.where(line) for r in src.readings):
                continue  # read already (a reply of a pasted chat, `chat`)
            whole_run_sentence(sentence, line, src, "a sentence before the steps")


def read_markdown(src: Source) -> SpecParts:
    """Read every section of the document; findings go to `src`. When the rules fail in a way
    the skill-anchored reading may rescue (`spec.anchored`), the document is read again so,
    and that reading, with its own findings, is kept when it finds steps. A pasted email thread
    is read unquoted (`spec.email_thread`); a flowchart beside steps read from elsewhere is
    warned as not merged (`spec.chart_beside`)."""
    thread = email_thread(src.text)
    if thread is not None:
        src.text, src.lines = thread.text, thread.text.splitlines()
    aside = superseded_aside(src.text)  # a draft replaced by the agreed version (`spec.agreed_version27`)
    if aside is not None:
        src.text, src.lines = aside.text, aside.text.splitlines()
    parts = _read_any(src) if thread is None else email_changes(_read_any(src), thread, src)
    for line, message in aside.warnings if aside is not None else ():
        src.warn(line, message, "spec.reading")
    warn_chart_beside(parts.steps, src)
    return parts


def _read_any(src: Source) -> SpecParts:
    """`read_markdown` of a document that is no email thread, or of the thread's text."""
    parts = _read_markdown(src, None)
    if not parts.steps and find_flowchart(src.text) is not None:  # no steps but a Mermaid flowchart's
        charted = Source(src.text, src.path, src.vocabulary)
        charted.lines, charted.anchored, charted.code = src.lines, src.anchored, src.code
        again = _read_markdown(charted, None, chart=True)
        if again.steps:
            src.errors[:], src.warnings[:] = charted.errors, charted.warnings
            src.readings[:], src.unread[:] = charted.readings, charted.unread
            return again
    from orchestrator.spec.anchored import anchored_steps, needs_rescue

    if needs_rescue(parts.steps, src) is None or recipe_file_of(src) is not None \
            or transcript_start(src.text) is not None or gherkin_to_markdown(src.text, Source(src.text, src.path)) != src.text:
        return parts
    fresh = Source(src.text, src.path, src.vocabulary)
    fresh.lines, fresh.code = src.lines, src.code
    anchored = anchored_steps(fresh)
    if anchored is None:
        return parts
    again = _read_markdown(fresh, anchored)
    # how the file was taken (its suffix, its markup lowered) is still said after the anchored reading
    src.errors[:], src.warnings[:] = fresh.errors, [*(w for w in src.warnings if w.code == "spec.suffix"),
                                                    *fresh.warnings]
    src.readings[:], src.unread[:] = fresh.readings, fresh.unread
    return again


def _read_markdown(src: Source, anchored: Anchored | None, *, chart: bool = False) -> SpecParts:
    md = MarkdownIt("commonmark").enable("table")
    recipes = recipe_file_of(src) if anchored is None else None  # a Makefile or justfile: its recipes are the steps
    unchatted = src.text if recipes is None else blank_recipe_file(src.text, recipes)
    flow = find_flowchart(src.text) if chart and recipes is None else None  # a Mermaid flowchart's steps
    flow_steps, unchatted = flowchart_steps(flow, unchatted, src) if flow is not None else ([], unchatted)
    if anchored is not None:  # the steps read anchored on their skills: the rest is read as ever
        unchatted = blank(src.text, anchored.covered)
    sheet = find_sheet(unchatted) if recipes is None and flow is None and anchored is None else None
    if sheet is not None:  # a spreadsheet pasted as CSV/TSV: its rows the steps, its notes prose (`spec.sheet`)
        unchatted = sheet.text
    exported = task_export_markdown(unchatted) if recipes is None and flow is None and sheet is None \
        and anchored is None else None  # a task tracker's task as plain text (`spec.task_export`)
    if exported is None and recipes is None and flow is None and sheet is None and anchored is None:
        exported = log_markdown(unchatted, src.vocabulary)  # a log's entry holding the procedure (`spec.log_entries`)
    if exported is not None:
        unchatted = exported[0]
        for line, message in exported[1]:
            src.warn(line, message, "spec.reading")
    wiki = wiki_markdown(unchatted) if recipes is None and flow is None else None  # MediaWiki markup (`spec.wiki`)
    form = form_markdown(unchatted) if wiki is None and recipes is None and flow is None and sheet is None \
        and anchored is None else None  # "Step 2 - Program/skill: x" lines of a filled-in form (`spec.form_lines`)
    if form is None and wiki is None and recipes is None and flow is None and sheet is None and anchored is None:
        form = legend_markdown(unchatted, src.vocabulary)  # rows written in a legend's codes (`spec.legend28`)
    if form is None and wiki is None and recipes is None and flow is None and sheet is None and anchored is None \
            and (radio := radio_log_markdown(unchatted, src.vocabulary)) is not None:  # a radio log's items (`spec.radio_log53`)
        wiki = radio[0], radio[1]
        for line, message in radio[2]:
            src.warn(line, message, "spec.reading")
    if form is None and wiki is None and recipes is None and flow is None and sheet is None and anchored is None \
            and (tasks := task_sheet_markdown(unchatted, src.vocabulary)) is not None:  # a project plan's task sheet (`spec.task_sheet46`)
        wiki = tasks[0], tasks[1]
        for line, message in tasks[2]:
            src.warn(line, message, "spec.reading")
    if form is None and wiki is None and recipes is None and flow is None and sheet is None and anchored is None \
            and (arrows := arrow_items_markdown(unchatted, src.vocabulary)) is not None:  # (n) items in arrow notation (`spec.arrow_items49`)
        wiki = arrows[0], arrows[1]
        for line, message in arrows[2]:
            src.warn(line, message, "spec.reading")
    if form is None and wiki is None and recipes is None and flow is None and sheet is None and anchored is None \
            and (ruled := ruled_markdown(unchatted)) is not None:  # a ruled fixed-width table whose cells wrap (`spec.ruled42`)
        wiki = ruled[0], ruled[1]
        for line, message in ruled[2]:
            src.warn(line, message, "spec.reading")
    if form is not None:
        wiki = form[0], form[1]
        for line, message in form[2]:
            src.warn(line, message, "spec.unread")
    elif wiki is None and recipes is None and flow is None and sheet is None and anchored is None:
        wiki = outline_markdown(unchatted)  # a slide deck's outline: titles and tab-indented bullets (`spec.outline_slides`)
        if wiki is None and (numbered := numbered_markdown(unchatted)) is not None:  # 1 / 1.1 / 1.1.1 (`spec.outline_numbers`)
            wiki = numbered[0], numbered[1]
            for line, message in numbered[2]:
                src.warn(line, message, "spec.reading")
    unchatted, origin = wiki if wiki is not None else (unchatted, None)
    if origin is None and (featured := gherkin_with_origin(unchatted, src) or fenced_feature(unchatted, src)):
        unchatted, origin = featured  # a Gherkin feature (a file, a ```gherkin fence), its skill lines read (`spec.gherkin28`)
    unchatted = gherkin_to_markdown(unchatted, src)  # a Gherkin feature: its lines as the markdown the reader knows
    chat = blank_chat_headers("\n".join(unboxed(unchatted.split("\n"))))  # a comment box's gutter: no markup
    text, promoted = promote_pseudo_headings(chat)
    text, lettered = lettered_steps(text)  # "## A. Intake", "## B. Quote": steps 1, 2 (`spec.lettered`)
    text, subs = lettered_sub_steps(text)  # "## 4a. Lock", "## 4b. Trim": steps 4, 5 (`spec.steps_lettered_sub`)
    lettered += subs
    text, toggles = set_aside(text) if origin is None else (text, [])  # `<details>`, callouts (`spec.details_blocks`)
    if origin is not None:  # the wiki page's lines, not its markdown's
        lettered = [(origin[line - 1] + 1, message) for line, message in lettered]
        promoted = [(origin[line - 1] + 1, title) for line, title in promoted]
    for line, message in lettered:
        src.warn(line, message, "spec.reading")
    tokens = md.parse(text)
    if origin is not None:
        remap(tokens, origin)
    root = SyntaxTreeNode(tokens)
    for line, title in promoted:
        src.warn(line, f"the line '{title}' read as the heading of a '{section_kind(title)}' section",
                 "spec.reading")
    nodes = list(root.children)
    title, title_line = "", 0
    h1 = [n for n in nodes if n.type == "heading" and n.tag == "h1"]
    if h1:
        title, title_line = _heading_text(h1[0]), (h1[0].map[0] + 1) if h1[0].map else 1
        for extra in h1[1:]:
            at = (extra.map[0] + 1) if extra.map else 1
            if not read_run_limit(_heading_text(extra), at, src, who="whole run"):
                continue  # a comment line ("# Whole run: 25 minutes at most") is no title
            src.warn(at, f"a second title '{_heading_text(extra)}'; only the first is the title", "spec.unread")
        nodes = [n for n in nodes if n is not h1[0]]
    comment = _NAME_COMMENT.search(src.text)
    stem = PurePath(src.path).name.split(".")[0]
    name = comment.group(1) if comment else slug(_TITLE_TAIL.sub("", title)) or slug(stem) or "workflow"
    recipe_inputs: tuple[InputSpec, ...] = ()
    turns = transcript_start(unchatted) if recipes is None else None
    if recipes is not None:
        steps, recipe_inputs = read_recipe_file(recipes, src)
        preamble, sections = _sections(nodes, src)
        steps_section_line: int | None = recipes.first
    elif flow is not None and flow_steps:  # the steps of a Mermaid flowchart (`spec.graph_mermaid`)
        steps, (preamble, sections), steps_section_line = flow_steps, _sections(nodes, src), flow.first
    elif sheet is not None:
        steps, (preamble, sections), steps_section_line = sheet_steps(sheet, src), _sections(nodes, src), sheet.first
    elif anchored is not None:  # the steps the anchored reading found; the rest of the document as ever
        steps, (preamble, sections), steps_section_line = list(anchored.steps), _sections(nodes, src), None
    else:
        steps, preamble, sections, steps_section_line = _find_steps(nodes, src)
    steps = place_toggles(toggles, steps, src)
    steps = join_words(steps, src)  # "once both A and B are back": waits for both (`spec.join_words`)
    steps = said_roots(steps, src)  # "ii. ... with the product" beside "iv. ... from i": a root (`spec.parallel_said24`)
    step_lines = {s.where for s in steps}
    if not steps and turns is not None:
        src.error(turns, "a chat transcript (its turns start here) in which no turn asks to run a skill, so it has no "
                         "steps: write one turn per step that says what to run, e.g. 'run `fetch-orders` on it', "
                         "then 'otherwise → `open-ticket`'", "spec.no-steps")
    elif not steps and (sql := no_steps(src)) is not None:  # a plain migration (`spec.sql_script32`)
        src.error(1, sql, "spec.no-steps")
    elif not steps:
        src.error(steps_section_line or title_line or 1, "the spec has no steps: write each as a `## Step 1: Name` "
                  "heading, or as a numbered list item that names its skill in backticks "
                  "(`1. Load the rows with `load-rows``)", "spec.no-steps")
    inputs_said: tuple[InputSpec, ...] = ()
    if chat != unchatted and steps:  # a chat thread: the replies after the proposal
        steps, preamble, inputs_said = chat_replies(steps, preamble, src)
    intent_parts = [b.text for b in preamble if isinstance(b, Para | Bullet)]
    for b in preamble:  # "Total time: no more than 3 hours": the whole run's limit, said before the steps
        if isinstance(b, Para | Bullet) and src.where(b.line) not in step_lines:
            read_run_limit(b.text, b.line, src, who="whole run")
    _warn_blocks([b for b in preamble if not isinstance(b, Para | Bullet) and not value_table(b)
                  and src.where(b.line) not in step_lines], src, "preamble")
    found: dict[str, Section] = {}
    lead_said: tuple[tuple[str, int], ...] = ()  # inputs said in words before the steps (`spec.steps_lead`)
    for section in sections:
        kind = section_kind(section.title)
        if kind is None and (any(src.where(b.line) in step_lines for b in section.blocks) or any(
                section.line < int(s.where.rsplit(":", 1)[1]) <= section.end for s in steps)):
            if anchored is not None:  # what the anchored steps left of their section: read or reported
                for block in [*section.blocks, *(b for sub in section.subsections for b in sub.blocks)]:
                    report_unread(block, steps, src, f"section '{section.title}' (not a step)")
            elif steps and not lead_said:  # its lines before the first step: a limit, inputs in words
                lead_said = steps_lead(section, min(int(s.where.rsplit(":", 1)[1]) for s in steps), src)
            continue  # "## What the workflow does": the section its steps were read from, under another name
        if kind is None and "inputs" not in found and inputs_section_said(section, src):
            kind = "inputs"  # "## What you need before starting": a list of names (`inputs_heading`)
        if kind is None and (gated := approvals_table(section.title, section.blocks, steps, src)) is not None:
            steps = gated  # "## Approvals" with a table: Step | Who | When | No reply (`spec.steps34c`)
        elif kind is None:
            _unknown_section(section, steps, src)
        elif kind in found and same_title(found[kind].title, section.title):
            src.error(section.line, f"a second '{section.title}' section (the first is at line "
                                    f"{found[kind].line})", "spec.duplicate-section")
        elif kind in found:  # "1. Introduction" then "3. Overview": one kind under two titles
            found[kind] = merge_same_kind(kind, found[kind], section, src)
        else:
            found[kind] = section
    index = StepIndex(steps)
    steps_line = steps_section_line or title_line or 1
    convergence, checks = (
        read_convergence_section(found["convergence"], len(steps), src, index)
        if "convergence" in found else (ConvergenceSpec(), ())
    )
    intent = "\n\n".join(filter(None, (section_text(found["intent"], src), merged_text(found["intent"])))) \
        if "intent" in found else ""
    in_words = listed_in_words([(b.text, b.line) for b in found["inputs"].blocks if isinstance(b, Bullet)]) \
        if "inputs" in found and all(isinstance(b, Bullet) for b in found["inputs"].blocks) else ()
    inputs = read_inputs(found["inputs"], src) if "inputs" in found and not in_words else None
    if inputs is None and "inputs" not in found and sheet is not None and sheet.inputs:  # a sheet's RUN INPUTS row
        inputs = sheet_inputs(sheet.inputs, src)  # (`spec.sheet_inputs45`)
    if inputs is None and "inputs" not in found and recipes is None:  # `FEED_DATE ?= ...`, "Dep port .... departure"
        inputs = read_input_blocks(src, [s.where for s in steps])  # (`spec.input_blocks24`)
        if inputs is None:  # "Rx ref ..... [from eRx]    Drug ..... [from eRx]": a form's header (`spec.form_fills32`)
            inputs = read_form_inputs(src, steps)
        if inputs is None:  # "DATE ..... 2027-06-12" + "(fill these in fresh for every couple)" (`spec.form35`)
            inputs = read_filled_inputs(src, steps)
    if inputs is None:
        inputs = read_inline_inputs([*preamble, *(found["intent"].blocks if "intent" in found else ())], src)
    if inputs is None:  # a `| Field | Value |` table before the steps (`spec.table35`)
        inputs = value_inputs([b for b in preamble if src.where(b.line) not in step_lines], src)
    else:
        _warn_blocks([b for b in preamble if value_table(b) and src.where(b.line) not in step_lines], src, "preamble")
    if inputs is None and anchored is not None:  # `ask_for = a, b` in a block read with a step (`input_ask_key`)
        inputs = asked_anywhere(src.lines, src)
    if inputs is None and recipes is None:  # "input is just `posts` and `edition`" in a post's first part
        inputs = said_in_first_step(steps, src)
    if inputs is None and recipe_inputs:
        inputs = recipe_inputs
    intro = read_intro_inputs(src, [s.where for s in steps]) \
        if inputs is None and not in_words and not lead_said else None  # "it wants the METAR line (metar)"
    if intro is not None:
        inputs_said = (*inputs_said, *(i for i in intro.named if i.name not in {j.name for j in inputs_said}))
        read_at = {i.where for i in intro.named}  # its block was warned "not read" before the intro read it
        src.warnings[:] = [w for w in src.warnings if not (w.code == "spec.unread" and w.line is not None and src.where(
            w.line) in read_at and w.message.endswith("not read (not a step)"))]
    own_given = () if inputs is not None or intro is not None or in_words or lead_said \
        else read_own_inputs(src.lines, src.where)  # "You need three things off the form: ..." (`spec.own_inputs54`)
    said_given = () if inputs is not None else intro.parts if intro is not None \
        else tuple((p, src.where(line)) for p, line in in_words or lead_said) \
        or own_given \
        or read_prose_inputs(src.lines, src.where) \
        or read_user_gives(src.lines, src.where) \
        or read_given_list(src.lines, src.where) \
        or read_start_names(src.lines, src.where)  # "fill CLIENT and MONTH in when I kick it off" (`spec.start_names46`)
    if inputs is None:  # `psql -v week=... -f x.sql`, `--   :week = ISO week` (`spec.sql_script32`)
        inputs = psql_inputs(src)
    if inputs is None:  # a process model's start event `payload: invoice, receipts` (`spec.markup37_bpmn`)
        inputs = payload_inputs(src)
    steps = place_branches(steps, [(i.name, i.description) for i in inputs or ()], src)
    steps = value_gates(steps, inputs or (), src)  # "Stretcher ... needs the OK" of `mobility` (`spec.table35`)
    steps = with_fixed_values(steps)  # `home_port is always "Leith"`: the step's own value, no workflow input
    steps = read_same_inputs(steps, src)  # "DOG -> ..., same inputs as (b)": (b)'s fixed values too (`spec.same_inputs45`)
    steps = step_values(steps, src)  # an SQL script's `x = 20`, `\set x 20`, SET statement_timeout (`sql_script32`)
    if inputs is not None and "inputs" not in found and recipes is None:  # "CALL LIST (fixed): Jo, Dev"
        steps = with_block_literals(steps, src, [s.where for s in steps])  # (`spec.input_blocks25`)
    if "intent" in found and steps:  # "Definition of done: ...", "the whole run gets 2 hours": said in the intent
        for b in [*found["intent"].blocks, *(x for sub in found["intent"].subsections for x in sub.blocks)]:
            for sentence, line in policy_sentences(b.text, b.line) if isinstance(b, Para | Bullet) else []:
                if not run_success(sentence, line, steps, src):
                    intent_limit_unread(read_run_limit(sentence, line, src, who="whole run"), src)
    contracts = (*read_contracts(found["contracts"], src, index), *checks) if "contracts" in found else checks
    recovery = read_recovery(found["recovery"], src, index) if "recovery" in found else None
    if recovery is not None and recovery.readings:  # rows that named their step by its name
        steps = [s.model_copy(update={"readings": (*s.readings, *recovery.readings[s.id])})
                 if s.id in recovery.readings else s for s in steps]
    return SpecParts(
        name=name,
        title=title,
        intent="\n\n".join(p for p in [*intent_parts, intent] if p),
        inputs=inputs,
        steps=tuple(steps),
        steps_line=steps_line,
        contracts=tuple(_resolve_contract(c, index) for c in contracts),
        state="\n\n".join(filter(None, (section_text(found["state"], src), merged_text(found["state"])))) \
        if "state" in found else "",
        convergence=convergence,
        recovery=tuple(recovery or ()),
        scenarios=tuple(read_testing(found["testing"], src)) if "testing" in found else (),
        timeout_s=convergence.limits.wall_time_s if "wall_time_s" in convergence.limit_where else None,
        inputs_said=inputs_said,
        inputs_prose=said_given,
        inputs_prose_fields=read_prose_records(src.lines, src.where) if said_given and not own_given else (),
        inputs_prose_own=bool(own_given),
    )


def _resolve_contract(contract: ContractSpec, index: StepIndex) -> ContractSpec:
    """A contract's ends named by a step's name or number become its ids."""
    producer = index.resolve(contract.producer) or contract.producer
    consumer = (index.resolve(contract.consumer) or contract.consumer) if contract.consumer else None
    if (producer, consumer) == (contract.producer, contract.consumer):
        return contract
    return contract.model_copy(update={"producer": producer, "consumer": consumer})


_rx.save()
