"""A declared workflow input that no step reads (no binding, template, condition or loop names
it) is warned at its line: the run would take it and pass it to no step (`plan.unused_inputs`)."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.unused_inputs import unused_inputs
from orchestrator.spec import parse_spec_text

_CATALOG = FakeCatalog(
    skill("list-them", input_schema=obj(("roster",), roster="array"), output_schema=obj(("names",), names="array")),
    skill("each-one", input_schema=obj(("name",), name="string"), output_schema=obj(("ok",), ok="boolean")))


def _unused(text: str, fmt: str = "markdown") -> list[tuple[int | None, str]]:
    path = "w.yaml" if fmt == "yaml" else "w.md"
    plan = build_plan(parse_spec_text(text, path, fmt), _CATALOG, settings=SETTINGS)  # type: ignore[arg-type]
    return [(d.line, d.message.split("`")[1]) for d in unused_inputs(plan, path)]


def test_a_lesson_plan_s_input_no_step_reads_is_warned_at_its_line() -> None:
    text = ("# Week plan\n\n## Inputs\n- roster: the class list\n- room: where it happens\n\n## Steps\n\n"
            "### Step 1: List\n- Skill: `list-them`\n")
    assert _unused(text) == [(5, "room")]


def test_a_ship_s_log_in_yaml_reads_its_inputs_in_a_condition_and_a_loop() -> None:
    text = ("name: watch\ninputs:\n  roster: {type: array}\n  crew: {type: array}\n  mode: {type: string}\n"
            "steps:\n  - id: list\n    skill: list-them\n    when: inputs.mode == 'sea'\n"
            "  - id: each\n    skill: each-one\n    for_each: name in inputs.crew\n")
    assert _unused(text, "yaml") == []


def test_a_lab_protocol_and_a_recipe_card_that_use_every_input_are_not_warned() -> None:
    assert _unused("# Plate\n\n## Inputs\n- roster: samples\n\n## Steps\n\n### Step 1: List\n- Skill: `list-them`\n") == []
    assert _unused("# Loaf\n\n### Step 1: List\n- Skill: `list-them`\n") == []  # nothing declared: nothing unused
