"""A spec's Testing Plan, run: each scenario is a real engine run with injected faults.

A Testing Plan entry is prose. To be run it carries a small structured form:
clauses anywhere in its text (a bullet's sub-bullets count as its text), each a
keyword, a colon and items separated by `;` or `,` (not inside brackets or quotes):

    Inputs: NAME=VALUE; ...      workflow inputs; VALUE is JSON unless the input is a string
    Fault: STEP KIND [TIMES]; ...  what the step's first TIMES attempts do instead of running
    Approve: STEP, ...           approval gates decided yes (Reject: STEP, ... decides no);
                                 a gate not named pauses the run
    Expect: OUTCOME; ...         what must hold when the run ends

For example (a numbered Testing Plan line):

    3. Error recovery: the docs server times out once. Inputs: module_name=json;
       Fault: step-1 timeout once; Expect: succeeded; step-1 retries=1

STEP is a step id (`step-1`) or `Step N`. Fault KINDs:

    timeout        the attempt timed out (transient: retried by the step's retry policy)
    transient      a connection was lost           crash   the server crashed (transient)
    code-error     the script raised (stderr holds a traceback; regeneration may follow)
    invalid-input  the skill refused its input     unrecoverable  declared non-retryable
    bad-output     the attempt answers null (breaks an object output contract)
    returns JSON   the attempt answers JSON instead, e.g. `step-1 returns {"docs": ""}`

TIMES is `once` (the default), `twice`, `xN`, `N times` or `always`. Faults apply to
the step's own skill, in attempt order; fallback skills and compensations run for
real. A fault that never fired fails the scenario (it tested nothing).

Expect OUTCOMEs:

    succeeded | failed | escalated | paused      the run's status (`run failed` also reads)
    limit NAME                                   the run ended at this convergence limit
    STEP STATUS                                  succeeded, defaulted, continued, skipped,
                                                 failed, escalated, pending, awaiting_approval
    STEP retried | regenerated | compensated     at least one retry / new version / undo ran
    STEP METRIC OP N                             METRIC: attempts, retries, regenerations,
                                                 handoff_passed, handoff_failed; OP: = >= <=
    STEP fallback=ACTION                         fail, escalate, continue, default or skill

An entry without `Expect:` is skipped ("no Inputs/Expect given"), never guessed;
an entry whose form cannot be read is reported as invalid with its file:line.

Each scenario runs in a fresh state directory (a temporary one, or `keep_dir/<name>`)
with the real runners of the plan's skill kinds behind a fault-injecting runner,
and a clock in which a wait taken while no attempt is executing (a retry's
backoff) passes at once, so the plan's real delays cost no real time.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from orchestrator.config import Settings
from orchestrator.engine import ApprovalDecision, ApprovalRequest, create_run, execute_run
from orchestrator.errors import SkillweaveError, UserError
from orchestrator.plan.model import Plan, Scenario
from orchestrator.report import RunReport, build_report
from orchestrator.runner import Regenerator, RunnerContext, StepRunner
from orchestrator.scenario.fault import (
    Activity,
    FaultBook,
    FaultRunner,
    ScenarioClock,
    runner_maker,
)
from orchestrator.scenario.form import read_case
from orchestrator.scenario.model import (
    CheckResult,
    Expectation,
    Fault,
    FormError,
    ScenarioCase,
    ScenarioReport,
    ScenarioResult,
)

__all__ = [
    "SKIP_REASON",
    "CheckResult",
    "Expectation",
    "Fault",
    "FormError",
    "ScenarioCase",
    "ScenarioReport",
    "ScenarioResult",
    "evaluate",
    "read_case",
    "run_case",
    "run_scenarios",
    "select",
]

SKIP_REASON = "no Inputs/Expect given"


def _compare(actual: int, op: str, expected: int) -> bool:
    return actual >= expected if op == ">=" else actual <= expected if op == "<=" else actual == expected


def evaluate(expectations: Sequence[Expectation], report: RunReport) -> tuple[CheckResult, ...]:
    results = []
    for e in expectations:
        if e.check == "run":
            ok, actual = report.status == e.value, f"run {report.status}"
        elif e.check == "limit":
            limit = report.limit.limit if report.limit else report.error.limit if report.error else None
            ok, actual = limit == e.value, f"limit {limit or 'none'}"
        else:
            assert e.step is not None
            s = report.step(e.step)
            m = s.metrics
            if e.check == "status":
                ok, actual = s.status == e.value, f"{e.step} {s.status}"
            elif e.check == "retried":
                ok, actual = m.retries > 0, f"{e.step} retries={m.retries}"
            elif e.check == "regenerated":
                ok, actual = m.regenerations > 0, f"{e.step} regenerations={m.regenerations}"
            elif e.check == "compensated":
                done = [c.status for c in report.compensations if c.step == e.step]
                ok, actual = "finished" in done, f"{e.step} compensation {done[-1] if done else 'not run'}"
            elif e.check == "metric":
                assert e.metric is not None
                value = int(getattr(m, e.metric))
                ok, actual = _compare(value, e.op, int(e.value)), f"{e.step} {e.metric}={value}"
            else:
                actions = [f.action for f in s.fallbacks]
                ok, actual = e.value in actions, f"{e.step} fallback={','.join(actions) or 'none'}"
        results.append(CheckResult(expectation=e.text, ok=ok, actual=actual))
    return tuple(results)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "scenario"


async def run_case(
    case: ScenarioCase,
    plan: Plan,
    settings: Settings,
    state_dir: Path,
    *,
    runners: Mapping[str, StepRunner] | None = None,
    regenerator: Regenerator | None = None,
) -> ScenarioResult:
    """One scenario as a real, journaled run in `state_dir`, judged from its report."""
    started = time.monotonic()
    local = settings.model_copy(update={"state_dir": state_dir})
    base = ScenarioResult(name=case.name, where=case.where, outcome="failed")
    try:
        run_id = create_run(plan, case.inputs, local)
    except UserError as exc:
        return base.model_copy(update={"outcome": "invalid", "reason": f"Inputs: {exc.explain()}"})
    activity = Activity()
    book = FaultBook(case.faults)
    ctx = RunnerContext(settings=local, plan=plan, run_id=run_id, run_dir=state_dir / "runs" / run_id)
    kinds = sorted({skill.kind for skill in plan.skills.values()})
    wrapped = {k: FaultRunner(k, plan, book, runner_maker(k, ctx, runners), activity) for k in kinds}

    async def approver(request: ApprovalRequest) -> ApprovalDecision | None:
        verdict = case.approvals.get(request.step_id)
        if verdict is None:
            return None
        return ApprovalDecision(approved=verdict, by=f"scenario {case.name}", comment=f"scenario {case.name}")

    clock = ScenarioClock(activity)
    try:
        await execute_run(run_id, local, runners=wrapped, regenerator=regenerator, approver=approver, clock=clock)
    except SkillweaveError as exc:
        return base.model_copy(update={"reason": exc.explain(), "run_id": run_id})
    finally:
        await clock.aclose()
        for runner in wrapped.values():
            await runner.aclose()
    report = build_report(run_id, local)
    checks = list(evaluate(case.expectations, report))
    for fault, fired in zip(book.faults, book.fired, strict=True):
        wanted = 1 if fault.times is None else fault.times
        checks.append(CheckResult(expectation=f"fault {fault.text} fired", ok=fired >= wanted,
                                  actual=f"fired {fired} of {'always' if fault.times is None else fault.times}"))
    failed = [c for c in checks if not c.ok]
    return base.model_copy(
        update={
            "outcome": "failed" if failed else "passed",
            "reason": "; ".join(f"expected {c.expectation}, got {c.actual}" for c in failed),
            "run_id": run_id,
            "run_status": report.status,
            "checks": tuple(checks),
            "attempts": report.metrics.attempts,
            "retries": report.metrics.retries,
            "duration_s": time.monotonic() - started,
        }
    )


def select(plan: Plan, names: Sequence[str]) -> list[Scenario]:
    """The plan's scenarios named (case-insensitive), all when `names` is empty."""
    if not names:
        return list(plan.scenarios)
    by_name = {s.name.lower(): s for s in plan.scenarios}
    missing = [n for n in names if n.lower() not in by_name]
    if missing:
        known = ", ".join(repr(s.name) for s in plan.scenarios) or "none"
        raise UserError(f"no scenario {missing[0]!r} in the Testing Plan (scenarios: {known})", setting="scenarios")
    return [by_name[n.lower()] for n in names]


async def run_scenarios(
    plan: Plan,
    settings: Settings,
    *,
    names: Sequence[str] = (),
    runners: Mapping[str, StepRunner] | None = None,
    regenerator: Regenerator | None = None,
    keep_dir: Path | None = None,
) -> ScenarioReport:
    """Run the plan's Testing Plan scenarios one after the other (see the module docstring).

    `runners` replaces the real runners behind the faults (tests); `keep_dir` keeps
    each scenario's state directory as `keep_dir/<scenario-name>`.
    """
    results: list[ScenarioResult] = []
    for scenario in select(plan, names):
        base = ScenarioResult(name=scenario.name, where=scenario.where, kind=scenario.kind, outcome="skipped")
        try:
            case = read_case(scenario, plan)
        except FormError as exc:
            results.append(base.model_copy(update={"outcome": "invalid", "reason": exc.message}))
            continue
        if case is None:
            results.append(base.model_copy(update={"reason": SKIP_REASON}))
            continue
        if keep_dir is not None:
            folder = keep_dir / _slug(scenario.name)
            result = await run_case(case, plan, settings, folder, runners=runners, regenerator=regenerator)
            result = result.model_copy(update={"state_dir": str(folder)})
        else:
            with tempfile.TemporaryDirectory(prefix="skillweave-test-") as tmp:
                result = await run_case(case, plan, settings, Path(tmp), runners=runners, regenerator=regenerator)
        results.append(result.model_copy(update={"kind": scenario.kind}))
    count = {o: sum(1 for r in results if r.outcome == o) for o in ("passed", "failed", "skipped", "invalid")}
    return ScenarioReport(spec=plan.spec.path, plan_name=plan.name, scenarios=tuple(results), **count)
