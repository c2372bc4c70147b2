"""Where skill kinds come from: entry points of the `skillweave.kinds` group.

A kind is registered as an entry point whose object is a `SkillKind` (an instance,
or a subclass to instantiate), named as the kind:

    [project.entry-points."skillweave.kinds"]
    shout = "skillweave_shout:KIND"

The kinds shipped with skillweave are entry points of the same group, listed in
`BUILTIN` and read by the same loader (so they cannot be shadowed, and a plan of
built-in kinds never scans the installed distributions). Everything is lazy: a
kind's module is imported the first time that kind is asked for, and the installed
distributions are read only when a name is not a built-in one or when every kind is
listed (`skillweave skills kinds`, an unknown kind's error message).

A kind that fails to load (its module raises, its object is not a kind, its name
differs from its entry point's) is not registered; `problems` says why.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points

from orchestrator.kinds.model import KindTraits, SkillKind

GROUP = "skillweave.kinds"

BUILTIN: tuple[EntryPoint, ...] = (
    EntryPoint("script", "orchestrator.kinds.script:KIND", GROUP),
    EntryPoint("mcp", "orchestrator.kinds.mcp:KIND", GROUP),
    EntryPoint("llm", "orchestrator.kinds.llm:KIND", GROUP),
    EntryPoint("http", "orchestrator.kinds.http:KIND", GROUP),
)
BUILTIN_NAMES: tuple[str, ...] = tuple(ep.name for ep in BUILTIN)
_NO_TRAITS = KindTraits()


class KindRegistry:
    """The kinds of one process: built-in entry points first, then the installed ones.

    `installed` replaces the installed distributions' entry points (tests)."""

    def __init__(self, installed: Iterable[EntryPoint] | None = None) -> None:
        self._builtin = {ep.name: ep for ep in BUILTIN}
        self._installed: dict[str, EntryPoint] | None = (
            None if installed is None else self._by_name(installed)
        )
        self._loaded: dict[str, SkillKind | None] = {}
        self._traits: dict[str, KindTraits] = {}
        self.problems: dict[str, str] = {}  # entry point name -> why it is not registered

    @staticmethod
    def _by_name(found: Iterable[EntryPoint]) -> dict[str, EntryPoint]:
        out: dict[str, EntryPoint] = {}
        for ep in found:
            out.setdefault(ep.name, ep)
        return out

    def _installed_points(self) -> dict[str, EntryPoint]:
        if self._installed is None:
            points = self._by_name(entry_points(group=GROUP))
            self._installed = {n: ep for n, ep in points.items() if n not in self._builtin}
        return self._installed

    def get(self, name: str) -> SkillKind | None:
        """The kind registered as `name`, loaded on first use; None when there is none."""
        if name in self._loaded:
            return self._loaded[name]
        ep = self._builtin.get(name)
        if ep is None and name:
            ep = self._installed_points().get(name)
        kind = self._load(ep) if ep is not None else None
        self._loaded[name] = kind
        return kind

    def traits(self, name: str) -> KindTraits:
        """What the engine may rely on about kind `name` (none of it for a kind not registered)."""
        found = self._traits.get(name)
        if found is None:
            kind = self.get(name)
            found = self._traits[name] = kind.traits if kind is not None else _NO_TRAITS
        return found

    def names(self) -> tuple[str, ...]:
        """Every registered name (built-in and installed), without loading any kind."""
        return tuple(sorted({*self._builtin, *self._installed_points()}))

    def all(self) -> tuple[SkillKind, ...]:
        """Every kind that loads, by name."""
        return tuple(k for k in (self.get(n) for n in self.names()) if k is not None)

    def _load(self, ep: EntryPoint) -> SkillKind | None:
        try:
            obj = ep.load()
            if isinstance(obj, type) and issubclass(obj, SkillKind):
                obj = obj()
        except Exception as exc:  # a plug-in's module: whatever it raises, the kind is not there
            self.problems[ep.name] = f"{ep.value}: cannot load it: {type(exc).__name__}: {exc}"
            return None
        if not isinstance(obj, SkillKind):
            self.problems[ep.name] = f"{ep.value} is not a skill kind (an orchestrator.kinds.SkillKind)"
            return None
        if obj.name != ep.name:
            self.problems[ep.name] = f"{ep.value} names itself {obj.name!r}, not {ep.name!r}"
            return None
        return obj


@functools.cache
def kind_registry() -> KindRegistry:
    """The process's registry (the installed distributions are read once, when first needed)."""
    return KindRegistry()
