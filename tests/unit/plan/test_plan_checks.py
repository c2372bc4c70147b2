"""Static checks: one test per error, each asserting its code and its line."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, at, field, obj, skill, step, workflow

from orchestrator.errors import Diagnostic, PlanError, Severity
from orchestrator.plan import build_plan, check_plan
from orchestrator.policy import Fallback, FallbackAction, Limits, RecoveryRule, RetryPolicy
from orchestrator.spec.model import ConvergenceSpec, RecoveryRowSpec, WorkflowSpec

COUNT = skill("emit-count", output_schema=obj(("count",), count="integer"))
TEXT = skill("need-text", input_schema=obj(("count",), count="string"))
TOKEN = skill("need-token", input_schema=obj(("token",), token="string"))
LIST = skill("emit-list", output_schema=obj(("items",), items={"type": "array"}))
PLAIN = skill("plain")
NOTES = skill("notes-only", "instructions")
CATALOG = FakeCatalog(COUNT, TEXT, TOKEN, LIST, PLAIN, NOTES)


def errors(spec: WorkflowSpec, catalog: FakeCatalog = CATALOG) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in found(spec, catalog) if d.severity is Severity.ERROR]


def found(spec: WorkflowSpec, catalog: FakeCatalog = CATALOG) -> list[Diagnostic]:
    return check_plan(build_plan(spec, catalog, settings=SETTINGS), spec)


def test_a_clean_chain_has_no_errors() -> None:
    spec = workflow(step(1, "A", "`emit-list`"), step(2, "B", "`plain`"))
    assert errors(spec) == []


def test_a_cycle_is_named_at_the_first_steps_depends_line() -> None:
    spec = workflow(
        step(1, "A", "`plain`", depends_on=("step-3",), depends_where=at(12)),
        step(2, "B", "`plain`", depends_on=("step-1",), depends_where=at(22)),
        step(3, "C", "`plain`", depends_on=("step-2",), depends_where=at(32)),
    )
    diags = [d for d in found(spec) if d.code == "cycle"]
    assert [(d.line, d.message) for d in diags] == [
        (12, "dependency cycle: step-1 (A) -> step-3 (C) -> step-2 (B) -> step-1 (A) (each depends on the next)")
    ]


def test_a_dependency_on_an_unknown_step_is_an_error() -> None:
    spec = workflow(step(1, "A", "`plain`"), step(2, "B", "`plain`", depends_on=("step-9",), depends_where=at(23)))
    assert ("unknown-step", 23) in errors(spec)


def test_a_required_input_with_no_source_is_missing_at_its_input_line() -> None:
    spec = workflow(step(1, "A", "`plain`"), step(2, "B", "`need-token`", inputs=(field("token", line=22),)))
    diags = [d for d in found(spec) if d.code == "missing-input"]
    assert [(d.line, "`token`" in d.message) for d in diags] == [(22, True)]


def test_a_missing_input_names_a_producer_that_is_not_a_dependency() -> None:
    spec = workflow(
        step(1, "A", "`plain`"),
        step(2, "B", "`emit-count`"),
        step(3, "C", "`need-text`", depends_on=("step-1",), depends_where=at(32)),
    )
    message = next(d.message for d in found(spec) if d.code == "missing-input")
    assert "step-2 outputs it but is not among its dependencies" in message


def test_a_producer_type_that_cannot_satisfy_the_consumer_is_a_mismatch() -> None:
    spec = workflow(step(1, "A", "`emit-count`"), step(2, "B", "`need-text`", inputs=(field("count", line=22),)))
    diags = [d for d in found(spec) if d.code == "schema-mismatch"]
    assert [d.line for d in diags] == [22]
    assert "step-1 (A) -> step-2 (B)" in diags[0].message
    assert "`count`" in diags[0].message and "integer but must be string" in diags[0].message


def test_a_when_on_an_unknown_name_is_an_error_at_its_line() -> None:
    spec = workflow(step(1, "A", "`plain`"), step(2, "B", "`plain`", when="flag == true"), step(3, "C", "`plain`"))
    with pytest.raises(PlanError) as raised:
        build_plan(spec, CATALOG, settings=SETTINGS)
    diags = [d for d in raised.value.diagnostics if d.code == "condition"]
    assert [d.line for d in diags] == [20]
    assert "`flag` is not a workflow input, an earlier step's output" in diags[0].message


def test_a_when_that_is_always_false_makes_the_step_unreachable() -> None:
    spec = workflow(step(1, "A", "`plain`"), step(2, "B", "`plain`", when="1 > 2"))
    assert ("unreachable", 20) in errors(spec)


def test_a_when_on_inputs_and_earlier_steps_is_fine() -> None:
    spec = workflow(step(1, "A", "`emit-count`"),
                    step(2, "B", "`plain`", when="inputs.mode == 'x' and steps['step-1'].output.count > 1"),
                    inputs=("mode",))
    assert errors(spec) == []


def test_a_step_needing_two_branches_of_one_router_can_never_run() -> None:
    spec = workflow(
        step(1, "Route", "`plain`", routes={"a": "step-2", "b": "step-3"}),
        step(2, "A", "`plain`"),
        step(3, "B", "`plain`"),
        step(4, "Join", "`plain`", depends_on=("step-2", "step-3"), depends_where=at(42)),
    )
    diags = [d for d in found(spec) if d.code == "unreachable"]
    assert [d.line for d in diags] == [42]
    assert "routes to only one of them" in diags[0].message


def test_for_each_over_a_non_array_is_an_error() -> None:
    spec = workflow(step(1, "A", "`emit-count`"), step(2, "B", "`plain`", for_each="n in count"))
    diags = [d for d in found(spec) if d.code == "for-each"]
    assert [(d.line, "integer, not an array" in d.message) for d in diags] == [(20, True)]
    ok = workflow(step(1, "A", "`emit-list`"), step(2, "B", "`plain`", for_each="n in items"))
    assert errors(ok) == []


def test_a_missing_compensation_or_fallback_skill_is_an_error() -> None:
    rule = RecoveryRule(on="any", fallback=Fallback(action=FallbackAction.SKILL, skill="plan-b"), where=at(90))
    spec = workflow(step(1, "A", "`plain`", compensation="undo-a"),
                    recovery=(RecoveryRowSpec(step="step-1", rule=rule, where=at(90)),))
    assert sorted(errors(spec)) == [("missing-skill", 10), ("missing-skill", 90)]


def test_an_instruction_only_skill_bound_to_a_step_cannot_execute() -> None:
    spec = workflow(step(1, "A", "`notes-only`"))
    assert errors(spec) == [("not-executable", 11)]


def test_retries_beyond_the_attempts_per_step_limit_cannot_converge() -> None:
    conv = ConvergenceSpec(limits=Limits(max_attempts_per_step=3), limit_where={"max_attempts_per_step": at(80)})
    rule = RecoveryRule(on="transient", retry=RetryPolicy(max_retries=5), where=at(91))
    spec = workflow(step(1, "A", "`plain`"), convergence=conv,
                    recovery=(RecoveryRowSpec(step="step-1", rule=rule, where=at(91)),))
    diags = [d for d in found(spec) if d.code == "limits"]
    assert [d.line for d in diags] == [91]
    assert "up to 6 attempts" in diags[0].message and "max_attempts_per_step is 3" in diags[0].message


def test_a_feedback_loop_beyond_the_regeneration_limit_cannot_converge() -> None:
    conv = ConvergenceSpec(feedback={"step-2": ("step-1", 5)}, where={"step-2.feedback": at(88)})
    spec = workflow(step(1, "Gen", "`plain`"), step(2, "Check", "`plain`"), convergence=conv)
    diags = [d for d in found(spec) if d.code == "limits"]
    assert [d.line for d in diags] == [88]
    assert "max_regenerations_per_step 3" in diags[0].message


def test_a_feedback_target_downstream_of_the_validator_is_an_error() -> None:
    conv = ConvergenceSpec(feedback={"step-1": ("step-2", 2)}, where={"step-1.feedback": at(88)})
    spec = workflow(step(1, "Check", "`plain`"), step(2, "Gen", "`plain`"), convergence=conv)
    assert ("feedback", 88) in errors(spec)


def test_attempt_timeouts_along_a_chain_beyond_the_wall_time_cannot_converge() -> None:
    conv = ConvergenceSpec(limits=Limits(wall_time_s=20), limit_where={"wall_time_s": at(84)})
    spec = workflow(step(1, "A", "`plain`", timeout_s=15), step(2, "B", "`plain`", timeout_s=15), convergence=conv)
    diags = [d for d in found(spec) if d.code == "limits"]
    assert [d.line for d in diags] == [84]
    assert "step-1 -> step-2 add up to 30s" in diags[0].message


def test_a_default_wall_time_grows_to_hold_the_stated_timeouts_instead_of_refusing_them() -> None:
    # "allow it up to 2h" on a step, and no whole-run limit written: the 1 h default is nobody's choice
    spec = workflow(step(1, "A", "`plain`", timeout_s=7200), step(2, "B", "`plain`", timeout_s=600))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.limits.wall_time_s == 7800
    assert plan.limits_provenance["wall_time_s"].source == "default"
    assert "raised to 7800s" in plan.limits_provenance["wall_time_s"].note
    assert [d for d in check_plan(plan, spec) if d.code == "limits"] == []


def test_a_stated_wall_time_is_never_grown_and_still_refuses_a_longer_chain() -> None:
    conv = ConvergenceSpec(limits=Limits(wall_time_s=3600), limit_where={"wall_time_s": at(84)})
    spec = workflow(step(1, "A", "`plain`", timeout_s=7200), convergence=conv)
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert plan.limits.wall_time_s == 3600
    assert [(d.line, d.severity) for d in check_plan(plan, spec) if d.code == "limits"] == [(84, Severity.ERROR)]


def test_a_continue_fallback_feeding_a_required_field_starves_its_consumer() -> None:
    spec = workflow(step(1, "A", "`emit-count`", on_error="continue"),
                    step(2, "B", "`need-count`"))
    catalog = FakeCatalog(COUNT, skill("need-count", input_schema=obj(("count",), count={"type": "integer",
                                                                                          "minimum": 1})))
    diags = found(spec, catalog)
    assert [(d.code, d.severity) for d in diags] == [("starved", Severity.ERROR)]
    assert "step-2 (B) would starve: step-2 requires `count` from step-1, which may continue with no output" \
        in diags[0].message
    assert "step-2 refuses its contract's empty value there. Give the fallback a value" in diags[0].message
