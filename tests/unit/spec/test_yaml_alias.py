"""YAML anchors, aliases and the merge key are read as the author meant (`spec.yaml_alias`): an alias is
the anchored mapping at the alias's own line, the reading naming the anchor's line; `<<: *x` merges
x's keys, the keys written beside it winning; a shared retry mapping's growth and cap in its own
words (`pause_x`, `wait_factor`, `delay_cap`, `backoff_max`) make the waits grow as said; a block that
only holds anchors is shared settings, not inputs and not a key "not understood". Four documents of
kinds no fixture uses (`test_yaml_alias_docs`)."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.source import Source
from orchestrator.spec.yaml_alias import expand, growth_kind
from orchestrator.yamlsafe import compose
from tests.unit.spec.test_yaml_alias_docs import DOCS, IDS, Doc, plan, read


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_an_alias_is_the_anchored_settings_at_the_alias_s_line_naming_the_anchor(doc: Doc) -> None:
    p = plan(doc)
    a, _, _, d = (p.step(i) for i in doc.ids)
    assert a.policy.attempt_timeout_s == doc.a_timeout_s
    retry = d.policy.retry
    assert (retry.max_retries, retry.initial_s, retry.multiplier, retry.max_delay_s) == doc.d_retry
    assert retry.delays_s == () and retry.jitter is False
    line, anchor = doc.d_alias
    step = next(s for s in read(doc).steps if s.id == doc.ids[3])
    said = [r for r in step.readings if r.text.startswith("*")]
    assert [(r.where, f"on line {anchor}" in r.note) for r in said] == [(f"w.yaml:{line}", True)]
    assert d.provenance["policy.retry"].where == f"w.yaml:{line}"  # the alias's line, not the anchor's


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_a_merge_key_takes_the_anchor_s_keys_and_the_keys_beside_it_win(doc: Doc) -> None:
    p = plan(doc)
    c = p.step(doc.ids[2])
    retry = c.policy.retry
    assert c.provenance["policy.retry"].where == f"w.yaml:{doc.c_merge[0]}"
    assert (retry.max_retries, retry.initial_s, retry.multiplier, retry.max_delay_s) == doc.c_retry
    line, anchor = doc.c_merge
    step = next(s for s in read(doc).steps if s.id == doc.ids[2])
    merged = [r for r in step.readings if r.text.startswith("<<")]
    assert [(r.where, f"on line {anchor}" in r.note, "win" in r.note) for r in merged] == [(f"w.yaml:{line}", True, True)]


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_no_key_of_a_shared_policy_or_its_block_is_left_not_understood(doc: Doc) -> None:
    spec = read(doc)
    unread = [w.message for w in spec.warnings if "not understood" in w.message]
    assert all("'<<'" not in m and "_x'" not in m and "max" not in m and "cap" not in m and "factor" not in m
               for m in unread), unread
    assert not any("input '" in w.message for w in spec.warnings)  # `.knobs:` holds anchors, not inputs
    assert [i.name for i in spec.inputs][:len(doc.asked)] == list(doc.asked)[:len(spec.inputs)]


def _expanded(text: str):  # type: ignore[no-untyped-def]
    src = Source(text, "t.yaml")
    root = compose(text)
    assert root is not None
    return src, root, expand(src, root)


def test_each_use_of_an_anchor_is_its_own_copy_at_the_alias_s_line() -> None:
    _, root, uses = _expanded("base: &b {n: 1}\none: *b\ntwo:\n  - *b\n")
    one, two = root.value[1][1], root.value[2][1].value[0]
    assert one is not two and one.start_mark.line == 1 and two.start_mark.line == 3
    assert [(u.line, u.name, u.anchor_line, u.merged) for u in uses.uses] == [(2, "b", 1, False), (4, "b", 1, False)]


def test_an_alias_inside_an_anchored_node_is_counted_once_and_the_lines_follow_the_document() -> None:
    _, root, uses = _expanded("a: &a {x: 1}\nb: &b {y: *a}\nc: *b\nd: *a\n")
    assert [(u.line, u.name) for u in uses.uses] == [(2, "a"), (3, "b"), (4, "a")]
    assert root.value[2][1].value[0][1].start_mark.line == 2  # c's copy of b's `y` is at c's line


def test_a_merged_list_lets_the_first_that_says_a_key_win_and_the_mapping_s_own_keys_beat_both() -> None:
    _, root, uses = _expanded("p: &p {a: 1, b: 1}\nq: &q {b: 2, c: 2}\nr: {<<: [*p, *q], a: 9}\n")
    r = root.value[2][1]
    assert {k.value: v.value for k, v in r.value} == {"a": "9", "b": "1", "c": "2"}
    assert [u.merged for u in uses.uses] == [True, True]


def test_a_compose_file_s_merge_key_is_left_to_the_compose_reader() -> None:
    _, root, _ = _expanded("x-base: &base {image: alpine}\nservices:\n  a:\n    <<: *base\n    skill: sa\n")
    service = root.value[1][1].value[0][1]
    assert [k.value for k, _ in service.value] == ["<<", "skill"]


def test_a_document_without_anchors_is_left_as_it_is() -> None:
    src, root, uses = _expanded("steps:\n  - {id: a, skill: sa, note: 'x * y & z'}\n")
    assert uses.uses == [] and root.value[0][1].value[0].start_mark.line == 1 and src.warnings == []


@pytest.mark.parametrize(("key", "kind"), [
    ("pause_x", "multiplier"), ("wait_factor", "multiplier"), ("backoff-x", "multiplier"),
    ("delayMultiplier", "multiplier"), ("pause_max", "max_delay_s"), ("max_wait", "max_delay_s"),
    ("delay_cap", "max_delay_s"), ("longest_pause", "max_delay_s"), ("pause", None), ("max_total", None),
    ("taxi", None),
])
def test_a_wait_s_growth_and_cap_are_named_by_their_suffix(key: str, kind: str | None) -> None:
    assert growth_kind(key) == kind


def test_a_shared_block_that_gives_only_a_count_and_a_wait_keeps_the_fixed_wait() -> None:
    text = ("defaults: &d {tries: 3, pause: 5s}\nsteps:\n  - id: a\n    skill: sa\n    resilience: *d\n")
    spec = parse_spec_text(text, "w.yaml", "yaml")
    a = spec.steps[0]
    assert a.retry is not None and a.retry.max_retries == 2 and a.retry.delays_s == (5.0,)
    assert not [w for w in spec.warnings if "not understood" in w.message]
