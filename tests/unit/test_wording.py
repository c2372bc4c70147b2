"""Counts in messages read as English."""

from __future__ import annotations

import pytest

from orchestrator.wording import count


@pytest.mark.parametrize(
    ("n", "noun", "said"),
    [(1, "step", "1 step"), (0, "step", "0 steps"), (2, "retry", "2 retries"), (1, "retry", "1 retry")],
)
def test_a_count_is_singular_only_for_one(n: int, noun: str, said: str) -> None:
    assert count(n, noun) == said
