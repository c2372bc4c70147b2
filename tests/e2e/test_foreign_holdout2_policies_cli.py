"""The second holdout's policy lines through the real `skillweave` executable: the plan JSON of
18-alert-triage holds its `## Reliability` table as written, and 20-refund-ticket's step-1
sentences are read whole (no "not understood" at their lines). The sentence-level and
whole-spec checks are tests/unit/spec/test_foreign_holdout2_policies.py."""

from __future__ import annotations

import pytest
from foreign_kit import FIXTURES, REPO, plan_json, run

pytestmark = pytest.mark.e2e

HOLDOUT2 = FIXTURES / "foreign-specs-holdout2"


def test_the_reliability_table_of_18_is_in_the_plan_row_by_row_with_the_default_row_filling_dashes() -> None:
    steps = {s["id"]: s["policy"] for s in plan_json(HOLDOUT2 / "18-alert-triage" / "spec.md")["steps"]}
    assert steps["step-1"]["retry"]["max_retries"] == 0 and steps["step-1"]["attempt_timeout_s"] == 5
    two = steps["step-2"]
    assert (two["retry"]["max_retries"], two["retry"]["initial_s"], two["retry"]["multiplier"]) == (3, 2, 2)
    assert two["fallback"] == {"action": "default", "value": {"team": "platform", "oncall": "@ops", "tier": 3},
                               "skill": None, "step": None, "message": None}
    assert two["attempt_timeout_s"] == 30  # a dash: the default row's 30 s
    four = steps["step-4"]
    assert (four["retry"]["max_retries"], four["retry"]["delays_s"], four["attempt_timeout_s"]) == (6, [10.0], 20)
    assert four["retry"]["budget_s"] == 120  # "Step 4 gets 2 minutes in total for all its tries", under Limits
    assert four["fallback"]["action"] == "skill" and four["fallback"]["skill"] == "open-ticket"
    assert steps["step-5"]["fallback"]["action"] == "continue" and steps["step-5"]["attempt_timeout_s"] == 60


def test_the_whole_run_limit_of_18_is_the_plan_s_wall_time() -> None:
    plan = plan_json(HOLDOUT2 / "18-alert-triage" / "spec.md")
    assert plan["limits"]["wall_time_s"] == 180


def test_the_step_1_sentences_of_20_are_read_whole_with_their_waits() -> None:
    spec = HOLDOUT2 / "20-refund-ticket" / "spec.md"
    done = run("validate", str(spec))
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert f"{spec.relative_to(REPO)}:15:" not in said and f"{spec}:15:" not in said
    one = plan_json(spec)["steps"][0]["policy"]
    assert one["retry"]["max_retries"] == 3 and one["retry"]["delays_s"] == [5.0, 10.0, 20.0]
    assert one["attempt_timeout_s"] == 20
