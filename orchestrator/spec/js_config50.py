"""What a config module's steps say by their shape (round 50), for `spec.code_calls`.

    { id: 'power', skill: 'set-list-power', when: "strip.angle === 'overhang'" },
    { id: 'tech',  skill: 'set-list-technical', when: 'otherwise' },     -> power and tech: never both
    { id: 'crew',  after: ['power', 'tech'], ... }                       -> whichever of them ran

A step whose `when` is `otherwise` / `else` runs exactly when the nearest conditioned step before it
does not, so the two (and any further `otherwise` after the same one) exclude each other. A step
that waits on only such steps cannot wait for all of them (one is always skipped): it waits for
whichever ran (`depends_on: {any: [...]}`, the YAML form's join). A list that also names a step
outside the group is left as written.
"""

from __future__ import annotations

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.code_literal import Lit

_TAG = "tag:yaml.org,2002:"
_ELSE = frozenset({"otherwise", "else", "default", "elif-none"})


def _field(item: Lit, canonical: str) -> str | None:
    for key, _, inner in item.pairs:
        if yk.step_key(key) == canonical and inner.kind == "str" and isinstance(inner.value, str):
            return inner.value
    return None


def exclusive_branches(items: list[Lit]) -> list[frozenset[str]]:
    """The groups of step ids of which at most one runs: a conditioned step and the `otherwise`
    steps after it (module docstring)."""
    groups: list[set[str]] = []
    current: set[str] | None = None
    for item in items:
        if item.kind != "map":
            continue
        sid = _field(item, "id") or _field(item, "name")
        when = _field(item, "when")
        if sid is None or when is None:
            continue
        if when.strip().lower() in _ELSE:
            if current is not None:
                current.add(sid)
        else:
            current = {sid}
            groups.append(current)
    return [frozenset(g) for g in groups if len(g) > 1]


def any_join(value: Lit, groups: list[frozenset[str]], path: str) -> Node | None:
    """`depends_on: {any: [...]}` for a list naming two or more steps of one exclusive group and
    nothing else, else None."""
    names = [i.value for i in value.items if i.kind == "str" and isinstance(i.value, str)]
    if len(names) < 2 or len(names) != len(value.items) or not any(set(names) <= g for g in groups):
        return None
    mark = Mark(path, 0, max(value.line, 1) - 1, 0, None, None)
    seq = SequenceNode(f"{_TAG}seq", [ScalarNode(f"{_TAG}str", n, mark, mark, style='"') for n in names], mark, mark)
    return MappingNode(f"{_TAG}map", [(ScalarNode(f"{_TAG}str", "any", mark, mark), seq)], mark, mark)
