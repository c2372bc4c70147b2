"""Markdown features beyond the seed: step bullets, inputs, limits, schemas, warnings."""

from __future__ import annotations

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


STEP_BULLETS = """\
<!-- name: fan-flow -->
# Fan Flow Specification

A short preamble.

## Inputs
- files (list of strings): the paths to read
- `mode` (string, optional): how deep to go; default: `"fast"`
- limit (integer): at most this many, default 10

## Steps

### Step 1: List
- **Skill used:** `lister`
- Output: names (list of strings)

### Step 2 - Read each
- Skill: `reader`
- Depends on: Step 1
- For each: name in step-1.names
- When: `inputs.mode == 'fast'`
- Approval: required (timeout 2h → approve)
- Compensation: `unread`
- Timeout: 2 min
- Retries: 2 (1s, 5s)
- On error: continue
- Input: name
- Output: text (string)

### Step 3: Route
- Skill: `router`
- Routes:
  - short → Step 1
  - long → Step 2
- Owner: the docs team
- Failure modes: it picks nothing; it picks twice
"""


def test_every_step_bullet_is_read() -> None:
    spec = _parse(STEP_BULLETS)
    s1, s2, s3 = spec.steps
    assert spec.name == "fan-flow"
    assert spec.title == "Fan Flow Specification"
    assert spec.intent == "A short preamble."
    assert s1.skill == "`lister`"
    assert s2.name == "Read each"
    assert s2.depends_on == ("step-1",)
    assert s2.for_each == "name in steps.step-1.output.names"
    assert s2.when == "inputs.mode == 'fast'"
    assert s2.approval is not None
    assert (s2.approval.timeout_s, s2.approval.on_timeout) == (7200.0, "approve")
    assert s2.compensation == "unread"
    assert s2.timeout_s == 120.0
    assert s2.retries == 2
    assert s2.retry is not None and s2.retry.delays_s == (1.0, 5.0)
    assert s2.on_error == "continue"
    assert s3.routes == {"short": "step-1", "long": "step-2"}
    assert s3.failure_modes == ("it picks nothing", "it picks twice")
    assert s3.extra == {"owner": "the docs team"}
    assert [(w.line, w.code) for w in spec.warnings] == [(35, "spec.unknown-label")]


def test_the_inputs_section_declares_types_and_defaults() -> None:
    spec = _parse(STEP_BULLETS)
    assert [(i.name, i.type, i.required, i.default) for i in spec.inputs] == [
        ("files", "array", True, None),
        ("mode", "string", False, "fast"),
        ("limit", "integer", False, 10),
    ]
    assert spec.inputs[0].description == "the paths to read"


LIMITS = """\
# Limits Flow

## Workflow Steps

### Step 1: Only
- Skill: `only`
- Output: report (string)

## Convergence Criteria

### Success
- All 2 steps complete

### Failure
- Max total attempts: 20
- Max regenerations per step: 1
- Wall time: 10 min
- Token budget: 50,000
- Concurrency: 2
- Step 1 reaches retry limit of 4 retries
- The moon is full
"""


def test_convergence_limits_are_read_with_their_lines() -> None:
    spec = _parse(LIMITS)
    limits = spec.convergence.limits
    assert (limits.max_total_attempts, limits.max_regenerations_per_step, limits.wall_time_s,
            limits.max_llm_tokens, limits.concurrency) == (20, 1, 600.0, 50000, 2)
    assert {k: v.rsplit(":", 1)[1] for k, v in spec.convergence.limit_where.items()} == {
        "max_total_attempts": "15",
        "max_regenerations_per_step": "16",
        "wall_time_s": "17",
        "max_llm_tokens": "18",
        "concurrency": "19",
    }
    assert spec.timeout_s == 600.0
    assert spec.convergence.step_retries == {"step-1": 4}
    assert [(w.line, w.code) for w in spec.warnings] == [(12, "spec.count"), (21, "spec.unread")]


SCHEMA = """\
# Schema Flow

## Workflow Steps

### Step 1: Make
- Skill: `maker`
- Output: count (integer)

### Step 2: Use
- Skill: `user`
- Input: count

## Data Contracts

### Step 1 -> Step 2
- Output: { count: integer }
- Validation: count >= 1
```json
{"type": "object", "required": ["count"], "properties": {"count": {"type": "integer"}}}
```
"""


def test_a_fenced_json_schema_is_kept_beside_the_notation() -> None:
    (contract,) = _parse(SCHEMA).contracts
    assert contract.json_schema == {
        "type": "object",
        "required": ["count"],
        "properties": {"count": {"type": "integer"}},
    }
    assert contract.constraints == {"count": {"minimum": 1}}


def test_unknown_sections_and_stray_text_become_warnings() -> None:
    text = (
        "# Flow\n\n## Workflow Steps\n\nSome intro.\n\n### Step 1: A\n- Skill: `a`\n- just a note\n\n"
        "### Appendix\ntext\n\n## Glossary\n- term: meaning\n\n## Error Recovery\n\n"
        "| Step | Failure | Recovery | Fallback | Owner |\n|---|---|---|---|---|\n"
        "| 1 | Script raised an exception | Regenerate (2 attempts) | run `backup` | me |\n"
    )
    spec = _parse(text)
    assert [(w.line, w.code) for w in spec.warnings] == [
        (5, "spec.unread"),  # intro text under Workflow Steps
        (9, "spec.unread"),  # an unlabelled bullet
        (11, "spec.unread"),  # a heading that is not a step
        (14, "spec.unknown-section"),
        (19, "spec.unread"),  # the Owner column
    ]
    (row,) = spec.recovery
    assert row.rule.regenerate == 2
    assert row.rule.fallback is not None
    assert (row.rule.fallback.action, row.rule.fallback.skill) == (FallbackAction.SKILL, "backup")


def test_a_flattened_failure_mode_that_looks_like_a_label_stays_a_failure_mode() -> None:
    text = (
        "# Flow\n\n## Workflow Steps\n\n### Step 1: A\n- Skill: `a`\n- Failure modes:\n"
        "- Timeout: the docs are too large\n- Network down\n- Retries: 2\n"
    )
    (step,) = _parse(text).steps
    assert step.failure_modes == ("Timeout: the docs are too large", "Network down")
    assert step.retries == 2


@pytest.mark.parametrize("limit", ["Max total attempts: 0", "Each step may take at most 0 attempts"])
def test_a_count_below_its_least_is_a_warning_at_its_line_not_an_internal_error(limit: str) -> None:
    text = ("# W\n\n## Steps\n\n### Step 1: Fetch\n- Skill: `fetch-docs`\n- Input: module_name\n\n"
            f"## Convergence Criteria\n- {limit}\n")
    spec = parse_spec_text(text, "w.md", "md")
    assert [w.line for w in spec.warnings] and {w.line for w in spec.warnings} == {10}
    assert spec.convergence.limits.max_total_attempts == 200  # the default stands


@pytest.mark.parametrize("said", ["`accuracy` >= `threshold`", "accuracy >= `threshold`", "`accuracy >= threshold`"])
def test_a_condition_with_its_names_in_code_marks_reads_as_the_comparison(said: str) -> None:
    text = ("# W\n\n## Inputs\n- threshold (number): the bar\n\n## Steps\n\n### Step 1: Score\n- Skill: `score`\n\n"
            f"### Step 2: Publish\n- Skill: `publish`\n- When: {said}\n")
    spec = parse_spec_text(text, "w.md", "md")
    assert spec.steps[1].when == "accuracy >= threshold"
