"""The run's success checks on one step's output, evaluated once the run's steps are done.

A success check the document says of the whole run ("The audit passes only when Roll-up reports zero
blocked packages", `finished_if: unassigned_count == 0`, an "Acceptance criteria" sentence) judges the
run, not the step: the planner (`plan.run_checks37`) keeps it out of the step's output contract, so
the step and those after it run as the author's run does, and `Scheduler.execute` asks `evaluate`
here at the end (pure: it reads the run's state, so a replay decides the same).

A false check fails the run, the message naming the check, its line and what the output holds (a
refusal is better than a wrong `succeeded`); a step with no output (skipped, never run) leaves the
check not evaluated: said in the run's ending, never passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from orchestrator.contracts import ContractChecker, render_violations
from orchestrator.engine.state import RunState
from orchestrator.plan.model import Plan


@dataclass(slots=True)
class Verdict:
    failed: str | None = None  # the first check that failed, said
    not_evaluated: list[str] = field(default_factory=list)


def evaluate(plan: Plan, state: RunState) -> Verdict:
    """The run's success checks on its finished state: the first failure, and those not evaluated."""
    verdict = Verdict()
    checker = ContractChecker()
    for check in plan.run_checks:
        head = f"success check at {check.where} ('{check.text}': {check.written} on {check.step}'s output)"
        st = state.steps.get(check.step)
        if st is None or not st.status.has_output or not st.has_output:
            status = st.status.value if st is not None else "not run"
            verdict.not_evaluated.append(f"{head} not evaluated: {check.step} has no output ({status})")
            continue
        violations = checker.check(check.schema_, st.output)
        if violations and verdict.failed is None:
            verdict.failed = f"{head} failed: {render_violations(violations)}"
    return verdict
