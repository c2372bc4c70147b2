"""What a step's inputs can be bound to: the steps' outputs and the step's place in the graph.

`Scope.nearest` walks back from a step's dependencies to the nearest steps for which a
test holds (the nearest producers of a name, the nearest `For each` step): a step that
holds ends its path, and one upstream of another that holds is dropped. The walk visits
only what lies between the step and those producers, so a long chain costs little.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from orchestrator.plan.lineage import Lineage


class Produced(BaseModel):
    """What one step outputs: property names, and names that stand for its whole output.

    `gathered`: a `For each` step, whose output is the list of its items' outputs."""

    model_config = ConfigDict(frozen=True)

    step: str
    index: int
    fields: frozenset[str] = frozenset()
    aliases: frozenset[str] = frozenset()
    gathered: bool = False

    def outputs(self, name: str) -> bool:
        return name in self.fields or name in self.aliases


class Producers:
    """Which steps output which names, indexed once: bit `p.index` per producer `p`."""

    def __init__(self, produced: Iterable[Produced]) -> None:
        self.by_index: dict[int, Produced] = {}
        self.by_step: dict[str, Produced] = {}
        self.field_bits: dict[str, int] = {}
        self.alias_bits: dict[str, int] = {}
        self.gathered_bits = 0
        for p in produced:
            self.by_index[p.index] = p
            self.by_step[p.step] = p
            for name in p.fields:
                self.field_bits[name] = self.field_bits.get(name, 0) | (1 << p.index)
            for name in p.aliases:
                self.alias_bits[name] = self.alias_bits.get(name, 0) | (1 << p.index)
            if p.gathered:
                self.gathered_bits |= 1 << p.index


class Upstream:
    """The producers a step may read: those of `producers` whose bit is set in `allowed`
    (its ancestors, or every earlier step). The latest that outputs a name is found with
    one AND of two ints, not by scanning the steps before it."""

    def __init__(self, producers: Producers, allowed: int) -> None:
        self.producers = producers
        self.allowed = allowed

    @classmethod
    def of(cls, earlier: Sequence[Produced]) -> Upstream:
        """From a list, latest first (its own order decides, not `index`)."""
        renumbered = [p.model_copy(update={"index": len(earlier) - 1 - i}) for i, p in enumerate(earlier)]
        return cls(Producers(renumbered), (1 << len(earlier)) - 1)

    def _latest(self, bits: int) -> Produced | None:
        bits &= self.allowed
        return self.producers.by_index[bits.bit_length() - 1] if bits else None

    def with_field(self, name: str) -> Produced | None:
        return self._latest(self.producers.field_bits.get(name, 0))

    def with_alias(self, name: str) -> Produced | None:
        return self._latest(self.producers.alias_bits.get(name, 0))

    def outputting(self, name: str) -> Produced | None:
        return self._latest(self.producers.field_bits.get(name, 0) | self.producers.alias_bits.get(name, 0))

    def only_outputting(self, name: str) -> Produced | None:
        """The one allowed producer of `name`; None when none or several output it."""
        bits = (self.producers.field_bits.get(name, 0) | self.producers.alias_bits.get(name, 0)) & self.allowed
        return self.producers.by_index[bits.bit_length() - 1] if bits and not bits & (bits - 1) else None

    def get(self, step: str, /) -> Produced | None:
        made = self.producers.by_step.get(step)
        return made if made is not None and (self.allowed >> made.index) & 1 else None


@dataclass(frozen=True)
class Scope:
    """What a step's inputs can be bound to."""

    inputs: tuple[str, ...]  # workflow input names
    produced: Mapping[str, Produced]  # every step's outputs
    deps: Mapping[str, Sequence[str]]  # every step's dependencies
    start: tuple[str, ...]  # the step's own dependencies
    joined: tuple[str, ...] = ()  # a join's dependencies ("whichever ran")
    contract_fields: Mapping[str, str] = field(default_factory=dict)  # name -> producer, Data Contracts
    item_fields: frozenset[str] | None = None  # the For each item's properties (None: not declared)
    path: str = ""
    # pairs of steps of which at most one runs: an if and its Otherwise, two routes of one router
    exclusive: frozenset[frozenset[str]] = frozenset()
    makers: Mapping[str, frozenset[str]] | None = None  # name -> the steps that output it (None: not indexed)
    step: str = ""  # the step whose inputs these are
    # the steps' ancestors as bitsets and the producers by bit (`Lineage`, `Producers`): with both,
    # the nearest producers are found with a few ANDs of ints instead of a walk back
    lineage: Lineage | None = None
    made_by: Producers | None = None

    def _ancestor_bits(self) -> int:
        assert self.lineage is not None
        return self.lineage.ancestor_bits(self.step)

    def _nearest_bits(self, bits: int) -> list[str]:
        """The nearest ancestors among the producers whose bit is set in `bits`, as `nearest`
        finds them: those that are no ancestor of another, the latest in spec order first."""
        assert self.lineage is not None and self.made_by is not None
        remaining = bits & self._ancestor_bits()
        chosen: list[int] = []
        covered = 0
        while remaining:
            top = remaining.bit_length() - 1
            chosen.append(top)
            above = self.lineage.ancestor_bits(self.lineage.ids[top])
            covered |= above
            remaining &= ~(above | (1 << top))
        return [self.made_by.by_index[i].step for i in chosen if not (covered >> i) & 1 and i in self.made_by.by_index]

    def nearest_outputting(self, name: str) -> list[str]:
        """`nearest` for the producers of `name`."""
        if self.lineage is None or self.made_by is None:
            return self.nearest(lambda made: made.outputs(name))
        return self._nearest_bits(self.made_by.field_bits.get(name, 0) | self.made_by.alias_bits.get(name, 0))

    def nearest_gathered(self) -> list[str]:
        """`nearest` for the `For each` steps."""
        if self.lineage is None or self.made_by is None:
            return self.nearest(lambda made: made.gathered)
        return self._nearest_bits(self.made_by.gathered_bits)

    def earlier(self) -> Upstream | list[Produced]:
        """The step's ancestors' outputs, for `resolve_name` (the latest producer of a name)."""
        if self.lineage is None or self.made_by is None:
            return [self.produced[s] for s in self.upstream()]
        return Upstream(self.made_by, self._ancestor_bits())

    def nearest(self, found: Callable[[Produced], bool]) -> list[str]:
        """The nearest ancestors for which `found` holds: walking back from the step's
        dependencies, a step that holds ends its path; one upstream of another that holds is
        dropped. Latest in spec order first."""
        hits: list[str] = []
        seen: set[str] = set()
        todo = list(self.start)
        while todo:
            sid = todo.pop()
            if sid in seen or sid not in self.produced:
                continue
            seen.add(sid)
            if found(self.produced[sid]):
                hits.append(sid)
            else:
                todo.extend(self.deps.get(sid, ()))
        hits = [h for h in hits if not any(self.reaches(h, other) for other in hits if other != h)]
        return sorted(hits, key=lambda s: -self.produced[s].index)

    def reaches(self, ancestor: str, step: str) -> bool:
        """Whether `step` depends on `ancestor`, directly or not."""
        seen: set[str] = set()
        todo = list(self.deps.get(step, ()))
        while todo:
            sid = todo.pop()
            if sid == ancestor:
                return True
            if sid not in seen:
                seen.add(sid)
                todo.extend(self.deps.get(sid, ()))
        return False

    def upstream(self) -> list[str]:
        """Every ancestor of the step, latest in spec order first."""
        if self.lineage is not None:
            return [s for s in self.lineage.ancestors(self.step) if s in self.produced]
        seen: set[str] = set()
        todo = list(self.start)
        while todo:
            sid = todo.pop()
            if sid not in seen and sid in self.produced:
                seen.add(sid)
                todo.extend(self.deps.get(sid, ()))
        return sorted(seen, key=lambda s: -self.produced[s].index)


