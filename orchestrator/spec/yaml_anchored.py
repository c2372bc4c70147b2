"""The steps of a YAML spec in a shape no dialect knows, found by the catalog skills they name.

A rescue: it runs only when the named dialects (`yaml_dialect`, `yaml_states`) found no steps
and the catalog is known (`src.vocabulary`). The document is walked for the list of mappings,
or the mapping of mappings, whose items name catalog skills through any key:

    spec: {template: {stages: [{name: net, skillRef: {name: net-revenue}, restart: ...}]}}
    - hosts: all                                  (a list of one play: the play is read)
      tasks: [{name: Fetch, fetch-feed: {url: u}}]  (a key that is a skill: its mapping the inputs)
    workflow: {phases: {gather: {run: fetch-feed, after: []}}}

Those items are the steps, and that is said: a warning at the container's line ("steps read
from `spec.template.stages`") and a reading with the first step. The best candidate has the
most items naming a skill, then the largest share of its items doing so; a candidate inside
another's items loses to it unless it names more; two candidates equally good are an error
naming both paths. An item that names no skill is a warning, not a step. The containers on
the path are lifted: their other keys are read as top-level keys would be (`LIFTED`), and
the other items of a list on the path are warned as not read.

Each item's keys are renamed by meaning (`KEY_MEANINGS`, used only for names the form's own
tables do not know) and handed to the form's readers (`yaml_form._step`, `yaml_node`): the key
that names the skill becomes `skill:`; `onError: {continueWith: v}` and `{fallbackSkillRef: x}`
become `fallback:` (`ON_ERROR_MEANINGS`); references headed by the container's name
(`$(stages.net.outputs.net)`) are the steps'. A key that no table knows stays, and the form
warns it at its line. YAML comments stay asides: nothing is read from them.
"""

from __future__ import annotations

import re
from collections import deque
from typing import NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.yaml_dialect import MAP, SEQ, by_name, note, pairs, scalar, short
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_step_shape import skill_name

# what an item's key means -> the names people give it (after `yaml_keys.key_name`); only
# names the form's own tables (`yaml_keys.STEP_SYNONYMS`) do not know are looked up here
KEY_MEANINGS: dict[str, tuple[str, ...]] = {
    "name": ("title", "label", "display_name", "step_name", "stage_name", "phase", "stage", "step"),
    "input": ("config", "values", "vars", "props", "properties", "settings", "payload", "data", "input_values",
              "opts", "kw", "flags", "ins"),
    "depends_on": ("deps", "depends_upon", "depend_on", "upstreams", "wait_on", "waits_on", "after_steps",
                   "predecessors", "prev", "previous", "parents", "run_after_steps", "requires_steps"),
    "when": ("required_if", "enabled_if", "run_only_if", "only", "guard", "predicate", "filter", "condition_expr"),
    "for_each": ("items", "for", "each_of", "with_each", "iterate_on", "fan_out_over", "map_items", "batch_over",
                 "with_list", "with_sequence", "per"),
    "retry": ("restart", "restarts", "restart_policy", "retry_on_failure", "retries_policy", "retry_spec"),
    "retries": ("max_restarts", "restart_limit", "backoff_limit", "retry_limit", "max_retry", "retry_max"),
    "timeout": ("ttl", "max_runtime", "max_run_time", "runtime_limit", "timeout_after", "kill_after", "walltime",
                "wall_time", "time_limit_seconds", "run_timeout", "step_timeout", "timeout_sec"),
    "on_error": ("error_handling", "on_fault", "error_policy", "failure_policy", "when_fails", "if_error",
                 "on_err", "handle_error", "errors"),
    "fallback": ("fallback_skill", "fallback_skill_ref", "fallback_to", "otherwise_use", "instead", "fallback_ref",
                 "backup", "backup_skill"),
    "approval": ("gate", "manual_gate", "review", "hold", "pause_for_approval", "confirm", "confirmation",
                 "manual", "approval_gate", "sign_off_required", "requires_sign_off"),
    "compensation": ("cleanup", "on_undo", "undo_with"),
    "notes": ("remark", "memo", "comment_text"),
    "output": ("register", "returns", "produces", "result", "yields"),
}
# keys inside an error handler (`onError: {...}`) -> what they say
ON_ERROR_MEANINGS: dict[str, tuple[str, ...]] = {
    "default": ("continue_with", "default", "default_value", "use_value", "value", "return", "substitute",
                "continue_with_value", "fallback_value", "result"),
    "skill": ("fallback_skill_ref", "fallback_skill", "fallback", "skill", "skill_ref", "use_skill", "run",
              "then_run", "instead", "fallback_ref", "uses", "call"),
    "action": ("action", "policy", "then", "do", "strategy", "mode"),
}
# keys of an item's nested mapping that name what it refers to (`skillRef: {name: x}`)
REF_KEYS = ("name", "ref", "id", "skill", "template", "task", "uses", "function", "action", "op", "module")
# keys of a lifted container that say when or how often the run starts: readings, not warnings
SCHEDULING: tuple[str, ...] = ("time_zone", "timezone", "concurrency_policy", "starting_deadline_seconds",
                               "successful_jobs_history_limit", "failed_jobs_history_limit", "suspend", "cron",
                               "history_limit", "hosts", "gather_facts", "become", "connection", "enabled",
                               "replica_count", "replicas", "work_pool", "work_queue_name", "triggers")
# keys of a lifted container whose mapping of names to values are constants: read as `env:`
LIFTED: dict[str, str] = {"vars": "env", "variables": "env", "constants": "env", "globals": "env"}
# an item's own meanings that are not the skill it runs, though their value may name one
NOT_THE_SKILL = {"fallback", "on_error", "compensation", "depends_on", "input", "when", "otherwise", "for_each",
                 "approval", "notes", "description", "if_still_failing", "feedback", "routes", "id", "name",
                 "output", "outputs"}
_MAX_NODES = 20_000  # the walk stops here: a document is not read without bound
_MAX_DEPTH = 12
_MEANING = {name: canonical for canonical, names in KEY_MEANINGS.items() for name in names}
_ON_ERROR = {name: kind for kind, names in ON_ERROR_MEANINGS.items() for name in names}


class _Ref(NamedTuple):
    key: str  # the item's key as written
    knode: Node
    vnode: Node  # the scalar that names the skill (the key itself for a skill-named key)
    skill: str
    how: str  # key | value | nested


class _Candidate(NamedTuple):
    path: tuple[str | int, ...]
    node: Node
    items: list[tuple[Node, Node | None]]  # (item, its key node in a mapping of mappings)
    named: int


def meaning(raw: str) -> str:
    """What a step key means: the form's own canonical key, else this module's table, else itself."""
    if yk.is_step_word(raw):
        return yk.step_key(raw)
    name = yk.key_name(raw)
    return _MEANING.get(name, name)


def _skill_of(vocab: Vocabulary, text: object) -> str | None:
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        return None
    return vocab.skill_for(text.strip()) or vocab.skill_for(skill_name(text))


def refs(vocab: Vocabulary, item: Node) -> list[_Ref]:
    """Where a mapping names a catalog skill: a key that is one, a value that is one (or a
    list of one), or a nested `{name: x}`-like mapping."""
    out: list[_Ref] = []
    if not isinstance(item, MappingNode):
        return out
    for k, v in item.value:
        if not isinstance(k, ScalarNode):
            continue
        raw = str(k.value)
        if (skill := _skill_of(vocab, raw)) is not None:
            out.append(_Ref(raw, k, k, skill, "key"))
            continue
        node = v.value[0] if isinstance(v, SequenceNode) and len(v.value) == 1 else v
        if isinstance(node, ScalarNode) and (skill := _skill_of(vocab, node.value)) is not None:
            out.append(_Ref(raw, k, node, skill, "value"))
        elif isinstance(node, MappingNode):
            for ik, iv in node.value:
                if (isinstance(ik, ScalarNode) and yk.key_name(str(ik.value)) in REF_KEYS and isinstance(iv, ScalarNode)
                        and (skill := _skill_of(vocab, iv.value)) is not None):
                    out.append(_Ref(raw, k, iv, skill, "nested"))
                    break
    return out


def _candidates(vocab: Vocabulary, root: Node) -> list[_Candidate]:
    out: list[_Candidate] = []
    todo: deque[tuple[tuple[str | int, ...], Node]] = deque([((), root)])
    seen = 0
    while todo and seen < _MAX_NODES:
        path, node = todo.popleft()
        seen += 1
        if isinstance(node, SequenceNode):
            items: list[tuple[Node, Node | None]] = [(n, None) for n in node.value if isinstance(n, MappingNode)]
            children: list[tuple[tuple[str | int, ...], Node]] = [((*path, i), n) for i, n in enumerate(node.value)]
        elif isinstance(node, MappingNode):
            items = [(v, k) for k, v in node.value if isinstance(v, MappingNode) and isinstance(k, ScalarNode)]
            children = [((*path, str(k.value)), v) for k, v in node.value if isinstance(k, ScalarNode)]
        else:
            continue
        named = sum(1 for item, _ in items if refs(vocab, item))
        if named and path:
            out.append(_Candidate(path, node, items, named))
        if len(path) < _MAX_DEPTH:
            todo.extend(children)
    return out


def shown(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _rank(c: _Candidate) -> tuple[int, float]:
    return c.named, c.named / max(len(c.items), 1)


def best(r: NodeReader, root: Node) -> _Candidate | None:
    """The candidate read as the steps (module docstring); None, with an error when two tie."""
    found = _candidates(r.src.vocabulary, root)
    kept = [c for c in found if not any(
        len(o.path) < len(c.path) and c.path[: len(o.path)] == o.path and o.named >= c.named for o in found)]
    if not kept:
        return None
    kept.sort(key=_rank, reverse=True)
    if len(kept) > 1 and _rank(kept[0]) == _rank(kept[1]):
        a, b = kept[0], kept[1]
        r.src.error(r.line(a.node), f"two places hold steps naming catalog skills equally well: `{shown(a.path)}` "
                                    f"(line {r.line(a.node)}) and `{shown(b.path)}` (line {r.line(b.node)}); write "
                                    "the steps under one `steps:` key", "spec.no-steps")
        return None
    return kept[0]


def anchored_steps(r: NodeReader, top: dict[str, tuple[Node, Node]], notes: list[Reading]) -> tuple[
        dict[str, tuple[Node, Node]], tuple[Node, Node]] | None:
    """The steps found by the skills they name, and the top-level keys with the containers on
    their path lifted; None when no item names a catalog skill."""
    if not top:
        return None
    first = next(iter(top.values()))[0]
    root = MappingNode(MAP, list(top.values()), first.start_mark, first.end_mark)
    chosen = best(r, root)
    if chosen is None:
        return None
    path = chosen.path
    where = shown(path)
    skills = sorted({ref.skill for item, _ in chosen.items for ref in refs(r.src.vocabulary, item)})
    said = (f"steps read from `{where}` ({chosen.named} of {len(chosen.items)} items name catalog skills: "
            f"{', '.join(skills[:6])}{', ...' if len(skills) > 6 else ''}), found by the skills they name: no "
            "dialect the reader knows holds them; write them under `steps:` to say so")
    key_node = _key_node(root, path)
    notes.append(note(r, key_node, where, "read as the steps: its items name catalog skills", what="step"))
    lifted = _lift(r, top, path, notes)
    _rewrite_references(root, path, chosen)
    out = [(item, k) for item, k in chosen.items if _keep(r, item, k, where)]
    roots = _roots(out)
    if roots:
        said += (f"; as some items say what they wait for, those that do not start at once ({', '.join(roots)}): "
                 "give them `depends_on:` to run them in order")
    r.src.warn(r.line(key_node), said, "spec.anchored")
    if isinstance(chosen.node, SequenceNode):
        steps: Node = SequenceNode(chosen.node.tag, [_item(r, item, notes, bool(roots)) for item, _ in out],
                                   chosen.node.start_mark, chosen.node.end_mark)
    else:
        steps = MappingNode(MAP, [(k, _item(r, item, notes, bool(roots))) for item, k in out if k is not None],
                            chosen.node.start_mark, chosen.node.end_mark)
    return lifted, (scalar("steps", key_node), steps)


def _roots(items: list[tuple[Node, Node | None]]) -> list[str]:
    """When some items say what they wait for, the names of those that do not (else none)."""
    said = [any(meaning(str(k.value)) == "depends_on" for k, _ in item.value) for item, _ in items
            if isinstance(item, MappingNode)]
    if not any(said):
        return []
    out = []
    for (item, key), waits in zip(items, said, strict=True):
        if not waits:
            own = by_name(item)
            label = key.value if isinstance(key, ScalarNode) else next(
                (own[w][1].value for w in ("id", "name") if w in own and isinstance(own[w][1], ScalarNode)), "?")
            out.append(str(label))
    return out


def _key_node(root: Node, path: tuple[str | int, ...]) -> Node:
    """The key node naming the last mapping key on the path (the node itself for a list index)."""
    node, key = root, root
    for part in path:
        if isinstance(part, int) and isinstance(node, SequenceNode):
            node = node.value[part]
            key = node
        else:
            pair = pairs(node).get(str(part))
            if pair is None:
                break
            key, node = pair
    return key


def _keep(r: NodeReader, item: Node, key: Node | None, where: str) -> bool:
    if refs(r.src.vocabulary, item):
        return True
    label = f"`{key.value}`" if isinstance(key, ScalarNode) else "this item"
    r.src.warn(r.line(item), f"{where}: {label} names no catalog skill; not read as a step (name its skill, "
                             "e.g. `skill: NAME`)", "spec.unread")
    return False


def _lift(r: NodeReader, top: dict[str, tuple[Node, Node]], path: tuple[str | int, ...],
          notes: list[Reading]) -> dict[str, tuple[Node, Node]]:
    """The top-level keys with each container on the path replaced by its other keys."""
    out = {k: p for k, p in top.items() if k != path[0]}
    inputs = next((p[1] for k, p in top.items() if yk.top_key(k) == "inputs"), None)
    node = top[str(path[0])][1]
    for depth, part in enumerate(path[1:], start=1):
        container = shown(path[:depth])
        if isinstance(node, SequenceNode) and isinstance(part, int):
            for i, other in enumerate(node.value):
                if i != part:
                    r.src.warn(r.line(other), f"{container}[{i}]: only `{shown(path)}` is read; this item is not",
                               "spec.unread")
            node = node.value[part]
            continue
        for raw, (knode, vnode) in pairs(node).items():
            if raw == part or vnode is inputs:
                continue
            name = yk.key_name(raw)
            if name in SCHEDULING:
                notes.append(note(r, knode, f"{container}.{raw}: {short(r.value(vnode))}",
                                  "when or how often the run starts: not used when the workflow runs"))
                continue
            if name in LIFTED and isinstance(vnode, MappingNode):
                raw = LIFTED[name]
                knode = scalar(raw, knode)
            if raw in out:
                r.src.warn(r.line(knode), f"{container}.{raw}: `{raw}:` is also given above it; that one is read",
                           "spec.unread")
                continue
            out[raw] = (knode, vnode)
        pair = pairs(node).get(str(part))
        if pair is None:
            break
        node = pair[1]
    return out


def _rewrite_references(root: Node, path: tuple[str | int, ...], chosen: _Candidate) -> None:
    """`stages.net.outputs.net` (the container's own name, then a step) → `steps.net.outputs.net`,
    in every text of the document, so that the form's reference readers read it."""
    head = next((p for p in reversed(path) if isinstance(p, str)), None)
    if head is None or yk.key_name(head) in ("steps", "step", "tasks", "task", "jobs", "states"):
        return
    ids: set[str] = set()
    for item, key in chosen.items:
        if isinstance(key, ScalarNode):
            ids.add(str(key.value))
        own = by_name(item)
        for word in ("id", "name"):
            if word in own and isinstance(own[word][1], ScalarNode):
                ids.add(str(own[word][1].value))
                ids.add(re.sub(r"[^a-z0-9]+", "-", str(own[word][1].value).lower()).strip("-"))
    ids.discard("")
    if not ids:
        return
    heads = {head, head.rstrip("s")} if len(head) > 2 else {head}
    pattern = re.compile(r"(?<![\w.$-])(?:" + "|".join(re.escape(h) for h in sorted(heads, key=len, reverse=True))
                         + r")\.(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r")(?=[.\[])")
    todo: list[Node] = [root]
    seen = 0
    while todo and seen < _MAX_NODES:
        node = todo.pop()
        seen += 1
        if isinstance(node, ScalarNode) and isinstance(node.value, str) and "." in node.value:
            node.value = pattern.sub(lambda m: f"steps.{m.group(1)}", node.value)
        elif isinstance(node, MappingNode):
            todo.extend(v for _, v in node.value)
        elif isinstance(node, SequenceNode):
            todo.extend(node.value)


def _item(r: NodeReader, item: Node, notes: list[Reading], roots: bool) -> Node:
    """An item's keys renamed by meaning, its skill under `skill:` (module docstring)."""
    assert isinstance(item, MappingNode)
    vocab = r.src.vocabulary
    own = {meaning(str(k.value)) for k, _ in item.value if isinstance(k, ScalarNode)}
    has_name = bool(own & {"id", "name"})
    found = refs(vocab, item)
    skill_keys = [f for f in found if meaning(f.key) not in NOT_THE_SKILL or f.how == "key"]
    named_by_id = [f for f in found if meaning(f.key) in ("id", "name")]
    runs = skill_keys or named_by_id[:1]
    if len({f.skill for f in runs}) > 1:
        r.src.error(r.line(item), f"this step names {', '.join(f'`{f.skill}` ({f.key}:)' for f in runs)}: write "
                                  "the one it runs as `skill: NAME`", "spec.ambiguous-skill")
    run = runs[0] if runs else None
    out: list[tuple[Node, Node]] = []
    used = {meaning(str(k.value)) for k, _ in item.value if isinstance(k, ScalarNode) and yk.is_step_word(str(k.value))}
    for k, v in item.value:
        raw = str(k.value) if isinstance(k, ScalarNode) else ""
        if run is not None and raw == run.key and run.how != "key" and meaning(raw) not in ("id", "name"):
            if yk.step_key(raw) != "skill" or str(run.vnode.value) != run.skill:
                notes.append(note(r, k, f"{raw}: {short(r.value(v))}",
                                  f"names the catalog skill `{run.skill}`: read as the step's skill", what="skill"))
            out.append((scalar("skill", k), scalar(run.skill, run.vnode)))
            continue
        if run is not None and run.how == "key" and k is run.knode:
            notes.append(note(r, k, raw, f"the key is the catalog skill `{run.skill}`: read as the step's skill"
                                         + (", its mapping as the inputs" if isinstance(v, MappingNode) else ""),
                              what="skill"))
            out.append((scalar("skill", k), scalar(run.skill, k)))
            if isinstance(v, MappingNode) and "input" not in own:
                out.append((scalar("input", k), v))
            elif not (isinstance(v, ScalarNode) and not str(v.value).strip()):
                r.src.warn(r.line(v), f"{raw}: {short(r.value(v))}: the skill's arguments are read only as a mapping "
                                      "of name: value; not read", "spec.unread")
            continue
        out.extend(_renamed(r, raw, k, v, own, used, has_name, notes))
    if run is not None and run.how != "key" and meaning(run.key) in ("id", "name"):
        out.append((scalar("skill", run.knode), scalar(run.skill, run.vnode)))
        notes.append(note(r, run.knode, f"{run.key}: {run.skill}", "the step's name is a catalog skill: read as "
                                                                     "its skill", what="skill"))
    if roots and "depends_on" not in own:  # the others say what they wait for: this one waits for nothing
        out.append((scalar("depends_on", item), SequenceNode(SEQ, [], item.start_mark, item.start_mark)))
    return MappingNode(MAP, out, item.start_mark, item.end_mark)


def _renamed(r: NodeReader, raw: str, k: Node, v: Node, own: set[str], used: set[str], has_name: bool,
             notes: list[Reading]) -> list[tuple[Node, Node]]:
    if not raw or yk.is_step_word(raw):
        if raw and meaning(raw) == "on_error" and isinstance(v, MappingNode) and "fallback" not in own:
            return _on_error(r, raw, k, v, notes)
        return [(k, v)]
    canonical = meaning(raw)
    if canonical == yk.key_name(raw) or canonical in used or (canonical == "name" and has_name):
        return [(k, v)]  # not in the table, or its meaning is given already: the form warns it
    used.add(canonical)
    if canonical == "on_error" and isinstance(v, MappingNode) and "fallback" not in own:
        return _on_error(r, raw, k, v, notes)
    notes.append(note(r, k, raw, f"`{raw}:` read as `{canonical}:` (what it means)"))
    return [(scalar(canonical, k), v)]


def _on_error(r: NodeReader, raw: str, k: Node, v: MappingNode, notes: list[Reading]) -> list[tuple[Node, Node]]:
    """`onError: {continueWith: v}` → `fallback: {default: v}`; `{fallbackSkillRef: {name: x}}` →
    `fallback: {skill: x}`; `{action: continue}` → `on_error: continue`; other keys warned."""
    said: dict[str, tuple[Node, Node]] = {}
    for ik, iv in v.value:
        inner = str(ik.value) if isinstance(ik, ScalarNode) else ""
        kind = _ON_ERROR.get(yk.key_name(inner))
        if kind is None or kind in said or ("default" in said and kind == "skill") or (
                "skill" in said and kind == "default"):
            r.src.warn(r.line(ik), f"{raw}.{inner} not understood (one of: continueWith: VALUE, fallbackSkillRef: "
                                   "NAME, action: continue)", "spec.unread")
            continue
        said[kind] = (ik, iv)
    out: list[tuple[Node, Node]] = []
    if "default" in said:
        ik, iv = said["default"]
        out.append((scalar("fallback", ik), MappingNode(MAP, [(scalar("default", ik), iv)], v.start_mark, v.end_mark)))
        notes.append(note(r, ik, f"{raw}.{ik.value}: {short(r.value(iv))}", "on failure, continue with this value"))
    if "skill" in said:
        ik, iv = said["skill"]
        node = iv
        if isinstance(iv, MappingNode):
            node = next((n for kk, n in iv.value if yk.key_name(str(kk.value)) in REF_KEYS), iv)
        if isinstance(node, ScalarNode):
            name = skill_name(str(node.value))
            name = r.src.vocabulary.skill_for(name) or name
            out.append((scalar("fallback", ik), MappingNode(MAP, [(scalar("skill", ik), scalar(name, node))],
                                                             v.start_mark, v.end_mark)))
            notes.append(note(r, ik, f"{raw}.{ik.value}: {node.value}", f"on failure, the skill `{name}` instead"))
        else:
            r.src.warn(r.line(iv), f"{raw}.{ik.value}: name the fallback skill (`NAME` or `{{name: NAME}}`); not read",
                       "spec.unread")
    if "action" in said:
        out.append((scalar("on_error", k), said["action"][1]))
    return out
