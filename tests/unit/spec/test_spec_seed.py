"""The seed's Fetch-Analyze-Document spec, verbatim, compiles to the expected WorkflowSpec."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec, parse_spec_text


@pytest.fixture(scope="module")
def seed(seed_spec: Path) -> WorkflowSpec:
    return parse_spec(seed_spec)


def _line(where: str | None) -> int:
    assert where is not None
    return int(where.rsplit(":", 1)[1])


def test_seed_steps_have_ids_names_and_skill_text(seed: WorkflowSpec) -> None:
    assert seed.name == "fetch-analyze-document"
    assert seed.title == "Fetch-Analyze-Document Workflow"
    assert seed.format == "markdown"
    assert [(s.id, s.number, s.name) for s in seed.steps] == [
        ("step-1", 1, "Fetch Documentation"),
        ("step-2", 2, "Analyze Module Structure"),
        ("step-3", 3, "Generate Documentation"),
        ("step-4", 4, "Validate Output"),
    ]
    assert [s.skill for s in seed.steps] == [
        "MCP-wrapping skill wrapping docs repository",
        "Script-execution skill",
        "Script-execution skill",
        "Script-execution skill (markdown validator)",
    ]
    assert [_line(s.where) for s in seed.steps] == [14, 25, 36, 46]
    assert _line(seed.steps[0].skill_where) == 15
    assert all(s.depends_on == () for s in seed.steps)


def test_seed_inputs_come_from_the_first_step_when_there_is_no_inputs_section(
    seed: WorkflowSpec,
) -> None:
    assert [(i.name, i.type, i.required) for i in seed.inputs] == [("module_name", "string", True)]
    assert _line(seed.inputs[0].where) == 16


def test_seed_input_and_output_lines_become_typed_fields(seed: WorkflowSpec) -> None:
    s1, s2, s3, s4 = seed.steps
    assert [(f.name, f.type, f.description) for f in s1.outputs] == [
        ("existing_docs", "string", "markdown"),
        ("docs_found", "boolean", ""),
    ]
    assert [(f.name, f.type) for f in s2.inputs] == [("module_name", None), ("existing_docs", None)]
    (analysis,) = s2.outputs
    assert analysis.name == "analysis"
    assert analysis.type == "object"
    assert analysis.whole_output is True
    assert analysis.keys == ("functions", "classes", "methods", "parameters", "return_types")
    assert [(f.name, f.type, f.whole_output) for f in s3.inputs] == [
        ("module_name", None, False),
        ("analysis", "object", False),
    ]
    assert [(f.name, f.type, f.items) for f in s4.outputs] == [
        ("validation_result", "boolean", None),
        ("issues", "array", "string"),
    ]


def test_seed_flattened_failure_modes_belong_to_their_step(seed: WorkflowSpec) -> None:
    assert seed.steps[0].failure_modes == (
        "Docs repository unreachable (network error)",
        "Module name doesn't exist (returns empty)",
        "Docs repository returns malformed data",
        "Timeout (docs too large)",
    )
    assert len(seed.steps[1].failure_modes) == 4
    assert seed.steps[2].failure_modes[-1] == "Output is not markdown (generation bug)"
    assert seed.steps[3].failure_modes == (
        "Markdown parser fails (generated docs invalid)",
        "Required sections missing",
    )
    assert seed.steps[0].success.startswith("Output file contains valid markdown")


def test_seed_contracts_carry_fields_and_constraints(seed: WorkflowSpec) -> None:
    c12, c23, c34, check, success = seed.contracts
    assert (c12.producer, c12.consumer, _line(c12.where)) == ("step-1", "step-2", 57)
    assert [(f.name, f.type) for f in c12.output_fields] == [
        ("existing_docs", "string"),
        ("docs_found", "boolean"),
    ]
    assert [f.name for f in c12.input_fields] == ["module_name", "existing_docs"]
    assert c12.constraints == {"module_name": {"type": "string", "minLength": 1}}
    assert [(f.name, f.type) for f in c23.output_fields] == [("functions", "array"), ("classes", "array")]
    assert c23.constraints == {"": {"required": ["functions", "classes"]}}
    assert c34.constraints == {"generated_docs": {"type": "string", "minLength": 1}}
    assert c34.validation == ("String is non-empty", "contains markdown syntax")
    # the success criterion `validation_result (Step 4) = true` is a check on Step 4's output
    assert (check.producer, check.consumer) == ("step-4", None)
    assert check.constraints == {"validation_result": {"const": True}}
    # step 4's Success line `validation_result = true, issues = []` is a check on its output too
    assert (success.producer, success.consumer, _line(success.where)) == ("step-4", None, 50)
    assert success.constraints == {"": {"properties": {"validation_result": {"const": True},
                                                       "issues": {"maxItems": 0}},
                                        "required": ["issues", "validation_result"]}}
    assert all(c.json_schema is None for c in seed.contracts)


def test_seed_recovery_table_rows_become_rules(seed: WorkflowSpec) -> None:
    rows = [
        (
            r.step,
            r.rule.on,
            r.rule.retry.max_retries if r.rule.retry else None,
            r.rule.retry.delays_s if r.rule.retry else None,
            r.rule.regenerate,
            r.rule.fallback.action if r.rule.fallback else None,
            r.feedback_to,
            r.timeout_s,
            _line(r.where),
        )
        for r in seed.recovery
    ]
    default, escalate, fail = FallbackAction.DEFAULT, FallbackAction.ESCALATE, FallbackAction.FAIL
    assert rows == [
        ("step-1", ErrorClass.TIMEOUT, 3, (1.0, 2.0, 4.0), 0, default, None, 5.0, 94),
        ("step-1", ErrorClass.INVALID_INPUT, 0, (), 0, default, None, None, 95),
        ("step-1", ErrorClass.CODE_ERROR, 0, (), 0, default, None, None, 96),
        ("step-2", ErrorClass.INVALID_INPUT, 0, (), 0, escalate, None, None, 97),
        ("step-2", ErrorClass.CODE_ERROR, 0, (), 1, escalate, None, None, 98),
        ("step-2", ErrorClass.TIMEOUT, 0, (), 0, fail, None, 30.0, 99),
        ("step-3", ErrorClass.TIMEOUT, 0, (), 0, default, None, 10.0, 100),
        ("step-3", ErrorClass.CODE_ERROR, 0, (), 1, escalate, None, None, 101),
        ("step-4", ErrorClass.CODE_ERROR, 0, (), 0, fail, "step-3", None, 102),
    ]
    first = seed.recovery[0]
    assert first.rule.retry is not None and first.rule.retry.jitter is False
    assert first.rule.fallback is not None and first.rule.fallback.value is None  # the empty value
    assert first.recovery == "Retry with backoff (1s, 2s, 4s)"
    assert first.fallback_text == "Assume no existing docs; continue"
    assert first.detection == "No response after 5s"


def test_seed_convergence_criteria_become_bounds(seed: WorkflowSpec) -> None:
    conv = seed.convergence
    assert conv.step_retries == {"step-1": 3}
    assert conv.step_timeouts_s == {"step-3": 10.0}
    assert conv.step_unrecoverable == {"step-2": ErrorClass.INVALID_INPUT}
    assert conv.feedback == {"step-4": ("step-3", 2)}
    assert {k: _line(v) for k, v in conv.where.items()} == {
        "step-1.retries": 85,
        "step-2.unrecoverable": 86,
        "step-3.timeout": 87,
        "step-4.feedback": 88,
    }
    assert len(conv.success) == 3 and len(conv.failure) == 4
    assert conv.limit_where == {}


def test_seed_testing_plan_gives_five_named_scenarios(seed: WorkflowSpec) -> None:
    assert [(s.name, s.kind, _line(s.where)) for s in seed.scenarios] == [
        ("Happy path", "happy", 105),
        ("Graceful degradation", "degradation", 106),
        ("Error recovery", "recovery", 107),
        ("Escalation", "escalation", 108),
        ("Edge case", "edge", 109),
    ]
    assert seed.scenarios[2].description == "Network timeout in Step 1 → retry → succeed"


def test_seed_text_not_read_as_policy_is_reported_with_its_line(seed: WorkflowSpec) -> None:
    found = [(w.line, w.code) for w in seed.warnings]
    assert found == [
        (18, "spec.success"),  # Output file contains valid markdown (possibly empty ...): not a comparison
        (29, "spec.success"),  # JSON parses without error
        (29, "spec.success"),  # all public APIs documented
        (40, "spec.success"),  # Markdown is valid (Step 4 validates)
        (60, "spec.validation"),  # existing_docs is valid markdown or empty string
        (70, "spec.validation"),  # contains markdown syntax
        (82, "spec.unread"),  # Output: generated_docs (string) + validation report
        (99, "spec.unread"),  # recovery "Module too complex" names no action
        (100, "spec.assumed"),  # "Use template fallback" names no skill
    ]
    assert all(w.file == seed.path for w in seed.warnings)
    assert "Module too complex" in seed.warnings[7].message


def test_seed_sections_keep_their_text(seed: WorkflowSpec) -> None:
    assert seed.intent.startswith("Automatically generate API documentation")
    assert "Result: A domain expert" in seed.intent
    assert seed.state.startswith("- Persisted across steps")
    assert len(seed.sha256) == 64


def test_nested_failure_modes_read_the_same_as_flattened(seed_spec: Path) -> None:
    text = seed_spec.read_text(encoding="utf-8")
    nested_lines = []
    inside = False
    for line in text.splitlines():
        if line.startswith("- Failure modes:"):
            inside = True
        elif line.startswith("### ") or line.startswith("## ") or not line.strip():
            inside = False
        elif inside and line.startswith("- "):
            line = "  " + line
        nested_lines.append(line)
    nested = parse_spec_text("\n".join(nested_lines) + "\n", str(seed_spec), "markdown")
    flat = parse_spec(seed_spec)
    assert nested.steps == flat.steps
    assert nested.recovery == flat.recovery
    assert nested.steps[0].failure_modes[0] == "Docs repository unreachable (network error)"
