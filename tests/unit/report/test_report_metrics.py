"""Per-step and per-run metrics of a report, from real journaled runs with known events."""

from __future__ import annotations

import pytest

from orchestrator.config import Settings
from orchestrator.engine import approve_step, execute_run, get_run
from orchestrator.errors import NotFoundError
from orchestrator.plan.model import InputBinding, PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy, ErrorClass, Limits, RetryPolicy
from orchestrator.report import build_report
from orchestrator.report.metrics import percentile, ratio
from orchestrator.report.model import CompensationRecord, Tokens
from orchestrator.runner import StepFailure, StepOutcome, TokenUsage
from orchestrator.testing import Fail, FakeClock, FakeRegenerator, FakeRunner, Sleep, fake_plan

TRANSIENT = Fail(ErrorClass.TRANSIENT, "connection reset")
COUNT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def queued_plan() -> list[PlanStep]:
    """a and b are ready at once but one slot exists: b waits for a; c needs both."""
    return [
        PlanStep(id="a", name="A", skill="s"),
        PlanStep(id="b", name="B", skill="s", policy=StepPolicy(retry=RetryPolicy(max_retries=2, delays_s=(1, 2)))),
        PlanStep(id="c", name="C", skill="s", depends_on=("a", "b")),
    ]


async def test_queue_delay_is_ready_to_first_start_and_retries_count_the_waits(execute, settings, clock) -> None:
    runner = FakeRunner({"a": [Sleep(5, {"a": 1})], "b": [TRANSIENT, TRANSIENT, {"b": 1}]}, clock=clock)
    run_id = await execute(fake_plan(queued_plan(), limits=Limits(concurrency=1)), runner)
    report = build_report(run_id, settings)

    assert report.status == "succeeded"
    a, b, c = (report.step(s).metrics for s in ("a", "b", "c"))
    assert (a.attempts, a.retries, a.queue_delay_s, a.duration_s) == (1, 0, 0.0, 5.0)
    assert (b.attempts, b.retries, b.queue_delay_s, b.duration_s) == (3, 2, 5.0, 3.0)  # starts at 5, waits 1 + 2
    assert (c.attempts, c.retries, c.queue_delay_s) == (1, 0, 0.0)
    assert [(w.attempt, w.delay_s, w.error_class) for w in report.step("b").retries] == [
        (1, 1.0, "transient"),
        (2, 2.0, "transient"),
    ]
    assert [f.message for f in report.step("b").failed_attempts] == ["connection reset", "connection reset"]
    m = report.metrics
    assert (m.attempts, m.retries, m.retry_burden) == (5, 2, 0.4)
    assert (m.queue_delay_total_s, m.queue_delay_max_s) == (5.0, 5.0)
    assert m.queue_delay_mean_s == pytest.approx(5 / 3)
    assert m.duration_s == 8.0
    assert (m.steps, m.succeeded, m.failed, m.skipped) == (3, 3, 0, 0)


async def test_handoff_checks_count_inputs_and_outputs_and_a_violation_is_kept(execute, settings) -> None:
    steps = [
        PlanStep(id="make", name="Make", skill="s", output_schema=COUNT, policy=StepPolicy(regenerations=1)),
        PlanStep(
            id="use", name="Use", skill="s", input_schema=COUNT,
            inputs={"n": InputBinding(source="step", step="make", pointer="/n")},
        ),
    ]
    runner = FakeRunner({"make": [{"n": "seven"}, {"n": 7}]})
    run_id = await execute(fake_plan(steps), runner, regenerator=FakeRegenerator(["print('fixed')\n"]))
    report = build_report(run_id, settings)

    make, use = report.step("make"), report.step("use")
    assert (make.metrics.handoff_passed, make.metrics.handoff_failed) == (1, 1)
    assert (use.metrics.handoff_passed, use.metrics.handoff_failed) == (1, 0)
    assert [v.pointer for v in make.violations] == ["/n"]
    assert make.failed_attempts[0].kind == "output_contract"
    assert (report.metrics.handoff_passed, report.metrics.handoff_failed) == (2, 1)
    assert report.metrics.handoff_accuracy == pytest.approx(2 / 3)


async def test_a_regeneration_keeps_its_diff_from_the_run_directory(execute, settings) -> None:
    steps = [PlanStep(id="make", name="Make", skill="s", output_schema=COUNT, policy=StepPolicy(regenerations=1))]
    runner = FakeRunner({"make": [{"n": None}, {"n": 1}]})
    usage = TokenUsage(input_tokens=300, output_tokens=50)
    run_id = await execute(fake_plan(steps), runner, regenerator=FakeRegenerator(["print(42)\n"], usage=usage))
    report = build_report(run_id, settings)

    (regen,) = report.step("make").regenerations
    assert regen.attempt == 1 and regen.rejected is None and regen.code_path is not None
    assert "+print(42)" in regen.diff
    assert regen.tokens == Tokens(input=300, output=50, total=350)
    assert report.step("make").metrics.regenerations == 1
    assert report.metrics.tokens.total == 350


async def test_a_failed_attempt_shows_class_message_and_the_stderr_tail(execute, settings) -> None:
    failure = StepFailure(error_class=ErrorClass.CODE_ERROR, message="KeyError: 'docs'", kind="exception")
    stderr = "".join(f"line {i}\n" for i in range(2000)) + "KeyError: 'docs'\n"
    runner = FakeRunner({"only": [StepOutcome(failure=failure, stderr_tail=stderr)]})
    run_id = await execute(fake_plan([PlanStep(id="only", name="Only", skill="s")]), runner)
    report = build_report(run_id, settings)

    assert report.status == "failed"
    assert report.error is not None and report.error.where == "only/1"
    (attempt,) = report.step("only").failed_attempts
    assert (attempt.error_class, attempt.kind, attempt.message) == ("code_error", "exception", "KeyError: 'docs'")
    assert attempt.stderr_path == "logs/only-1.stderr"
    assert attempt.stderr_tail.endswith("line 1999\nKeyError: 'docs'\n")
    assert len(attempt.stderr_tail) == 4000  # the tail, not the whole log
    assert [(f.action, f.attempt) for f in report.step("only").fallbacks] == [("fail", 1)]


async def test_compensations_are_listed_in_the_order_they_ran(execute, settings) -> None:
    steps = [
        PlanStep(id="a", name="A", skill="s", policy=StepPolicy(compensation="undo-a")),
        PlanStep(id="b", name="B", skill="s", depends_on=("a",), policy=StepPolicy(compensation="undo-b")),
        PlanStep(id="c", name="C", skill="s", depends_on=("b",)),
    ]
    runner = FakeRunner({"c": [Fail(ErrorClass.UNRECOVERABLE, "quota gone")]})
    run_id = await execute(fake_plan(steps), runner)
    report = build_report(run_id, settings)

    assert report.status == "escalated"
    assert [(c.step, c.skill, c.status) for c in report.compensations] == [
        ("b", "undo-b", "finished"),
        ("a", "undo-a", "finished"),
    ]
    assert all(isinstance(c, CompensationRecord) and c.ended_at is not None for c in report.compensations)
    assert report.step("c").fallbacks[0].action == "escalate"


async def test_a_limit_that_ends_the_run_is_named(execute, settings) -> None:
    steps = [PlanStep(id="a", name="A", skill="s", policy=StepPolicy(retry=RetryPolicy(max_retries=5, delays_s=(1,))))]
    runner = FakeRunner({"a": [TRANSIENT] * 5})
    run_id = await execute(fake_plan(steps, limits=Limits(max_total_attempts=2)), runner)
    report = build_report(run_id, settings)

    assert report.status == "failed"
    assert report.limit is not None and report.limit.limit == "max_total_attempts"
    assert report.error is not None and report.error.limit == "max_total_attempts"
    assert report.step("a").metrics.attempts == 2


async def test_an_approval_records_who_decided_and_why_across_two_sessions(settings: Settings, clock: FakeClock) -> None:
    from orchestrator.engine import create_run

    steps = [PlanStep(id="publish", name="Publish", skill="s", policy=StepPolicy(approval=ApprovalPolicy()))]
    run_id = create_run(fake_plan(steps), {}, settings)
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    paused = build_report(run_id, settings)
    assert paused.status == "paused" and paused.awaiting == ("publish",)
    assert paused.step("publish").approval is not None and paused.step("publish").approval.approved is None

    approve_step(run_id, "publish", settings, comment="looks right", by="ana")
    await execute_run(run_id, settings, runners={"script": FakeRunner()}, clock=clock)
    report = build_report(run_id, settings)
    approval = report.step("publish").approval
    assert report.status == "succeeded"
    assert approval is not None and (approval.approved, approval.by, approval.comment) == (True, "ana", "looks right")
    assert [s.resumed for s in report.sessions] == [False, True]


async def test_the_report_of_an_unknown_run_names_it(execute, settings) -> None:
    await execute(fake_plan([PlanStep(id="a", name="A", skill="s")]), FakeRunner())
    with pytest.raises(NotFoundError, match="no-such-run"):
        build_report("no-such-run", settings)


def test_a_state_dir_without_a_journal_is_reported_and_not_created(tmp_path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(NotFoundError, match="no runs in"):
        build_report("x", Settings(state_dir=missing))
    assert not missing.exists()


@pytest.mark.parametrize(
    ("values", "expected"),
    [([], None), ([3.0], 3.0), ([float(i) for i in range(1, 21)], 19.0), ([float(i) for i in range(1, 101)], 95.0)],
)
def test_p95_is_the_nearest_rank(values: list[float], expected: float | None) -> None:
    assert percentile(reversed(values), 95) == expected


def test_a_ratio_of_nothing_is_none() -> None:
    assert ratio(0, 0) is None
    assert ratio(1, 4) == 0.25


async def test_a_script_step_under_weak_isolation_says_so_in_the_result(execute, settings) -> None:
    retry = StepPolicy(retry=RetryPolicy(max_retries=1, delays_s=(1,)))
    plan = fake_plan([PlanStep(id="a", name="A", skill="s"), PlanStep(id="b", name="B", skill="s", policy=retry)])
    runner = FakeRunner(
        {
            "a": [StepOutcome(output={"ok": True}, meta={"isolation": "bwrap"})],
            "b": [
                StepOutcome(failure=StepFailure(error_class=ErrorClass.TRANSIENT, message="blip"), meta={"isolation": "none"}),
                StepOutcome(output={"ok": True}, meta={"isolation": "unshare"}),
            ],
        }
    )
    run_id = await execute(plan, runner)
    summary = get_run(run_id, settings)  # replayed from the journal
    assert summary.step("a").isolation == "bwrap"
    assert summary.step("b").isolation == "unshare"  # the latest attempt's
    assert summary.notes == ("step b: its script ran under unshare: namespaces and rlimits, no file-system isolation",)
    assert summary.notes[0] in build_report(run_id, settings).notes
