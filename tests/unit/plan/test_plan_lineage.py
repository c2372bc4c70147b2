"""Lineage (ancestors and descendants as bitsets) answers what a walk along the dependencies
answers, cycles and unknown ids included, and a 10 000-step chain costs bits, not lists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from orchestrator.plan.lineage import Lineage


def walk(step: str, deps: Mapping[str, Sequence[str]], order: Sequence[str]) -> list[str]:
    """The reference: a depth-first walk, latest in spec order first, unknown ids last."""
    seen: set[str] = set()
    todo = list(deps.get(step, ()))
    while todo:
        current = todo.pop()
        if current in seen or current == step:
            continue
        seen.add(current)
        todo += deps.get(current, ())
    position = {sid: i for i, sid in enumerate(order)}
    return sorted(seen, key=lambda s: (-position.get(s, -1), s))


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    n = draw(st.integers(1, 9))
    order = [f"s{i}" for i in range(n)]
    ids = st.sampled_from([*order, "typo", "gone"])
    return order, {s: tuple(draw(st.lists(ids, max_size=3))) for s in order}


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(graphs())
def test_lineage_agrees_with_a_walk_of_the_dependencies(graph: tuple[list[str], dict[str, tuple[str, ...]]]) -> None:
    order, deps = graph
    lineage = Lineage(order, deps)
    for step in order:
        expected = walk(step, deps, order)
        known = [s for s in expected if s in order]
        assert lineage.ancestors(step)[: len(known)] == known
        assert sorted(lineage.ancestors(step)[len(known):]) == sorted(set(expected) - set(known))
        for other in [*order, "typo"]:
            assert lineage.is_ancestor(other, step) == (other in expected)
        assert lineage.descendants(step) == [s for s in order if step in walk(s, deps, order)]


def test_a_long_chain_answers_from_bits() -> None:
    order = [f"s{i}" for i in range(10_000)]
    lineage = Lineage(order, {s: (order[i - 1],) for i, s in enumerate(order) if i})
    assert lineage.ancestor_bits("s9999") == (1 << 9999) - 1
    assert lineage.is_ancestor("s0", "s9999") and not lineage.is_ancestor("s9999", "s0")
    assert lineage.descendants("s0", limit=3) == ["s1", "s2", "s3"]
    assert lineage.descendant_bits("s0").bit_count() == 9999
