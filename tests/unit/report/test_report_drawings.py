"""The HTML report's drawings: the graph's layered layout, its SVG, the attempt spans and the timeline."""

from __future__ import annotations

import re

from orchestrator.engine.state import RunState
from orchestrator.journal.events import AttemptFailed, AttemptStarted, OutputStored, RunStarted
from orchestrator.plan.model import PlanStep
from orchestrator.report import graph_svg
from orchestrator.report.graph_svg import NODE_H, NODE_W, GraphStep, layout, render_graph_svg
from orchestrator.report.model import (
    ApprovalRecord,
    AttemptRecord,
    RetryWait,
    RunReport,
    SessionRecord,
    StepReport,
)
from orchestrator.report.timeline_svg import MAX_BARS, render_timeline_svg
from orchestrator.testing import fake_plan


def _step(sid: str, deps: tuple[str, ...] = (), status: str = "succeeded", feedback_to: str | None = None) -> GraphStep:
    return GraphStep(step_id=sid, depends_on=deps, status=status, lines=(sid, f"name of {sid}", status),
                     tooltip=f"{sid} tip", href=f"#step-{sid}", feedback_to=feedback_to)


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < NODE_W and abs(a[1] - b[1]) < NODE_H


def test_a_diamond_is_laid_out_in_three_layers_with_the_join_between_its_parents() -> None:
    drawn = layout([_step("a"), _step("b", ("a",)), _step("c", ("a",)), _step("d", ("b", "c"))])
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = (drawn.centres[k] for k in "abcd")
    assert ay < by == cy < dy
    assert not _overlap(drawn.centres["b"], drawn.centres["c"])
    assert min(bx, cx) < dx < max(bx, cx) and min(bx, cx) < ax < max(bx, cx)
    assert [(f, t) for f, t, _ in drawn.edges] == [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]
    assert all(x - NODE_W / 2 >= 0 and x + NODE_W / 2 <= drawn.width for x, _ in drawn.centres.values())


def test_an_edge_that_skips_a_layer_bends_around_the_step_in_between() -> None:
    drawn = layout([_step("a"), _step("b", ("a",)), _step("c", ("a", "b"))])
    long = next(points for f, t, points in drawn.edges if (f, t) == ("a", "c"))
    assert len(long) == 3  # through one virtual point on b's layer
    bx, by = drawn.centres["b"]
    vx, vy = long[1]
    assert vy == by and abs(vx - bx) >= NODE_W / 2  # beside b, not through it


def test_crossings_are_undone_by_the_sweeps() -> None:
    # plan order puts x2 under a1 and x1 under a2: a sweep swaps them
    drawn = layout([_step("a1"), _step("a2"), _step("x2", ("a2",)), _step("x1", ("a1",))])
    assert (drawn.centres["a1"][0] < drawn.centres["a2"][0]) == (drawn.centres["x1"][0] < drawn.centres["x2"][0])


def test_nodes_are_filled_by_status_and_every_text_is_escaped() -> None:
    svg = render_graph_svg([_step("ok"), _step('a"<b>', ("ok",), status="failed", feedback_to="ok")])
    assert svg.startswith('<svg class="graph"') and svg.endswith("</svg>")
    assert '<b>' not in svg and 'data-step="a&quot;&lt;b&gt;"' in svg
    fills = dict(re.findall(r'data-status="(\w+)"><title>.*?</title><rect [^>]*fill="(#\w+)"', svg))
    assert fills == {"succeeded": "#d4edda", "failed": "#f8d7da"}
    assert 'class="edge feedback"' in svg and "on" not in re.findall(r"<(\w+) on", svg)


def test_a_plan_too_big_to_draw_says_so() -> None:
    steps = [_step(f"s{i}") for i in range(graph_svg.MAX_STEPS + 1)]
    assert "is not drawn (more than" in render_graph_svg(steps)


def test_spans_end_with_their_outcome_and_an_attempt_cut_short_is_interrupted() -> None:
    events = [
        RunStarted(ts=0, pid=1, host="h"),
        AttemptStarted(ts=1, step="s", attempt=1, idempotency_key="k1", skill="x"),
        AttemptFailed(ts=2, step="s", attempt=1, error_class="timeout", message="slow"),
        AttemptStarted(ts=3, step="s", attempt=2, idempotency_key="k2", skill="x"),
        AttemptStarted(ts=3.5, step="f", item=0, attempt=1, idempotency_key="k3", skill="x"),
        RunStarted(ts=10, pid=2, host="h", resumed=True),
        AttemptStarted(ts=11, step="s", attempt=3, idempotency_key="k4", skill="x", fallback=True),
        OutputStored(ts=12, step="s", attempt=3),
        AttemptStarted(ts=13, step="f", item=0, attempt=2, idempotency_key="k5", skill="x"),
    ]
    state = RunState.replay("r1", fake_plan([PlanStep(id="s", name="S", skill="x"),
                                             PlanStep(id="f", name="F", skill="x")]), events)
    assert [(a.attempt, a.started_at, a.ended_at, a.outcome, a.error_class, a.fallback)
            for a in state.attempt_spans("s")] == [
        (1, 1, 2, "failed", "timeout", False),
        (2, 3, 3.5, "interrupted", None, False),  # ends at the last event its process recorded
        (3, 11, 12, "succeeded", None, True),
    ]
    assert [(a.item, a.outcome, a.ended_at) for a in state.attempt_spans("f")] == [
        (0, "interrupted", 3.5), (0, "running", None)]
    assert state.last_event_at == 13


def test_spans_come_in_the_order_started_across_items_and_keep_a_success_sent_back() -> None:
    events = [
        RunStarted(ts=0, pid=1, host="h"),
        AttemptStarted(ts=1, step="f", item=0, attempt=1, idempotency_key="a", skill="x"),
        AttemptStarted(ts=1, step="f", item=1, attempt=1, idempotency_key="b", skill="x"),
        AttemptFailed(ts=1, step="f", item=1, attempt=1, error_class="transient", message="reset"),
        AttemptStarted(ts=1, step="f", item=1, attempt=2, idempotency_key="c", skill="x"),
        OutputStored(ts=2, step="f", item=1, attempt=2),
        OutputStored(ts=3, step="f", item=0, attempt=1),
        OutputStored(ts=3, step="f", item=0, attempt=1),  # a fallback's default names no attempt started
        AttemptStarted(ts=4, step="f", item=0, attempt=2, idempotency_key="d", skill="x"),  # run again
        OutputStored(ts=5, step="f", item=0, attempt=2),
    ]
    state = RunState.replay("r1", fake_plan([PlanStep(id="f", name="F", skill="x")]), events)
    assert [(a.item, a.attempt, a.started_at, a.ended_at, a.outcome) for a in state.attempt_spans("f")] == [
        (0, 1, 1, 3, "succeeded"),
        (1, 1, 1, 1, "failed"),
        (1, 2, 1, 2, "succeeded"),
        (0, 2, 4, 5, "succeeded"),
    ]


def _report(steps: tuple[StepReport, ...], **extra: object) -> RunReport:
    base = {"run_id": "r1", "plan_name": "p", "plan_sha256": "0" * 64, "status": "succeeded", "created_at": 100.0,
            "started_at": 100.0, "finished_at": 110.0, "sessions": (SessionRecord(started_at=100.0, pid=1, host="h"),)}
    return RunReport.model_validate({**base, **extra, "steps": steps})


def test_the_timeline_draws_attempts_on_lanes_with_waits_and_approval_pauses() -> None:
    fan = StepReport(step_id="fan", name="Fan", skill="x", status="succeeded", ready_at=100.0, started_at=100.5,
                     attempts=tuple(AttemptRecord(item=i, attempt=1, started_at=100.5, ended_at=102.0,
                                                  outcome="succeeded") for i in range(3)))
    flaky = StepReport(
        step_id="flaky", name="Flaky", skill="x", status="succeeded",
        attempts=(AttemptRecord(attempt=1, started_at=102, ended_at=103, outcome="failed", error_class="timeout"),
                  AttemptRecord(attempt=2, started_at=104, ended_at=105, outcome="succeeded")),
        retries=(RetryWait(ts=103, attempt=1, error_class="timeout", delay_s=1.0),),
        approval=ApprovalRecord(requested_at=105, decided_at=108, approved=True, by="cli"),
    )
    idle = StepReport(step_id="idle", name="Idle", skill="x", status="not_run")
    svg = render_timeline_svg(_report((fan, flaky, idle)))
    rows = re.findall(r'<g class="row" data-step="(\w+)">', svg)
    assert rows == ["fan", "flaky"]  # a step that never started has no row
    fan_row = svg.split('data-step="fan"')[1].split("</g>")[0]
    ys = sorted({float(y) for y in re.findall(r'class="bar attempt succeeded" x="[\d.]+" y="([\d.]+)"', fan_row)})
    assert len(ys) == 3  # three items at once: three lanes
    assert svg.count('class="bar queue"') == 1 and svg.count('class="bar wait"') == 1
    assert svg.count('class="bar approval"') == 1 and "approval approved after 3.00s" in svg
    assert "flaky attempt 1: failed (timeout), 1.00s" in svg
    # 3 items + their queue + 2 attempts + the wait + the approval
    assert svg.count('class="bar ') == 8 and "8 bars over 10.0s" in svg


def test_a_run_not_finished_is_drawn_up_to_now_and_bars_beyond_the_cap_are_counted() -> None:
    running = StepReport(step_id="s", name="S", skill="x", status="running",
                         attempts=(AttemptRecord(attempt=1, started_at=101, outcome="running"),))
    svg = render_timeline_svg(_report((running,), status="running", finished_at=None, last_event_at=101.0), now=120)
    assert "s attempt 1: running, 19.0s" in svg and "over 20.0s" in svg
    many = StepReport(step_id="m", name="M", skill="x", status="succeeded",
                      attempts=tuple(AttemptRecord(item=i, attempt=1, started_at=100 + i / 1000,
                                                   ended_at=100.5 + i / 1000, outcome="succeeded")
                                     for i in range(MAX_BARS + 5)))
    capped = render_timeline_svg(_report((many,)))
    assert capped.count('class="bar attempt') == MAX_BARS and "5 more not drawn" in capped
