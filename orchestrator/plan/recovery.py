"""A step's recovery policy and the run's limits, merged from every place that states them.

Per step, each field takes the first source that states it:

    retry          YAML step `retry:` > `- Retries:` bullet > the step's transient row of the
                   Error Recovery table (transient, else timeout, else "any") > the
                   Convergence Criteria count > the workflow `retry:` > none. A Convergence
                   count ("(3 retries)") always sets the number of retries; the delays stay.
    attempt_timeout `- Timeout:` / YAML `timeout` > Convergence (">10 sec") > a timeout row's
                   detection ("No response after 5s") > the skill's `skillweave.timeout` > none
    regenerations  the code-error row (else the "any" row) > 0
    fallback       `- On error:` > the "any" row > the fallback every row of the step agrees
                   on > the workflow default > FAIL
    on_error       `- On error:` > "continue" when the fallback is CONTINUE > "fail"
    feedback       a row's "regenerate step N" > Convergence ("Step 4 ... Step 3 regeneration
                   (2 attempts max)"); its bound from Convergence, else the row, else 2
    rules          every row of the step, as written
    non_retryable  Convergence ("can't import module (unrecoverable)")

Each decision is recorded with its provenance under `policy.<field>`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from orchestrator.kinds import BoundSkill
from orchestrator.plan.location import from_default, from_spec
from orchestrator.plan.model import Provenance, StepPolicy
from orchestrator.policy import (
    ErrorClass,
    Fallback,
    FallbackAction,
    FeedbackPolicy,
    Limits,
    RecoveryRule,
    RetryPolicy,
)
from orchestrator.spec.model import RecoveryRowSpec, StepSpec, WorkflowSpec

DEFAULT_FEEDBACK_ATTEMPTS = 2


class PolicyDraft(BaseModel):
    model_config = ConfigDict(frozen=True)

    policy: StepPolicy
    provenance: dict[str, Provenance]


def _row_note(row: RecoveryRowSpec) -> str:
    return f"Error Recovery row: {row.rule.failure or row.recovery}".strip()


def _rows_on(rows: list[RecoveryRowSpec], *classes: ErrorClass | str) -> list[RecoveryRowSpec]:
    return [r for klass in classes for r in rows if r.rule.on == klass]


def _retry(step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec]) -> tuple[RetryPolicy, Provenance]:
    conv = spec.convergence
    chosen: tuple[RetryPolicy, Provenance] | None = None
    if step.retry is not None:
        chosen = step.retry, from_spec(step.field_where.get("retries", step.where), "step retry")
    elif step.retries is not None:
        chosen = RetryPolicy(max_retries=step.retries), from_spec(step.field_where.get("retries", step.where), "Retries bullet")
    else:
        row = next((r for r in _rows_on(rows, ErrorClass.TRANSIENT, ErrorClass.TIMEOUT, "any")
                    if r.rule.retry is not None and r.rule.retry.max_retries > 0), None)
        if row is not None and row.rule.retry is not None:
            chosen = row.rule.retry, from_spec(row.where, _row_note(row))
    count = conv.step_retries.get(step.id)
    count_where = conv.where.get(f"{step.id}.retries")
    if count is not None:
        if chosen is None:
            return RetryPolicy(max_retries=count), from_spec(count_where, "Convergence Criteria retry limit")
        policy, prov = chosen
        if policy.max_retries != count:
            note = f"{prov.note}; {count} retries per Convergence Criteria ({count_where})"
            return policy.model_copy(update={"max_retries": count}), prov.model_copy(update={"note": note})
        return policy, prov.model_copy(update={"note": f"{prov.note}; agrees with {count_where}"})
    if chosen is not None:
        return chosen
    if spec.retry is not None:
        return spec.retry, from_spec(spec.retry_where or spec.path, "workflow retry")
    return RetryPolicy(), from_default("no retries")


def _timeout(
    step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec], skill: BoundSkill | None
) -> tuple[float | None, Provenance]:
    conv = spec.convergence
    if step.timeout_s is not None:
        return step.timeout_s, from_spec(step.field_where.get("timeout", step.where), "Timeout bullet")
    if step.id in conv.step_timeouts_s:
        return conv.step_timeouts_s[step.id], from_spec(conv.where.get(f"{step.id}.timeout"),
                                                         "Convergence Criteria timeout")
    timed = [r for r in _rows_on(rows, ErrorClass.TIMEOUT, ErrorClass.TRANSIENT, "any") if r.timeout_s]
    timed += [r for r in rows if r.timeout_s and r not in timed]
    if timed:
        return timed[0].timeout_s, from_spec(timed[0].where, f"{_row_note(timed[0])} (detection)")
    if skill is not None and skill.timeout_s is not None:
        return skill.timeout_s, Provenance(source="skill", where=f"{skill.path}/SKILL.md", note="skillweave.timeout")
    return None, from_default("no attempt timeout; the run's wall time bounds the step")


def _regenerations(rows: list[RecoveryRowSpec]) -> tuple[int, Provenance]:
    row = next((r for r in _rows_on(rows, ErrorClass.CODE_ERROR, "any") if r.rule.regenerate), None)
    if row is not None and row.rule.regenerate is not None:
        return row.rule.regenerate, from_spec(row.where, _row_note(row))
    return 0, from_default("no regeneration")


def _fallback(step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec]) -> tuple[Fallback, Provenance]:
    if step.on_error is not None:
        action = FallbackAction.CONTINUE if step.on_error == "continue" else FallbackAction.FAIL
        return Fallback(action=action), from_spec(step.field_where.get("on_error", step.where), f"on_error: {step.on_error}")
    any_row = next((r for r in _rows_on(rows, "any") if r.rule.fallback is not None), None)
    if any_row is not None and any_row.rule.fallback is not None:
        return any_row.rule.fallback, from_spec(any_row.where, _row_note(any_row))
    stated = [r for r in rows if r.rule.fallback is not None]
    distinct = {r.rule.fallback.model_dump_json() for r in stated if r.rule.fallback is not None}
    if stated and len(distinct) == 1 and stated[0].rule.fallback is not None:
        lines = ", ".join(r.where.rpartition(":")[2] for r in stated)
        return stated[0].rule.fallback, from_spec(stated[0].where, f"every Error Recovery row agrees (lines {lines})")
    if spec.fallback is not None:
        return spec.fallback, from_spec(spec.path, "workflow fallback")
    return Fallback(), from_default("fail the run")


def _feedback(step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec]) -> tuple[FeedbackPolicy | None, Provenance | None]:
    conv = spec.convergence
    row = next((r for r in rows if r.feedback_to), None)
    stated = conv.feedback.get(step.id)
    conv_where = conv.where.get(f"{step.id}.feedback")
    if row is None and stated is None:
        return None, None
    target = row.feedback_to if row is not None and row.feedback_to else (stated[0] if stated else "")
    notes: list[str] = []
    where = row.where if row is not None else conv_where
    if row is not None:
        notes.append(_row_note(row))
    if stated is not None:
        attempts, note = stated[1], f"bound from Convergence Criteria ({conv_where})"
    elif row is not None and row.feedback_attempts:
        attempts, note = row.feedback_attempts, "bound from the row"
    else:
        attempts, note = DEFAULT_FEEDBACK_ATTEMPTS, f"default bound {DEFAULT_FEEDBACK_ATTEMPTS}"
    notes.append(note)
    return FeedbackPolicy(target_step=str(target), max_attempts=max(1, attempts)), from_spec(where, "; ".join(notes))


def step_policy(step: StepSpec, spec: WorkflowSpec, skill: BoundSkill | None) -> PolicyDraft:
    """The step's merged policy and the provenance of each field (module docstring)."""
    rows = [r for r in spec.recovery if r.step == step.id]
    prov: dict[str, Provenance] = {}
    retry, prov["policy.retry"] = _retry(step, spec, rows)
    timeout, prov["policy.attempt_timeout_s"] = _timeout(step, spec, rows, skill)
    regenerations, prov["policy.regenerations"] = _regenerations(rows)
    fallback, prov["policy.fallback"] = _fallback(step, spec, rows)
    if step.on_error is not None:
        on_error = step.on_error
        prov["policy.on_error"] = from_spec(step.field_where.get("on_error", step.where), f"on_error: {step.on_error}")
    else:
        on_error = "continue" if fallback.action is FallbackAction.CONTINUE else "fail"
        prov["policy.on_error"] = prov["policy.fallback"] if on_error == "continue" else from_default("fail")
    feedback, feedback_prov = _feedback(step, spec, rows)
    if feedback_prov is not None:
        prov["policy.feedback"] = feedback_prov
    if step.approval is not None:
        prov["policy.approval"] = from_spec(step.field_where.get("approval", step.where), "Approval bullet")
    if step.compensation is not None:
        prov["policy.compensation"] = from_spec(step.field_where.get("compensation", step.where), "Compensation bullet")
    rules: tuple[RecoveryRule, ...] = tuple(r.rule for r in rows)
    if rows:
        prov["policy.rules"] = from_spec(rows[0].where, f"{len(rows)} Error Recovery row(s)")
    non_retryable: tuple[ErrorClass, ...] = ()
    if step.id in spec.convergence.step_unrecoverable:
        non_retryable = (spec.convergence.step_unrecoverable[step.id],)
        prov["policy.non_retryable"] = from_spec(spec.convergence.where.get(f"{step.id}.unrecoverable"),
                                                 "Convergence Criteria")
    policy = StepPolicy(
        retry=retry,
        attempt_timeout_s=timeout,
        regenerations=regenerations,
        fallback=fallback,
        on_error=on_error,
        feedback=feedback,
        approval=step.approval,
        compensation=step.compensation,
        rules=rules,
        non_retryable=non_retryable,
    )
    return PolicyDraft(policy=policy, provenance=prov)


def plan_limits(spec: WorkflowSpec) -> tuple[Limits, dict[str, Provenance]]:
    """The run's limits: the Convergence Criteria, the YAML `timeout:`, else the defaults."""
    conv = spec.convergence
    limits = conv.limits
    prov: dict[str, Provenance] = {}
    for name in Limits.model_fields:
        where = conv.limit_where.get(name)
        prov[name] = from_spec(where, "stated limit") if where else from_default("global default")
    if spec.timeout_s is not None and "wall_time_s" not in conv.limit_where:
        limits = limits.model_copy(update={"wall_time_s": spec.timeout_s})
        prov["wall_time_s"] = from_spec(spec.path, "workflow timeout")
    return limits, prov
