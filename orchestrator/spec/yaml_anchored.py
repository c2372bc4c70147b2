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
another's items loses to it unless it names more; its cousins (candidates that differ from it
at one place of the path below the top level: `stages.triage.actions`, `stages.fix.actions`)
are read with it, in document order, as `stages.*.actions`; two other candidates equally good
are an error naming both paths. An item that names no skill is a warning, not a step. The containers on
the path are lifted: their other keys are read as top-level keys would be (`LIFTED`), and
the other items of a list on the path are warned as not read.

Each item's keys are renamed by meaning (`yaml_anchored_item`) and handed to the form's
readers (`yaml_form._step`, `yaml_node`); references headed by the container's name
(`$(stages.net.outputs.net)`) are the steps'. When some items say what they wait for, one that
does not starts at once (as in a DAG), said in the warning; an item named by nothing else is
named by its skill. YAML comments stay asides: nothing is read from them.
"""

from __future__ import annotations

import re
from collections import deque
from typing import NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.async_status31 import is_wait
from orchestrator.spec.model import Reading
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.yaml_anchored_item import item as item_keys
from orchestrator.spec.yaml_anchored_item import keyed, listed, meaning, runs_of
from orchestrator.spec.yaml_dialect import MAP, STR, note, pairs, scalar, short
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_sigils import loop_key

# keys of a lifted container that say when or how often the run starts: readings, not warnings
SCHEDULING: tuple[str, ...] = ("time_zone", "timezone", "concurrency_policy", "starting_deadline_seconds",
                               "successful_jobs_history_limit", "failed_jobs_history_limit", "suspend", "cron",
                               "history_limit", "hosts", "gather_facts", "become", "connection", "enabled",
                               "replica_count", "replicas", "work_pool", "work_queue_name", "triggers")
# keys of a lifted container whose mapping of names to values are constants: read as `env:`
LIFTED: dict[str, str] = {"vars": "env", "variables": "env", "constants": "env", "globals": "env"}
_MAX_NODES = 20_000  # the walk stops here: a document is not read without bound
_MAX_DEPTH = 12


class _Candidate(NamedTuple):
    path: tuple[str | int, ...]
    node: Node
    items: list[tuple[Node, Node | None]]  # (item, its key node in a mapping of mappings)
    named: int


def _candidates(vocab: Vocabulary, root: Node) -> list[_Candidate]:
    out: list[_Candidate] = []
    todo: deque[tuple[tuple[str | int, ...], Node]] = deque([((), root)])
    seen = 0
    while todo and seen < _MAX_NODES:
        path, node = todo.popleft()
        seen += 1
        if isinstance(node, SequenceNode):
            items: list[tuple[Node, Node | None]] = [(listed(vocab, n), None) for n in node.value
                                                     if isinstance(n, MappingNode | ScalarNode)]
            children: list[tuple[tuple[str | int, ...], Node]] = [((*path, i), n) for i, n in enumerate(node.value)]
        elif isinstance(node, MappingNode):
            items = [(keyed(vocab, v, k), k) for k, v in node.value if isinstance(v, MappingNode)
                     and isinstance(k, ScalarNode)]
            children = [((*path, str(k.value)), v) for k, v in node.value if isinstance(k, ScalarNode)]
        else:
            continue
        named = sum(1 for item, _ in items if runs_of(vocab, item))
        if named and path:
            out.append(_Candidate(path, node, items, named))
        if len(path) < _MAX_DEPTH:
            todo.extend(children)
    return out


TOP_LIST = "(top-level list)"  # the key `yaml_form` puts a document that is a list under


def list_document(vocab: Vocabulary, root: SequenceNode) -> Node:
    """A document that is a list, as a mapping of one key (`TOP_LIST`) for the anchored reading
    when some of its items name catalog skills; else the list itself (refused as today)."""
    mark = root.start_mark
    wrapped = MappingNode(MAP, [(ScalarNode(STR, TOP_LIST, mark, mark), root)], mark, root.end_mark)
    return wrapped if _candidates(vocab, wrapped) else root


def shown(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        if part == TOP_LIST:
            continue
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "the top-level list"


def _rank(c: _Candidate) -> tuple[int, float]:
    return c.named, c.named / max(len(c.items), 1)


def best(r: NodeReader, root: Node) -> _Candidate | None:
    """The candidate read as the steps (module docstring); None, with an error when two tie."""
    found = _candidates(r.src.vocabulary, root)
    named = {c.path: c.named for c in found}  # a candidate inside another that names as many loses to it
    kept = [c for c in found if not any(named.get(c.path[:n], 0) >= c.named for n in range(1, len(c.path)))]
    if not kept:
        return None
    kept.sort(key=_rank, reverse=True)
    if (merged := _cousins(kept)) is not None:
        return merged
    if len(kept) > 1 and _rank(kept[0]) == _rank(kept[1]):
        a, b = kept[0], kept[1]
        r.src.error(r.line(a.node), f"two places hold steps naming catalog skills equally well: `{shown(a.path)}` "
                                    f"(line {r.line(a.node)}) and `{shown(b.path)}` (line {r.line(b.node)}); write "
                                    "the steps under one `steps:` key", "spec.no-steps")
        return None
    return kept[0]


def _cousins(kept: list[_Candidate]) -> _Candidate | None:
    """The best candidate and those that sit where it sits under one container, differing from it
    at one place of the path only (`job.group.fetcher.task`, `job.group.scorer.task`), as one
    candidate (`job.group.*.task`), their items in document order; None when it has no such cousin."""
    first = kept[0]

    def differs_at(c: _Candidate) -> int | None:
        if len(c.path) != len(first.path) or type(c.node) is not type(first.node):
            return None
        places = [i for i, (a, b) in enumerate(zip(c.path, first.path, strict=True)) if a != b]
        return places[0] if len(places) == 1 else None

    places = {differs_at(c) for c in kept[1:]} - {None, 0}  # two top-level lists stay two places
    for at in sorted(p for p in places if p is not None):
        group = [first, *(c for c in kept[1:] if differs_at(c) == at)]
        group.sort(key=lambda c: (c.node.start_mark.line, c.node.start_mark.column))
        node: Node = (SequenceNode(first.node.tag, [n for c in group for n in c.node.value], group[0].node.start_mark,
                                   group[-1].node.end_mark) if isinstance(first.node, SequenceNode) else
                      MappingNode(MAP, [p for c in group for p in c.node.value], group[0].node.start_mark,
                                  group[-1].node.end_mark))
        return _Candidate((*first.path[:at], "*", *first.path[at + 1:]), node,
                          [i for c in group for i in c.items], sum(c.named for c in group))
    return None


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
    skills = sorted({ref.skill for item, _ in chosen.items for ref in runs_of(r.src.vocabulary, item)[:1]})
    said = (f"steps read from `{where}` ({chosen.named} of {len(chosen.items)} items run catalog skills: "
            f"{', '.join(skills[:6])}{', ...' if len(skills) > 6 else ''}), found by the skills they name: no "
            "dialect the reader knows holds them; write them under `steps:` to say so")
    key_node = _key_node(root, path)
    notes.append(note(r, key_node, where, "read as the steps: its items name catalog skills", what="step"))
    lifted = _lift(r, top, path, notes)
    _rewrite_references(root, path, chosen)
    out = [(item, k) for item, k in chosen.items if is_wait(item) or _keep(r, item, k, where)]  # `async_status31`
    for label, other in _not_items(chosen.node):  # a nested list, a text beside the step mappings: said
        r.src.warn(r.line(other), f"{where}: {label}{short(r.value(other))}{'`' if label else ''} is not a step (a step is a mapping of "
                                  "its keys); not read", "spec.unread")
    roots = _roots([(item, k) for item, k in out if not is_wait(item)])
    runs = [ref.skill for item, _ in out for ref in runs_of(r.src.vocabulary, item)[:1]]
    once = {skill for skill in runs if runs.count(skill) == 1}  # a step named by nothing else: by its skill
    if roots[1:] or (roots and roots[0] != _label(*out[0])):
        said += (f"; items that do not say what they wait for start at once ({', '.join(roots)}), as the others "
                 "say theirs: give them `depends_on:` to run them in order")
    r.src.warn(r.line(key_node), said, "spec.anchored")
    if isinstance(chosen.node, SequenceNode):
        steps: Node = SequenceNode(chosen.node.tag, [item if is_wait(item) else item_keys(r, item, bool(roots), once)
                                                    for item, _ in out],
                                   chosen.node.start_mark, chosen.node.end_mark)
    else:
        steps = MappingNode(MAP, [(k, item if is_wait(item) else item_keys(r, item, bool(roots), set(), k))
                                  for item, k in out if k is not None],
                            chosen.node.start_mark, chosen.node.end_mark)
    return lifted, (scalar("steps", key_node), steps)


def _not_items(node: Node) -> list[tuple[str, Node]]:
    if isinstance(node, SequenceNode):
        return [("", n) for n in node.value if not isinstance(n, MappingNode | ScalarNode)]
    return [(f"`{k.value}: ", v) for k, v in node.value if not isinstance(v, MappingNode)] if isinstance(
        node, MappingNode) else []


def _roots(items: list[tuple[Node, Node | None]]) -> list[str]:
    """When some items say what they wait for, the names of those that do not (else none)."""
    said = [any(meaning(str(k.value)) == "depends_on" or _loops_over_a_step(k, v) for k, v in item.value)
            for item, _ in items if isinstance(item, MappingNode)]
    if not any(said):
        return []
    out = []
    for (item, key), waits in zip(items, said, strict=True):
        if not waits:
            out.append(_label(item, key))
    return out


def _loops_over_a_step(key: Node, value: Node) -> bool:
    """`for_each_of: $ingest.findings`: a loop over an earlier step's list waits for that step."""
    name = yk.key_name(str(key.value))
    return (loop_key(name) or yk.step_key(name) == "for_each") and isinstance(value, ScalarNode) and "." in str(value.value)


def _label(item: Node, key: Node | None) -> str:
    """What an item is called: its key in a mapping of mappings, else the first key meaning id or name."""
    if isinstance(key, ScalarNode):
        return str(key.value)
    for want in ("id", "name"):
        for k, v in item.value if isinstance(item, MappingNode) else ():
            if isinstance(k, ScalarNode) and isinstance(v, ScalarNode) and meaning(str(k.value)) == want:
                return str(v.value)
    return f"line {int(item.start_mark.line) + 1}"


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
    if runs_of(r.src.vocabulary, item):
        return True
    said = key if isinstance(key, ScalarNode) else item if isinstance(item, ScalarNode) else None
    label = f"`{short(said.value)}`" if said is not None else "this item"
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
        if part == "*":  # the containers of cousins (`_cousins`): theirs are steps, not top-level keys
            break
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
    and `Fetch.outputs.items` (a step's name as written, when its id is `fetch`) →
    `steps.fetch.outputs.items`, in every text of the document, for the form's reference readers."""
    alias: dict[str, str] = {}  # a step as written -> its id (`yaml_form._step`: the id, else the name's slug)
    for item, key in chosen.items:
        said = {meaning(str(k.value)): str(v.value) for k, v in (item.value if isinstance(item, MappingNode) else ())
                if isinstance(k, ScalarNode) and isinstance(v, ScalarNode)}
        sid = str(key.value) if isinstance(key, ScalarNode) else said.get("id") or _slug(said.get("name", ""))
        for written in (key.value if isinstance(key, ScalarNode) else None, said.get("id"), said.get("name"), sid):
            if written and re.fullmatch(r"[\w-]+", str(written)):
                alias.setdefault(str(written), sid)
    if not alias:
        return
    head = next((p for p in reversed(path) if isinstance(p, str)), None)
    names = "|".join(re.escape(a) for a in sorted(alias, key=len, reverse=True))
    rules: list[re.Pattern[str]] = []
    if head is not None and yk.key_name(head) not in ("steps", "step", "tasks", "task", "jobs", "states"):
        heads = {head, head.rstrip("s")} if len(head) > 2 else {head}
        rules.append(re.compile(r"(?<![\w.-])(?:" + "|".join(re.escape(h) for h in sorted(heads, key=len, reverse=True))
                                + r")\.(" + names + r")(?=[.\[])"))
    renamed = "|".join(re.escape(a) for a in sorted(alias, key=len, reverse=True) if a != alias[a])
    if renamed:  # a name that is not the id, then an output word
        rules.append(re.compile(r"(?<![\w.-])(" + renamed + r")(?=\.(?:outputs?|results?)\b)"))
    todo: list[Node] = [root]
    seen = 0
    while todo and seen < _MAX_NODES:
        node = todo.pop()
        seen += 1
        if isinstance(node, ScalarNode) and isinstance(node.value, str) and "." in node.value:
            for rule in rules:
                node.value = rule.sub(lambda m: f"steps.{alias[m.group(1)]}", node.value)
        elif isinstance(node, MappingNode):
            todo.extend(v for _, v in node.value)
        elif isinstance(node, SequenceNode):
            todo.extend(node.value)



def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
