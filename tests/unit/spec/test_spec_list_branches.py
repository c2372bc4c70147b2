"""A list step whose nested bullets branch with arrows is a step per branch: the label is the
condition, "anything else" the other side, `key: value` in backticks a constant input, the other
nested bullets said of every branch; the next step that says "whichever ran" joins them."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.list_branches import constants

_SPEC = """\
# Shipping

Inputs: `order_json`.

## Steps

- **Weigh**: `weigh-parcel` reads `order_json` into `grams`.
- **Pick a carrier**: depends on the weight
  - grams > 2000 → `book-carrier` with `order_json` and `service: freight`.
  - otherwise → `book-carrier` with `order_json` and `service: letter`.
  - in both cases the booking desk is slow: retry twice after 10s.
- **Print**: `print-label` takes the `booking_id` from whichever carrier ran.
"""


def test_each_arrow_bullet_under_a_list_step_is_a_step_of_its_own() -> None:
    spec = parse_spec_text(_SPEC, "s.md", "markdown")
    assert [s.name for s in spec.steps] == ["Weigh", "Pick a carrier (grams > 2000)", "Pick a carrier (otherwise)",
                                            "Print"]
    assert [s.id for s in spec.steps] == ["step-1", "step-2", "step-3", "step-4"]
    assert spec.steps[1].where == "s.md:9" and spec.steps[2].where == "s.md:10"


def test_the_first_branch_s_label_is_its_condition_and_otherwise_is_the_other_side() -> None:
    spec = parse_spec_text(_SPEC, "s.md", "markdown")
    heavy, light = spec.steps[1], spec.steps[2]
    assert heavy.when == "grams > 2000"
    assert light.otherwise_of == "step-2" and light.when is None


def test_a_backticked_key_value_in_a_branch_line_is_a_constant_input() -> None:
    spec = parse_spec_text(_SPEC, "s.md", "markdown")
    assert spec.steps[1].input_values == {"service": "freight"}
    assert spec.steps[2].input_values == {"service": "letter"}


def test_a_nested_bullet_that_is_no_branch_is_said_of_every_branch() -> None:
    spec = parse_spec_text(_SPEC, "s.md", "markdown")
    for branch in spec.steps[1:3]:
        assert any("retry twice after 10s" in t.text and t.line == 11 for t in branch.texts)


def test_the_step_after_whichever_branch_ran_joins_the_branches() -> None:
    spec = parse_spec_text(_SPEC, "s.md", "markdown")
    assert spec.steps[3].depends_on == ("step-2", "step-3") and spec.steps[3].join == "any"


def test_one_arrow_bullet_alone_is_no_choice() -> None:
    text = _SPEC.replace("  - otherwise → `book-carrier` with `order_json` and `service: letter`.\n", "")
    spec = parse_spec_text(text, "s.md", "markdown")
    assert [s.name for s in spec.steps][:2] == ["Weigh", "Pick a carrier"]


def test_constants_keep_numbers_and_booleans_as_such() -> None:
    assert constants("with `tries: 3`, `ratio=0.5`, `dry_run: true` and `mode: fast lane`") == {
        "tries": 3, "ratio": 0.5, "dry_run": True, "mode": "fast lane"}
    assert constants("with `order_json` and `a-b`") == {}


def test_branches_written_with_if_and_else_colons_are_a_choice_too() -> None:
    text = _SPEC.replace("grams > 2000 → `book-carrier`", "if grams > 2000: `book-carrier`").replace(
        "otherwise → `book-carrier`", "else: `book-carrier`")
    spec = parse_spec_text(text, "s.md", "markdown")
    assert [(s.when, s.otherwise_of) for s in spec.steps[1:3]] == [("grams > 2000", None), (None, "step-2")]


def test_a_branch_list_under_a_step_heading_gives_its_constants_too() -> None:
    text = ("# Ship\n\n## Steps\n\n### Step 1: Weigh\n`weigh-parcel` reads `order_json`.\n\n### Step 2: Book\n"
            "Pick by the weight:\n- grams > 2000 → `book-carrier` with `service: freight`.\n"
            "- anything else → `book-carrier` with `service: letter`.\n")
    spec = parse_spec_text(text, "h.md", "markdown")
    assert [(s.when, s.input_values) for s in spec.steps[1:]] == [("grams > 2000", {"service": "freight"}),
                                                                   (None, {"service": "letter"})]
