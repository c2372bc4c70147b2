"""The YAML form (seed 001) compiles to the same model as the markdown form."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import SpecError
from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.spec import parse_spec, parse_spec_text


def _parse(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "flow.yaml", "yaml")


def _errors(text: str) -> list[tuple[int | None, str]]:
    with pytest.raises(SpecError) as info:
        _parse(text)
    return [(d.line, d.message) for d in info.value.diagnostics]


def test_yaml_fixture_compiles_with_agents_read_as_skills(yaml_spec: Path) -> None:
    spec = parse_spec(yaml_spec)
    assert spec.name == "data-pipeline"
    assert spec.format == "yaml"
    assert spec.intent == "Extract, transform, and load data"
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [
        ("extract", "data-extractor", ()),
        ("transform", "data-transformer", ("extract",)),
        ("load", "data-loader", ("transform",)),
        ("validate", "data-validator", ("load",)),
        ("notify", "notifier", ("validate",)),
    ]
    assert [int(s.where.rsplit(":", 1)[1]) for s in spec.steps] == [5, 10, 16, 22, 26]
    assert [s.on_error for s in spec.steps] == [None, None, None, None, "continue"]
    assert spec.steps[0].input_values == {"source": "database"}
    assert spec.steps[1].input_values == {"rules": "transformation_rules.json"}
    assert spec.inputs == ()  # literal values are not workflow inputs


def test_yaml_fixture_global_retry_and_timeout(yaml_spec: Path) -> None:
    spec = parse_spec(yaml_spec)
    assert spec.retry is not None
    # max_attempts counts the first attempt: 3 attempts = 2 retries, exponential with jitter
    assert spec.retry.max_retries == 2
    assert spec.retry.delays_s == ()
    assert spec.retry.jitter is True
    assert spec.timeout_s == 3600.0
    assert spec.convergence.limits.wall_time_s == 3600.0
    assert spec.convergence.limit_where["wall_time_s"].endswith(":35")
    assert spec.warnings == ()


FULL = """\
name: full
inputs:
  module_name: {type: string, description: the module}
  depth: {type: integer, default: 2}
steps:
  - id: fetch
    skill: fetch-docs
    input:
      module_name: "{{ inputs.module_name }}"
      note: "about ${inputs.module_name}"
    timeout: 30s
    retry: {max_attempts: 4, backoff: [1s, 2s, 4s]}
    fallback: {default: {existing_docs: ""}}
  - id: each
    skill: analyze-module
    depends_on: fetch
    for_each: "name in steps.fetch.output.names"
    when: "inputs.depth > 1"
    approval: {required: true, timeout: 1h, on_timeout: approve}
    compensation: undo
    regenerate: 2
    feedback: {step: fetch, max_attempts: 3}
    recovery:
      - on: timeout
        retry: 1
        fallback: continue
  - id: pick
    skill: chooser
    routes: {short: fetch, long: each}
    retry: 5
limits: {max_total_attempts: 30, wall_time: 10m, token_budget: 5000}
scenarios:
  - {name: Happy path, description: all good, kind: happy}
"""


def test_yaml_steps_read_every_policy_key() -> None:
    spec = _parse(FULL)
    fetch, each, pick = spec.steps
    assert [(i.name, i.type, i.required, i.default) for i in spec.inputs] == [
        ("module_name", "string", True, None),
        ("depth", "integer", False, 2),
    ]
    assert fetch.inputs[0].source == "inputs.module_name"
    assert fetch.input_values == {"note": "about {{ inputs.module_name }}"}
    assert fetch.timeout_s == 30.0
    assert fetch.retry is not None and fetch.retry.max_retries == 3
    assert fetch.retry.delays_s == (1.0, 2.0, 4.0)
    assert each.depends_on == ("fetch",)
    assert each.for_each == "name in steps.fetch.output.names"
    assert each.when == "inputs.depth > 1"
    assert each.approval is not None
    assert (each.approval.timeout_s, each.approval.on_timeout) == (3600.0, "approve")
    assert each.compensation == "undo"
    assert pick.routes == {"short": "fetch", "long": "each"}
    assert pick.retry is not None and pick.retry.max_retries == 5 and pick.retries == 5
    rows = [(r.step, r.rule.on, r.rule.regenerate, r.rule.fallback, r.feedback_to,
             r.feedback_attempts) for r in spec.recovery]
    assert rows[0][:2] == ("fetch", "any")
    assert rows[0][3] is not None and rows[0][3].action is FallbackAction.DEFAULT
    assert rows[0][3].value == {"existing_docs": ""}
    assert rows[1] == ("each", ErrorClass.CODE_ERROR, 2, None, None, None)
    assert rows[2] == ("each", "any", None, None, "fetch", 3)
    assert rows[3][:2] == ("each", ErrorClass.TIMEOUT)
    timeout_rule = spec.recovery[3].rule
    assert timeout_rule.retry is not None and timeout_rule.retry.max_retries == 1
    assert timeout_rule.fallback is not None and timeout_rule.fallback.action is FallbackAction.CONTINUE
    limits = spec.convergence.limits
    assert (limits.max_total_attempts, limits.wall_time_s, limits.max_llm_tokens) == (30, 600.0, 5000)
    assert [(s.name, s.kind) for s in spec.scenarios] == [("Happy path", "happy")]
    assert spec.warnings == ()


def test_yaml_unknown_keys_are_warnings_with_lines() -> None:
    spec = _parse("name: x\nowner: me\nsteps:\n  - id: a\n    skill: b\n    colour: red\n"
                  "    timeout: soon\n")
    assert [(w.line, w.code) for w in spec.warnings] == [
        (2, "spec.unread"),
        (6, "spec.unknown-label"),
        (7, "spec.policy-unread"),
    ]
    assert spec.steps[0].extra == {"colour": "red"}


def test_yaml_syntax_error_names_its_line() -> None:
    errors = _errors("name: x\nsteps:\n  - id: a\n    skill: [b\n")
    assert len(errors) == 1
    assert errors[0][0] == 5
    assert "flow sequence at line 4" in errors[0][1]


def test_yaml_structure_errors_are_all_reported_with_lines() -> None:
    errors = _errors(
        "name: x\nsteps:\n  - skill: a\n  - id: b\n  - id: c\n    skill: d\n    depends_on: [zz]\n"
        "  - id: c\n    skill: e\n"
    )
    assert errors == [  # steps[0] has no id: it is read as `step-1`
        (7, "c depends on 'zz', which the spec does not have"),
        (8, "step id 'c' is used twice (first at line 5)"),
    ]


def test_yaml_that_is_not_a_mapping_is_an_error() -> None:
    assert _errors("- a\n- b\n") == [(1, "the spec must be a mapping")]
    assert [(line, message.startswith("the spec has no steps: write a `steps:` list")) for line, message in
            _errors("name: x\n")] == [(1, True)]
    assert _errors("name: x\nsteps: 3\n") == [(2, "steps must be a list (or a map of id: step)")]
    assert _errors("name: x\nsteps: {}\n") == [(2, "the spec has no steps")]


def test_yaml_duplicate_keys_are_errors() -> None:
    errors = _errors("name: x\nsteps:\n  - id: a\n    skill: b\n    skill: c\n")
    assert errors == [(5, "steps[0]: key 'skill' is given twice")]


def test_yaml_bad_when_expression_is_an_error() -> None:
    errors = _errors("name: x\nsteps:\n  - id: a\n    skill: b\n    when: 'x >'\n")
    assert errors[0][0] == 5 and errors[0][1].startswith("when: the condition 'x >' cannot be read")


def test_yaml_numeric_step_ids_can_be_depended_on_as_numbers() -> None:
    spec = _parse(
        "name: n\nsteps:\n  - id: 1\n    skill: a\n  - id: 2\n    skill: b\n    depends_on: [1]\n"
        "  - id: 3\n    skill: c\n    depends_on: 2\n"
    )
    assert [(s.id, s.depends_on) for s in spec.steps] == [("1", ()), ("2", ("1",)), ("3", ("2",))]
    assert _errors("name: n\nsteps:\n  - id: a\n    skill: a\n  - id: b\n    skill: b\n    depends_on: [true]\n") == [
        (7, "b: depends_on must be a step id or a list of them")
    ]


def test_a_yaml_retry_that_is_neither_a_count_nor_a_mapping_says_the_three_forms() -> None:
    assert _errors("name: n\nsteps:\n  - id: a\n    skill: a\n    retry: [[1]]\n") == [
        (5, "retry must be a number of retries (retry: 3), a sentence (retry: 3x, 2s apart) or a mapping "
            "(retry: {attempts: 3, wait: 2s})")
    ]


def test_a_yaml_retry_in_words_nobody_can_read_is_a_warning_at_its_line_and_not_in_the_plan() -> None:
    spec = _parse("name: n\nsteps:\n  - id: a\n    skill: a\n    retry: banana\n")
    assert [(w.line, w.code) for w in spec.warnings] == [(5, "spec.policy-unread")]
    assert "'retry: banana' states a policy that was not understood" in spec.warnings[0].message
    assert spec.steps[0].retry is None and spec.readings == ()


def test_a_yaml_input_of_an_unknown_type_is_a_warning_at_its_line() -> None:
    spec = _parse("name: n\ninputs:\n  x: {type: banana}\n  y: {type: integer}\nsteps:\n  - id: a\n    skill: a\n")
    assert [(w.line, w.message) for w in spec.warnings if "type" in w.message] == [
        (3, "input 'x': type 'banana' is not a type skillweave knows (string, number, integer, boolean, "
            "array, object, ...); any value is accepted")
    ]


def test_yaml_surrogate_pair_escapes_become_their_character_and_a_lone_one_is_an_error() -> None:
    spec = _parse('name: "Go \\ud83d\\udea6"\nsteps:\n  - id: a\n    skill: a\n    when: "inputs.x == \'\\U0001F6A6\'"\n')
    assert spec.name == "Go 🚦"
    assert spec.steps[0].when == "inputs.x == '🚦'"
    assert _errors('name: n\nsteps:\n  - id: a\n    skill: "a\\udc00"\n') == [
        (4, "a lone surrogate escape (\\uD800-\\uDFFF) is not valid Unicode; write the character itself or both "
            "halves of its pair")
    ]


def test_a_yaml_step_id_starting_with_a_non_ascii_letter_says_the_rule() -> None:
    assert _errors("name: n\nsteps:\n  - id: 步骤\n    skill: a\n") == [
        (3, "step id '步骤' must start with an ASCII letter, digit or _ and hold only letters, digits, _ and -")
    ]


def test_a_workflow_retry_keeps_its_line_for_the_plans_provenance() -> None:
    spec = _parse("name: n\nretry: 3\nsteps:\n  - id: a\n    skill: a\n")
    assert spec.retry is not None and spec.retry.max_retries == 3
    assert spec.retry_where == "flow.yaml:2"


def test_a_step_keyed_by_a_bad_id_in_a_map_of_steps_is_an_error_at_its_line_not_a_crash() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec_text('steps:\n  "a b": {skill: fetch-feed}\n', "flow.yaml", "yaml")
    assert [(d.line, d.code) for d in info.value.diagnostics] == [(2, "spec.bad-id")]
