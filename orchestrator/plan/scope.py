"""What a step's inputs can be bound to: the steps' outputs and the step's place in the graph.

`Scope.nearest` walks back from a step's dependencies to the nearest steps for which a
test holds (the nearest producers of a name, the nearest `For each` step): a step that
holds ends its path, and one upstream of another that holds is dropped. The walk visits
only what lies between the step and those producers, so a long chain costs little.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict


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
        seen: set[str] = set()
        todo = list(self.start)
        while todo:
            sid = todo.pop()
            if sid not in seen and sid in self.produced:
                seen.add(sid)
                todo.extend(self.deps.get(sid, ()))
        return sorted(seen, key=lambda s: -self.produced[s].index)


