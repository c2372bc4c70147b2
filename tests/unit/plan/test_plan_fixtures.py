"""The seed's spec and the YAML workflow compile to the plans their texts describe,
through the real spec parser and skill catalog."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.plan import load_plan, plan_sha256
from orchestrator.plan.model import InputBinding, Plan
from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.spec import parse_spec

PARACLE_SKILLS = Path(__file__).resolve().parents[2] / "fixtures" / "paracle-skills"


@pytest.fixture(scope="module")
def seed_plan(seed_spec: Path) -> Plan:
    return compile_spec(seed_spec, Settings())


@pytest.fixture(scope="module")
def yaml_plan(yaml_spec: Path) -> Plan:
    return compile_spec(yaml_spec, Settings(skills_dirs=(PARACLE_SKILLS,)))


def line(where: str | None) -> int:
    assert where is not None
    return int(where.rpartition(":")[2])


def test_seed_steps_bind_to_the_bundled_skills_from_their_skill_lines(seed_plan: Plan) -> None:
    assert [(s.id, s.skill) for s in seed_plan.steps] == [
        ("step-1", "fetch-docs"),
        ("step-2", "analyze-module"),
        ("step-3", "generate-docs"),
        ("step-4", "validate-markdown"),
    ]
    assert [line(s.provenance["skill"].where) for s in seed_plan.steps] == [15, 26, 37, 47]
    assert all("matched" in s.provenance["skill"].note for s in seed_plan.steps)
    assert seed_plan.skill_of("step-1").kind == "mcp"


def test_seed_dependencies_follow_the_data(seed_plan: Plan) -> None:
    assert [s.depends_on for s in seed_plan.steps] == [(), ("step-1",), ("step-2",), ("step-3",)]
    assert seed_plan.step("step-2").provenance["depends_on"].note == "data reference to step-1.existing_docs"
    assert [(e.producer, e.consumer, e.fields) for e in seed_plan.edges] == [
        ("step-1", "step-2", ("existing_docs",)),
        ("step-2", "step-3", ("module_name", "analysis")),  # the Data Contracts edge names module_name
        ("step-3", "step-4", ("generated_docs",)),
    ]
    assert [line(e.provenance.where) for e in seed_plan.edges] == [57, 62, 67]


def test_seed_inputs_map_to_the_workflow_input_and_earlier_outputs(seed_plan: Plan) -> None:
    assert [i.name for i in seed_plan.inputs] == ["module_name"]
    assert seed_plan.step("step-1").inputs["module_name"] == InputBinding(source="input", name="module_name")
    assert seed_plan.step("step-2").inputs["existing_docs"].pointer == "/existing_docs"
    # `analysis (JSON): functions, classes, ...` names analyze-module's whole output
    assert seed_plan.step("step-3").inputs["analysis"] == InputBinding(source="step", step="step-2", pointer="")
    assert seed_plan.step("step-4").inputs["generated_docs"].step == "step-3"


def test_seed_step_1_retries_three_times_with_the_table_waits_then_uses_empty_docs(seed_plan: Plan) -> None:
    fetch = seed_plan.step("step-1")
    for klass in (ErrorClass.TRANSIENT, ErrorClass.TIMEOUT):
        resolved = fetch.policy_for(klass)
        assert resolved.retry.max_retries == 3
        assert [resolved.retry.delay(i) for i in range(3)] == [1, 2, 4]
        assert resolved.fallback.action is FallbackAction.DEFAULT
        assert resolved.fallback.value is None
    assert fetch.policy.attempt_timeout_s == 5
    assert line(fetch.provenance["policy.retry"].where) == 94
    assert line(fetch.provenance["policy.attempt_timeout_s"].where) == 94


def test_seed_step_2_regenerates_once_then_escalates_and_never_retries_an_import_error(seed_plan: Plan) -> None:
    analyze = seed_plan.step("step-2")
    code = analyze.policy_for(ErrorClass.CODE_ERROR)
    assert (code.regenerations, code.fallback.action) == (1, FallbackAction.ESCALATE)
    invalid = analyze.policy_for(ErrorClass.INVALID_INPUT)
    assert (invalid.retry.max_retries, invalid.regenerations) == (0, 0)
    # The row says "Invalid module; escalate" then "FAIL workflow": the run ends failed either way.
    assert invalid.fallback.action in (FallbackAction.FAIL, FallbackAction.ESCALATE)
    assert ErrorClass.INVALID_INPUT in analyze.policy.non_retryable
    assert line(analyze.provenance["policy.non_retryable"].where) == 86
    assert analyze.policy.attempt_timeout_s == 30
    assert line(analyze.provenance["policy.attempt_timeout_s"].where) == 99


def test_seed_step_3_times_out_at_ten_seconds(seed_plan: Plan) -> None:
    generate = seed_plan.step("step-3")
    assert generate.policy.attempt_timeout_s == 10
    assert line(generate.provenance["policy.attempt_timeout_s"].where) == 87
    assert generate.policy_for(ErrorClass.CODE_ERROR).regenerations == 1


def test_seed_step_4_sends_its_failure_back_to_step_3_at_most_twice_then_fails(seed_plan: Plan) -> None:
    validate = seed_plan.step("step-4")
    assert validate.policy.feedback is not None
    assert (validate.policy.feedback.target_step, validate.policy.feedback.max_attempts) == ("step-3", 2)
    assert line(validate.provenance["policy.feedback"].where) == 102
    assert validate.policy_for(ErrorClass.CODE_ERROR).fallback.action is FallbackAction.FAIL


def test_seed_limits_are_the_defaults_and_say_so(seed_plan: Plan) -> None:
    assert seed_plan.limits.max_attempts_per_step == 10
    assert {p.source for p in seed_plan.limits_provenance.values()} == {"default"}


def test_seed_warnings_are_the_parsers_with_lines_and_the_planner_adds_none(seed_spec: Path, seed_plan: Plan) -> None:
    spec = parse_spec(seed_spec)
    assert seed_plan.warnings == spec.warnings
    assert seed_plan.warnings and all(w.line for w in seed_plan.warnings)


def test_seed_plan_hashes_the_spec_each_skill_and_itself(seed_spec: Path, seed_plan: Plan) -> None:
    assert seed_plan.spec.sha256 == hashlib.sha256(seed_spec.read_bytes()).hexdigest()
    assert all(len(s.sha256) == 64 for s in seed_plan.skills.values())
    assert seed_plan.sha256 == plan_sha256(seed_plan)
    assert [s.name for s in seed_plan.scenarios][:1] == ["Happy path"]


def test_a_plan_round_trips_through_its_json(seed_plan: Plan, tmp_path: Path) -> None:
    saved = tmp_path / "plan.json"
    saved.write_text(seed_plan.to_json())
    assert load_plan(saved) == seed_plan


def test_yaml_workflow_chains_five_steps_on_the_paracle_skills(yaml_plan: Plan) -> None:
    assert [(s.id, s.skill) for s in yaml_plan.steps] == [
        ("extract", "data-extractor"),
        ("transform", "data-transformer"),
        ("load", "data-loader"),
        ("validate", "data-validator"),
        ("notify", "notifier"),
    ]
    assert [s.depends_on for s in yaml_plan.steps] == [(), ("extract",), ("transform",), ("load",), ("validate",)]
    assert yaml_plan.step("extract").inputs["source"] == InputBinding(source="literal", value="database")
    assert yaml_plan.step("transform").inputs["records"] == InputBinding(source="step", step="extract", pointer="/records")


def test_yaml_workflow_retries_exponentially_and_lets_notify_fail_softly(yaml_plan: Plan) -> None:
    for step in yaml_plan.steps:
        retry = step.policy_for(ErrorClass.TRANSIENT).retry
        assert 1 + retry.max_retries == 3  # max_attempts: 3
        assert retry.delays_s == () and retry.multiplier == 2
    notify = yaml_plan.step("notify")
    assert notify.policy.on_error == "continue"
    assert notify.policy.fallback.action is FallbackAction.CONTINUE
    assert yaml_plan.step("load").policy.on_error == "fail"
    assert yaml_plan.limits.wall_time_s == 3600
    assert line(yaml_plan.limits_provenance["wall_time_s"].where) == 35
    assert yaml_plan.warnings == ()
