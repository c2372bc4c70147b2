"""YAML that cannot blow up: what aliases repeat is bounded, and so are integers.

    compose(text) -> Node | None   `yaml.compose` with the bounds, nodes keep their marks
                                   (libyaml when the text is fine, the pure composer else)
    load(text) -> Any              `yaml.safe_load` with the bounds
    BoundedConstructor             builds values from composed nodes, integers bounded

An alias (`*name`) repeats the node its anchor (`&name`) names. A few are
handy (one retry policy shared by several steps), and stay allowed; but ten
nested aliases of ten can stand for 10^10 nodes in 1 KB ("billion laughs"),
which nothing downstream (contracts, JSON, the journal) would survive. So a
document may expand, through its aliases, to at most twice its own written
size plus `SLACK` (size: one per node plus the characters of each scalar).
The alias that crosses the bound is an `AliasBoundError` at its line, and an
alias used inside the node it names (a recursive structure) is refused too.

An integer scalar longer than `MAX_INT_DIGITS` characters is a
`ConstructorError` at its line: Python refuses to convert one back to text
(and sexagesimal `1:2:3:...` would take quadratic time to build).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.error import Mark
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

SLACK = 100_000
MAX_INT_DIGITS = 4300  # sys.get_int_max_str_digits() by default
_SATURATED = 1 << 62  # expanded weights stop growing here (10 nested aliases of 10 need no bigints)


class AliasBoundError(ComposerError):  # type: ignore[misc]
    """Aliases that would repeat too much, or an alias inside the node it names."""


class _BoundedComposer(Composer):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self._uses: list[tuple[Node, Any]] = []  # (the node an alias names, the alias's mark)
        self._open: set[str] = set()  # anchors whose node is being composed

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            if event.anchor in self._open:
                raise AliasBoundError(None, None, f"alias *{event.anchor} is used inside the node "
                                                  f"&{event.anchor} it names (a recursive structure)",
                                      event.start_mark)
            node: Node = super().compose_node(parent, index)
            self._uses.append((node, event.start_mark))
            return node
        if event.anchor is None:
            node = super().compose_node(parent, index)
            return node
        self._open.add(event.anchor)
        try:
            node = super().compose_node(parent, index)
            return node
        finally:
            self._open.discard(event.anchor)

    def compose_document(self) -> Node | None:
        self._uses = []
        node: Node | None = super().compose_document()
        if node is not None and self._uses:
            _check_expansion(node, self._uses)
        return node


def _weights(root: Node) -> tuple[dict[int, int], int] | None:
    """Each node's expanded weight (aliases counted every time), and the written weight;
    None when a node contains itself (a recursive alias)."""
    expanded: dict[int, int] = {}
    entered: set[int] = set()
    written = 0
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in expanded:
            continue
        children = _children(node)
        if done or not children:
            own = 1 + (len(node.value) if isinstance(node, ScalarNode) else 0)
            expanded[id(node)] = min(own + sum(expanded[id(c)] for c in children), _SATURATED)
            written += own
            continue
        if id(node) in entered:
            return None  # reached again from inside itself
        entered.add(id(node))
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in expanded)
    return expanded, written


def _scalars_past(root: Node, last: int) -> list[ScalarNode]:
    found, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode) and node.start_mark.line > last:
            found.append(node)
        stack.extend(_children(node))
    return found


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _check_expansion(root: Node, uses: list[tuple[Node, Any]]) -> None:
    weights = _weights(root)
    assert weights is not None, "the composer refuses recursive aliases"
    expanded, written = weights
    limit = 2 * written + SLACK
    if expanded[id(root)] <= limit:
        return
    repeated = 0  # over-counts aliases inside aliased nodes: it crosses at or before the culprit
    for i, (node, mark) in enumerate(uses):
        repeated += expanded[id(node)]
        if repeated > limit - written or i == len(uses) - 1:
            raise AliasBoundError(None, None, f"the aliases up to here repeat over {limit - written:,} nodes "
                                              f"and characters (the document itself has {written:,}): "
                                              "write the values out, or use fewer aliases", mark)


class BoundedConstructor(SafeConstructor):  # type: ignore[misc]
    """`SafeConstructor` whose integers have at most MAX_INT_DIGITS characters."""

    def construct_yaml_int(self, node: ScalarNode) -> int:
        if isinstance(node.value, str) and len(node.value) > MAX_INT_DIGITS:
            raise ConstructorError(None, None, f"an integer of {len(node.value):,} digits is too long "
                                               f"(at most {MAX_INT_DIGITS})", node.start_mark)
        value: int = super().construct_yaml_int(node)
        return value


BoundedConstructor.add_constructor("tag:yaml.org,2002:int", BoundedConstructor.construct_yaml_int)


class BoundedLoader(Reader, Scanner, Parser, _BoundedComposer, BoundedConstructor, Resolver):  # type: ignore[misc]
    """`yaml.SafeLoader` with the alias and integer bounds."""

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        _BoundedComposer.__init__(self)
        BoundedConstructor.__init__(self)
        Resolver.__init__(self)


_SLOW = object()
# where libyaml and PyYAML read differently: tabs after a value (libyaml accepts them), the
# Unicode line breaks and a lone CR (counted as lines differently), the BOM, `!` tags
_DIVERGES = re.compile("[!\t\r\x85\u2028\u2029\ufeff]")


def _fast_compose(text: str) -> Any:
    """libyaml's composer (ten times faster) when the text is well-formed and within the
    alias bound; else _SLOW, and the pure-Python composer says exactly what and where."""
    if not getattr(yaml, "__with_libyaml__", False) or _DIVERGES.search(text):
        return _SLOW
    try:
        node = yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return _SLOW
    if node is None:
        return None
    weights = _weights(node)
    if weights is None:
        return _SLOW
    expanded, written = weights
    if expanded[id(node)] > 2 * written + SLACK:
        return _SLOW
    if not text.endswith(("\n", "\r")):  # libyaml puts an empty value at the very end one line further
        last = text.count("\n") + text.count("\r") - text.count("\r\n")
        for scalar in _scalars_past(node, last):
            mark = scalar.start_mark
            scalar.start_mark = scalar.end_mark = Mark(mark.name, mark.index, last, mark.column, None, None)
    return node


def compose(text: str, *, fast: bool = True) -> Node | None:
    """The node tree of a one-document YAML text. Raises yaml.YAMLError (AliasBoundError
    for aliases that repeat too much). `fast`: try libyaml first (same nodes and lines)."""
    if fast:
        node = _fast_compose(text)
        if node is not _SLOW:
            return node
    composed: Node | None = yaml.compose(text, Loader=BoundedLoader)
    return composed


def load(text: str) -> Any:
    """The value of a one-document YAML text, with the bounds. Raises yaml.YAMLError."""
    node = compose(text)
    return None if node is None else BoundedConstructor().construct_document(node)
