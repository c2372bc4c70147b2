"""Other tools' YAML shapes, read through the tables of `yaml_dialect` and `yaml_step_shape`.

Where GitHub Actions, GitLab CI, Argo, Tekton and Airflow put their steps and inputs, and
the step keys whose shape differs from the form's own (`uses: ./skills/x`, a matrix under
`strategy:`, an environment with reviewers, GitLab `rules:`, Tekton when-expressions, Argo
`depends:` expressions): each is read as the author meant, what means nothing for a run is
a reading, and what matters but cannot be read is a warning at its line, never dropped.
"""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.yaml_step_shape import skill_name


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.yaml", "yaml")


def _warned(spec: WorkflowSpec) -> list[tuple[int | None, str]]:
    return [(w.line, w.message) for w in spec.warnings]


@pytest.mark.parametrize(("written", "skill"), [
    ("./skills/check-links", "check-links"), ("skills/check-links@v1", "check-links"),
    ("acme/docs/skills/check-links@main", "check-links"), ("check-links", "check-links"),
    ("arn:aws:lambda:eu-west-1:123456789012:function:check-links", "check-links"),
])
def test_a_skill_written_as_a_path_or_a_versioned_reference_is_its_last_part(written: str, skill: str) -> None:
    assert skill_name(written) == skill


def test_a_github_workflow_s_dispatch_inputs_are_the_workflow_inputs_and_on_is_a_reading() -> None:
    spec = _parse("on:\n  workflow_dispatch:\n    inputs:\n      target: {type: choice, options: [a, b]}\n"
                  "      n: {type: number, default: 2}\njobs:\n  one:\n    uses: ./skills/sa\n"
                  "    with: {t: '${{ inputs.target }}'}\n")
    assert [(i.name, i.type, i.required) for i in spec.inputs] == [("target", "string", True), ("n", "number", False)]
    assert spec.steps[0].skill == "sa" and spec.steps[0].inputs[0].source == "inputs.target"
    assert any(r.text == "on" for r in spec.steps[0].readings) and spec.warnings == ()


def test_a_matrix_under_strategy_loops_over_the_list_and_its_variable_s_fields_are_the_item_s() -> None:
    spec = _parse("jobs:\n  a:\n    uses: sa\n  b:\n    needs: a\n    strategy:\n      fail-fast: false\n"
                  "      matrix:\n        page: ${{ fromJSON(needs.a.outputs.pages) }}\n    uses: sb\n"
                  "    with: {slug: '${{ matrix.page.slug }}'}\n")
    b = spec.steps[1]
    assert b.for_each == "page in steps.a.output.pages"
    assert [(f.name, f.source) for f in b.inputs] == [("slug", "item.slug")]


def test_a_matrix_over_two_variables_is_an_error_at_its_line_not_a_silent_single_loop() -> None:
    with pytest.raises(SpecError) as info:
        _parse("jobs:\n  a:\n    uses: sa\n  b:\n    strategy:\n      matrix:\n        os: ${{ needs.a.outputs.os }}\n"
               "        py: ${{ needs.a.outputs.py }}\n    uses: sb\n")
    assert [(d.line, "cross product" in d.message) for d in info.value.diagnostics] == [(7, True)]


def test_an_environment_with_reviewers_is_an_approval_and_one_without_is_only_a_name() -> None:
    spec = _parse("jobs:\n  a:\n    uses: sa\n    environment: production\n  b:\n    uses: sb\n    environment:\n"
                  "      name: staging\n      reviewers: [docs-lead]\n      when: ${{ needs.a.outputs.broken > 0 }}\n"
                  "      wait-timer: 90\n")
    a, b = spec.steps
    assert a.approval is None and any("no reviewers" in r.note for r in a.readings)
    assert b.approval is not None
    assert (b.approval.when, b.approval.timeout_s) == ("steps['a'].output.broken > 0", 5400.0)


def test_continue_on_error_false_is_an_explicit_fail_and_on_failure_uses_is_a_fallback_skill() -> None:
    spec = _parse("jobs:\n  a:\n    uses: sa\n    continue-on-error: false\n  b:\n    uses: sb\n"
                  "    on-failure:\n      uses: ./skills/plain\n")
    assert spec.steps[0].on_error == "fail"
    assert [(r.rule.fallback.skill if r.rule.fallback else None) for r in spec.recovery if r.step == "b"] == ["plain"]


def test_a_job_s_one_skill_step_is_the_job_and_a_shell_step_is_a_warning_at_its_line() -> None:
    spec = _parse("jobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                  "      - run: make docs\n      - uses: skills/sa@v1\n        with: {x: 1}\n")
    a = spec.steps[0]
    assert (a.skill, a.input_values) == ("sa", {"x": 1})
    assert _warned(spec) == [(6, "a: a step with no skill (`run:` commands are not run); not read")]
    assert any("runner" in r.note for r in a.readings)


def test_a_job_of_several_skill_steps_is_a_step_each_and_needs_of_the_job_reach_the_step_its_outputs_name() -> None:
    spec = _parse("jobs:\n  a:\n    needs: z\n    if: ${{ inputs.go }}\n    outputs: {n: '${{ steps.one.outputs.n }}'}\n"
                  "    steps:\n      - {id: one, uses: skills/sa@v1}\n      - {name: Second Step, uses: skills/sb@v1}\n"
                  "  z:\n    uses: sz\n  b:\n    needs: a\n    uses: sc\n    with: {n: '${{ needs.a.outputs.n }}'}\n")
    assert [(s.id, s.skill, s.depends_on, s.when) for s in spec.steps] == [
        ("one", "sa", ("z",), "inputs.go"), ("second-step", "sb", ("one",), "inputs.go"), ("z", "sz", (), None),
        ("b", "sc", ("second-step",), None)]
    assert [(f.name, f.source) for f in spec.steps[3].inputs] == [("n", "steps.one.output.n")]


def test_a_job_whose_steps_use_no_skill_is_an_error_at_its_steps_line() -> None:
    with pytest.raises(SpecError) as info:
        _parse("jobs:\n  a:\n    steps:\n      - run: make\n")
    assert [(d.line, d.message) for d in info.value.diagnostics] == [
        (3, "a: no step of this job uses a skill (`uses: ./skills/NAME`)")]


GITLAB = """\
stages: [build, test, deploy]
variables:
  TARGET: staging
  PAGES: {description: the pages}
compile:
  stage: build
  script: sa
  variables: {pages: $PAGES}
  retry: {max: 2, when: [runner_system_failure, stuck_or_timeout_failure]}
  timeout: 1h 30m
check:
  stage: test
  script: [sb]
lint:
  stage: test
  script: sc
ship:
  stage: deploy
  script: sd
  rules:
    - if: $TARGET == "prod"
      when: manual
    - if: $FORCE == "yes"
  allow_failure: true
.template:
  script: nothing
"""


def test_gitlab_jobs_are_the_steps_in_stage_order_with_their_variables_as_inputs() -> None:
    spec = _parse(GITLAB)
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [
        ("compile", "sa", ()), ("check", "sb", ("compile",)), ("lint", "sc", ("compile",)),
        ("ship", "sd", ("compile", "check", "lint"))]
    assert [(i.name, i.default, i.required) for i in spec.inputs] == [("TARGET", "staging", False),
                                                                     ("PAGES", None, True)]
    assert spec.steps[0].inputs[0].source == "inputs.PAGES" and spec.steps[0].timeout_s == 5400.0


def test_gitlab_retry_when_is_a_rule_per_failure_class_it_names() -> None:
    rows = [(r.rule.on, r.rule.retry.max_retries if r.rule.retry else None) for r in _parse(GITLAB).recovery]
    assert rows == [("transient", 2), ("timeout", 2)]


def test_gitlab_rules_are_one_condition_a_manual_rule_is_an_approval_and_a_hidden_job_is_warned() -> None:
    spec = _parse(GITLAB)
    ship = spec.steps[-1]
    assert ship.when == '(inputs.TARGET == "prod") or (inputs.FORCE == "yes")'
    assert ship.approval is not None and ship.on_error == "continue"
    assert [line for line, message in _warned(spec) if "hidden job" in message] == [25]


@pytest.mark.parametrize(("when", "line_warned"), [("on_failure", True), ("never", True), ("always", False),
                                                    ("manual", False)])
def test_a_gitlab_when_word_is_an_approval_nothing_or_a_warning_never_a_condition(when: str,
                                                                                   line_warned: bool) -> None:
    spec = _parse(f"a:\n  script: sa\nb:\n  script: sb\n  when: {when}\n")
    b = spec.steps[1]
    assert b.when is None
    assert (b.approval is not None) == (when == "manual")
    assert [line for line, _ in _warned(spec)] == ([5] if line_warned else [])


ARGO = """\
apiVersion: argoproj.io/v1alpha1
kind: Workflow
spec:
  entrypoint: main
  onExit: cleanup
  arguments:
    parameters:
      - {name: target, value: staging}
  templates:
    - name: main
      dag:
        tasks:
          - name: a
            template: sa
            retryStrategy: {limit: "3", backoff: {duration: 10s}}
          - name: b
            depends: "a.Succeeded && c"
            template: sb
            when: "'{{workflow.parameters.target}}' == 'prod'"
          - name: c
            templateRef: {name: lib, template: sc}
            depends: "a.Failed"
            continueOn: {failed: true}
"""


def test_argo_reads_the_entrypoint_dag_its_parameters_and_its_depends_expressions() -> None:
    spec = _parse(ARGO)
    a, b, c = spec.steps
    assert [(s.id, s.skill) for s in spec.steps] == [("a", "sa"), ("b", "sb"), ("c", "sc")]
    assert [(i.name, i.default) for i in spec.inputs] == [("target", "staging")]
    assert a.retry is not None and (a.retry.max_retries, a.retry.delays_s) == (3, (10.0,))
    assert (b.depends_on, b.when) == (("a", "c"), "inputs.target == 'prod'")
    assert c.on_error == "continue"


def test_argo_depends_with_or_waits_for_whichever_ran() -> None:
    spec = _parse("spec:\n  entrypoint: m\n  templates:\n    - name: m\n      dag:\n        tasks:\n"
                  "          - {name: a, template: sa}\n          - {name: b, template: sb}\n"
                  "          - {name: c, template: sc, depends: a || b}\n")
    assert (spec.steps[2].depends_on, spec.steps[2].join) == (("a", "b"), "any")


def test_argo_an_outcome_other_than_success_and_an_exit_handler_are_warnings_at_their_lines() -> None:
    warned = _warned(_parse(ARGO))
    assert (5, "onExit: an exit handler is not run") in warned
    assert [line for line, message in warned if "a.Failed" in message] == [22]


def test_argo_steps_groups_run_each_after_the_whole_group_before_it() -> None:
    spec = _parse("spec:\n  entrypoint: m\n  templates:\n    - name: m\n      steps:\n"
                  "        - - {name: a, template: sa}\n          - {name: b, template: sb}\n"
                  "        - - {name: c, template: sc}\n")
    assert [(s.id, s.depends_on) for s in spec.steps] == [("a", ()), ("b", ()), ("c", ("a", "b"))]


def test_tekton_params_tasks_run_after_task_refs_and_when_expressions() -> None:
    spec = _parse("apiVersion: tekton.dev/v1\nkind: Pipeline\nspec:\n  params:\n    - {name: env, default: dev}\n"
                  "  tasks:\n    - name: a\n      taskRef: {name: sa}\n    - name: b\n      runAfter: [a]\n"
                  "      taskRef: {name: sb}\n      when:\n        - {input: $(params.env), operator: notin, "
                  "values: [prod, staging]}\n  finally:\n    - {name: z, taskRef: {name: sz}}\n")
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [("a", "sa", ()), ("b", "sb", ("a",))]
    assert spec.steps[1].when == "inputs.env not in ['prod', 'staging']"
    assert (14, "finally: `finally` tasks are not run") in _warned(spec)


def test_airflow_default_args_retry_every_task_and_a_per_task_timeout_there_is_warned() -> None:
    spec = _parse("dag:\n  default_args:\n    owner: docs\n    retries: 2\n    retry_delay_sec: 30\n"
                  "    execution_timeout: 60\n  tasks:\n    a:\n      skill: sa\n    b:\n      skill: sb\n"
                  "      upstream: [a]\n      trigger_rule: one_success\n")
    assert spec.retry is not None and (spec.retry.max_retries, spec.retry.delays_s) == (2, (30.0,))
    assert spec.steps[1].join == "any"
    assert [line for line, message in _warned(spec) if "execution_timeout" in message] == [6]


def test_a_retry_key_no_table_knows_is_still_a_warning_naming_it_at_its_line() -> None:
    spec = _parse("jobs:\n  a:\n    uses: sa\n    retry: {max: 2, when: always, jitterish: lots}\n")
    assert spec.steps[0].retry is not None and spec.steps[0].retry.max_retries == 2
    assert _warned(spec) == [(4, "retry.jitterish not understood")]


STATES = """\
StartAt: Fetch
States:
  Fetch:
    Type: Task
    Resource: arn:aws:lambda:eu-west-1:1:function:sa
    Parameters: {id.$: $.order_id, mode: full}
    ResultPath: $.order
    Next: Check
  Check:
    Type: Choice
    Choices:
      - And:
          - {Variable: $.order.total, NumericGreaterThan: 1000}
          - Not: {Variable: $.order.vip, BooleanEquals: true}
        Next: Review
    Default: Relay
  Relay:
    Type: Pass
    Next: Ship
  Review:
    Type: Task
    Resource: sb
    Catch:
      - {ErrorEquals: [States.ALL], Next: Ship}
    Next: Ship
  Ship:
    Type: Task
    Resource: sc
    Parameters: {total.$: $.order.total}
    End: true
  Both:
    Type: Parallel
    Branches: []
    End: true
"""


def test_a_state_machine_s_tasks_are_steps_ordered_by_next_through_choices_and_pass_states() -> None:
    spec = _parse(STATES)
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [
        ("Fetch", "sa", ()), ("Review", "sb", ("Fetch",)), ("Ship", "sc", ("Fetch", "Review"))]
    fetch, review, ship = spec.steps
    assert [(f.name, f.source) for f in fetch.inputs] == [("id", "inputs.order_id"), ("mode", None)]
    assert [i.name for i in spec.inputs] == ["order_id"]
    assert review.when == "(steps['Fetch'].output.total > 1000) and (not (steps['Fetch'].output.vip == True))"
    assert [(f.name, f.source) for f in ship.inputs] == [("total", "steps.Fetch.output.total")]


def test_a_state_machine_s_catch_to_a_task_and_a_parallel_state_are_warnings_at_their_lines() -> None:
    warned = _warned(_parse(STATES))
    assert [line for line, message in warned if "Catch" in message] == [24]
    assert [line for line, message in warned if "parallel state is not read" in message] == [31]


def test_github_status_functions_and_operators_are_read_and_always_is_warned_never_silently_true() -> None:
    spec = _parse("jobs:\n  a:\n    uses: sa\n  b:\n    needs: a\n    if: needs.a.outputs.n == 0 && !inputs.skip && "
                  "success()\n    uses: sb\n  c:\n    needs: a\n    if: always()\n    uses: sc\n")
    b, c = spec.steps[1], spec.steps[2]
    assert b.when == "steps['a'].output.n == 0 and not inputs.skip"
    assert c.when is None
    assert [line for line, message in _warned(spec) if "always()" in message] == [10]


def test_a_list_written_in_the_spec_to_loop_over_is_an_input_with_that_default_shown_as_read() -> None:
    spec = _parse("spec:\n  entrypoint: m\n  templates:\n    - name: m\n      dag:\n        tasks:\n"
                  "          - name: each-os\n            template: sa\n            withItems: [linux, mac]\n"
                  "            arguments: {parameters: [{name: os, value: '{{item}}'}]}\n")
    step = spec.steps[0]
    assert step.for_each == "item in inputs.each_os_items"
    assert [(i.name, i.default, i.required) for i in spec.inputs] == [("each_os_items", ["linux", "mac"], False)]
    assert [(f.name, f.source) for f in step.inputs] == [("os", "item")]
    assert any(r.what == "for_each" and "each_os_items" in r.note for r in step.readings)


def test_a_matrix_include_is_warned_and_the_one_variable_still_looped() -> None:
    spec = _parse("jobs:\n  a:\n    uses: sa\n    strategy:\n      matrix:\n        os: [linux, mac]\n"
                  "        include:\n          - os: windows\n")
    assert spec.steps[0].for_each == "os in inputs.a_items"
    assert [line for line, message in _warned(spec)] == [7]


@pytest.mark.parametrize(("written", "read"), [
    ("eq(variables['target'], 'prod')", "inputs.target == 'prod'"),
    ("and(succeeded(), ne(variables.target, 'prod'))", "inputs.target != 'prod'"),
    ("in(variables['env'], 'dev', 'qa')", "inputs.env in ['dev', 'qa']"),
    ("or(eq(parameters.x, 1), not(gt(parameters.y, 2)))", "(inputs.x == 1) or (not (inputs.y > 2))"),
])
def test_a_condition_written_as_function_calls_is_read_as_comparisons(written: str, read: str) -> None:
    spec = _parse(f"jobs:\n  - job: a\n    task: sa\n  - job: b\n    dependsOn: a\n    task: sb\n"
                  f"    condition: \"{written}\"\n")
    assert [(s.id, s.skill) for s in spec.steps] == [("a", "sa"), ("b", "sb")]
    assert spec.steps[1].when == read


def test_a_list_of_retry_delays_is_a_wait_per_retry() -> None:
    spec = _parse("tasks:\n  - id: a\n    task: sa\n    retry_delay_seconds: [1, 10, 100]\n")
    assert spec.steps[0].retry is not None
    assert (spec.steps[0].retry.max_retries, spec.steps[0].retry.delays_s) == (3, (1.0, 10.0, 100.0))


def test_a_job_output_under_another_name_reaches_its_step_s_output() -> None:
    spec = _parse("jobs:\n  a:\n    outputs: {page_list: '${{ steps.check.outputs.pages }}'}\n    steps:\n"
                  "      - {id: check, uses: ./skills/sa}\n  b:\n    needs: a\n    uses: sb\n"
                  "    with: {pages: '${{ needs.a.outputs.page_list }}'}\n")
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [("pages", "steps.a.output.pages")]


def test_github_env_constants_are_the_literals_of_the_steps_that_read_them() -> None:
    spec = _parse("on:\n  workflow_dispatch:\n    inputs:\n      target: {type: string}\nenv:\n  SITE: https://x.org\n"
                  "jobs:\n  a:\n    uses: sa\n    with: {site: '${{ env.SITE }}', target: '${{ inputs.target }}'}\n")
    assert [(i.name, i.default, i.required) for i in spec.inputs] == [("target", None, True)]
    assert [(f.name, f.source) for f in spec.steps[0].inputs] == [("site", None), ("target", "inputs.target")]
    assert spec.steps[0].input_values["site"] == "https://x.org"


def test_a_github_env_constant_read_in_an_expression_or_left_empty_stays_an_input_with_its_default() -> None:
    spec = _parse("env:\n  MODE: full\n  TOKEN: ''\njobs:\n  a:\n    uses: sa\n    if: ${{ env.MODE == 'full' }}\n"
                  "    with: {token: '${{ env.TOKEN }}'}\n")
    assert [(i.name, i.default) for i in spec.inputs] == [("MODE", "full"), ("TOKEN", "")]


def test_env_constants_join_inputs_declared_under_another_top_level_name() -> None:
    spec = _parse("params:\n  target: {type: string}\nenv:\n  SITE: https://x.org\ntasks:\n  - id: a\n    skill: sa\n")
    assert [(i.name, i.default) for i in spec.inputs] == [("target", None), ("SITE", "https://x.org")]


def test_a_description_cut_at_a_comma_by_a_flow_mapping_is_warned_with_how_to_quote_it() -> None:
    spec = _parse("inputs:\n  site: {type: string, description: base URL, e.g. https://x.org}\nsteps:\n  - id: a\n"
                  "    skill: sa\n")
    assert _warned(spec) == [(2, "input 'site': key 'e.g. https://x.org' not understood (a `{...}` mapping ends a "
                                 "value at a comma: quote the value that holds it)")]


def test_jobs_one_level_down_under_a_name_of_the_author_s_own_are_the_steps() -> None:
    spec = _parse("name: x\npipeline:\n  a: {skill: sa}\n  b: {skill: sb, needs: a}\n")
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [("a", "sa", ()), ("b", "sb", ("a",))]


_COMPOSE = """\
version: "3.9"
x-deadline: 10m
x-base: &base
  networks: [jobs]
services:
  fetch-a:
    <<: *base
    skill: sa
    environment:
      path: ${SRC_PATH}
  fetch-b:
    skill: sb
  join:
    skill: sc
    depends_on:
      fetch-a: {condition: service_completed_successfully, required: false}
      fetch-b: {condition: service_completed_successfully, required: false}
    environment:
      rows: ${fetch-a.rows:-}
    x-fallback: sd
networks:
  jobs: {external: true}
"""


def test_compose_services_are_the_steps_and_their_environment_variables_the_workflow_inputs() -> None:
    spec = _parse(_COMPOSE)
    steps = {s.id: s for s in spec.steps}
    assert list(steps) == ["fetch-a", "fetch-b", "join"]
    assert steps["fetch-a"].depends_on == () and steps["fetch-b"].depends_on == ()  # started together
    assert set(steps["join"].depends_on) == {"fetch-a", "fetch-b"} and steps["join"].join == "any"
    assert [i.name for i in spec.inputs] == ["SRC_PATH"]
    assert steps["fetch-a"].inputs[0].source == "inputs.SRC_PATH"
    assert steps["join"].inputs[0].source == "steps.fetch-a.output.rows"
    assert steps["join"].inputs[0].required is False  # `${fetch-a.rows:-}`: left out when fetch-a gave none
    assert spec.timeout_s == 600  # `x-deadline:` is the form's `timeout:`; `x-fallback:` its `fallback:`
    assert any(line == 20 and "fallback: sd" in m for line, m in _warned(spec))
    readings = " ".join(r.note for s in spec.steps for r in s.readings)
    assert "compose services read as the steps" in readings and "makes the input optional" in readings


def test_gitlab_service_containers_are_still_not_steps() -> None:
    spec = _parse("services: [postgres:15]\nbuild:\n  stage: build\n  skill: sa\n")
    assert [s.id for s in spec.steps] == ["build"]
