"""`$`-references in an author's own YAML (`spec.yaml_sigils`): `$ask.x` (the head a word of asking)
is the workflow input x, never literal text; a `for_each_of` / `for_each_in` / `loop_over` /
`loop_through` key makes the loop and `$it.f`, `$each.f`, `$current.f`, `$item.f` are each item's
field; `$x[*]` and `$x[*].f` are loop step x's results gathered (each whole output, or each one's f);
a carry-on key (`keep_going_with`, `carry_on_with`, `continue_with`, `press_on_with`) is the value
a failed item hands on and a cutoff key its step's timeout. Four documents of kinds no fixture uses
(`test_yaml_alias_docs`)."""

from __future__ import annotations

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import parse_spec_text
from orchestrator.spec.yaml_sigils import asked_input, item_word, loop_key, star_reference
from tests.unit.spec.test_yaml_alias_docs import DOCS, IDS, Doc, plan, read


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_an_asked_for_sigil_is_the_workflow_input_never_literal_text(doc: Doc) -> None:
    a = plan(doc).step(doc.ids[0])
    asked = [b.name for b in a.inputs.values() if b.source == "input"]
    assert asked == list(doc.asked)
    assert not any(b.source == "literal" for b in a.inputs.values())
    assert not [w for w in read(doc).warnings if "names no step" in w.message]


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_a_loop_key_loops_over_the_earlier_step_s_list_and_its_item_word_is_each_item(doc: Doc) -> None:
    p = plan(doc)
    b = p.step(doc.ids[1])
    assert b.for_each is not None and b.for_each.source.step == doc.ids[0]
    assert doc.ids[0] in b.depends_on
    for name in doc.item_fields:
        assert b.inputs[name].source == "item" and b.inputs[name].pointer.startswith("/")
    assert not [w for w in read(doc).warnings if "for_each" in w.message or "loop" in w.message]


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_a_star_reference_gathers_the_loop_s_results_or_one_field_of_each(doc: Doc) -> None:
    c = plan(doc).step(doc.ids[2])
    whole = [b for b in c.inputs.values() if b.source == "step" and b.gather and b.pointer == ""]
    field = c.inputs[doc.gathered_field]
    assert len(whole) == 1 and whole[0].step == doc.ids[1]
    assert (field.source, field.step, field.gather) == ("step", doc.ids[1], True)
    assert field.pointer.count("/") == 1 and len(field.pointer) > 1  # `/grams` of each item


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_a_carry_on_value_is_handed_on_and_a_cutoff_is_the_step_s_timeout(doc: Doc) -> None:
    p = plan(doc)
    b = p.step(doc.ids[1])
    assert b.policy.fallback.action == FallbackAction.DEFAULT and b.policy.fallback.value == doc.b_value
    assert p.step(doc.ids[0]).policy.attempt_timeout_s == doc.a_timeout_s


def test_a_star_on_a_step_that_does_not_loop_is_warned_as_its_whole_output() -> None:
    spec = parse_spec_text("steps:\n  - {id: weigh, skill: sa}\n  - id: log\n    skill: sb\n"
                           "    input: {all: '$weigh[*].grams'}\n", "w.yaml", "yaml")
    log = spec.steps[1]
    assert log.inputs[0].source == "steps.weigh.output.grams"
    assert [w.line for w in spec.warnings if "runs once" in w.message] == [5]


def test_an_asking_head_that_names_no_input_stays_text_and_is_warned() -> None:
    spec = parse_spec_text("ask_for: [tray]\nsteps:\n  - id: a\n    skill: sa\n    input: {x: $ask.oven}\n",
                           "w.yaml", "yaml")
    assert spec.steps[0].inputs[0].source is None
    assert [w.line for w in spec.warnings if "names no step" in w.message] == [5]


def test_a_step_named_like_an_item_word_is_the_step_not_the_item() -> None:
    spec = parse_spec_text("steps:\n  - {id: row, skill: sa}\n  - id: b\n    skill: sb\n    for_each_of: $row.cells\n"
                           "    input: {v: $row.total, c: $it.value}\n", "w.yaml", "yaml")
    b = spec.steps[1]
    assert {f.name: f.source for f in b.inputs} == {"v": "steps.row.output.total", "c": "item.value"}


@pytest.mark.parametrize(("head", "rest", "read"), [
    ("ask", "site", "inputs.site"), ("asked", "site", "inputs.site"), ("user", "site.code", "inputs.site.code"),
    ("prompt", "site", "inputs.site"), ("ask", "oven", None), ("weather", "site", None), ("ask", "", None),
])
def test_an_asking_head_reads_only_a_declared_input(head: str, rest: str, read: str | None) -> None:
    assert asked_input(head, rest, {"site"}) == read


@pytest.mark.parametrize(("key", "loops"), [
    ("for_each_of", True), ("for_each_in", True), ("for_every_row_in", True), ("loop_over", True),
    ("loop_through", True), ("iterate_across", True), ("per_item_of", True), ("fan_out_over", True),
    ("for_each", False), ("loopback", False), ("each_time", False), ("overview", False),
])
def test_loop_keys_are_known_by_their_shape(key: str, loops: bool) -> None:
    assert loop_key(key) is loops


@pytest.mark.parametrize(("value", "read"), [
    ("$grade[*]", "steps.grade.output"), ("$grade[*].score", "steps.grade.output.score"),
    ("${grade[*].score}", "steps.grade.output.score"), ("{{ grade[ * ] }}", "steps.grade.output"),
    ("grade[*]", "steps.grade.output"), ("$other[*]", None), ("$grade[0]", None), ("$grade[*] and more", None),
])
def test_a_star_reference_names_a_known_step(value: str, read: str | None) -> None:
    assert star_reference(value, {"grade"}) == read


def test_item_words_are_few_and_plain() -> None:
    assert [w for w in ("it", "each", "current", "row", "step", "inputs", "grade") if item_word(w)] == [
        "it", "each", "current", "row"]
