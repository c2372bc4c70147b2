"""YAML specs in shapes no dialect table knows, read by the catalog skills their items name.

Each spec below is written the way someone in a hurry writes their own tool's file (a playbook,
a CI pipeline, a deployment file, chart values, a homegrown workflow), not to suit the reader.
The rescue finds the items that name catalog skills, says where it read them, maps their keys
by meaning onto the form's own readers, and warns what it did not read.
"""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.policy import FallbackAction
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary


def _parse(text: str, *skills: str, tools: dict[str, str] | None = None) -> WorkflowSpec:
    wrapped = {skill: tool for tool, skill in (tools or {}).items()}
    vocab = Vocabulary.of([(s, wrapped.get(s)) for s in skills])
    return parse_spec_text(text, "flow.yaml", "yaml", vocab)


def _warned(spec: WorkflowSpec, words: str) -> list[int | None]:
    return [w.line for w in spec.warnings if words in w.message]


PLAYBOOK = """\
# disk-report.yml -- run from the ops box, not from laptops
- name: Nightly disk report
  hosts: localhost
  gather_facts: false
  vars:
    target_hosts: "web-1,web-2,db-1"
    threshold: 85
  tasks:
    - name: Collect disk usage from every host
      collect-disk-usage:
        hosts: "{{ target_hosts }}"
      register: usage
      retries: 3
      delay: 10
      until: usage is succeeded

    - name: Rank the fullest hosts
      rank-hosts:
        usage: "{{ usage.hosts }}"
        threshold: "{{ threshold }}"
      register: ranked

    - name: Mail the report   # retry this 5 times if the relay is down
      send-report:
        body: "{{ ranked.table }}"
      ignore_errors: yes
"""


def test_a_playbook_s_tasks_are_the_steps_each_module_key_its_skill_and_its_mapping_the_inputs() -> None:
    spec = _parse(PLAYBOOK, "collect-disk-usage", "rank-hosts", "send-report")
    assert [(s.id, s.skill) for s in spec.steps] == [
        ("usage", "collect-disk-usage"), ("ranked", "rank-hosts"), ("mail-the-report", "send-report")]
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [
        ("usage", "steps.usage.output.hosts"), ("threshold", None)]
    # the play's `vars:` are the literal values of the tasks that read them (`spec.env_literals48`)
    assert spec.steps[1].input_values["threshold"] == 85 and not spec.inputs
    assert spec.steps[0].input_values["hosts"] == "web-1,web-2,db-1"
    first = spec.steps[0]
    assert first.retries == 3 and first.retry is not None and first.retry.delays_s == (10.0,)
    assert spec.steps[2].on_error == "continue"
    assert _warned(spec, "steps read from `[0].tasks`") == [8]


def test_a_playbook_key_no_table_knows_is_warned_at_its_line_and_a_comment_sets_no_policy() -> None:
    spec = _parse(PLAYBOOK, "collect-disk-usage", "rank-hosts", "send-report")
    assert _warned(spec, "'until' not understood") == [15]
    assert spec.steps[2].retries is None and spec.steps[2].retry is None


CONCOURSE = """\
resources:
- name: nightly-dump
  type: s3
  source: {bucket: dumps, regexp: "dump-(.*).sql.gz"}

release:
  serial: true
  plan:
  - get: nightly-dump
    trigger: true
  - task: scrub-pii
    params:
      dump: ((dump_path))
    attempts: 3
    timeout: 20m
  - task: build-report
    params:
      rows: ((scrub-pii.rows))
  - put: publish-report
    params: {report: ((build-report.report))}
    on_failure:
      task: page-oncall
"""


def test_a_pipeline_plan_reads_its_skill_items_and_warns_the_item_that_names_no_skill() -> None:
    spec = _parse(CONCOURSE, "scrub-pii", "build-report", "publish-report", "page-oncall")
    assert [(s.id, s.skill) for s in spec.steps] == [
        ("scrub-pii", "scrub-pii"), ("build-report", "build-report"), ("publish-report", "publish-report")]
    assert _warned(spec, "names no catalog skill; not read as a step") == [9]
    assert _warned(spec, "steps read from `release.plan` (3 of 4 items") == [8]


def test_a_pipeline_s_double_parenthesis_references_and_policies_are_read() -> None:
    spec = _parse(CONCOURSE, "scrub-pii", "build-report", "publish-report", "page-oncall")
    scrub, build, publish = spec.steps
    assert [(f.name, f.source) for f in build.inputs] == [("rows", "steps.scrub-pii.output.rows")]
    assert scrub.retries == 2 and scrub.timeout_s == 1200
    fallbacks = [row.rule.fallback for row in spec.recovery if row.step == publish.id]
    assert [(f.action, f.skill) for f in fallbacks if f] == [(FallbackAction.SKILL, "page-oncall")]
    # the spec declares no inputs: the bare name is one, said at its line
    assert _warned(spec, "((dump_path)) names no step, loop item or earlier step's output; read as the "
                         "workflow input `dump_path`") == [13]
    assert [(f.name, f.source) for f in scrub.inputs] == [("dump", "inputs.dump_path")]
    assert [i.name for i in spec.inputs_said] == ["dump_path"]


DEPLOYMENT = """\
# prefect.yaml for the sales flows - keep in sync with the infra repo!!
name: sales-flows

deployments:
- name: nightly-sales
  entrypoint: flows/sales.py:nightly
  schedule:
    cron: "0 3 * * *"
  parameters:
    region: emea
    top_n: 20
  work_pool:
    name: k8s-default
  ops:
    pull_sales:
      op: pull-sales
      config:
        region: "{{ parameters.region }}"
      retry_policy: {max_retries: 2, delay: 30}
    summarize:
      op: summarize-sales
      deps: [pull_sales]
      config:
        rows: "{{ ops.pull_sales.outputs.rows }}"
        top: "{{ parameters.top_n }}"
      timeout_seconds: 300
"""


def test_a_deployment_s_mapping_of_ops_is_the_steps_keyed_by_their_ids() -> None:
    spec = _parse(DEPLOYMENT, "pull-sales", "summarize-sales")
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [
        ("pull_sales", "pull-sales", ()), ("summarize", "summarize-sales", ("pull_sales",))]
    assert [(f.name, f.source) for f in spec.steps[1].inputs] == [
        ("rows", "steps.pull_sales.output.rows"), ("top", "inputs.top_n")]
    assert spec.steps[0].retries == 2 and spec.steps[1].timeout_s == 300
    assert {i.name: i.default for i in spec.inputs} == {"region": "emea", "top_n": 20}


def test_a_lifted_container_key_that_clashes_with_a_top_level_one_is_warned_not_merged() -> None:
    spec = _parse(DEPLOYMENT, "pull-sales", "summarize-sales")
    assert spec.name == "sales-flows"
    assert _warned(spec, "deployments[0].name: `name:` is also given above it") == [5]


CHART_VALUES = """\
# values.yaml -- recon chart
replicaCount: 1
image:
  repository: ghcr.io/acme/recon
  tag: "1.4.2"

recon:
  enabled: true
  pipeline:
    stages:
      - stage: fetch
        module: fetch-ledger
        timeout: 5m
      - stage: match
        module: match-entries
        needs: [fetch]
        values:
          entries: "{{ stages.fetch.output.entries }}"
        retries: 2
        approval:
          when: "stages.fetch.output.count > 5000"
          timeout: 4h
      - stage: notify
        module: post-to-chat
        needs: [match]
        values:
          text: "{{ stages.match.output.summary }}"
        onFailure: continue
        colour: green
"""


def test_chart_values_stages_are_named_by_their_stage_and_run_the_module_they_name() -> None:
    spec = _parse(CHART_VALUES, "fetch-ledger", "match-entries", "post-to-chat")
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [
        ("fetch", "fetch-ledger", ()), ("match", "match-entries", ("fetch",)),
        ("notify", "post-to-chat", ("match",))]
    assert spec.steps[0].timeout_s == 300 and spec.steps[2].on_error == "continue"


def test_references_headed_by_the_container_s_own_name_are_the_steps_outputs() -> None:
    spec = _parse(CHART_VALUES, "fetch-ledger", "match-entries", "post-to-chat")
    match = spec.steps[1]
    assert [(f.name, f.source) for f in match.inputs] == [("entries", "steps.fetch.output.entries")]
    assert match.approval is not None and match.approval.when == "steps['fetch'].output.count > 5000"
    assert match.approval.timeout_s == 4 * 3600
    assert _warned(spec, "key 'colour' not understood") == [29]


HOMEGROWN = """\
workflow:
  title: Weekly vendor payout
  inputs:
    week:
      type: string
      description: ISO week, e.g. 2026-W48
  phases:
    collect:
      run: collect-invoices
      args: {week: "${inputs.week}"}
      max_runtime: 10m
    check:
      after: collect
      run: check-vendor-bank
      args:
        invoices: ${phases.collect.output.invoices}
      restart: 2
    pay:
      after: check
      run: pay-vendors
      args:
        batch: ${phases.check.output.ok}
      gate:
        when: phases.collect.output.total > 10000
        wait: 24h
        otherwise: reject
      if_error: continue
      on_undo: void-payments
"""


def test_a_homegrown_workflow_s_phases_read_by_meaning_each_rename_shown() -> None:
    spec = _parse(HOMEGROWN, "collect-invoices", "check-vendor-bank", "pay-vendors", "void-payments")
    collect, check, pay = spec.steps
    assert (collect.timeout_s, check.retries, check.depends_on) == (600, 2, ("collect",))
    assert (pay.skill, pay.on_error, pay.compensation) == ("pay-vendors", "continue", "void-payments")
    assert pay.approval is not None and pay.approval.timeout_s == 86400 and pay.approval.on_timeout == "reject"
    assert spec.title == "Weekly vendor payout"
    notes = [r.note for r in check.readings]
    assert "`restart:` read as `retry:` (what it means)" in notes


def test_two_places_naming_skills_equally_well_are_an_error_naming_both_paths() -> None:
    text = ("morning:\n  - {id: a, skill: fetch-feed}\n  - {id: b, skill: rank-hosts}\n"
            "evening:\n  - {id: c, uses: fetch-feed}\n  - {id: d, uses: rank-hosts}\n")
    with pytest.raises(SpecError) as info:
        _parse(text, "fetch-feed", "rank-hosts")
    said = [d.message for d in info.value.diagnostics if "equally well" in d.message]
    assert len(said) == 1 and "`morning`" in said[0] and "`evening`" in said[0]


def test_without_a_catalog_the_reader_refuses_as_before() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec_text(CHART_VALUES, "flow.yaml", "yaml")
    assert [d.code for d in info.value.diagnostics] == ["spec.no-steps"]


def test_a_spec_a_dialect_reads_is_read_the_same_with_a_catalog() -> None:
    text = "steps:\n  - id: a\n    skill: fetch-feed\n  - id: b\n    uses: rank-hosts\n    needs: a\n"
    alone = parse_spec_text(text, "flow.yaml", "yaml")
    known = _parse(text, "fetch-feed", "rank-hosts")
    assert known.model_dump() == alone.model_dump()


def test_an_item_naming_two_skills_through_two_keys_is_an_error_at_its_line() -> None:
    text = "jobs_list:\n  batch:\n    - name: one\n      run: fetch-feed\n      then: rank-hosts\n"
    with pytest.raises(SpecError) as info:
        _parse(text, "fetch-feed", "rank-hosts")
    assert [d.line for d in info.value.diagnostics if "write the one it runs" in d.message] == [3]


def test_a_tool_one_skill_wraps_names_that_skill() -> None:
    text = "automation:\n  sequence:\n    - alias: get page\n      service: fetch_url\n      data: {url: x}\n"
    spec = _parse(text, "page-fetcher", tools={"fetch_url": "page-fetcher"})
    assert [s.skill for s in spec.steps] == ["page-fetcher"]
    assert [(f.name, spec.steps[0].input_values.get(f.name)) for f in spec.steps[0].inputs] == [("url", "x")]


def test_an_error_handler_s_continue_value_and_fallback_skill_become_fallbacks() -> None:
    text = ("job:\n  template:\n    stages:\n      - name: a\n        skillRef: {name: fetch-feed}\n"
            "        onError:\n          continueWith: {rows: []}\n      - name: b\n        skillRef: {name: rank-hosts}\n"
            "        onError:\n          fallbackSkillRef: {name: rank-simple}\n          notify: ops\n")
    spec = _parse(text, "fetch-feed", "rank-hosts", "rank-simple")
    rules = {row.step: row.rule.fallback for row in spec.recovery}
    a, b = rules["a"], rules["b"]
    assert a is not None and (a.action, a.value) == (FallbackAction.DEFAULT, {"rows": []})
    assert b is not None and (b.action, b.skill) == (FallbackAction.SKILL, "rank-simple")
    assert _warned(spec, "onError.notify not understood") == [12]


def test_a_document_that_is_a_bare_list_of_skill_items_is_the_steps_and_refused_without_any() -> None:
    text = "- id: a\n  skill: fetch-feed\n- id: b\n  skill: rank-hosts\n"
    spec = _parse(text, "fetch-feed", "rank-hosts")
    assert [(s.id, s.skill) for s in spec.steps] == [("a", "fetch-feed"), ("b", "rank-hosts")]
    assert _warned(spec, "steps read from `the top-level list`") == [1]
    with pytest.raises(SpecError) as info:
        _parse(text, "other-skill")
    assert [d.message for d in info.value.diagnostics] == ["the spec must be a mapping"]


def test_a_mapping_keyed_by_skill_names_runs_each_with_its_unknown_keys_as_inputs_warned() -> None:
    text = ("pipeline:\n  Fetch_Feed:\n    url: https://example.org/feed\n"
            "  rank-hosts:\n    after: Fetch_Feed\n    top: 5\n")
    spec = _parse(text, "fetch-feed", "rank-hosts")
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [
        ("Fetch_Feed", "fetch-feed", ()), ("rank-hosts", "rank-hosts", ("Fetch_Feed",))]
    assert spec.steps[1].input_values == {"top": 5}
    assert _warned(spec, "read as the inputs of") == [2, 4]


def test_a_run_level_success_condition_on_a_step_s_output_is_that_step_s_check() -> None:
    text = ("job:\n  successCondition: \"stages.b.outputs.ok == true and stages.a.outputs.count > 0\"\n"
            "  doneWhen: whatever\n  template:\n    stages:\n"
            "      - {name: a, skillRef: {name: fetch-feed}}\n      - {name: b, skillRef: {name: rank-hosts}}\n")
    spec = _parse(text, "fetch-feed", "rank-hosts")
    checks = {c.producer: c.constraints[""] for c in spec.contracts if c.consumer is None}
    assert checks["b"]["properties"]["ok"] == {"const": True}
    assert set(checks) == {"a", "b"}
    assert _warned(spec, "`doneWhen:` is also given") == [] and _warned(spec, "doneWhen") == [3]


def test_a_list_of_skill_names_runs_them_and_warns_the_entry_that_names_none() -> None:
    text = 'nightly:\n  run_in_order: [fetch-feed, "echo done", ghcr.io/acme/rank-hosts:0.9]\n  timeout: 10m\n'
    spec = _parse(text, "fetch-feed", "rank-hosts")
    assert [(s.id, s.skill) for s in spec.steps] == [("fetch-feed", "fetch-feed"), ("rank-hosts", "rank-hosts")]
    assert _warned(spec, "`echo done` names no catalog skill") == [2]
    assert spec.timeout_s == 600


AZURE_LIKE = """\
trigger: none
pool: {vmImage: ubuntu-latest}
variables:
  region: eu
pipeline_stages:
  - displayName: Fetch
    task: fetch-feed@2
    inputs: {url: $(region)}
    timeoutInMinutes: 5
    retryCountOnTaskFailure: 2
  - displayName: Rank
    task: rank-hosts@1
    dependsOn: Fetch
    condition: succeeded()
    inputs:
      items: $(Fetch.outputs.items)
"""


def test_keys_in_no_table_are_read_by_their_words_and_a_step_is_referred_to_by_its_display_name() -> None:
    spec = _parse(AZURE_LIKE, "fetch-feed", "rank-hosts")
    fetch, rank = spec.steps
    assert (fetch.id, fetch.skill, fetch.timeout_s, fetch.retries) == ("fetch", "fetch-feed", 300, 2)
    assert (rank.depends_on, rank.when) == (("fetch",), None)
    assert [(f.name, f.source) for f in rank.inputs] == [("items", "steps.fetch.output.items")]
    assert _warned(spec, "not understood") == [1, 2]  # trigger, pool: top-level keys no table knows


def test_a_text_or_list_beside_the_step_mappings_is_warned_and_a_list_of_one_under_another_key_is_no_skill() -> None:
    text = ("workflow:\n  phases:\n    note: remember to check the bank holidays\n    collect:\n      run: fetch-feed\n"
            "    extra:\n      - rank-hosts\n")
    spec = _parse(text, "fetch-feed", "rank-hosts")
    assert [(s.id, s.skill) for s in spec.steps] == [("collect", "fetch-feed")]
    assert _warned(spec, "is not a step") == [3, 7]
