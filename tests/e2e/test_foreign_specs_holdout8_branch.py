"""The eighth holdout's decision tree through the real `skillweave`: 51's branches under "Look at the
**band** it gives back:" (`**band = auto**` / `→ **Refund to card** with `issue-refund``, `**anything else
(review)**` / `→ **Offer store credit** ...`) are a step each after "Score it", guarded by the band, and
"Both branches land here → Write the reply" runs once after whichever ran, taking `status` and `amount`
from it (its runs reaching the author's output are asserted in test_foreign_specs_holdout8_flow.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from foreign_kit import FIXTURES, plan_json

pytestmark = pytest.mark.e2e

SPEC = FIXTURES / "foreign-specs-holdout8" / "51-refund-macro" / "spec.md"


def _steps() -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in plan_json(SPEC)["steps"]}


def test_the_macros_decision_tree_is_a_step_per_branch_guarded_by_the_band() -> None:
    steps = _steps()
    assert [s["skill"] for s in steps.values()] == ["extract-order-facts", "score-refund-eligibility",
                                                     "issue-refund", "offer-store-credit", "draft-customer-reply"]
    assert (steps["step-3"]["name"], steps["step-4"]["name"]) == ("Refund to card", "Offer store credit")
    assert steps["step-3"]["when"] == "steps['step-2'].output.band == 'auto'"
    assert steps["step-4"]["when"] == "not (steps['step-2'].output.band == 'auto')"


def test_the_reply_runs_after_whichever_branch_ran_and_takes_its_status_and_amount() -> None:
    reply = _steps()["step-5"]
    assert sorted(reply["depends_on"]) == ["step-3", "step-4"] and reply["join"] == "any"
    for name in ("status", "amount"):
        assert sorted(reply["inputs"][name]["any_of"]) == ["step-3", "step-4"]
    assert [i["name"] for i in plan_json(SPEC)["inputs"]] == ["ticket_text", "order_total"]
