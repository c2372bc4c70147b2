"""A person's approval wait beside the run's wall time (twenty-ninth round).

Authors give a person longer to answer than the run may work: "Whole build has 30 mins" and, at the
publish step, "the producer has to OK it; give her 2 hours, no answer = no"; a ticket's "SLA 15 min"
beside "manager sign-off within 1 day". DESIGN decides which holds: an approval gate *pauses* the
run (its state persisted, the process may exit) and the wall time is one of the limits that make a
run converge, on the time the run works. The engine counts no time spent waiting at a gate against
the wall time (`engine.state.RunState.execution_time`), so the wait runs its full length and its
outcome (`on_timeout`) applies, whatever the wall time.

So a wait longer than the wall time is no problem to warn of (`plan.checks` no longer does); the
plan's text says so beside the approval instead, so that the reader of the plan does not take the
wall time for the bound of the wait: `wait_note`.
"""

from __future__ import annotations

from orchestrator.policy import Limits


def wait_note(timeout_s: float | None, limits: Limits) -> str:
    """What the plan's text says after an approval whose wait is longer than the run's wall time
    (module docstring), or "" when the wait is no longer, or unbounded."""
    if not timeout_s or timeout_s <= limits.wall_time_s:
        return ""
    return (f" (a pause, not counted in the run's wall time {limits.wall_time_s:g}s: the wait runs its "
            f"{timeout_s:g}s)")
