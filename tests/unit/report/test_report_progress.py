"""Progress of a run from its events: units done of a total, strictly increasing."""

from __future__ import annotations

from orchestrator.engine.model import RunEvent
from orchestrator.report.progress import ProgressCount


def _e(type_: str, step: str | None = None, item: int | None = None, total: int | None = None) -> RunEvent:
    return RunEvent(run_id="r", type=type_, step=step, item=item, total=total)


def test_steps_and_for_each_items_count_as_units_of_a_growing_total() -> None:
    counter = ProgressCount()
    seen = [counter.update(e) for e in (
        _e("run_started", total=2),
        _e("attempt_started", "a"), _e("output_stored", "a"), _e("step_finished", "a"),
        _e("fan_out", "b", total=3),
        _e("output_stored", "b", 0), _e("output_stored", "b", 0),  # the same item twice counts once
        _e("item_skipped", "b", 1), _e("output_stored", "b", 2), _e("step_finished", "b"),
        _e("run_finished"),
    )]
    values = [p for p, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [t for _, t in seen][:4] == [3.0, 3.0, 3.0, 3.0]  # 2 steps and the run's end
    assert seen[4][1] == 6.0  # and 3 items
    assert seen[3][0] == 1.0  # step a done
    assert seen[9][0] == 5.0  # 3 items and b done
    assert seen[-1] == (6.0, 6.0)
    assert all(p < t for p, t in seen[:-1])  # never at the total before the end


def test_a_counter_that_joined_a_run_under_way_counts_events_without_a_total() -> None:
    counter = ProgressCount()
    assert counter.update(_e("attempt_started", "a")) == (1.0, None)
    assert counter.update(_e("run_started", total=4)) == (2.0, None)


def test_units_beyond_the_announced_total_raise_it_instead_of_passing_it() -> None:
    counter = ProgressCount()
    counter.update(_e("run_started", total=1))  # a resumed for each: its items were announced before
    values = [counter.update(_e("output_stored", "b", i)) for i in range(4)]
    assert all(p < t for p, t in values) and values[-1][0] == 4.0
