"""The names a spec may use for its skills, known before the spec is read.

The compile pipeline loads the catalog first and hands the readers its names, so a reader
can tell a skill named in any quoting ('rank-hosts', *rank-hosts*, [rank-hosts](...), a bare
word) from a word that only looks like one. An empty vocabulary (a spec read on its own,
`parse_spec_text` without one) means: nothing is known, read by shape only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict, PrivateAttr


class Vocabulary(BaseModel):
    """Each catalog skill's name, and each MCP tool name that exactly one skill wraps (tool -> skill)."""

    model_config = ConfigDict(frozen=True)

    skills: frozenset[str] = frozenset()
    tools: dict[str, str] = {}
    # a skill's output field names (its schema's, else its instructions'), looked up when a reader asks
    _outputs: Callable[[str], frozenset[str]] | None = PrivateAttr(default=None)
    _inputs: Callable[[str], frozenset[str]] | None = PrivateAttr(default=None)
    _order: Callable[[str], tuple[str, ...]] | None = PrivateAttr(default=None)  # the inputs in the order said

    @classmethod
    def of(cls, skills: Iterable[tuple[str, str | None]]) -> Vocabulary:
        """From (skill name, wrapped tool or None) pairs; a tool two skills wrap names neither."""
        names: set[str] = set()
        wrapped: dict[str, list[str]] = {}
        for name, tool in skills:
            names.add(name)
            if tool:
                wrapped.setdefault(tool, []).append(name)
        return cls(skills=frozenset(names), tools={t: s[0] for t, s in wrapped.items() if len(s) == 1})

    def skill_for(self, name: str) -> str | None:
        """The skill `name` names: itself, or the one skill wrapping the tool `name`."""
        if name in self.skills:
            return name
        return self.tools.get(name) or self.cased(name)

    def cased(self, name: str) -> str | None:
        """The one catalog skill whose name is `name` in other letter case (`DORMANT-SCAN`: `dormant-scan`),
        or None (round 50; the plan notes it where it binds the step, `plan.bind`)."""
        if name in self.skills:
            return name
        folded = [s for s in self.skills if s.casefold() == name.casefold()]
        return folded[0] if len(folded) == 1 else None

    def with_outputs(self, lookup: Callable[[str], frozenset[str]],
                     inputs: Callable[[str], frozenset[str]] | None = None,
                     order: Callable[[str], tuple[str, ...]] | None = None) -> Vocabulary:
        """This vocabulary, able to say what each skill outputs (`outputs_of`) and takes (`inputs_of`, and in
        which order its schema or instructions list them: `inputs_in_order`)."""
        out = self.model_copy()
        out._outputs = lookup
        out._inputs = inputs
        out._order = order
        return out

    def inputs_in_order(self, skill: str) -> tuple[str, ...] | None:
        """The input names of a catalog skill in the order it lists them; None when not known."""
        skill = self.cased(skill) or skill
        if self._order is None or skill not in self.skills:
            return None
        return self._order(skill) or None

    def inputs_of(self, skill: str) -> frozenset[str] | None:
        """The input names of a catalog skill; None when they are not known."""
        skill = self.cased(skill) or skill
        if self._inputs is None or skill not in self.skills:
            return None
        return self._inputs(skill)

    def outputs_of(self, skill: str) -> frozenset[str] | None:
        """The output field names of a catalog skill; None when they are not known."""
        skill = self.cased(skill) or skill
        if self._outputs is None or skill not in self.skills:
            return None
        return self._outputs(skill)

    def __bool__(self) -> bool:
        return bool(self.skills)


EMPTY = Vocabulary()
