"""A `For each` written as an arrow from a step to its list (`spec.for_each_arrow`): read as a loop
over that step's field, warned; the loop waits for that step. Several kinds of document."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, kind: str, *skills: str) -> WorkflowSpec:
    name = "doc.yaml" if kind == "yaml" else "doc.md"
    return parse_spec_text(text, name, kind, Vocabulary.of([(s, None) for s in skills]))


def _arrow_lines(spec: WorkflowSpec) -> list[int]:
    return [w.line for w in spec.warnings if w.code == "spec.for-each-arrow"]


def test_brewery_yaml_own_schema_arrow_from_a_named_leg() -> None:
    spec = _read("brew_day:\n  parts:\n    - what: mash tun\n      tool: mash-grain\n"
                 "    - what: sample gravity\n      tool: read-gravity\n      per: mash tun -> batches   # each batch\n"
                 "      wait_for: mash tun\n", "yaml", "mash-grain", "read-gravity")
    loop = spec.steps[1]
    assert loop.for_each == f"batch in steps.{spec.steps[0].id}.output.batches"
    assert spec.steps[0].id in loop.depends_on
    assert _arrow_lines(spec) == [7]


def test_recipe_card_heading_per_step_arrow_to_a_step_number() -> None:
    spec = _read("# Pie day\n\n## Step 1: Split the order\nRun `split-order`.\n\n"
                 "## Step 2: Bake each\nRun `bake-pie`.\n- For each: step 1 -> pies\n", "markdown",
                 "split-order", "bake-pie")
    assert spec.steps[1].for_each == "pie in steps.step-1.output.pies"
    assert _arrow_lines(spec) == [8]


def test_lab_protocol_list_arrow_with_a_unicode_arrow_and_plural_ies() -> None:
    spec = _read("# Assay\n\n1. Prep: `prep-plate`.\n2. Assay: `run-assay`.\n   For each: Prep → assemblies\n",
                 "markdown", "prep-plate", "run-assay")
    assert spec.steps[1].for_each is not None and spec.steps[1].for_each.startswith("assembly in steps.")
    assert _arrow_lines(spec) == [5]


def test_ships_log_yaml_arrow_to_no_field_name_is_only_warned() -> None:
    spec = _read("watch:\n  entries:\n    - leg: sound tanks\n      tool: sound-tanks\n"
                 "    - leg: log each\n      tool: log-tank\n      per: sound tanks -> tanks.list.all\n",
                 "yaml", "sound-tanks", "log-tank")
    assert spec.steps[1].for_each is None
    assert any(w.code == "spec.for-each" and w.line == 7 for w in spec.warnings)
