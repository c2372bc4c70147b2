"""A Graphviz DOT note node that sets a value (47th round): the literal of the steps its edges reach; an oval
node: a workflow input.

    digraph night {                                   a DOT graph (`graph`/`digraph`, `strict` or not)
      site [shape=note, label="site = \\"LP-2\\"  (our code)"];   a node of shape `note` whose label sets
      wx   [label="weather-poll"];                        `name = value` (then any remark)
      site -> wx [label="site"];                          an edge from it to a step's node
    }
        -> step-1 (the step running weather-poll) takes site: "LP-2" as its own literal, no workflow input

- The graph is found by its `digraph NAME {` / `graph {` line; `//`, `#` and `/* */` comments and quoted
  texts (with `\\"` inside) are read as DOT reads them.
- A note node's label is `name = value` (several, split by `,`, `;` or `\\n`); the value is a quoted text
  (quotes taken off), a number, true/false, or one token; `name: value` only with a quoted text or a number
  ("TODO: ask Ramon" is a remark). A label with no such setting
  ("check the dome first") and a node of any other shape (`box`, `oval`: a step or an input) say nothing.
- Each edge from the note node to a node whose label (first line) or id is a step's skill gives that step the
  value; an edge label that is one field name different from the setting's name names the step's input. A note
  with no edges gives it to each step whose text names the name. Every reading is warned at the note's line.
- A node of shape `oval`, `ellipse`, `circle` (`doublecircle`, `house`, `invhouse`, `cds`) whose id is a name and
  that runs no skill (`NIGHT [shape=oval]`) is the workflow input of that id: each edge from it to a step's node
  gives the step that input, as the field the edge's label names (`NIGHT -> q [label="night"]`: q's `night`), or
  by the id when the label is none. A box, or an oval labelled with a skill (a step), is no input. Warned at its line.

Every pattern is anchored or bounded; each line is read once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from orchestrator.spec.input_blocks24 import block_read
from orchestrator.spec.model import FieldSpec, InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_DOT_GRAPH = _rx(r"^[ \t]*+(?:strict[ \t]++)?+(?:di)?+graph\b[^{\n]{0,120}+\{")
_ID = r"(?:[A-Za-z_][\w]{0,80}+|\"(?:[^\"\\\n]|\\.){0,200}+\")"
_DOT_NODE = _rx(rf"^[ \t]*+({_ID})[ \t]*+\[([^\]\n]{{0,600}}+)\]")
_DOT_EDGE = _rx(rf"^[ \t]*+({_ID})[ \t]*+-[->][ \t]*+({_ID})((?:[ \t]*+-[->][ \t]*+{_ID}){{0,20}}+)"
            r"[ \t]*+(?:\[([^\]\n]{0,600}+)\])?")
_DOT_CHAIN = _rx(rf"-[->][ \t]*+({_ID})")
_DOT_ATTR = _rx(r"([A-Za-z_]\w{0,40}+)[ \t]*+=[ \t]*+(\"(?:[^\"\\\n]|\\.){0,400}+\"|[^\s,;\]]{1,200}+)")
_DOT_SETTING = _rx(
    r"(?:^|[,;\n])[ \t]*+`?+([A-Za-z_][A-Za-z0-9_]{0,60}+)`?+[ \t]*+(?:=[ \t]*+"
    r"(\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|“[^“”\n]{0,200}+”|-?\d++(?:\.\d++)?+(?![\w.])|[^\s,;\"']{1,120}+)"
    r"|:[ \t]*+(\"[^\"\n]{0,200}+\"|“[^“”\n]{0,200}+”|-?\d++(?:\.\d++)?+(?![\w.])))"
)
_DOT_NUMBER = _rx(r"^-?\d++(?:\.\d++)?+$")
_DOT_FIELD = _rx(r"^[A-Za-z_][A-Za-z0-9_]{0,60}+$")


def _strip_comments(lines: Sequence[str]) -> list[str]:
    """Each line without its DOT comments (`//`, `#` at a line's start, `/* */`), quoted texts kept."""
    out: list[str] = []
    in_block = False
    for raw in lines:
        kept: list[str] = []
        i, n, quoted = 0, len(raw), False
        if not in_block and raw.lstrip().startswith("#"):
            out.append("")
            continue
        while i < n:
            ch = raw[i]
            if in_block:
                if raw.startswith("*/", i):
                    in_block, i = False, i + 2
                else:
                    i += 1
                continue
            if quoted:
                kept.append(ch)
                if ch == "\\" and i + 1 < n:
                    kept.append(raw[i + 1])
                    i += 2
                    continue
                quoted = ch != '"'
            elif ch == '"':
                quoted = True
                kept.append(ch)
            elif raw.startswith("//", i):
                break
            elif raw.startswith("/*", i):
                in_block, i = True, i + 2
                continue
            else:
                kept.append(ch)
            i += 1
        out.append("".join(kept))
    return out


def _statements(line: str) -> list[str]:
    """The line split at each `;` outside a quoted text."""
    out, start, quoted, i = [], 0, False, 0
    while i < len(line):
        ch = line[i]
        if quoted and ch == "\\":
            i += 2
            continue
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            out.append(line[start:i])
            start = i + 1
        i += 1
    out.append(line[start:])
    return out


def _unquote(raw: str) -> str:
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nlr" else m.group(1), raw[1:-1])
    return raw


def _attrs(text: str) -> dict[str, str]:
    return {m.group(1).lower(): _unquote(m.group(2)) for m in _DOT_ATTR.finditer(text)}


def _value(raw: str) -> object:
    if raw[:1] in "\"'“":
        return raw[1:-1]
    if _DOT_NUMBER.match(raw):
        return float(raw) if "." in raw else int(raw)
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    return raw


def note_settings(label: str) -> dict[str, object]:
    """name -> value of each `name = value` a note's label sets (module docstring)."""
    return {m.group(1): _value(m.group(2) or m.group(3)) for m in _DOT_SETTING.finditer(label)}


class _Graph:
    """The nodes' labels and shapes (with their lines) and the edges (from, to, label) of a DOT graph."""

    def __init__(self, src: Source) -> None:
        self.labels: dict[str, str] = {}
        self.shapes: dict[str, tuple[str, int]] = {}
        self.edges: list[tuple[str, str, str]] = []
        self.edge_lines: dict[int, list[tuple[str, str]]] = {}  # line -> the (from, to) pairs said on it
        for no, line in enumerate(_strip_comments(src.lines), 1):
            for stmt in _statements(line):
                if (e := _DOT_EDGE.match(stmt)) is not None:
                    chain = [_unquote(e.group(1)), _unquote(e.group(2))]
                    chain += [_unquote(c.group(1)) for c in _DOT_CHAIN.finditer(e.group(3) or "")]
                    label = _attrs(e.group(4) or "").get("label", "").strip()
                    self.edges += [(a, b, label) for a, b in pairwise(chain)]
                    self.edge_lines.setdefault(no, []).extend(pairwise(chain))
                elif (m := _DOT_NODE.match(stmt)) is not None:
                    node, attrs = _unquote(m.group(1)), _attrs(m.group(2))
                    if node.lower() in ("node", "edge", "graph"):
                        continue
                    if "label" in attrs:
                        self.labels[node] = attrs["label"]
                    if "shape" in attrs:
                        self.shapes[node] = (attrs["shape"].lower(), no)

    def step_of(self, node: str, steps: Sequence[StepSpec]) -> int | None:
        """The index of the step that runs `node`'s skill (its label's first line, or its id), if any."""
        shown = (self.labels.get(node) or node).strip()
        names = {shown.splitlines()[0].strip().lower() if shown else node.lower(), node.lower()}
        for k, step in enumerate(steps):
            if (step.skill or "").strip("` ").lower() in names - {""}:
                return k
        # the skill not resolved yet: the step whose text opens on the node's own statement
        opener = re.compile(rf"(?m)^[ \t]*+{re.escape(node)}[ \t]*+\[")
        found = next((k for k, step in enumerate(steps) if opener.search(step.description)), None)
        if found is None and shown:  # its text run into the lines above it: the one step that names the label's skill
            named = [k for k, step in enumerate(steps) if any(m.text.lower() in names for m in step.mentions)]
            found = named[0] if len(named) == 1 else None
        return found


def _graph(steps: Sequence[StepSpec], src: Source) -> _Graph | None:
    if not steps or not any(_DOT_GRAPH.match(line) for line in src.lines[:400]):
        return None
    return _Graph(src)


def read_dot_notes(steps: Sequence[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the values the graph's note nodes give them (module docstring), each warned."""
    out = list(steps)
    if (graph := _graph(out, src)) is None:
        return out
    edges = graph.edges
    notes: dict[str, tuple[int, dict[str, object]]] = {}
    for node, (shape, no) in graph.shapes.items():
        if shape == "note" and (found := note_settings(graph.labels.get(node, ""))):
            notes[node] = (no, found)
    if not notes:
        return out
    for node, (no, found) in notes.items():
        targets: dict[int, str] = {}
        for a, b, label in edges:
            if a == node and (k := graph.step_of(b, out)) is not None:
                targets[k] = label
        if not any(a == node for a, _, _ in edges):
            for k, step in enumerate(out):
                text = "\n".join([step.description, *(t.text for t in step.texts)])
                if any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text) for n in found):
                    targets[k] = ""
        taken: list[str] = []
        for k, label in targets.items():
            step = out[k]
            given: dict[str, object] = {}
            for name, value in found.items():
                field = label if len(found) == 1 and _DOT_FIELD.match(label) and label != name else name
                if field not in step.input_values and not any(f.name == field and f.source for f in step.inputs):
                    given[field] = value
            if not given:
                continue
            said = ", ".join(f"{n} = {v!r}" for n, v in given.items())
            note = f"{said} (line {no}: the note node `{node}`)"
            reading = Reading(what="input", where=step.where, text=note, note=note + " (the step's own, no workflow input)")
            out[k] = step.model_copy(update={"input_values": {**step.input_values, **given},
                                             "readings": (*step.readings, reading)})
            taken.append(f"{step.id} ({said})")
        if taken:
            src.warn(no, f"the note node `{node}` is read as fixed values, not workflow inputs: {'; '.join(taken)}; "
                         "check the plan", "spec.reading")
        else:
            src.warn(no, f"the note node `{node}` sets {', '.join(found)}, but no step's node is reached from it: "
                         "no step takes it", "spec.reading")
    return out


_INPUT_SHAPES = frozenset({"oval", "ellipse", "circle", "doublecircle", "invhouse", "house", "cds"})


def read_dot_inputs(steps: Sequence[StepSpec], inputs: tuple[InputSpec, ...] | None, src: Source
                    ) -> tuple[list[StepSpec], tuple[InputSpec, ...] | None]:
    """The steps with the inputs an oval (ellipse, circle...) node gives them along its edges, that node a workflow
    input by its id (module docstring), each warned at the node's line."""
    out = list(steps)
    if (graph := _graph(out, src)) is None:
        return out, inputs
    declared = {i.name for i in inputs or ()}
    added: list[InputSpec] = []
    for node, (shape, no) in graph.shapes.items():
        if shape not in _INPUT_SHAPES or not _DOT_FIELD.match(node) or graph.step_of(node, out) is not None:
            continue
        taken: list[str] = []
        for a, b, label in graph.edges:
            if a != node or (k := graph.step_of(b, out)) is None:
                continue
            field = label if _DOT_FIELD.match(label) else node
            step = out[k]
            if field in step.input_values or any(f.name == field and f.source for f in step.inputs):
                continue
            spec = FieldSpec(name=field, where=step.where, source=f"inputs.{node}")
            note = f"{field} <- the workflow input {node} (line {no}: the {shape} node `{node}`, its edge to {b})"
            reading = Reading(what="input", where=step.where, text=note, note=note)
            out[k] = step.model_copy(update={"inputs": (*[f for f in step.inputs if f.name != field], spec),
                                             "readings": (*step.readings, reading)})
            taken.append(f"{step.id} ({field})")
        if not taken:
            continue
        if node not in declared:
            label = graph.labels.get(node, "")
            added.append(InputSpec(name=node, description=label if label != node else "", where=f"{src.path}:{no}"))
            declared.add(node)
        src.warn(no, f"the {shape} node `{node}` is read as the workflow input {node}, given to {', '.join(taken)} "
                     "along its edges; check the plan", "spec.reading")
    if added:
        inputs = (*(inputs or ()), *added)
    return out, inputs


def read_dot_edges(steps: Sequence[StepSpec], inputs: tuple[InputSpec, ...] | None, src: Source) -> list[StepSpec]:
    """The steps with the waits the graph's edges between two steps' nodes say (`q -> vis`: vis waits for q),
    each read on the later step; a line of edges whose every end is a step, a workflow input or a note node read
    is read, so a warning that left its block unread (as a pasted chat's reply) is taken back. An edge back to an
    earlier step, or from a node that is none of these, stays unread."""
    out = list(steps)
    if (graph := _graph(out, src)) is None or not graph.edge_lines:
        return out
    known = {i.name for i in inputs or ()}
    known |= {n for n, (shape, _) in graph.shapes.items() if shape == "note" and note_settings(graph.labels.get(n, ""))}
    read: set[int] = set()
    unread: list[tuple[int, list[tuple[str, str]]]] = []
    for no, pairs in graph.edge_lines.items():
        whole = True
        for a, b in pairs:
            ka, kb = graph.step_of(a, out), graph.step_of(b, out)
            if ka is not None and kb is not None and ka < kb:
                later = out[kb]
                if out[ka].id not in later.depends_on:
                    note = f"waits for {out[ka].id} (line {no}: the edge {a} -> {b})"
                    out[kb] = later.model_copy(update={
                        "depends_on": (*later.depends_on, out[ka].id),
                        "readings": (*later.readings, Reading(what="depends_on", where=src.where(no), text=note, note=note))})
            elif not (kb is not None and a in known):
                whole = False
        if whole:
            read.add(no)
        else:
            unread.append((no, pairs))

    src.warnings[:] = [w for w in src.warnings if not (
        w.code == "spec.unread" and w.line in read and block_read(src, read, w.line))]
    warned = {w.line for w in src.warnings if w.code == "spec.unread"}
    for no, pairs in unread:  # said once: where no warning of the block's is
        first = no
        while first > 1 and src.lines[first - 2].strip() and first not in warned:
            first -= 1
        if first not in warned:
            edges = ", ".join(f"{a} -> {b}" for a, b in pairs)
            src.warn(no, f"the edge {edges} is not read: each end must be a step's node, a workflow input's oval or a "
                         "note node that sets a value, and a step's edge go to a later step", "spec.unread")
    return out
