"""Gathering a fan-out's results and Airflow's exponential retry keys in the YAML form.

`{{ write | collect }}`, `| list`, `| gather`, `write.all`, `write[*]` are how other tools say
"every result of the mapped step, as one list": each is the step's whole output (the list of
its items' results). Gathering a step that runs once is a warning at the line, and
`retry_exponential_backoff` / `max_retry_delay` are read or warned, never dropped.
"""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec import yaml_keys as yk


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "dag.yaml", "yaml")


def _fan(gather: str, fan: bool = True) -> str:
    loop = "    expand: '{{ a.parts }}'\n" if fan else ""
    return ("tasks:\n  - task_id: a\n    skill: sa\n  - task_id: w\n    skill: sw\n    upstream: [a]\n" + loop +
            "  - task_id: p\n    skill: sp\n    upstream: [w]\n    inputs:\n"
            f"      files: \"{gather}\"\n")


@pytest.mark.parametrize("gather", ["{{ w | collect }}", "{{ w | list }}", "{{ w|gather() }}", "{{ w.all }}",
                                    "{{ w[*] }}", "{{ w.output | collect }}", "${{ w | collect }}"])
def test_a_gathering_filter_or_word_on_a_mapped_step_is_all_its_results(gather: str) -> None:
    spec = _parse(_fan(gather))
    assert [(f.name, f.source) for f in spec.steps[2].inputs] == [("files", "steps.w.output")]
    assert not [w for w in spec.warnings if "gathers" in w.message]


def test_gathering_a_step_that_runs_once_is_a_warning_at_the_line() -> None:
    spec = _parse(_fan("{{ w | collect }}", fan=False))
    assert spec.steps[2].inputs[0].source == "steps.w.output"
    assert [(w.line, "runs once" in w.message) for w in spec.warnings if "gathers" in w.message] == [(11, True)]


@pytest.mark.parametrize("written", ["w | upper", "w.results.count", "w | collect | first", "a.b | list"])
def test_other_filters_and_paths_are_not_a_gathering(written: str) -> None:
    assert yk.gather_form(written) is None


def _retry(keys: str) -> WorkflowSpec:
    return _parse("tasks:\n  - task_id: a\n    skill: sa\n" + keys)


def test_retry_exponential_backoff_doubles_the_retry_delay_for_each_retry_uncapped() -> None:
    retry = _retry("    retries: 3\n    retry_delay: 20s\n    retry_exponential_backoff: true\n").steps[0].retry
    assert retry is not None
    assert [retry.delay(i) for i in range(3)] == [20.0, 40.0, 80.0]


def test_max_retry_delay_caps_the_exponential_wait() -> None:
    retry = _retry("    retries: 3\n    retry_delay: 20s\n    retry_exponential_backoff: true\n"
                   "    max_retry_delay: 30s\n").steps[0].retry
    assert retry is not None and [retry.delay(i) for i in range(3)] == [20.0, 30.0, 30.0]


@pytest.mark.parametrize(("keys", "line"), [
    ("    retry_exponential_backoff: true\n", 4),
    ("    retries: 2\n    retry_delay: [5, 9]\n    retry_exponential_backoff: true\n", 6),
    ("    retries: 2\n    max_retry_delay: 1m\n", 5),
])
def test_an_exponential_key_that_cannot_apply_is_a_warning_at_its_line(keys: str, line: int) -> None:
    spec = _retry(keys)
    assert [w.line for w in spec.warnings if "exponential" in w.message or "not applied" in w.message] == [line]


def test_airflow_partial_and_an_expand_argument_are_inputs_and_the_argument_is_the_item() -> None:
    spec = _parse("tasks:\n  - task_id: a\n    skill: sa\n  - task_id: w\n    skill: sw\n    upstream: [a]\n"
                  "    partial:\n      week: '{{ a.week }}'\n    expand:\n      region: '{{ a.parts }}'\n")
    w = spec.steps[1]
    assert w.for_each == "region in steps.a.output.parts"
    assert [(f.name, f.source) for f in w.inputs] == [("week", "steps.a.output.week"), ("region", "item")]
    assert not [x for x in spec.warnings if "partial" in x.message]


def test_an_input_the_step_gives_itself_keeps_its_value_beside_partial() -> None:
    spec = _parse("tasks:\n  - task_id: a\n    skill: sa\n  - task_id: w\n    skill: sw\n    upstream: [a]\n"
                  "    partial: {week: '{{ a.week }}'}\n    inputs: {week: '{{ params.week }}'}\n")
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("week", "inputs.week")]
