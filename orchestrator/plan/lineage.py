"""Which steps come before which, as bitsets: built in one pass, asked in constant-ish time.

    Lineage(order, deps)            order: the step ids in spec order; deps: id -> the ids it depends on
      .ancestor_bits(step)          bit i set when order[i] is an ancestor (see `bit`)
      .ancestors(step)              its ancestors, latest in spec order first
      .is_ancestor(other, step)
      .descendants(step)            the steps that depend on it, directly or not, in spec order
    highest(bits), lowest(bits, n)  positions of set bits

A planner asking "every step before this one" of each of 10 000 steps, as lists,
does 50 million steps of work on a chain; as Python ints of one bit per step the
same answers are a few machine words each. An id that `deps` names but `order`
lacks (a typo, reported elsewhere) gets a bit past the known steps, and comes last.
Steps on a dependency cycle are each other's ancestors, as a walk along `deps` finds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence


def highest(bits: int) -> int:
    """The position of the highest set bit (-1 for none)."""
    return bits.bit_length() - 1


def positions(bits: int, *, latest_first: bool = True) -> Iterator[int]:
    """The set bits' positions, highest first (or lowest first)."""
    if latest_first:
        while bits:
            top = bits.bit_length() - 1
            yield top
            bits ^= 1 << top
    else:
        while bits:
            low = bits & -bits
            yield low.bit_length() - 1
            bits ^= low


class Lineage:
    """Ancestors and descendants of every step of one plan (module docstring)."""

    def __init__(self, order: Sequence[str], deps: Mapping[str, Sequence[str]]) -> None:
        self.ids: list[str] = list(order)
        self.bit: dict[str, int] = {sid: i for i, sid in enumerate(self.ids)}
        self._known = len(self.ids)
        self._deps: list[list[int]] = [[] for _ in self.ids]
        for i, sid in enumerate(order):
            self._deps[i] = [self._index(d) for d in deps.get(sid, ())]
        self._sccs = self._components()
        self._anc = self._ancestors()
        self._desc: list[int] | None = None

    def _index(self, sid: str) -> int:
        at = self.bit.get(sid)
        if at is None:
            at = self.bit[sid] = len(self.ids)
            self.ids.append(sid)
            self._deps.append([])
        return at

    def _components(self) -> list[list[int]]:
        """Strongly connected components along `deps`, each after those it depends on (Tarjan)."""
        count = len(self.ids)
        index = [-1] * count
        low = [0] * count
        on_stack = [False] * count
        stack: list[int] = []
        found: list[list[int]] = []
        counter = 0
        for root in range(count):
            if index[root] >= 0:
                continue
            work: list[tuple[int, int]] = [(root, 0)]
            while work:
                node, child = work.pop()
                if child == 0:
                    index[node] = low[node] = counter
                    counter += 1
                    stack.append(node)
                    on_stack[node] = True
                edges = self._deps[node]
                while child < len(edges):
                    nxt = edges[child]
                    child += 1
                    if index[nxt] < 0:
                        work.append((node, child))
                        work.append((nxt, 0))
                        break
                    if on_stack[nxt]:
                        low[node] = min(low[node], index[nxt])
                else:
                    if low[node] == index[node]:
                        members = []
                        while True:
                            member = stack.pop()
                            on_stack[member] = False
                            members.append(member)
                            if member == node:
                                break
                        found.append(members)
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[node])
        return found

    def _ancestors(self) -> list[int]:
        return _closure(self._sccs, self._deps)  # ancestors' components come first

    def _descendants(self) -> list[int]:
        if self._desc is None:
            users: list[list[int]] = [[] for _ in self.ids]
            for node, edges in enumerate(self._deps):
                for d in edges:
                    users[d].append(node)
            self._desc = _closure(list(reversed(self._sccs)), users)  # dependents' components first
        return self._desc

    def ancestor_bits(self, step: str) -> int:
        at = self.bit.get(step)
        return self._anc[at] if at is not None else 0

    def is_ancestor(self, other: str, step: str) -> bool:
        at = self.bit.get(other)
        return at is not None and (self.ancestor_bits(step) >> at) & 1 == 1

    def ancestors(self, step: str) -> list[str]:
        """Latest in spec order first; ids missing from the spec come last."""
        bits = self.ancestor_bits(step)
        unknown = bits >> self._known
        known = bits & ((1 << self._known) - 1)
        return ([self.ids[i] for i in positions(known)]
                + [self.ids[self._known + i] for i in positions(unknown, latest_first=False)])

    def descendant_bits(self, step: str) -> int:
        at = self.bit.get(step)
        return self._descendants()[at] & ((1 << self._known) - 1) if at is not None else 0

    def descendants(self, step: str, limit: int | None = None) -> list[str]:
        """The steps that depend on `step`, in spec order (the first `limit` of them)."""
        found: list[str] = []
        for i in positions(self.descendant_bits(step), latest_first=False):
            if limit is not None and len(found) >= limit:
                break
            found.append(self.ids[i])
        return found


def _closure(components: list[list[int]], edges: list[list[int]]) -> list[int]:
    """Each node's bits of the nodes it reaches through `edges`, the components in an
    order where every component comes after those it reaches; a node in a cycle reaches
    the members of its component (itself excepted)."""
    reach = [0] * len(edges)
    for members in components:
        inside = 0
        for m in members:
            inside |= 1 << m
        bits = 0
        cyclic = len(members) > 1
        for m in members:
            for d in edges[m]:
                if (inside >> d) & 1:
                    cyclic = True
                else:
                    bits |= reach[d] | (1 << d)
        if cyclic:
            bits |= inside
        for m in members:
            reach[m] = bits & ~(1 << m)
    return reach
