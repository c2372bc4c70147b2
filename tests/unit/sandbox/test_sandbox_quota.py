"""How long the work-directory quota watcher waits between two checks."""

from __future__ import annotations

import pytest

from orchestrator.sandbox.process import (
    QUOTA_COST_FACTOR,
    QUOTA_MAX_WAIT_S,
    QUOTA_POLL_S,
    quota_wait,
)


def test_a_quick_walk_is_followed_by_the_shortest_wait() -> None:
    assert quota_wait(0.0) == QUOTA_POLL_S
    assert quota_wait(QUOTA_POLL_S / QUOTA_COST_FACTOR / 2) == QUOTA_POLL_S


def test_a_costly_walk_spaces_the_checks_by_its_cost() -> None:
    walk = 0.02
    assert QUOTA_POLL_S < QUOTA_COST_FACTOR * walk < QUOTA_MAX_WAIT_S
    assert quota_wait(walk) == pytest.approx(QUOTA_COST_FACTOR * walk)


@pytest.mark.parametrize("walk", [0.5, 3.0, 60.0])
def test_a_slow_walk_never_leaves_more_than_the_longest_wait_unchecked(walk: float) -> None:
    assert quota_wait(walk) == QUOTA_MAX_WAIT_S
