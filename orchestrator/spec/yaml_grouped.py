"""Steps its author grouped under stages, phases, lanes or jobs, each step keyed by its name, read as
one list of steps in document order before the form's readers see them.

    stages:                                 → the steps weather, roster, reroute, in document order
      - stage: morning check                  (a group: a mapping that runs nothing itself, with its
        steps:                                 name, its own `after:` / `needs:` and, under one key,
          weather: {tool: road-conditions}     its steps keyed by name, a list of steps or more groups)
          roster: {tool: driver-roster}
      - stage: routes
        steps:
          reroute: {tool: route-reroute}
    lanes: {hot: {tasks: {sear: {...}}}, cold: {tasks: {...}}}   (a mapping of groups: the same)

A group is a grouping only: it is not a step. What a step waits for when it does not say (no `after:`
of its own) comes from the word its author grouped by, as in the tools that use that word, and is said
in a warning at the grouping's line: `stages` / `phases` / `waves` / `rounds` run one after another and
the steps of one start together (each waits on every step of the group before, as CI stages do);
`lanes` / `tracks` / `jobs` / `stations` run side by side and the steps of one run in order; any other
word, document order (each step after the one before). A group's own `after:` / `needs:` (naming
groups or steps) is what its first steps wait on; a step's `after:` that names a group waits on the
steps that end it. A key of a step is the form's to read (`tool:` its skill, `give:` its inputs...);
a key of a group other than its name, its `after:`, its notes and its steps is warned at its line.
A step keyed by a name that is no id gets the name made an id (the name kept as its name); a name
used twice gets its group's name in front. A document whose groups hold only lists of steps (GitHub's
`jobs:`, an Ansible play's `tasks:`) is left to the readers of jobs and anchored steps (`yaml_jobs`,
`yaml_anchored`); a group of listed steps beside groups of keyed ones is read here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.steps_fed_from import fed_from
from orchestrator.spec.yaml_dialect import MAP, SEQ, note, scalar
from orchestrator.spec.yaml_node import NodeReader

Pair = tuple[Node, Node]
# words of groups that run one after another, the steps of each starting together (CI stages)
_IN_ORDER_TOGETHER = frozenset({"stages", "stage", "phases", "phase", "waves", "wave", "rounds", "round"})
# words of groups that run side by side, the steps of each in order (GitHub jobs, swimlanes)
_SIDE_BY_SIDE = frozenset({"lanes", "lane", "swimlanes", "swimlane", "tracks", "track", "streams", "stream",
                           "workstreams", "jobs", "job", "stations", "station"})
# a group's own keys that name it
_NAME_KEYS = frozenset({"name", "stage", "phase", "lane", "track", "job", "station", "group", "title", "label",
                        "id", "stage_name", "phase_name", "lane_name"})
_ASIDE_KEYS = frozenset({"description", "notes"})
_ID = re.compile(r"^[A-Za-z0-9_][\w-]*$")
_MAX_DEPTH = 6


@dataclass
class _Step:
    node: MappingNode
    key: Node | None  # its name's node when keyed by name
    id: str = ""


@dataclass
class _Group:
    name: str
    node: MappingNode
    word: str  # the word it was grouped by (`stages`): how its steps wait
    holder: str  # the key holding its members (`steps`)
    after: Pair | None
    members: list[_Step | _Group] = field(default_factory=list)
    ends: list[str] | None = None  # the steps that end it, once the ids are known


Unit = _Step | _Group


def _is_step(node: Node) -> bool:
    return isinstance(node, MappingNode) and any(
        isinstance(k, ScalarNode) and yk.step_key(str(k.value)) == "skill" for k, _ in node.value)


def _members(node: Node, word: str, depth: int) -> list[Unit] | None:
    """The steps or groups a container holds, in document order; None when it holds anything else."""
    if depth > _MAX_DEPTH or not isinstance(node, MappingNode | SequenceNode):
        return None
    entries: list[tuple[Node | None, Node]] = (
        [(None, v) for v in node.value] if isinstance(node, SequenceNode) else [(k, v) for k, v in node.value])
    out: list[Unit] = []
    for key, value in entries:
        if not isinstance(value, MappingNode) or (key is not None and not isinstance(key, ScalarNode)):
            return None
        if _is_step(value):
            out.append(_Step(value, key))
        elif (group := _group(value, key, word, depth + 1)) is not None:
            out.append(group)
        else:
            return None
    return out or None


def _group(node: MappingNode, key: Node | None, word: str, depth: int) -> _Group | None:
    """A mapping that runs nothing and holds, under one key, its steps or further groups."""
    held = [(k, m) for k, v in node.value if isinstance(k, ScalarNode) and isinstance(v, MappingNode | SequenceNode)
            and yk.key_name(str(k.value)) not in _NAME_KEYS and yk.step_key(str(k.value)) != "depends_on"
            and (m := _members(v, yk.key_name(str(k.value)), depth)) is not None]
    if len(held) != 1:
        return None
    hk, members = held[0]
    named = next((v for k, v in node.value if isinstance(k, ScalarNode) and isinstance(v, ScalarNode)
                  and yk.key_name(str(k.value)) in _NAME_KEYS), None)
    name = str(key.value) if key is not None else str(named.value) if named is not None else ""
    after = next(((k, v) for k, v in node.value if isinstance(k, ScalarNode)
                  and yk.step_key(str(k.value)) == "depends_on"), None)
    return _Group(name, node, word, str(hk.value), after, members)


def _walk(units: list[Unit]) -> tuple[list[_Step], list[_Group]]:
    """Every step and every group under `units`, in document order (without recursion)."""
    steps: list[_Step] = []
    groups: list[_Group] = []
    todo = list(reversed(units))
    while todo:
        unit = todo.pop()
        if isinstance(unit, _Step):
            steps.append(unit)
        else:
            groups.append(unit)
            todo.extend(reversed(unit.members))
    return steps, groups


def _together(group: _Group) -> bool:
    """Whether a group's members start together: steps grouped by a word of stages; groups held under
    a word of lanes (else: one after another, in document order)."""
    if all(isinstance(m, _Step) for m in group.members):
        return group.word in _IN_ORDER_TOGETHER
    return yk.key_name(group.holder) in _SIDE_BY_SIDE


def _ends(unit: Unit) -> list[str]:
    """The steps that end a unit: what waits on it waits on them (a group's, worked out once)."""
    if isinstance(unit, _Step):
        return [unit.id]
    if unit.ends is None:
        unit.ends = [s for m in unit.members for s in _ends(m)] if _together(unit) else _ends(unit.members[-1])
    return unit.ends


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _ids(ids: list[str], like: Node) -> SequenceNode:
    return SequenceNode(SEQ, [scalar(i, like) for i in ids], like.start_mark, like.end_mark)


class _Reading:
    """The ids and waits of the steps of one container of groups, and what was read (module docstring)."""

    def __init__(self, r: NodeReader, groups: list[_Group]) -> None:
        self.r = r
        self.by_name = {_slug(g.name): g for g in groups if g.name}
        self.ids: set[str] = set()
        self.notes: list[Reading] = []

    def name(self, step: _Step, group: str, index: int) -> None:
        """The step's id, said in a reading when it is not its key as written."""
        own = {yk.key_name(str(k.value)): v for k, v in step.node.value if isinstance(k, ScalarNode)}
        if step.key is not None:
            written = str(step.key.value)
            sid = written if _ID.match(written) else _slug(written)
        else:
            said = own.get("id") if "id" in own else own.get("name")
            sid = "" if not isinstance(said, ScalarNode) else str(said.value) if "id" in own else _slug(str(said.value))
        sid = sid or f"step-{index + 1}"
        at = step.key or step.node
        if sid in self.ids:
            sid = f"{_slug(group) or 'group'}-{sid}"
            self.notes.append(note(self.r, at, sid, "a step name used twice: read with its group's name in front",
                                   what="step"))
        self.ids.add(sid)
        step.id = sid
        if "id" in own and step.key is None and sid == str(own["id"].value):
            return
        step.node.value = [(k, v) for k, v in step.node.value if not (isinstance(k, ScalarNode) and yk.key_name(
            str(k.value)) == "id")]  # (a keyed step's own `id:` said again is replaced by its key's)
        add: list[Pair] = [(scalar("id", at), scalar(sid, at))]
        if step.key is not None and sid != str(step.key.value) and "name" not in own:
            add.append((scalar("name", at), scalar(str(step.key.value), at)))
        step.node.value[:0] = add

    def named(self, node: Node, where: str) -> list[str] | None:
        """The steps an `after:` value names, a group's name standing for the steps that end it; None when
        it names no group (the form reads it as written)."""
        values = node.value if isinstance(node, SequenceNode) else [node]
        if not all(isinstance(v, ScalarNode) for v in values):
            return None
        said = [w.strip() for v in values for w in str(v.value).split(",") if w.strip()]
        if not any(_slug(w) in self.by_name for w in said):
            return None
        out: list[str] = []
        for w in said:
            group = self.by_name.get(_slug(w))
            out += _ends(group) if group is not None else [w]
        self.notes.append(note(self.r, node, f"{where}: {', '.join(said)}", f"waits on {', '.join(out)} (a group's "
                                                                            "name: the steps that end it)",
                               what="depends_on"))
        return out

    def group_after(self, group: _Group, before: list[str]) -> list[str]:
        """What a group's first steps wait on: its own `after:`, else `before`."""
        if group.after is None:
            return before
        knode, vnode = group.after
        named = self.named(vnode, f"{group.name}: {knode.value}")
        if named is not None:
            return named
        value = self.r.value(vnode)
        said = [] if value is None else [value] if isinstance(value, str) else value if isinstance(value, list) else None
        steps = [str(s) for s in said or [] if str(s) in self.ids]
        if said is None or len(steps) != len(said):
            self.r.src.warn(self.r.line(knode), f"{group.name or 'a group'}: `{knode.value}: {self.r.value(vnode)}` "
                                                "names no group or step; not read (its steps wait as the grouping "
                                                "says)", "spec.unread")
            return before
        self.notes.append(note(self.r, knode, f"{group.name}: {knode.value}", f"its first steps wait on "
                                                                              f"{', '.join(steps) or 'nothing'}",
                               what="depends_on"))
        return steps

    def place(self, unit: Unit, before: list[str]) -> None:
        """Each step's `after:`: `before` is what the unit waits on unless it says its own."""
        if isinstance(unit, _Step):
            pair = next(((k, v) for k, v in unit.node.value if isinstance(k, ScalarNode)
                         and yk.step_key(str(k.value)) == "depends_on"), None)
            if pair is None:
                key = scalar("depends_on", unit.key or unit.node)
                fed = fed_from(unit.node, unit.id, self.ids)  # reads other steps' outputs: waits on those
                if fed and set(fed) != set(before):
                    self.r.src.warn(self.r.line(key), f"{unit.id}: waits on {', '.join(fed)}, whose outputs it reads, "
                                                      f"not on {', '.join(before) or 'nothing'} as its group's order "
                                                      "says: check the plan, or write `after:` on the step",
                                    "spec.grouped")
                    self.notes.append(note(self.r, key, unit.id, f"waits on {', '.join(fed)}: the steps whose outputs "
                                                                 "it reads", what="depends_on"))
                unit.node.value.append((key, _ids(fed or before, key)))
            elif (named := self.named(pair[1], f"{unit.id}: {pair[0].value}")) is not None:
                unit.node.value = [(k, _ids(named, pair[1]) if k is pair[0] else v) for k, v in unit.node.value]
            return
        before = self.group_after(unit, before)
        together = _together(unit)
        for member in unit.members:
            self.place(member, before)
            if not together:
                before = _ends(member)


def _unread(r: NodeReader, group: _Group) -> None:
    """A group's keys other than its name, its `after:`, its notes and its steps: warned at their line."""
    for k, _ in group.node.value:
        name = yk.key_name(str(k.value)) if isinstance(k, ScalarNode) else ""
        if name in _NAME_KEYS or name in _ASIDE_KEYS or yk.step_key(name) in _ASIDE_KEYS or (
                name == yk.key_name(group.holder) or yk.step_key(name) == "depends_on"):
            continue
        r.src.warn(r.line(k), f"{group.name or 'a group'}: key '{k.value}' of a group of steps not understood; not "
                              "read (a group is not a step: write it on each of its steps)", "spec.unread")


def _said(whole: _Group, groups: list[_Group]) -> str:
    """How the steps of a container of groups wait, in the author's words."""
    words = [yk.key_name(whole.holder)]
    for g in groups:
        words.append(g.word if all(isinstance(m, _Step) for m in g.members) else yk.key_name(g.holder))
    out = []
    for w in dict.fromkeys(words):
        if w in _IN_ORDER_TOGETHER:
            out.append(f"the {w} run one after another, the steps of each starting together (each waits on every "
                       "step of the one before)")
        elif w in _SIDE_BY_SIDE:
            out.append(f"the {w} run side by side, the steps of each in order")
        else:
            out.append(f"the {w} and their steps run in document order, each after the one before")
    return "; ".join(out)


def read_grouped(r: NodeReader, top: dict[str, Pair]) -> tuple[dict[str, Pair], list[Reading]]:
    """The top-level keys with a container of groups of name-keyed steps read as `steps:` (module docstring)."""
    found: tuple[str, Pair, list[Unit]] | None = None
    for raw, (knode, vnode) in top.items():
        members = _members(vnode, yk.key_name(raw), 0)
        if members is None or not any(isinstance(m, _Group) for m in members):
            continue
        grouped = [m for g in _walk(members)[1] for m in g.members if isinstance(m, _Step)]
        if found is not None or not any(s.key is not None for s in grouped):
            return top, []  # two containers, or groups of listed steps only (`yaml_jobs`', the anchored reading's)
        found = (raw, (knode, vnode), members)
    if found is None or any(yk.top_key(k) == "steps" and k != found[0] for k in top):
        return top, []
    raw, (knode, vnode), members = found
    whole = _Group(raw, MappingNode(MAP, [], knode.start_mark, knode.end_mark), "", raw, None, members)
    steps, groups = _walk(members)
    reading = _Reading(r, groups)
    owner = {id(s): g.name for g in groups for s in g.members if isinstance(s, _Step)}
    for index, step in enumerate(steps):
        reading.name(step, owner.get(id(step), raw), index)
    for group in groups:
        _unread(r, group)
    reading.place(whole, [])
    r.src.warn(r.line(knode), f"steps read from the {len(groups)} groups of `{raw}:` ({', '.join(s.id for s in steps)}), "
                              f"in document order: {_said(whole, groups)}; write `after:` on a step to say what it waits for",
               "spec.grouped")
    reading.notes.insert(0, note(r, knode, raw, f"{len(groups)} groups of {len(steps)} steps: read as the steps, in "
                                                "document order (a group is not a step)", what="step"))
    out = {k: p for k, p in top.items() if k != raw}
    out["steps"] = (knode, SequenceNode(SEQ, [s.node for s in steps], vnode.start_mark, vnode.end_mark))
    return out, reading.notes
