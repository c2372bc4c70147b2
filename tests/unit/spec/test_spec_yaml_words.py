"""The YAML form as people write it: values in words, other tools' keys and references.

A policy value written as a sentence goes through the same phrase reader as markdown
prose and is cited at its YAML line; mappings, keys and references in the words of
GitHub Actions, Argo, Airflow/Prefect, Step Functions and Tekton are read as the form's
own; a key nobody knows is still reported at its line.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.yaml", "yaml")


def _one(step_lines: str, head: str = "") -> WorkflowSpec:
    """A spec of two steps, `a` then `b`; `step_lines` are b's extra keys (line 9 onwards)."""
    return _parse(f"name: n\n{head}inputs:\n  x: {{type: string}}\nsteps:\n  - id: a\n    skill: sa\n"
                  f"  - id: b\n    skill: sb\n{step_lines}")


def _statement(spec: WorkflowSpec, line: int) -> dict[str, Any]:
    found = [r for r in spec.readings if r.where == f"flow.yaml:{line}"]
    assert len(found) == 1, [(r.where, r.text) for r in spec.readings]
    return found[0].statement.model_dump(exclude_defaults=True, mode="json")


@pytest.mark.parametrize(("value", "meaning"), [
    ("4x, 3s apart", {"retries": 4, "wait": {"kind": "fixed", "seconds": [3.0]}}),
    ("three times, 10 seconds between", {"retries": 3, "wait": {"kind": "fixed", "seconds": [10.0]}}),
    ("no", {"no_retry": True}),
    ("none", {"no_retry": True}),
    ("up to 5 times with exponential backoff", {"retries": 5, "wait": {"kind": "exponential"}}),
])
@pytest.mark.parametrize("key", ["retry", "retries", "retryPolicy"])
def test_a_retry_written_in_words_is_read_by_the_phrase_reader_at_its_yaml_line(
        key: str, value: str, meaning: dict[str, Any]) -> None:
    spec = _one(f"    {key}: {value}\n")
    assert _statement(spec, 9) == meaning
    assert [r.text for r in spec.readings] == [f"{key}: {value}"]
    assert spec.warnings == ()


@pytest.mark.parametrize("key", ["on_fail", "on_failure", "onError", "catch", "if-fails"])
@pytest.mark.parametrize(("value", "meaning"), [
    ("page the release channel", {"on_failure": {"kind": "escalate", "message": "page the release channel"}}),
    ("continue with an empty list", {"on_failure": {"kind": "continue_with_value", "value": []}}),
    ("regenerate twice", {"regenerate": 2, "applies_to": "code_error"}),
    ("backup-mirror", {"on_failure": {"kind": "use_skill", "skill": "backup-mirror"}}),
    ("stop the run", {"on_failure": {"kind": "fail"}}),
])
def test_a_failure_key_in_any_tool_s_words_takes_a_sentence(key: str, value: str, meaning: dict[str, Any]) -> None:
    spec = _one(f"    {key}: {value}\n")
    assert _statement(spec, 9) == meaning


def test_a_channel_yaml_takes_for_a_comment_is_read_with_the_value_and_said_so() -> None:
    spec = _one("    on_error: notify #release-ops\n    retry: never   # not idempotent\n")
    assert _statement(spec, 9) == {"on_failure": {"kind": "escalate", "message": "notify #release-ops"}}
    assert _statement(spec, 10) == {"no_retry": True}  # a comment proper is not read
    assert [(w.line, w.code) for w in spec.warnings] == [(9, "spec.yaml-comment")]


def test_a_value_in_words_that_reads_as_nothing_is_a_policy_warning_at_its_line_never_a_policy() -> None:
    spec = _one("    if_still_failing: whatever seems best\n    timeout: eventually\n")
    assert [(w.line, w.code) for w in spec.warnings] == [(9, "spec.policy-unread"), (10, "spec.policy-unread")]
    assert spec.readings == ()
    assert [u.where for u in spec.unread] == ["flow.yaml:9", "flow.yaml:10"]  # for `plan --interpret`


def test_notes_are_the_step_s_prose_and_a_summary_never_becomes_a_policy() -> None:
    spec = _one("    notes: This one is slow. If it still fails, continue.\n",
                head="summary: |\n  Collects things.\n  Retry everything 5 times.\n")
    assert _statement(spec, 12) == {"on_failure": {"kind": "continue"}}
    assert [(w.line, w.code) for w in spec.warnings] == [(4, "spec.summary-policy")]
    assert not any(r.where.endswith(":4") for r in spec.readings)


@pytest.mark.parametrize(("mapping", "retries", "delays", "extra"), [
    ("{attempts: 4, wait: 1s then 3s}", 3, (1.0, 3.0), {}),
    ("{tries: 3, delay_ms: 500}", 2, (0.5,), {}),
    ("{count: 2, interval: 10s}", 2, (10.0,), {}),
    ("{limit: 2, backoff: {duration: 5s, factor: 3, maxDuration: 1m}}", 2, (), {"initial_s": 5.0, "multiplier": 3.0,
                                                                                "budget_s": 60.0}),
    ("{MaxAttempts: 2, IntervalSeconds: 3, BackoffRate: 2}", 2, (), {"initial_s": 3.0, "multiplier": 2.0}),
    ("{max_attempts: 3, backoff: [2, 4]}", 2, (2.0, 4.0), {}),
])
def test_a_retry_mapping_reads_the_keys_other_tools_use(mapping: str, retries: int, delays: tuple[float, ...],
                                                        extra: dict[str, float]) -> None:
    spec = _one(f"    retry: {mapping}\n")
    retry = spec.steps[1].retry
    assert retry is not None and retry.max_retries == retries and retry.delays_s == delays
    assert {k: getattr(retry, k) for k in extra} == extra
    assert spec.warnings == ()


def test_a_retry_mapping_key_nobody_uses_is_reported_at_its_line_and_the_rest_read() -> None:
    spec = _one("    retry:\n      attempts: 3\n      colour: blue\n")
    assert spec.steps[1].retry is not None and spec.steps[1].retry.max_retries == 2
    assert [(w.line, w.message) for w in spec.warnings] == [(11, "retry.colour not understood")]


@pytest.mark.parametrize("key", ["foreach", "for_each", "loop", "with_items", "forEach"])
def test_a_fan_out_key_in_any_tool_s_words_loops_over_an_earlier_step_s_list(key: str) -> None:
    spec = _one(f"    {key}: row in a.rows\n    with:\n      id: row.id\n      whole: row\n")
    b = spec.steps[1]
    assert b.for_each == "row in steps.a.output.rows"
    assert {f.name: f.source for f in b.inputs} == {"id": "item.id", "whole": "item"}


@pytest.mark.parametrize("key", ["approve", "approval", "requires_approval", "manual_approval", "sign-off"])
def test_an_approval_in_plain_words_is_a_conditional_gate_with_its_wait(key: str) -> None:
    spec = _one(f"    {key}:\n      if: a.total > 500\n      approver: finance\n      within: 2h\n"
                "      otherwise: approve\n")
    approval = spec.steps[1].approval
    assert approval is not None
    assert (approval.when, approval.timeout_s, approval.on_timeout) == ("a.total > 500", 7200.0, "approve")
    assert [(r.where, r.text) for r in spec.steps[1].readings if r.what == "approval"] == [
        ("flow.yaml:11", "approver: finance")]


def test_keys_from_ci_tools_set_the_step_s_policy() -> None:
    spec = _one("    continue-on-error: true\n    timeout-minutes: 3\n    retries: 2\n    retry_delay: 30s\n")
    b = spec.steps[1]
    assert (b.on_error, b.timeout_s) == ("continue", 180.0)
    assert b.retry is not None and (b.retry.max_retries, b.retry.delays_s) == (2, (30.0,))


def test_an_unknown_step_key_is_still_reported_at_its_line_beside_the_synonyms() -> None:
    spec = _one("    needs: a\n    colour: red\n")
    assert spec.steps[1].depends_on == ("a",)
    assert [(w.line, w.code) for w in spec.warnings] == [(10, "spec.unknown-label")]


@pytest.mark.parametrize("value", ["$input.x", "$inputs.x", "${{ inputs.x }}", "{{ inputs.x }}", "$(params.x)",
                                   "{{ workflow.parameters.x }}", "${{ github.event.inputs.x }}", "{{ params.x }}",
                                   "<< parameters.x >>", "${x}", "{{ dag_run.conf['x'] }}"])
def test_a_workflow_input_reference_in_any_tool_s_syntax_binds_the_input(value: str) -> None:
    spec = _one(f"    with:\n      v: \"{value}\"\n")
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("v", "inputs.x")]
    assert spec.steps[1].input_values == {}


@pytest.mark.parametrize(("value", "source"), [
    ("${{ needs.a.outputs.n }}", "steps.a.output.n"),
    ("{{ tasks.a.outputs.parameters.n }}", "steps.a.output.n"),
    ("$(tasks.a.results.n)", "steps.a.output.n"),
    ("{{ ti.xcom_pull(task_ids='a', key='n') }}", "steps.a.output.n"),
    ("$steps.a.n", "steps.a.output.n"),
    ("a.outputs.n", "steps.a.output.n"),
    ("all a results", "steps.a.output"),
    ("every result of a", None),
    ("a[*]", "steps.a.output"),
    ("{{ tasks.a.outputs.result }}", "steps.a.output"),
])
def test_a_step_reference_in_any_tool_s_syntax_binds_that_step_s_output(value: str, source: str | None) -> None:
    spec = _one(f"    with:\n      v: \"{value}\"\n")
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("v", source)]


def test_a_reference_that_names_nothing_is_a_warning_at_its_line_and_stays_text() -> None:
    spec = _one("    with:\n      v: $nowhere.n\n      price: $5\n")
    assert [(w.line, w.code) for w in spec.warnings] == [(10, "spec.reference")]
    assert spec.steps[1].input_values == {"v": "$nowhere.n", "price": "$5"}


def test_a_reference_inside_a_text_becomes_a_template() -> None:
    spec = _one("    with:\n      v: \"Hi $input.x, see ${{ needs.a.outputs.n }}\"\n")
    assert spec.steps[1].input_values == {"v": "Hi {{ inputs.x }}, see {{ steps.a.output.n }}"}


def test_top_level_keys_from_other_tools_name_the_workflow_inputs_and_steps() -> None:
    spec = _parse("workflow: claims\nsummary: Pays claims.\ninput:\n  who: string\n"
                  "tasks:\n  first:\n    uses: sa\n    with: {w: $input.who}\n")
    assert (spec.name, spec.intent, [i.name for i in spec.inputs]) == ("claims", "Pays claims.", ["who"])
    assert [(s.id, s.skill) for s in spec.steps] == [("first", "sa")]
    assert [(f.name, f.source) for f in spec.steps[0].inputs] == [("w", "inputs.who")]
    assert spec.warnings == ()


def test_a_yaml_fallback_word_still_sets_the_fallback_and_a_sentence_is_read() -> None:
    plain = _one("    fallback: escalate\n")
    assert any(r.rule.fallback is not None and r.rule.fallback.action is FallbackAction.ESCALATE
               for r in plain.recovery)
    words = _one("    fallback: continue with an empty list\n")
    assert _statement(words, 9) == {"on_failure": {"kind": "continue_with_value", "value": []}}
    assert ErrorClass.CODE_ERROR not in {r.rule.on for r in words.recovery}


@pytest.mark.parametrize(("written", "read"), [
    ("${{ inputs.x == 'full' }}", "inputs.x == 'full'"),
    ("$input.x == 'full'", "inputs.x == 'full'"),
    ("{{ needs.a.outputs.n > 3 }}", "steps['a'].output.n > 3"),
    ("tasks.a.outputs.parameters.n > 3", "steps['a'].output.n > 3"),
    ("a.n > 500", "a.n > 500"),
])
def test_a_condition_in_another_tool_s_syntax_reads_its_references(written: str, read: str) -> None:
    spec = _one(f"    output: [n]\n    if: \"{written}\"\n")
    assert spec.steps[1].when == read


def test_step_functions_retry_rules_are_rules_for_the_errors_they_name() -> None:
    spec = _one("    Retry:\n      - ErrorEquals: [States.Timeout]\n        IntervalSeconds: 3\n        MaxAttempts: 2\n"
                "      - ErrorEquals: [States.ALL]\n        MaxAttempts: 1\n")
    b = spec.steps[1]
    assert b.retry is not None and b.retry.max_retries == 1  # States.ALL: the step's own retry
    [row] = spec.recovery
    assert (row.step, row.rule.on, row.where) == ("b", ErrorClass.TIMEOUT, "flow.yaml:10")
    assert row.rule.retry is not None and (row.rule.retry.max_retries, row.rule.retry.delays_s) == (2, (3.0,))


def test_a_retry_for_errors_no_class_names_is_for_any_failure_and_warned() -> None:
    spec = _one("    retry: {errors: [Lambda.Weird], attempts: 2}\n")
    assert [(r.rule.on, r.rule.retry.max_retries if r.rule.retry else None) for r in spec.recovery] == [("any", 1)]
    assert [(w.line, w.code) for w in spec.warnings] == [(9, "spec.unclassified")]


def test_a_retry_written_as_a_list_of_waits_retries_once_per_wait() -> None:
    retry = _one("    retry: [1s, 2s, 4s]\n").steps[1].retry
    assert retry is not None and (retry.max_retries, retry.delays_s, retry.jitter) == (3, (1.0, 2.0, 4.0), False)


@pytest.mark.parametrize("written", ["{as: row, in: a.rows}", "{row: a.rows}", "\"row in ${{ needs.a.outputs.rows }}\"",
                                     "{item_name: row, items: \"{{ tasks.a.outputs.parameters.rows }}\"}"])
def test_a_fan_out_written_as_a_mapping_or_a_wrapped_reference_names_its_variable_and_list(written: str) -> None:
    spec = _one(f"    foreach: {written}\n    with:\n      id: row.id\n")
    assert spec.steps[1].for_each == "row in steps.a.output.rows"
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("id", "item.id")]


def test_a_fan_out_over_a_bare_reference_loops_with_item() -> None:
    spec = _one("    with_param: \"{{ steps.a.outputs.rows }}\"\n    with:\n      id: \"{{ item.id }}\"\n")
    assert spec.steps[1].for_each == "item in steps.a.output.rows"
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("id", "item.id")]


def test_a_fan_out_over_a_number_is_an_error_at_its_line() -> None:
    from orchestrator.errors import SpecError

    with pytest.raises(SpecError) as info:  # a list written there is an input (test_spec_yaml_dialects)
        _one("    with_items: 5\n")
    assert [(d.line, d.code) for d in info.value.diagnostics] == [(9, "spec.for-each")]


def test_inputs_as_a_list_of_names_and_values_are_read_as_argo_and_tekton_write_them() -> None:
    spec = _one("    arguments:\n      parameters:\n        - name: n\n          value: \"{{tasks.a.outputs.parameters.n}}\"\n"
                "        - name: mode\n          value: full\n")
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("n", "steps.a.output.n"), ("mode", None)]
    assert spec.steps[1].input_values == {"mode": "full"}


@pytest.mark.parametrize("outer", ["workflow", "dag", "spec", "pipeline"])
def test_a_spec_nested_under_one_key_is_read_from_inside_it(outer: str) -> None:
    spec = _parse(f"# claims\n{outer}:\n  name: claims\n  tasks:\n    - name: first\n      uses: sa\n")
    assert (spec.name, [(s.id, s.skill) for s in spec.steps]) == ("claims", [("first", "sa")])
    assert spec.steps[0].where == "flow.yaml:5"


def test_a_top_level_policy_in_words_is_for_every_step_and_top_level_notes_never_are() -> None:
    spec = _parse("name: n\nretry: twice, 5s apart\non_failure: page #ops\nnotes: retry everything 9 times\n"
                  "steps:\n  - id: a\n    skill: sa\n")
    read = {r.where: (r.section, r.steps, r.statement.model_dump(exclude_defaults=True, mode="json"))
            for r in spec.readings}
    assert read == {"flow.yaml:2": ("workflow", (), {"retries": 2, "wait": {"kind": "fixed", "seconds": [5.0]}}),
                    "flow.yaml:3": ("workflow", (), {"on_failure": {"kind": "escalate", "message": "page #ops"}})}
    assert [(w.line, w.code) for w in spec.warnings] == [(3, "spec.yaml-comment"), (4, "spec.unread")]
