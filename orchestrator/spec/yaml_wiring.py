"""A YAML spec whose steps' inputs are wired in a block of their own, and a value from whichever step ran.

    steps: [{id: pull, ...}, {id: grade, ...}, {id: file, ...}, {id: park, ...}, {id: tell, ...}]
    hookup:                                   (any name: the block is known by its keys, which name steps)
      grade: {rows: pull.rows, cutoff: ask.cutoff}   → grade's inputs, as if under its own `input:`
      file:  pull                              → file runs after pull (a step, or a list of steps)
      tell:  {ref: "file|park .ref"}           → tell's `ref`: file's `ref` or park's, whichever ran
      park:  {rows: pull.rows, after: grade}   → park's input `rows`, and it runs after grade

`wire_steps` reads such a block: a top-level mapping, not one of the form's own keys nor one of
outputs or types, at least half of whose keys name a step and each of those holds a mapping (that
step's inputs) or a step name or list of them (what it runs after). Each mapping joins the step's own
inputs (a name the step gives itself wins, and the other is warned at its line); a key that names no
step is warned at its line and not read. A block whose values are anything else (`timeouts: {pull: 30s}`)
is no wiring and is left to the form, which says what it does not understand.

`either_text` reads a value that names several steps, parted by `|`, `/` or `or`, with one field for
all (`file|park .ref`, `(file or park).ref`) or a field each (`file.ref | park.ticket`), as the
words the planner's join reader takes ("file.ref or park.ref", `plan.join_sources`): the value of
whichever ran. A value naming something that is no step is no such value (it stays as it was read).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.yaml_dialect import SEQ, note, scalar, short
from orchestrator.spec.yaml_node import NodeReader

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

Pair = tuple[Node, Node]
# the form's own top-level keys: never a wiring block
_FORM_TOP = frozenset({"name", "title", "description", "intent", "inputs", "steps", "retry", "timeout", "limits",
                       "convergence", "fallback", "scenarios", "tests", "state", "version", "success"})
# blocks keyed by step that say what steps give or are, not what they take
_NOT_WIRING = frozenset({"output", "outputs", "returns", "results", "result", "produces", "emits", "gives", "schema",
                         "schemas", "types", "contracts", "contract", "expects", "expected", "notes", "docs", "owners"})
_PARTS = _rx(r"(?<!\s)\s*+(?:\|\|?+|/|\bor\b)\s*+")
_DOT = _rx(r"(?<!\s)\s*+\.\s*+")
_ID = _rx(r"^[A-Za-z0-9_][\w-]*+$")
_FIELD = _rx(r"^[A-Za-z_][\w.]*+$")
_MAX_CHARS = 300  # a value longer than this is a text, not a few steps' fields


def either_parts(value: str, ids: set[str]) -> list[tuple[str, str]] | None:
    """`file|park .ref` → [(file, ref), (park, ref)]; `a.x or b.y` → [(a, x), (b, y)]; `a|b` → [(a, ""), (b, "")];
    None unless there are two or more parts and each names a step."""
    text = value.strip()
    if len(text) > _MAX_CHARS or not _PARTS.search(text):
        return None
    parts = [p.strip(" \t()") for p in _PARTS.split(text)]
    if len(parts) < 2:
        return None
    out: list[tuple[str, str]] = []
    for part in parts:
        head, _, field = _DOT.sub(".", part).strip(" ()").partition(".")
        head, field = head.strip(" ()"), field.strip(" ()")
        if head not in ids or (field and not _FIELD.match(field)):
            return None
        out.append((head, field))
    last = out[-1][1]
    if last and all(not f for _, f in out[:-1]):  # `a|b .f`: the one field is each step's
        out = [(s, last) for s, _ in out]
    return out


def either_text(value: str, ids: set[str]) -> str | None:
    """The words of a value from whichever of several steps ran ("a.ref or b.ref"), or None (module docstring)."""
    parts = either_parts(value, ids)
    if parts is None or any(not f for _, f in parts):
        return None
    return " or ".join(f"{s}.{f}" for s, f in parts)


def _step_names(node: Node, ids: set[str]) -> list[str] | None:
    """`pull`, `a|b`, `[a, b]`: the steps named, or None when a value is not only steps."""
    values = node.value if isinstance(node, SequenceNode) else [node]
    out: list[str] = []
    for v in values:
        if not isinstance(v, ScalarNode):
            return None
        text = str(v.value).strip()
        parts = either_parts(text, ids) if _PARTS.search(text) else [(text, "")] if text in ids else None
        if parts is None or any(f for _, f in parts):
            return None
        out += [s for s, _ in parts]
    return out or None


def _is_wiring(raw: str, node: Node, ids: set[str]) -> bool:
    name = yk.key_name(raw)
    if not isinstance(node, MappingNode) or not node.value or name in _NOT_WIRING or name in _FORM_TOP:
        return False
    if yk.top_key(raw) in _FORM_TOP or name in ids:
        return False
    keyed = [(str(k.value), v) for k, v in node.value if isinstance(k, ScalarNode) and str(k.value) in ids]
    if not keyed or len(keyed) * 2 < len(node.value):
        return False
    return all(isinstance(v, MappingNode) or _step_names(v, ids) is not None for _, v in keyed)


def _merge_inputs(r: NodeReader, block: str, step: MappingNode, knode: Node, vnode: MappingNode,
                  readings: list[Reading]) -> None:
    own = next(((k, v) for k, v in step.value if isinstance(k, ScalarNode) and yk.step_key(str(k.value)) == "input"),
               None)
    if own is None:
        key = block if yk.step_key(block) == "input" else "wired_from"  # an own key: a bare input name is that input
        step.value.append((scalar(key, knode), vnode))
    elif isinstance(own[1], MappingNode):
        said = {str(k.value) for k, _ in own[1].value if isinstance(k, ScalarNode)}
        for k, v in vnode.value:
            if str(k.value) in said:
                r.src.warn(r.line(k), f"{block}.{knode.value}.{k.value}: the step says its own `{k.value}` "
                                      f"(line {r.line(own[0])}); that one is read", "spec.unread")
            else:
                own[1].value.append((k, v))
    else:
        r.src.warn(r.line(knode), f"{block}.{knode.value}: the step's own `{own[0].value}:` is not a mapping of "
                                  "names, so these inputs are not added to it; write them in one place", "spec.unread")
        return
    readings.append(note(r, knode, f"{block}.{knode.value}: {short(r.value(vnode))}",
                         f"the step's inputs, wired in the block `{block}:`", what="input"))


def _merge_after(r: NodeReader, block: str, step: MappingNode, knode: Node, vnode: Node, names: list[str],
                 readings: list[Reading]) -> None:
    if any(isinstance(k, ScalarNode) and yk.step_key(str(k.value)) == "depends_on" for k, _ in step.value):
        r.src.warn(r.line(knode), f"{block}.{knode.value}: the step says what it runs after itself; that is read, "
                                  "not this", "spec.unread")
        return
    step.value.append((scalar("depends_on", knode), SequenceNode(SEQ, [scalar(n, vnode) for n in names],
                                                                 vnode.start_mark, vnode.end_mark)))
    whichever = isinstance(vnode, ScalarNode) and _PARTS.search(str(vnode.value)) is not None
    if whichever:
        step.value.append((scalar("join", knode), scalar("any", vnode)))
    readings.append(note(r, knode, f"{block}.{knode.value}: {short(r.value(vnode))}",
                         f"runs after {' or '.join(names) if whichever else ', '.join(names)}"
                         + (" (whichever ran)" if whichever else ""), what="depends_on"))


def wire_steps(r: NodeReader, top: dict[str, Pair], steps: dict[str, MappingNode]) -> list[Reading]:
    """Each wiring block of `top` read into the steps it names and taken out of `top` (module docstring);
    `steps`: each step's id and its mapping. The notes for the plan, one per block."""
    ids = set(steps)
    notes: list[Reading] = []
    for raw, (bknode, bnode) in list(top.items()):
        if not _is_wiring(raw, bnode, ids):
            continue
        assert isinstance(bnode, MappingNode)
        del top[raw]
        for knode, vnode in bnode.value:
            sid = str(knode.value) if isinstance(knode, ScalarNode) else ""
            if sid not in ids:
                r.src.warn(r.line(knode), f"{raw}.{sid}: names no step ({', '.join(sorted(ids))}); not read",
                           "spec.unread")
                continue
            readings = r.item_readings.setdefault(id(steps[sid]), [])
            after = [(k, v) for k, v in vnode.value if isinstance(k, ScalarNode) and yk.step_key(str(k.value)) ==
                     "depends_on" and _step_names(v, ids)] if isinstance(vnode, MappingNode) else []
            for k, v in after:  # `{rows: pull.rows, after: [pull]}`: what it runs after, beside its inputs
                vnode.value.remove((k, v))
                _merge_after(r, raw, steps[sid], knode, v, _step_names(v, ids) or [], readings)
            if isinstance(vnode, MappingNode) and vnode.value:
                _merge_inputs(r, raw, steps[sid], knode, vnode, readings)
            elif isinstance(vnode, MappingNode):
                continue
            elif (names := _step_names(vnode, ids)) is not None:
                _merge_after(r, raw, steps[sid], knode, vnode, names, readings)
            else:
                r.src.warn(r.line(vnode), f"{raw}.{sid}: '{short(r.value(vnode))}' is neither the step's inputs "
                                          "(a mapping) nor the steps it runs after; not read", "spec.unread")
        notes.append(note(r, bknode, raw, "the steps' inputs and what they run after, each under its step's id"))
    return notes


_rx.save()
