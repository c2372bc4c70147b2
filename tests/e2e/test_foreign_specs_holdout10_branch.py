"""The tenth holdout (tests/fixtures/foreign-specs-holdout10), measured blind before and after reader
round 9 (BLIND-RESULTS-ebe0d0e.md, BLIND-RESULTS.md), through the real `skillweave`: 64's gate. Before
the round its two "Only if:" fields were dropped without a word, both branches ran and both runs said
`succeeded`; after it, the spec was refused (a backticked bound cut, an else-branch in prose). Now the
gate is the promote step's condition and the ticket step runs exactly when it was false, each reading
warned at its line."""

from __future__ import annotations

from typing import Any

import pytest
from foreign_kit import FIXTURES, plan_fixture

pytestmark = pytest.mark.e2e

SPEC = FIXTURES / "foreign-specs-holdout10" / "64-churn-nightly-retrain" / "spec.md"
plan = plan_fixture(SPEC)


def _step(plan: dict[str, Any], skill: str) -> dict[str, Any]:
    return next(s for s in plan["steps"] if s["skill"] == skill)


def test_the_promote_gate_is_its_step_s_condition_and_the_ticket_its_other_branch(plan: dict[str, Any]) -> None:
    promote, ticket = _step(plan, "promote-model"), _step(plan, "file-retrain-ticket")
    assert promote["when"] is not None and "accuracy >=" in promote["when"]
    assert ticket["when"] == f"not ({promote['when']})"


def test_the_else_branch_in_prose_is_warned_at_its_line_and_the_bound_is_the_prose_input(
        plan: dict[str, Any]) -> None:
    lines = {w.get("line") for w in plan["warnings"] if "other case" in w["message"]}
    assert 48 in lines  # the else-branch in prose, warned at its line
    # the bound `min_accuracy` (line 40) is the workflow input the prose names: compared with it, no warning
    assert _step(plan, "promote-model")["when"].endswith(">= inputs.min_accuracy")
