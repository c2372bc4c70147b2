"""A spec line too long to read (issue 25: parsing stays linear) is not handed to the readers:
it is a warning at its line, the rest of the spec is read, and the spec keeps its text. A
field list and a fenced block are read whatever their length; a table keeps its other cells;
a YAML text is emptied only when it is itself that long. The policy reader reads a run of
blanks as one blank, and a route part longer than a route is not matched."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.linecap import CODE, LINE_LIMIT
from orchestrator.spec.phrase import read_phrase

HEAD = ("# Big\n\n## Inputs\n- module_name (string): m\n\n## Workflow Steps\n\n### Step 1: Fetch\n"
        "- Skill: `fetch-docs`\n- Input: module_name\n- Output: existing_docs\n\n")
LONG = "Retry it if it fails. " * (LINE_LIMIT // 20)


def _too_long(spec: WorkflowSpec) -> list[tuple[int | None, str]]:
    return [(w.line, w.message) for w in spec.warnings if w.code == CODE]


def test_a_prose_line_over_the_limit_is_a_warning_at_its_line_and_the_spec_keeps_it() -> None:
    text = HEAD + LONG + "\n\n### Step 2: Save\n- Skill: `save`\n- Input: existing_docs\n"
    spec = parse_spec_text(text, "big.md", "markdown")
    assert _too_long(spec) == [(13, f"line too long to read: {len(LONG):,} characters, limit {LINE_LIMIT:,}")]
    assert [s.id for s in spec.steps] == ["step-1", "step-2"]
    assert spec.text == text
    assert spec.readings == ()  # the long line's "Retry" was not read


def test_a_line_at_the_limit_is_read() -> None:
    line = ("Retry 3 times. " + "x" * LINE_LIMIT)[:LINE_LIMIT]
    spec = parse_spec_text(HEAD + line + "\n", "big.md", "markdown")
    assert _too_long(spec) == []
    assert [r.statement.retries for r in spec.readings] == [3]


def test_a_long_field_list_is_read_by_the_field_reader_not_cut() -> None:
    names = ", ".join(f"a{i}" for i in range(1_200))
    text = HEAD.replace("- Input: module_name", "- Input: " + names + ", " + "b" * LINE_LIMIT)
    with pytest.raises(SpecError) as caught:
        parse_spec_text(text, "wide.md", "markdown")
    assert "step-1 has 1,201 input fields; at most 1,000" in str(caught.value)


def test_the_lines_of_a_fenced_block_are_not_cut() -> None:
    value = "z" * (LINE_LIMIT + 10)
    text = HEAD + f"## Data Contracts\n\n```json\n{{\"type\": \"string\", \"description\": \"{value}\"}}\n```\n"
    spec = parse_spec_text(text, "fence.md", "markdown")
    assert _too_long(spec) == []


def test_a_table_cell_over_the_limit_is_emptied_and_the_row_keeps_its_other_cells() -> None:
    text = HEAD + ("## Error Recovery\n\n| Step | Failure | Action | Notes |\n| --- | --- | --- | --- |\n"
                   f"| 1 | timeout | retry 2 times | {'n' * (LINE_LIMIT + 1)} |\n")
    spec = parse_spec_text(text, "cell.md", "markdown")
    assert [line for line, _ in _too_long(spec)] == [17]
    assert [(r.step, r.recovery, r.rule.retry.max_retries if r.rule.retry else None) for r in spec.recovery] == [
        ("step-1", "retry 2 times", 2)]


def test_a_yaml_text_over_the_limit_is_emptied_with_a_warning_at_its_line() -> None:
    text = ("name: big\ninputs: {module_name: {type: string}}\nsteps:\n  - id: s1\n    skill: fetch-docs\n"
            f"    description: \"{'d' * (LINE_LIMIT + 1)}\"\n    retry: 2\n")
    spec = parse_spec_text(text, "big.yaml", "yaml")
    assert _too_long(spec) == [(6, f"line too long to read: {LINE_LIMIT + 20:,} characters, limit {LINE_LIMIT:,}")]
    assert spec.steps[0].description == "" and spec.steps[0].retry is not None


def test_a_long_yaml_line_of_short_texts_is_read() -> None:
    steps = ", ".join(f"{{id: s{i}, skill: fetch-docs}}" for i in range(LINE_LIMIT // 25))
    text = f"name: wide\ninputs: {{module_name: {{type: string}}}}\nsteps: [{steps}]\n"
    assert len(text.splitlines()[2]) > LINE_LIMIT
    spec = parse_spec_text(text, "wide.yaml", "yaml")
    assert _too_long(spec) == [] and len(spec.steps) == LINE_LIMIT // 25


def test_the_policy_reader_reads_a_run_of_blanks_as_one_blank() -> None:
    spaced = read_phrase("Retry 3 times," + " " * 5_000 + "then escalate it to (the on-call team)")
    single = read_phrase("Retry 3 times, then escalate it to (the on-call team)")
    assert spaced == single
    assert single.statement.retries == 3 and single.statement.on_failure is not None


def test_a_route_part_longer_than_a_route_is_reported_not_matched() -> None:
    text = HEAD + "- Route: billing" + " " * 300 + "→ Step 2\n\n### Step 2: Save\n- Skill: `save`\n"
    with pytest.raises(SpecError) as caught:
        parse_spec_text(text, "route.md", "markdown")
    assert "route 'billing" in str(caught.value) and "must read `branch-name → Step N`" in str(caught.value)
    spec = parse_spec_text(text.replace(" " * 300, " "), "route.md", "markdown")
    assert spec.steps[0].routes == {"billing": "step-2"}
