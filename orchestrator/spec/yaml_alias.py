"""YAML anchors, aliases and the merge key, read as the author meant them.

    x-defaults:
      patient: &patient {tries: 4, pause: 20s, pause_x: 2, pause_max: 5m}   # line 3
    steps:
      - id: a
        on_trouble: *patient                  # the whole mapping, here (line 7)
      - id: b
        on_trouble: {<<: *patient, tries: 6}  # its keys, `tries` said again: 6 wins

An alias (`*patient`) stands for the node its anchor (`&patient`) names; the composer hands the
very same node to every use, so whatever was read from it would point at the anchor's line (3),
not at the step that uses it. `expand` gives each use its own copy, at the alias's place (line 7),
and keeps (alias line, anchor name, anchor line) so that each step's readings name the anchor
(`anchor_readings`). The merge key `<<:` (a mapping, or a list of them) puts the keys of what it
names into the mapping that holds it, where the `<<` is; a key the mapping says itself wins, and
of a merged list the first that says a key wins (YAML's merge type). A compose file's `<<`
(a service's shared image and networks, `yaml_dialect`) is left to the compose reader.

A shared retry mapping often says its wait's growth and cap in its own words beside the count and
the first wait (`pause_x: 2`, `pause_max: 5m`, `wait_factor`, `delay_cap`): `retry_block` reads
such a block as one `retry:` mapping (count, first wait, factor, cap), so the waits grow as said
instead of the count being read with a fixed wait and the rest "not understood".
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

import yaml
from yaml.error import Mark
from yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)

MERGE_TAG = "tag:yaml.org,2002:merge"
MAP = "tag:yaml.org,2002:map"
STR = "tag:yaml.org,2002:str"


@dataclass(frozen=True)
class AnchorUse:
    line: int  # the alias's line (1-based)
    name: str  # the anchor's name
    anchor_line: int  # where the anchor is written
    merged: bool  # `<<: *name` (its keys) rather than `*name` (the node)


@dataclass
class Uses:
    """The uses of anchors in a document, by line (for the steps' readings)."""

    uses: list[AnchorUse]

    def __post_init__(self) -> None:
        self.uses.sort(key=lambda u: u.line)
        self._lines = [u.line for u in self.uses]
        self.anchor_lines = {u.anchor_line for u in self.uses}

    def between(self, first: int, last: int) -> list[AnchorUse]:
        return self.uses[bisect_left(self._lines, first):bisect_right(self._lines, last)]


def _events(text: str) -> list[tuple[str, int, int, int, bool]]:
    """(name, line, column, anchor line, is alias) for every anchor and alias, in document order."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out: list[tuple[str, int, int, int, bool]] = []
    anchors: dict[str, int] = {}
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, AliasEvent):
                out.append((event.anchor, event.start_mark.line, event.start_mark.column,
                            anchors.get(event.anchor, 0), True))
            elif isinstance(event, CollectionStartEvent | ScalarEvent) and event.anchor:
                anchors[event.anchor] = event.start_mark.line + 1
    except yaml.YAMLError:
        return []  # the document was composed: a parse that fails here reads no anchors
    return out


def _copy(node: Node, mark: Mark) -> Node:
    """`node`'s subtree, every node at `mark` (an alias's place)."""
    if isinstance(node, ScalarNode):
        return ScalarNode(node.tag, node.value, mark, mark, style=node.style)
    if isinstance(node, SequenceNode):
        return SequenceNode(node.tag, [_copy(n, mark) for n in node.value], mark, mark, flow_style=node.flow_style)
    if isinstance(node, MappingNode):
        return MappingNode(node.tag, [(_copy(k, mark), _copy(v, mark)) for k, v in node.value], mark, mark,
                           flow_style=node.flow_style)
    return node


def _children(node: Node) -> list[tuple[Node, int, int]]:
    """(child, index in node.value, 0 key / 1 value / -1 item), in document order."""
    if isinstance(node, SequenceNode):
        return [(n, i, -1) for i, n in enumerate(node.value)]
    if isinstance(node, MappingNode):
        return [(pair[side], i, side) for i, pair in enumerate(node.value) for side in (0, 1)]
    return []


def _put(parent: Node, index: int, side: int, child: Node) -> None:
    if side < 0:
        parent.value[index] = child
    else:
        pair = list(parent.value[index])
        pair[side] = child
        parent.value[index] = tuple(pair)


def expand(src: Source, root: Node) -> Uses:
    """Each alias in `root` as its own copy at the alias's line, and each merge key's mapping(s)
    merged in (module docstring); the uses, for the steps' readings."""
    if "*" not in src.text or "&" not in src.text:
        return Uses([])
    aliases = [e for e in _events(src.text) if e[4]]
    uses: list[AnchorUse] = []
    seen: set[int] = {id(root)}
    # document order (pre-order, children in turn): an alias is the second time its node is met;
    # each open node keeps its children still to visit, and whether it is a merge key's value
    stack: list[tuple[Node, Iterator[tuple[Node, int, int]], bool]] = [(root, iter(_children(root)), False)]
    k = 0
    while stack:
        node, rest, merging = stack[-1]
        step = next(rest, None)
        if step is None:
            stack.pop()
            continue
        child, index, side = step
        merge = merging if side < 0 else side == 1 and _is_merge(node.value[index][0])
        if id(child) not in seen:
            seen.add(id(child))
            stack.append((child, iter(_children(child)), merge))
            continue
        if k >= len(aliases):
            continue
        name, line, column, anchor_line, _ = aliases[k]
        k += 1
        _put(node, index, side, _copy(child, Mark(src.path, 0, line, column, None, None)))
        uses.append(AnchorUse(line=line + 1, name=name, anchor_line=anchor_line, merged=merge))
    if not _compose_file(root):
        _merge_all(root)
    return Uses(uses)


def _is_merge(key: Node) -> bool:
    return isinstance(key, ScalarNode) and (key.tag == MERGE_TAG or (key.value == "<<" and not key.style))


def _compose_file(root: Node) -> bool:
    return isinstance(root, MappingNode) and any(isinstance(k, ScalarNode) and k.value == "services"
                                                 for k, _ in root.value)


def _merge_all(root: Node) -> None:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode) and any(_is_merge(k) for k, _ in node.value):
            node.value = _merged(node)
        stack.extend(child for child, _, _ in _children(node))


def _merged(node: MappingNode) -> list[tuple[Node, Node]]:
    own = {str(k.value) for k, _ in node.value if isinstance(k, ScalarNode) and not _is_merge(k)}
    out: list[tuple[Node, Node]] = []
    for key, value in node.value:
        if not _is_merge(key):
            out.append((key, value))
            continue
        sources = value.value if isinstance(value, SequenceNode) else [value]
        if not all(isinstance(s, MappingNode) for s in sources):
            out.append((key, value))  # `<<: 3`: not a merge; warned as a key not understood
            continue
        for source in sources:
            for k, v in _merged(source) if any(_is_merge(x) for x, _ in source.value) else source.value:
                name = str(k.value) if isinstance(k, ScalarNode) else None
                if name is not None and name not in own:
                    own.add(name)
                    out.append((k, v))
    return out


def shared_block(uses: Uses, node: Node) -> bool:
    """Whether `node` (a top-level key's value) only holds anchors that aliases use: a block of shared
    settings (`x-defaults:`, `presets:`), used where the aliases are; neither steps nor inputs."""
    if not uses.anchor_lines or not isinstance(node, MappingNode) or not node.value:
        return False
    if node.start_mark.line + 1 in uses.anchor_lines:
        return True
    return all(isinstance(v, MappingNode | SequenceNode) and v.start_mark.line + 1 in uses.anchor_lines
               for _, v in node.value)


def anchor_readings(src: Source, uses: Uses, first: int, last: int) -> list[Reading]:
    """The readings of the anchors used on lines `first`..`last` (a step's lines)."""
    return [Reading(what="key", where=src.where(u.line), text=f"{'<<: ' if u.merged else ''}*{u.name}",
                    note=f"{'the keys' if u.merged else 'the settings'} of the anchor &{u.name} on line "
                         f"{u.anchor_line}, used here" + ("; the keys written beside it win" if u.merged else ""))
            for u in uses.between(first, last)]


# a key of a retry block that says how the wait grows or where it stops, in the author's words:
# `pause_x`, `wait_factor`, `delay_multiplier`, `backoff_x` / `pause_max`, `max_pause`, `delay_cap`
_WAIT = r"(?:pause|wait|delay|backoff|sleep|gap|interval|cooldown|breather|spacing)"
_FACTOR = _rx(rf"^{_WAIT}_(?:x|times|factor|mult|multiplier|growth|grows_by|scale|ratio)$")
_CAP = _rx(rf"^(?:{_WAIT}_(?:max|cap|ceiling|limit|at_most|upto|up_to)|(?:max|max_|longest_){_WAIT})$")


def growth_kind(raw: str) -> str | None:
    """"multiplier" for `pause_x`, "max_delay_s" for `pause_max`; None for any other key."""
    name = yk.key_name(raw)
    if _FACTOR.match(name):
        return "multiplier"
    if _CAP.match(name):
        return "max_delay_s"
    return None


def retry_block(block: MappingNode) -> MappingNode | None:
    """A policy block that gives a retry count and its wait's growth or cap in its own words, as one
    `retry:` mapping of the form's retry keys (count, first wait, factor, cap); None when it says
    no growth or cap, or no count."""
    parts: dict[str, tuple[Node, Node]] = {}
    for key, value in block.value:
        raw = str(key.value) if isinstance(key, ScalarNode) else ""
        kind = growth_kind(raw)
        step = yk.step_key(raw)
        if kind is None and step in ("retry", "retries", "attempts"):
            kind = "attempts" if step == "attempts" else "retries"
        elif kind is None and (step in ("retry_delay",) or yk.retry_key(raw) == "delay"):
            kind = "delay"
        if kind is not None and kind not in parts:
            parts[kind] = (key, value)
    if not ({"multiplier", "max_delay_s"} & set(parts)) or not ({"attempts", "retries"} & set(parts)):
        return None
    pairs = [(ScalarNode(STR, kind, key.start_mark, key.end_mark), value) for kind, (key, value) in parts.items()]
    if "multiplier" in parts or "delay" in parts:
        at = next(iter(parts.values()))[0]
        pairs.append((ScalarNode(STR, "backoff", at.start_mark, at.end_mark),
                      ScalarNode(STR, "exponential", at.start_mark, at.end_mark)))
        pairs.append((ScalarNode(STR, "jitter", at.start_mark, at.end_mark),  # not said: the waits as written
                      ScalarNode("tag:yaml.org,2002:bool", "false", at.start_mark, at.end_mark)))
    return MappingNode(MAP, pairs, block.start_mark, block.end_mark, flow_style=block.flow_style)


def retry_keys(block: MappingNode) -> set[str]:
    """The keys of `block` that `retry_block` reads (as written)."""
    out: set[str] = set()
    for key, _ in block.value:
        raw = str(key.value) if isinstance(key, ScalarNode) else ""
        step = yk.step_key(raw)
        if growth_kind(raw) or step in ("retry", "retries", "attempts", "retry_delay") or yk.retry_key(raw) == "delay":
            out.add(raw)
    return out


_rx.save()
