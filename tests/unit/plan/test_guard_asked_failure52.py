"""`plan.guards` (round 52): a skill named just after a failure asked as a question ("Feed down? Use `x` ...") or
after "won't play" is spoken of as a spare: at most a warning, never a plan refused as a lost step."""

from __future__ import annotations

import re

from orchestrator.plan.guards import _said_as_spare

_NAME = re.compile(r"(?<![\w-])price-cache(?![\w-])")


def test_a_skill_after_a_failure_asked_as_a_question_is_a_spare() -> None:
    assert _said_as_spare("Price feed offline? Prices from `price-cache` for that step, and keep going.", _NAME)
    assert _said_as_spare("Step two. Feed unreachable? `price-cache` then.", _NAME)


def test_a_skill_after_a_feed_that_will_not_play_is_a_spare() -> None:
    assert _said_as_spare("If the price feed won't play, prices come from `price-cache`.", _NAME)


def test_near_miss_a_question_with_no_failure_before_the_skill_is_no_spare() -> None:
    assert not _said_as_spare("Prices ready? Prices from `price-cache` go to the board.", _NAME)
