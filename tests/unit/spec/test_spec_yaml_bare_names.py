"""Bare names in YAML templates, and keys by meaning: run deadlines, retry starts, time budgets.

Specs below are a Helm-values-like release file, a data team's notebook scheduler, a home
automation routine and a Kestra-like flow, written the way their owners would.
"""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

OUTPUTS = {
    "pull-changelog": frozenset({"entries", "since"}),
    "draft-notes": frozenset({"markdown", "since"}),
    "publish-notes": frozenset({"url"}),
    "read-sensors": frozenset({"temps", "humidity"}),
    "set-thermostat": frozenset({"setpoint"}),
}


def _parse(text: str) -> WorkflowSpec:
    vocab = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS[s])
    return parse_spec_text(text, "flow.yaml", "yaml", vocab)


def _warned(spec: WorkflowSpec, words: str) -> list[int | None]:
    return [w.line for w in spec.warnings if words in w.message]


RELEASE = """\
release:
  stages:
    - name: changelog
      uses: pull-changelog
      with: {repo: "${repo}"}
    - name: notes
      uses: draft-notes
      with:
        entries: "{{ entries }}"
    - name: publish
      uses: publish-notes
      with:
        body: "{{ markdown }}"
        channel: $channel
"""


def test_a_bare_name_is_the_one_earlier_output_of_that_name_else_a_workflow_input_each_warned() -> None:
    spec = _parse(RELEASE)
    changelog, notes, publish = spec.steps
    assert [(f.name, f.source) for f in changelog.inputs] == [("repo", "inputs.repo")]
    assert [(f.name, f.source) for f in notes.inputs] == [("entries", "steps.changelog.output.entries")]
    assert [(f.name, f.source) for f in publish.inputs] == [("body", "steps.notes.output.markdown"),
                                                            ("channel", "inputs.channel")]
    assert [i.name for i in spec.inputs_said] == ["repo", "channel"]
    assert _warned(spec, "read as `entries` of changelog, the one earlier step whose skill") == [9]
    assert _warned(spec, "read as the workflow input `channel`") == [14]
    assert any("the bare name `markdown`" in r.note for r in publish.readings)


def test_a_bare_name_two_earlier_steps_output_is_an_error_naming_how_to_write_each() -> None:
    text = RELEASE.replace('body: "{{ markdown }}"', 'body: "{{ since }}"')
    with pytest.raises(SpecError) as err:
        _parse(text)
    message = str(err.value)
    assert "`since` is output by 2 earlier steps (changelog, notes)" in message
    assert "`{{ changelog.since }}` or `{{ notes.since }}`" in message


ROUTINE = """\
routine: evening heating
inputs:
  room: {type: string}
steps:
  - id: sense
    skill: read-sensors
    input: {room: "{{ room }}"}
  - id: heat
    skill: set-thermostat
    input:
      temps: "{{ temp }}"
"""


def test_with_declared_inputs_a_name_nothing_gives_is_an_error_with_the_nearest_names() -> None:
    with pytest.raises(SpecError) as err:
        _parse(ROUTINE)
    message = str(err.value)
    assert "`temp` is not a workflow input (the spec's: room)" in message
    assert "did you mean `temps`?" in message


def test_outputs_and_results_heads_name_a_step_and_a_loop_s_results_are_its_gathered_list() -> None:
    text = """\
steps:
  - id: sense
    skill: read-sensors
    for_each: "room in inputs.rooms"
    input: {room: "{{ room }}"}
  - id: heat
    skill: set-thermostat
    input:
      temps: "{{ outputs.sense.results }}"
      humidity: "{{ results.sense.humidity }}"
inputs: {rooms: {type: array}}
"""
    heat = _parse(text).steps[1]
    assert [(f.name, f.source) for f in heat.inputs] == [("temps", "steps.sense.output"),
                                                         ("humidity", "steps.sense.output.humidity")]


SCHEDULER = """\
schedule: "0 6 * * *"
max_runtime: 45m
tasks:
  - id: changelog
    skill: pull-changelog
    step_deadline: 90s
    retry: {limit: 4, backoff: exponential, start: 3s, factor: 3, ceiling: 2m}
  - id: publish
    skill: publish-notes
    give_up_after: 10 minutes
    wait_between: 30s
"""


def test_a_scheduler_s_run_deadline_retry_start_and_time_budget_are_read_by_meaning() -> None:
    spec = _parse(SCHEDULER)
    assert spec.convergence.limits.wall_time_s == 2700
    changelog = spec.steps[0]
    assert changelog.timeout_s == 90
    retry = changelog.retry
    assert retry is not None
    assert (retry.max_retries, retry.initial_s, retry.multiplier, retry.max_delay_s) == (4, 3, 3, 120)
    budget = [r for r in spec.readings if "give_up_after" in r.text]
    assert [(r.statement.for_up_to_s, r.statement.wait is not None and r.statement.wait.seconds) for r in budget] == [
        (600, (30.0,))]
    assert not [w for w in spec.warnings if "not understood" in w.message]


def test_iso_durations_are_read_where_a_duration_is_and_an_input_list_may_name_entries_by_id() -> None:
    text = """\
id: heat-flow
inputs:
  - id: room
    type: STRING
    defaults: lounge
tasks:
  - id: sense
    skill: read-sensors
    timeout: PT1M30S
    retry: {type: constant, interval: PT10S, maxAttempt: 3}
"""
    spec = _parse(text)
    assert [(i.name, i.default) for i in spec.inputs or ()] == [("room", "lounge")]
    sense = spec.steps[0]
    assert sense.timeout_s == 90
    assert sense.retry is not None and (sense.retry.max_retries, sense.retry.delays_s) == (2, (10.0,))


def test_names_inside_a_longer_template_are_read_as_steps_inputs_and_bare_outputs_and_an_index_as_a_pointer() -> None:
    text = """\
greenhouse:
  - name: sense
    run: read-sensors
    args: {zone: "zone {{ zone | upper }}"}
  - name: heat
    run: set-thermostat
    args:
      first: "{{ sense.temps[0] }}"
      note: "was {{ sense.temps[0] }}C at {{ humidity }}% ({{ zone }}) {{ 'hot' if sense.temps[0] > 30 else 'ok' }}"
"""
    spec = _parse(text)
    sense, heat = spec.steps
    assert sense.input_values == {"zone": "zone {{ inputs.zone | upper }}"}
    assert [(f.name, f.source) for f in heat.inputs if f.source] == [("first", "steps.sense.output.temps.0")]
    assert heat.input_values["note"] == (
        "was {{ steps.sense.output.temps[0] }}C at {{ steps.sense.output.humidity }}% ({{ inputs.zone }}) "
        "{{ 'hot' if steps.sense.output.temps[0] > 30 else 'ok' }}")
    assert _warned(spec, "{{ humidity }} names no workflow input, step or loop item; read as `humidity` of sense") == [9]
    assert [i.name for i in spec.inputs_said] == ["zone"]


def test_keys_named_as_the_skill_s_inputs_beside_it_are_its_inputs_and_other_keys_stay_warned() -> None:
    vocab = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(
        lambda s: OUTPUTS[s], lambda s: frozenset({"room", "temps"}) if s == "set-thermostat" else frozenset())
    text = """\
steps:
  - id: sense
    skill: read-sensors
  - id: heat
    skill: set-thermostat
    temps: "{{ sense.temps }}"
    room: lounge
    colour: blue
"""
    spec = parse_spec_text(text, "flow.yaml", "yaml", vocab)
    heat = spec.steps[1]
    assert [(f.name, f.source) for f in heat.inputs] == [("temps", "steps.sense.output.temps"), ("room", None)]
    assert heat.input_values == {"room": "lounge"}
    assert _warned(spec, "`temps`, `room` (no step key) read as the inputs of `set-thermostat`") == [6]
    assert _warned(spec, "key 'colour' not understood") == [8]


def test_a_low_code_flow_s_typed_values_script_paths_and_flow_inputs_are_read() -> None:
    text = """\
flow:
  modules:
    - id: s
      value: {type: script, path: u/ops/read-sensors}
      input_transforms:
        room: {type: javascript, expr: flow_input.room}
    - id: h
      value: {type: script, path: u/ops/set-thermostat}
      input_transforms:
        temps: {type: javascript, expr: "results.s.temps[1]"}
        mode: {type: static, value: eco}
"""
    spec = _parse(text)
    assert [(s.id, s.skill) for s in spec.steps] == [("s", "read-sensors"), ("h", "set-thermostat")]
    assert [(f.name, f.source) for f in spec.steps[0].inputs] == [("room", "inputs.room")]
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("temps", "steps.s.output.temps.1"),
                                                                  ("mode", None)]
    assert spec.steps[1].input_values == {"mode": "eco"}
    assert [i.name for i in spec.inputs_said] == ["room"]  # read by an explicit reference, declared nowhere
