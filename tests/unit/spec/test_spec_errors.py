"""Markdown specs that cannot be used raise SpecError with every problem and its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import NotFoundError, SpecError
from orchestrator.spec import parse_spec, parse_spec_text

HEAD = "# Flow\n\n## Workflow Steps\n\n"


def _errors(text: str) -> list[tuple[int | None, str]]:
    with pytest.raises(SpecError) as info:
        parse_spec_text(text, "flow.md", "markdown")
    assert all(d.file == "flow.md" for d in info.value.diagnostics)
    return [(d.line, d.message) for d in info.value.diagnostics]


def test_a_spec_without_steps_is_an_error_that_says_what_a_step_looks_like() -> None:
    for text, line in (("# Flow\n\n## Intent\nNothing to do.\n", 1), ("# Flow\n\n## Workflow Steps\n\nSoon.\n", 3)):
        [(at, message)] = _errors(text)
        assert at == line and message.startswith("the spec has no steps: write each as a `## Step 1: Name` heading")


def test_duplicate_step_ids_are_errors() -> None:
    text = HEAD + "### Step 1: A\n- Skill: `a`\n\n### Step 1: B\n- Skill: `b`\n"
    assert _errors(text) == [(8, "step id 'step-1' is used twice (first at line 5)")]


def test_a_step_without_a_skill_line_is_read_and_an_empty_skill_line_is_an_error() -> None:
    # the missing bullet alone is no error: the planner binds the step from its words
    text = HEAD + "### Step 1: A\n- Input: x\n\n### Step 2: B\n- Skill:\n"
    assert _errors(text) == [(9, "step-2: the Skill line is empty")]


def test_a_second_skill_line_is_an_error() -> None:
    text = HEAD + "### Step 1: A\n- Skill: `a`\n- Skill: `b`\n"
    assert _errors(text) == [(7, "step-1 has a second Skill line")]


def test_unknown_depends_on_targets_are_errors() -> None:
    text = HEAD + "### Step 1: A\n- Skill: `a`\n- Depends on: Step 1, Step 9\n"
    assert _errors(text) == [
        (7, "step-1 depends on 'step-9', which the spec does not have"),
        (7, "step-1 depends on itself"),
    ]


def test_bad_for_each_when_and_route_are_errors() -> None:
    text = HEAD + (
        "### Step 1: A\n- Skill: `a`\n- For each: every file\n- When: x ==\n"
        "- Route: nowhere\n- Route: other → Step 5\n"
    )
    errors = _errors(text)
    assert [line for line, _ in errors] == [7, 8, 9, 9]
    assert errors[3][1] == "step-1: route 'other' goes to 'step-5', which the spec does not have"
    assert errors[0][1].startswith("for each 'every file' must read `item in list_field`")
    assert errors[1][1].startswith("when: the condition 'x ==' cannot be read: write a comparison")
    assert errors[2][1] == "route 'nowhere' must read `branch-name → Step N`"


def test_a_reference_to_an_unknown_step_output_is_an_error() -> None:
    text = HEAD + "### Step 1: A\n- Skill: `a`\n- Input: step-4.items\n- For each: x in step-3.files\n"
    assert _errors(text) == [
        (5, "step-1 refers to steps.step-3, which the spec does not have"),
        (7, "step-1 refers to steps.step-4, which the spec does not have"),
    ]


STEPS = HEAD + "### Step 1: A\n- Skill: `a`\n\n"


def test_a_table_row_with_the_wrong_number_of_cells_is_an_error() -> None:
    text = STEPS + (
        "## Error Recovery\n\n| Step | Failure | Recovery | Fallback |\n|---|---|---|---|\n"
        "| 1 | Network timeout | Retry 3 times | Continue |\n| 1 | Crash | Escalate |\n"
        "| 1 | a | b | c | d |\n"
    )
    assert _errors(text) == [
        (13, "table row has 3 cells; the header has 4"),
        (14, "table row has 5 cells; the header has 4"),
    ]


def test_a_table_row_for_an_unknown_step_is_an_error() -> None:
    text = STEPS + (
        "## Error Recovery Strategy\n\n| Step | Failure | Recovery | Fallback |\n"
        "|---|---|---|---|\n| 7 | Crash | Retry | Escalate |\n"
    )
    assert _errors(text) == [(12, "table row names step '7', which the spec does not have")]


def test_a_table_without_its_delimiter_row_is_an_error() -> None:
    text = STEPS + "## Error Recovery\n\n| Step | Failure | Recovery | Fallback |\n| 1 | x | y | z |\n"
    assert _errors(text) == [
        (10, "this table does not parse: it needs a header row and a `|---|---|` delimiter row")
    ]


def test_a_table_without_a_step_or_failure_column_is_an_error() -> None:
    text = STEPS + "## Error Recovery\n\n| Detection | Recovery |\n|---|---|\n| x | y |\n"
    assert _errors(text) == [
        (10, "the error recovery table has no Step column (nor a failure column naming the steps)")
    ]


def test_a_recovery_row_that_names_no_step_is_reported_with_its_line_and_applies_to_every_step() -> None:
    text = STEPS + "## Error Recovery\n\n| Failure | Recovery |\n|---|---|\n| x | retry twice |\n"
    spec = parse_spec_text(text, "flow.md", "markdown")
    assert [(r.step, r.every_step, r.rule.retry.max_retries if r.rule.retry else None) for r in spec.recovery] == [
        ("step-1", True, 2)]
    assert [(w.line, w.message) for w in spec.warnings if w.code == "spec.unread"] == [
        (12, "error recovery: the row 'x' names no step (write `Step N, ...`, the step's name, or add a Step "
             "column); it applies to every step")
    ]


def test_contracts_and_convergence_naming_unknown_steps_are_errors() -> None:
    text = STEPS + (
        "## Data Contracts\n\n### Step 1 → Step 3\n- Output: { a: string }\n\n"
        "## Convergence Criteria\n\n- Step 6 reaches retry limit (3 retries)\n"
    )
    assert _errors(text) == [
        (10, "the contract names step 'step-3', which the spec does not have"),
        (15, "the convergence criteria name 'step-6', which the spec does not have"),
    ]


def test_a_broken_json_schema_block_is_an_error_at_its_line() -> None:
    text = STEPS + (
        "## Data Contracts\n\n### Step 1\n```json\n{\"type\": \"object\",\n \"required\": [}\n```\n"
        "\n### Step 1 → Step 1\n```json\n{\"type\": 5}\n```\n"
    )
    errors = _errors(text)
    assert [line for line, _ in errors] == [13, 17]
    assert errors[0][1].startswith("the JSON Schema block is not valid JSON")
    assert errors[1][1].startswith("the JSON Schema block is not a valid schema")


def test_a_section_given_twice_is_an_error() -> None:
    text = STEPS + "## Testing Plan\n- A: b\n\n## Testing Plan\n- C: d\n"
    assert _errors(text) == [(11, "a second 'Testing Plan' section (the first is at line 8)")]


def test_every_error_is_reported_at_once() -> None:
    text = HEAD + "### Step 1: A\n- Input: x\n\n### Step 1: B\n- Skill: `b`\n- Depends on: Step 4\n"
    assert [line for line, _ in _errors(text)] == [8, 10]


def test_parse_spec_dispatches_on_the_suffix(tmp_path: Path) -> None:
    md = tmp_path / "flow.markdown"
    md.write_text(STEPS, encoding="utf-8")
    assert parse_spec(md).format == "markdown"
    yml = tmp_path / "flow.yml"
    yml.write_text("name: f\nsteps:\n  - id: a\n    skill: b\n", encoding="utf-8")
    assert parse_spec(yml).format == "yaml"
    plan = tmp_path / "flow.json"
    plan.write_text('{"format": 1, "spec": {"path": "flow.md"}, "steps": []}', encoding="utf-8")
    with pytest.raises(SpecError) as info:
        parse_spec(plan)  # a saved plan, never a spec (other JSON is a spec: `spec.json_kind`)
    assert "is a skillweave plan, not a spec" in info.value.diagnostics[0].message
    for name in ("flow.txt", "flow.org", "README"):  # other text is read as markdown, and that is said at line 1
        other = tmp_path / name
        other.write_text(STEPS, encoding="utf-8")
        spec = parse_spec(other)
        assert spec.format == "markdown" and spec.steps
        said = [w for w in spec.warnings if w.code == "spec.suffix"]
        assert len(said) == 1 and said[0].line == 1 and "read as markdown" in said[0].message, spec.warnings
    assert not [w for w in parse_spec(md).warnings if w.code == "spec.suffix"]
    with pytest.raises(NotFoundError):
        parse_spec(tmp_path / "missing.md")


def test_a_spec_that_is_not_utf8_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "flow.md"
    path.write_bytes(b"# Flow\n\nok\n\xff\xfe\n")
    with pytest.raises(SpecError) as info:
        parse_spec(path)
    assert [(d.line, d.message) for d in info.value.diagnostics] == [(4, "the spec is not UTF-8 text")]
