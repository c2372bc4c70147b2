"""Bounded YAML: aliases may not repeat more than the document's own size allows, an alias
may not sit inside the node it names, and an integer has at most 4300 digits."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orchestrator import yamlsafe
from tests.unit.spec.test_spec_fuzz import YAML_TEXT

LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)


def test_billion_laughs_is_refused_at_the_alias_that_crosses_the_bound() -> None:
    with pytest.raises(yamlsafe.AliasBoundError) as caught:
        yamlsafe.compose(LAUGHS)
    assert caught.value.problem_mark.line + 1 == 5  # e: [*d x 9], each *d some 36 000 nodes and characters
    assert "write the values out, or use fewer aliases" in caught.value.problem


def test_a_few_aliases_of_a_shared_value_are_allowed() -> None:
    text = "retry: &r {max_attempts: 3, backoff: exponential}\nsteps:\n" + "".join(
        f"  - {{id: s{i}, retry: *r}}\n" for i in range(200)
    )
    value = yamlsafe.load(text)
    assert value["steps"][199]["retry"] == {"max_attempts": 3, "backoff": "exponential"}


def test_a_long_scalar_repeated_by_aliases_counts_its_characters() -> None:
    text = f"big: &b {'x' * 60_000}\nmany: [{', '.join(['*b'] * 4)}]\n"
    with pytest.raises(yamlsafe.AliasBoundError):
        yamlsafe.load(text)
    assert yamlsafe.load(f"big: &b {'x' * 60_000}\nmany: [*b]\n")["many"] == ["x" * 60_000]


def test_a_doubling_chain_of_anchors_is_refused_without_big_numbers() -> None:
    text = "a0: &a0 [x]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 3000))
    with pytest.raises(yamlsafe.AliasBoundError) as caught:
        yamlsafe.compose(text)
    assert caught.value.problem_mark.line + 1 < 30


@pytest.mark.parametrize("text", ["a: &a [*a]", "a: &a {k: *a}", "a: &a [[x, [*a]]]"])
def test_an_alias_inside_the_node_it_names_is_refused(text: str) -> None:
    with pytest.raises(yamlsafe.AliasBoundError, match="recursive structure"):
        yamlsafe.load(text)


def test_an_integer_of_100_000_digits_is_an_error_at_its_line() -> None:
    with pytest.raises(yaml.constructor.ConstructorError) as caught:
        yamlsafe.load("a: 1\nb: " + "9" * 100_000 + "\n")
    assert caught.value.problem == "an integer of 100,000 digits is too long (at most 4300)"
    assert caught.value.problem_mark.line + 1 == 2


def test_a_long_sexagesimal_integer_is_refused_before_it_is_built() -> None:
    with pytest.raises(yaml.constructor.ConstructorError, match="too long"):
        yamlsafe.load("a: " + ":".join(["1"] * 3000))


def test_integers_up_to_the_bound_and_other_scalars_load_as_before() -> None:
    text = f"n: {'9' * 4300}\nf: 1.5e3\nh: 0x1F\nb: yes\ns: '12'\nm: {{<<: {{x: 1}}, y: 2}}\n"
    assert yamlsafe.load(text) == yaml.safe_load(text)


def _shape(node: yaml.Node | None, seen: dict[int, int] | None = None) -> object:
    """A node tree as plain data: tag, value, line, and which nodes are shared (aliases)."""
    seen = {} if seen is None else seen
    if node is None:
        return None
    if id(node) in seen:
        return ("alias", seen[id(node)])
    seen[id(node)] = len(seen)
    if isinstance(node, yaml.ScalarNode):
        return (node.tag, node.value, node.start_mark.line)
    if isinstance(node, yaml.SequenceNode):
        return (node.tag, node.start_mark.line, [_shape(n, seen) for n in node.value])
    return (node.tag, node.start_mark.line, [(_shape(k, seen), _shape(v, seen)) for k, v in node.value])


_YAML_WORDS = st.sampled_from([
    "a", "b: 1", "- x", "  - y", "key: value", "&an", "*an", "<<: *an", "'q'", '"d\\n"', "|", ">-", "  text",
    "{a: 1, b: [2, 3]}", "[1, 2]", "? k", ": v", "#c", "---", "...", "x: &an {y: 1}", "z: *an", "\t", "é", "0x1F",
    "1_000", "1:20", "~", "null", "yes", "2001-12-14", "!!str 1", "!custom x", "%YAML 1.1", "   ", "", ":",
])


@settings(max_examples=300, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(YAML_TEXT, st.lists(_YAML_WORDS, max_size=12).map("\n".join), st.text(max_size=60)))
def test_libyaml_and_the_pure_composer_give_the_same_nodes_or_the_same_error(text: str) -> None:
    try:
        slow = _shape(yamlsafe.compose(text, fast=False))
    except yaml.YAMLError as exc:
        with pytest.raises(yaml.YAMLError) as caught:
            yamlsafe.compose(text)
        assert str(caught.value) == str(exc)
        return
    assert _shape(yamlsafe.compose(text)) == slow
