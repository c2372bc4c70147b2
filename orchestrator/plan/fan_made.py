"""What the steps before a step make, kept as the steps are read, for the fan-out reader.

`fan_words` looks, for a step whose text says a fan-out, for the nearest step before it that
gives a list of the things the step counts. Walking back over every step before each step is
quadratic: 8 000 steps that each say "for each module" took minutes. `Made` keeps, per key,
the latest step that gives a list under that key, so each question is a few dict lookups and
the nearest step is the one at the highest position.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from orchestrator.contracts import JsonSchema
from orchestrator.plan.fan_gather import singular
from orchestrator.plan.loop_field import array_fields
from orchestrator.plan.schema import properties_of, types_of


@dataclass
class Made:
    """The output fields of the steps read so far (a once-run step's lists, by name)."""

    fields: set[str] = field(default_factory=set)  # every output field, any type, loops' too
    lists: list[str] = field(default_factory=list)  # `step-1.prs`, in step order
    _by_one: dict[str, tuple[int, str]] = field(default_factory=dict)  # singular(list) -> (position, step)
    _by_lower: dict[str, tuple[int, str]] = field(default_factory=dict)  # list.lower() -> (position, step)
    _named: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # name.lower() -> (pos, step, field)
    _named_one: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # singular(name) -> (pos, step, field)
    _by_item: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # "field list" -> (pos, step, list)
    _item_lists: dict[str, dict[str, None]] = field(default_factory=dict)  # item field.lower() -> lists, latest last
    _item_keys: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)  # (step, list) -> its items' fields
    _said: dict[str, list[tuple[int, str, str]]] = field(default_factory=dict)  # item word -> (pos, step, list)
    _count: int = 0

    def add(self, sid: str, schema: JsonSchema, *, loop: bool) -> None:
        """A step read: its fields are made from here on; a loop's output is its results
        gathered, so its lists are not lists to loop over."""
        props = properties_of(schema)
        self.fields.update(props)
        self._count += 1
        if loop:
            return
        for name in array_fields(schema):
            self.lists.append(f"{sid}.{name}")
            self._by_one[singular(name)] = (self._count, sid)
            self._by_lower[name.lower()] = (self._count, sid)
            items = props[name].get("items") if isinstance(props[name], dict) else None
            keys = list(properties_of(items)) if isinstance(items, dict) else []
            for key in keys:
                self._by_item[f"{key.lower()} {name}"] = (self._count, sid, name)
                keyed = self._item_lists.setdefault(key.lower(), {})
                keyed.pop(name, None)  # the latest step's lists last
                keyed[name] = None
            self._item_keys[(sid, name)] = frozenset(k.lower() for k in keys)
        first: dict[str, str] = {}
        for name in props:
            first.setdefault(name.lower(), name)
        for lower, name in first.items():
            types = types_of(props[name])
            if not types or "array" in types:
                self._named[lower] = (self._count, sid, name)
                if singular(lower) != lower:  # `objects`, untyped: "every object" counts it
                    self._named_one[singular(lower)] = (self._count, sid, name)

    def add_said(self, sid: str, holds: dict[str, frozenset[str]]) -> None:
        """The lists of step `sid` (just added) by what their words say they hold (`spec.per_item`):
        `due` -> {patient}. Only the latest step that says a list of an item is kept for it."""
        for name, items in holds.items():
            for item in items:
                entries = self._said.get(item)
                if entries and entries[0][0] == self._count:
                    entries.append((self._count, sid, name))
                else:
                    self._said[item] = [(self._count, sid, name)]

    def said_lists(self, items: Iterable[str]) -> list[tuple[str, str, str]]:
        """(step, list, item) of the nearest step whose words say a list holds one of `items`
        ("the list of patients (`due`)" and `patient`); several when that step says so of two."""
        hits = [(entry, item) for item in items for entry in self._said.get(item.lower(), ())]
        if not hits:
            return []
        near = max(entry[0] for entry, _ in hits)
        out: dict[tuple[str, str], str] = {}
        for (pos, sid, name), item in hits:
            if pos == near:
                out.setdefault((sid, name), item)
        return [(sid, name, item) for (sid, name), item in out.items()]

    def nearest_list(self, items: Iterable[str], nouns: Iterable[str]) -> str | None:
        """The nearest step whose list is of `items` (`pr` and `prs`), or is named by or is of a
        counted noun (`rows`, `row`); None when no step before gives one."""
        hits = [self._by_one.get(i.lower()) for i in items]
        for noun in nouns:
            noun = noun.lower()
            hits += [self._by_lower.get(noun), self._by_one.get(noun), self._by_one.get(singular(noun))]
        found = [h for h in hits if h is not None]
        return max(found)[1] if found else None

    def nearest_named(self, names: Iterable[str], *, by_singular: bool = False) -> tuple[str, str] | None:
        """(step, field): the nearest step with an output field of one of `names` (or, `by_singular`,
        whose singular is one: "every object" and `objects`) that is a list or of no declared type,
        the first name winning at the same step."""
        best: tuple[int, str, str] | None = None
        for name in names:
            hit = self._named.get(name.lower()) or (self._named_one.get(name.lower()) if by_singular else None)
            if hit is not None and (best is None or hit[0] > best[0]):
                best = hit
        return (best[1], best[2]) if best else None

    def item_fields(self, sid: str, name: str) -> frozenset[str]:
        """The fields (lower case) the items of step `sid`'s list `name` declare; empty if none."""
        return self._item_keys.get((sid, name), frozenset())

    def lists_of_items_with(self, names: Iterable[str]) -> list[tuple[str, str]]:
        """(step, list) of the nearest step whose lists' items declare one of `names` as a field
        (`code` and `room_types`, a list of `{code, base_rate}`): the one whose items declare the
        most of them, or several when lists of that step tie (ambiguous); empty when none does."""
        wanted = {n.lower() for n in names}
        hits = {self._by_item[f"{n} {name}"] for n in wanted for name in list(self._item_lists.get(n, {}))[-8:]}
        if not hits:
            return []
        near = max(h[0] for h in hits)
        cover = {(h[1], h[2]): len(wanted & self._item_keys[(h[1], h[2])]) for h in hits if h[0] == near}
        most = max(cover.values())
        return sorted(pair for pair, count in cover.items() if count == most)
