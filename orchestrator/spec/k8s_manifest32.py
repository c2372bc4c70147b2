"""A Kubernetes manifest (`apiVersion:` + `kind:`) whose workflow its author wrote where Kubernetes keeps
free text: the `metadata.annotations` of the resource or of its templates, or a ConfigMap's `data:`.

    metadata:
      annotations:
        acme.io/step.1: "ledger-pull <- CLINIC, RUN_DATE   (retry 3x: 10s, 30s, 90s)"
        acme.io/step.2: "match-up <- ledger = step.1 entries, to=ops@acme.io  -- send ONCE"
        acme.io/step.2.gate: "if the gap is over 250 someone OKs it first; give them 2h"
        acme.io/done-when: "the summary went out (sent: true)"
    spec: {jobTemplate: {spec: {activeDeadlineSeconds: 5400, backoffLimit: 2, template: {spec:
           {containers: [{env: [{name: CLINIC, value: ""}]}]}}}}}

Each `step.N` key (also `step-N`, `stepN`, `steps.N`, after any `prefix/`) is step N: the skill first,
then after `<-` (or `←`) what it takes, comma-separated: a bare NAME (a workflow input, matched to the
skill's input of that name or of one of its words: `RUN_DATE` → `date`), `field = step.N out` (renamed),
`step.N a + b` (those fields of step N), `field=literal`; text in brackets or after ` -- ` is the
step's notes, read as its policies in words. `step.N.gate` / `.approval` is its approval in words;
`done-when` / `success` the run's success check. A container's env var with an empty value is a
workflow input (with a value: a constant, its default). `activeDeadlineSeconds` is the whole run's time
limit; `backoffLimit` the retries of every step unless a step says its own; `schedule` is a note. The
manifest is rewritten as the YAML form's nodes (every value keeps its line) before the form reads it.
A manifest with none of these and no other reader's steps is refused naming the keys looked at.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

STR, INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
MAP, SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"

_STEP_KEY = _rx(r"^(?:[\w.-]{0,120}/)?steps?[._-]?(\d{1,3})(?:[._-](gate|approval|approve|ok|sign-?off))?$", re.I)
_DONE_KEY = _rx(r"^(?:[\w.-]{0,120}/)?(?:done[._-]?when|success|finished[._-]?(?:if|when)|complete[._-]?when)$", re.I)
_ARROW = _rx(r"(?<!\s)\s*+(?:<-|←|<=)\s*+")
_SKILL = _rx(r"^\s*+`?([A-Za-z][\w-]{0,80})`?")
_BRACKET = _rx(r"\(([^()]{0,600})\)")
_DASHES = _rx(r"\s(?:--|—)\s")
_REF = _rx(r"^steps?[._ -]?(\d{1,3})(?:[. ]|\s++output\s++)([A-Za-z_][\w ,+&]{0,200})$", re.I)
_NAME = _rx(r"^[A-Za-z_]\w{0,80}$")
_PAIR = _rx(r"^([A-Za-z_]\w{0,80})\s*+[=:]\s*+(.{1,400})$")
_FIELDS = _rx(r"(?<!\s)\s*+(?:\+|&|\band\b)\s*+")
# "kicks off same time as step.1", "alongside step 2", "in parallel with step-3": starts beside that step
_BESIDE = _rx(r"(?i)(?<![\w-])(?:(?:at\s++)?(?:the\s++)?same\s++time\s++as|alongside|in\s++parallel\s++with|together\s++with|"
              r"at\s++once\s++with|beside|without\s++waiting\s++(?:for|on))\s++step[._ -]?(\d{1,3}+)(?![\w-])")
# "carry on to the mail with posted=false": a value said for an output of the gated step
_SAID_VALUE = _rx(r"(?<![\w-])([A-Za-z_]\w{0,60}+)[ \t]*+=[ \t]*+(true|false|-?\d{1,12}+(?:\.\d{1,6}+)?+|\"[^\"\n]{0,60}+\"|"
                  r"'[^'\n]{0,60}+')(?!\w)", re.I)
# `activeDeadlineSeconds: 1800`, `timeout_minutes = 5`: a key that names its unit, then a bare number
_UNIT_KEY = _rx(r"(?<![\w-])([A-Za-z][A-Za-z\d_]{0,60}+)(\s*+[:=]\s*+)(\d{1,9}+)(?![\w.])")
_KEY_UNITS = (("seconds", "s"), ("secs", "s"), ("_s", "s"), ("minutes", "min"), ("mins", "min"), ("_min", "min"),
              ("hours", "h"), ("_h", "h"), ("_ms", "ms"), ("millis", "ms"))
_KINDS_READ_ELSEWHERE = frozenset({"workflow", "workflowtemplate", "cronworkflow", "pipeline", "task", "pipelinerun",
                                   "taskrun"})  # Argo, Tekton: `yaml_dialect` reads their `spec:`


def _pairs(node: Node) -> list[tuple[str, Node, Node]]:
    return [(str(k.value), k, v) for k, v in node.value] if isinstance(node, MappingNode) else []


def is_manifest(root: Node) -> bool:
    keys = {name for name, _, _ in _pairs(root)}
    return "apiVersion" in keys and "kind" in keys


def _kind(root: Node) -> str:
    return next((str(v.value) for name, _, v in _pairs(root) if name == "kind" and isinstance(v, ScalarNode)), "")


class _Found:
    """What the walk over the manifest saw, once."""

    def __init__(self) -> None:
        self.steps: dict[int, tuple[Node, Node]] = {}  # N -> (key, value) of `step.N`
        self.gates: dict[int, tuple[Node, Node]] = {}
        self.done: tuple[Node, Node] | None = None
        self.prose: list[tuple[Node, Node]] = []  # other annotations: the author's prose
        self.env: list[tuple[Node, Node | None]] = []  # (name node, value node or None)
        self.deadline: tuple[Node, Node] | None = None
        self.backoff: tuple[Node, Node] | None = None
        self.schedule: tuple[Node, Node] | None = None
        self.looked: list[str] = []


def _walk(node: Node, path: str, found: _Found, kind: str, depth: int = 0) -> None:
    if depth > 40:
        return
    if isinstance(node, SequenceNode):
        for item in node.value:
            _walk(item, path, found, kind, depth + 1)
        return
    for name, k, v in _pairs(node):
        here = f"{path}.{name}" if path else name
        if (name == "annotations" and path.endswith("metadata")) or (name == "data" and not path and kind == "configmap"):
            found.looked.append(here)
            _texts(v, found)
            continue
        if name == "env" and isinstance(v, SequenceNode):
            for item in v.value:
                entry = {n: val for n, _, val in _pairs(item)}
                if isinstance(entry.get("name"), ScalarNode) and "valueFrom" not in entry:
                    value = entry.get("value")
                    found.env.append((entry["name"], value if isinstance(value, ScalarNode) else None))
            continue
        if name == "activeDeadlineSeconds" and found.deadline is None and isinstance(v, ScalarNode):
            found.deadline = (k, v)
        elif name == "backoffLimit" and found.backoff is None and isinstance(v, ScalarNode):
            found.backoff = (k, v)
        elif name == "schedule" and found.schedule is None and isinstance(v, ScalarNode):
            found.schedule = (k, v)
        _walk(v, here, found, kind, depth + 1)


def _texts(node: Node, found: _Found) -> None:
    for name, k, v in _pairs(node):
        if not isinstance(v, ScalarNode):
            continue
        if (m := _STEP_KEY.match(name)) is not None:
            (found.gates if m.group(2) else found.steps).setdefault(int(m.group(1)), (k, v))
        elif _DONE_KEY.match(name) and found.done is None:
            found.done = (k, v)
        else:
            found.prose.append((k, v))


def key_units(text: str) -> str:
    """`activeDeadlineSeconds: 1800` → `activeDeadlineSeconds: 1800 s`: the unit the key's name says, written
    after its bare number so the time readers see a duration; a number glued to letters (`k8s`) is none."""

    def unit(m: re.Match[str]) -> str:
        low = m.group(1).lower()
        said = next((u for end, u in _KEY_UNITS if low.endswith(end) and len(low) > len(end)), None)
        return m.group(0) if said is None else f"{m.group(1)}{m.group(2)}{m.group(3)} {said}"

    return _UNIT_KEY.sub(unit, text) if ":" in text or "=" in text else text


# -- nodes ---------------------------------------------------------------------------------------


def _s(text: str, like: Node, tag: str = STR) -> ScalarNode:
    return ScalarNode(tag, text, like.start_mark, like.end_mark)


def _m(entries: list[tuple[Node, Node]], like: Node) -> MappingNode:
    return MappingNode(MAP, entries, like.start_mark, like.end_mark)


# -- a step's value --------------------------------------------------------------------------------


def split_step(text: str) -> tuple[str | None, list[str], str]:
    """(skill, what it takes as written, its notes) of `skill <- a, b = step.1 x  (notes) -- more notes`."""
    said = " ".join(text.split())
    notes = [m.group(1).strip() for m in _BRACKET.finditer(said)]
    said = _BRACKET.sub(" ", said)
    cut = _DASHES.search(said)
    if cut is not None:
        notes.append(said[cut.end():].strip())
        said = said[:cut.start()]
    m = _SKILL.match(said)
    if m is None:
        return None, [], ". ".join(n for n in notes if n)
    rest = said[m.end():]
    arrow = _ARROW.match(rest)
    takes = rest[arrow.end():] if arrow is not None else rest
    items = [t.strip() for t in takes.split(",") if t.strip()]
    return m.group(1), items, ". ".join(n.rstrip(".; ") for n in notes if n)


def _ref(text: str) -> tuple[int, list[str]] | None:
    """`step.3 unmatched + gap` → (3, [unmatched, gap])."""
    m = _REF.match(text.strip())
    if m is None:
        return None
    fields = [f for f in _FIELDS.split(m.group(2).strip()) if f]
    return (int(m.group(1)), fields) if fields and all(_NAME.match(f) for f in fields) else None


def _field_for(name: str, wants: list[str]) -> str:
    """The skill's input a workflow input NAME feeds: the same name, or one of its words (`RUN_DATE` → `date`)."""
    low = name.lower()
    for want in wants:
        if want.lower() == low or want.lower().replace("_", "") == low.replace("_", ""):
            return want
    words = low.split("_")
    for want in wants:
        if want.lower() in words:
            return want
    return low


def _bindings(items: list[str], wants: list[str], inputs: set[str], like: Node, sid: str,
              src: Source) -> list[tuple[Node, Node]]:
    out: list[tuple[Node, Node]] = []
    free = list(wants)
    line = int(like.start_mark.line) + 1

    def bind(field: str, value: str) -> None:
        out.append((_s(field, like), _s(value, like)))
        if field in free:
            free.remove(field)

    for item in items:
        pair = _PAIR.match(item)
        if pair is not None:
            field, value = pair.group(1), pair.group(2).strip()
            ref = _ref(value)
            if ref is not None and len(ref[1]) == 1:
                bind(field, f"{{{{ steps.step-{ref[0]}.output.{ref[1][0]} }}}}")
            elif value in inputs:
                bind(field, f"{{{{ inputs.{value} }}}}")
            else:
                bind(field, value.strip("'\""))
            continue
        ref = _ref(item)
        if ref is not None:
            for field in ref[1]:
                bind(field, f"{{{{ steps.step-{ref[0]}.output.{field} }}}}")
            continue
        if _NAME.match(item):
            bind(_field_for(item, free), f"{{{{ inputs.{item} }}}}")
            continue
        src.warn(line, f"{sid}: '{item}' is not read as an input (write `field = step.N name`, a workflow input's "
                       "name or `field=value`)", "spec.unread")
    return out


# -- the manifest ----------------------------------------------------------------------------------


def lower_manifest(root: Node, src: Source, readings: dict[int, list[Reading]]) -> Node:
    """The manifest as the YAML form's nodes when its annotations (or a ConfigMap's data) hold `step.N`
    keys; else `root` itself. How each part was read goes into `readings` under the first step's node."""
    kind = _kind(root).lower()
    if not is_manifest(root) or kind in _KINDS_READ_ELSEWHERE:
        return root
    found = _Found()
    _walk(root, "", found, kind)
    if not found.steps:
        return root
    where = src.where
    notes: list[Reading] = []

    def said(pair: tuple[Node, Node], note: str, what: str = "key") -> None:
        k, v = pair
        notes.append(Reading(what=what, where=where(int(k.start_mark.line) + 1), text=f"{k.value}: {v.value}",
                             note=note))

    inputs: list[tuple[Node, Node]] = []
    names: set[str] = set()
    for name_node, value in found.env:
        name = str(name_node.value)
        if name in names:
            continue
        names.add(name)
        if value is None or not str(value.value).strip():
            inputs.append((_s(name, name_node), _s("string", name_node)))
            notes.append(Reading(what="input", where=where(int(name_node.start_mark.line) + 1), text=name,
                                 note="a container env var with no value: a workflow input"))
        else:
            inputs.append((_s(name, name_node), _m([(_s("default", value), value)], value)))
            notes.append(Reading(what="input", where=where(int(name_node.start_mark.line) + 1), text=name,
                                 note=f"a container env var with a value: a workflow input, default {value.value}"))
    voc = src.vocabulary
    steps: list[tuple[Node, Node]] = []
    gated: dict[int, str] = {}  # N -> its gate's words
    takes: dict[int, tuple[list[tuple[Node, Node]], list[tuple[Node, Node]]]] = {}  # N -> (its keys, its inputs)
    with_notes = False
    for n in sorted(found.steps):
        knode, vnode = found.steps[n]
        sid = f"step-{n}"
        skill, items, step_notes = split_step(str(vnode.value))
        if skill is None:
            src.warn(int(knode.start_mark.line) + 1, f"{knode.value}: no skill is named first in the value; not read "
                                                     "as a step", "spec.unread")
            continue
        wants = sorted(voc.inputs_of(skill) or ()) if voc else []
        entries: list[tuple[Node, Node]] = [(_s("skill", vnode), _s(skill, vnode))]
        bound = _bindings(items, wants, names, vnode, sid, src)
        takes[n] = (entries, bound)
        if bound:
            entries.append((_s("input", vnode), _m(bound, vnode)))
        if (beside := _BESIDE.search(step_notes)) is not None and int(beside.group(1)) < n:
            other = int(beside.group(1))  # it waits for what that step waits for (by order: the one before it)
            before = [_s(f"step-{other - 1}", vnode)] if other - 1 in found.steps else []
            entries.append((_s("depends_on", vnode), SequenceNode(SEQ, before, vnode.start_mark, vnode.end_mark)))
            notes.append(Reading(what="step", where=where(int(knode.start_mark.line) + 1), text=beside.group(0),
                                 note=f"{sid} starts at the same time as step-{other}: it does not wait for it"))
            step_notes = ". ".join(c.strip() for c in re.split(r"[;.]\s", step_notes) if c.strip()  # read here
                                   and _BESIDE.search(c) is None)
        if step_notes:
            with_notes = True
            entries.append((_s("notes", vnode), _s(step_notes, vnode)))
        if n in found.gates:
            gk, gv = found.gates.pop(n)
            entries.append((_s("approval", gk), gv))
            gated[n] = str(gv.value)
            said((gk, gv), f"the approval of {sid}, in words")
        said((knode, vnode), f"{sid}: skill `{skill}`, its inputs after the arrow, its notes read as policies",
             what="step")
        steps.append((_s(str(n), knode), _m(entries, vnode)))
    _said_if_skipped(gated, takes)
    for n, (gk, _) in found.gates.items():
        src.warn(int(gk.start_mark.line) + 1, f"{gk.value}: an approval for step {n}, which no `step.{n}` key "
                                              "names; not read", "spec.unread")
    if not steps:
        return root
    for k, v in found.prose:
        said((k, v), "the author's prose: not a step")
    top: list[tuple[Node, Node]] = []
    meta = next((v for k, _, v in _pairs(root) if k == "metadata"), root)
    titled = next((v for key, _, v in _pairs(meta) if key == "name" and isinstance(v, ScalarNode)), None)
    if titled is not None:
        top.append((_s("name", titled), titled))
    top.append((_s("steps", root), _m(steps, root)))
    if inputs:
        top.append((_s("inputs", root), _m(inputs, root)))
    if found.deadline is not None:
        k, v = found.deadline
        top.append((_s("timeout", k), _s(str(v.value), v, INT if str(v.value).isdigit() else STR)))
        said(found.deadline, "the whole run's time limit, in seconds")
    if found.backoff is not None:
        k, v = found.backoff
        count = int(v.value) if str(v.value).isdigit() else None
        if count and not with_notes:
            top.append((_s("retry", k), _s(str(count), v, INT)))
            said(found.backoff, f"{count} retries for every step (no step says its own)")
        else:
            said(found.backoff, "not read as a policy: " + ("the steps say their own" if count else "no retries"))
    if found.schedule is not None:
        said(found.schedule, "when the manifest was scheduled: a note, not used when the workflow runs")
    if found.done is not None:
        top.append((_s("success", found.done[0]), found.done[1]))
    first = steps[0][1]
    readings[id(first)] = [*readings.get(id(first), []), *notes]
    return _m(top, root)


def _said_if_skipped(gated: dict[int, str], takes: dict[int, tuple[list[tuple[Node, Node]], list[tuple[Node, Node]]]]) -> None:
    """A gate whose silence skips the step and says what its outputs are then ("no answer = don't post, carry
    on with posted=false"): each later step reading that output takes the value when the step did not run,
    said as its description (`plan.or_if_skipped30` reads "NAME ... if it ran, otherwise VALUE")."""
    from orchestrator.spec.silence_words30 import silence_skips

    for n, words in gated.items():
        if not silence_skips(words):
            continue
        values = {m.group(1): m.group(2) for m in _SAID_VALUE.finditer(words)}
        for m, (entries, bound) in takes.items():
            said = [f"{k.value} from step {n} if it ran, otherwise {values[ref]}" for k, v in bound if m > n
                    and (ref := str(v.value).removeprefix(f"{{{{ steps.step-{n}.output.").removesuffix(" }}"))
                    in values and ref != str(v.value)]
            if said:
                entries.append((_s("description", entries[0][1]), _s(". ".join(said) + ".", entries[0][1])))


def looked_at(root: Node) -> str | None:
    """For a manifest with no steps: which keys were looked at, said in the refusal; None for other YAML."""
    if not is_manifest(root):
        return None
    kind = _kind(root)
    found = _Found()
    _walk(root, "", found, kind.lower())
    where = ", ".join(found.looked) or "no `metadata.annotations`"
    return (f"a Kubernetes {kind or 'manifest'}: no `step.N` keys in its annotations or a ConfigMap's data (looked at: "
            f"{where}), and no `spec.templates` / `spec.tasks` steps")


_rx.save()
