"""The fourth holdout (tests/fixtures/foreign-specs-holdout4) through the real `skillweave`: what the
policy reader owns. Blind at 3f4f543, 1 of 6 validated; two of 27's errors were policy lines read
into policies they are not (an approval's answer time as a 4 h attempt timeout, its outcome
"rejected" as a fallback value). Structure (steps from sub-headings, notebook cells, minutes'
bullets, compose services) is the structural readers' and listed in `KNOWN` with why."""

from __future__ import annotations

import json
from typing import Any

import pytest
from foreign_kit import FIXTURES, assert_validates, expectation, folders_of, plan_json, run

HOLDOUT = FIXTURES / "foreign-specs-holdout4"
FOLDERS = folders_of(HOLDOUT)
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_fourth_holdout_spec_validates_unless_known(folder: str) -> None:
    assert_validates(HOLDOUT / folder / expectation(HOLDOUT / folder)["spec"], known=folder in KNOWN)


def test_an_approval_s_answer_time_is_reported_at_its_line_and_is_no_timeout_or_fallback_value() -> None:
    spec = HOLDOUT / "27-invoice-recon-ticket" / "spec.md"
    plan = plan_json(spec)
    policies: list[dict[str, Any]] = [s["policy"] for s in plan["steps"]]
    assert all(p.get("attempt_timeout_s") != 14400 for p in policies)
    assert all((p.get("fallback") or {}).get("value") != "rejected" for p in policies)
    # since round 11 the sign-off is read as the approval it is (`spec.whole_approval`: the condition runs up to
    # the person), with its answer time and what silence means, rather than reported as a policy not understood
    approval = next(s for s in plan["steps"] if s["skill"] == "open-discrepancy")["policy"]["approval"]
    assert approval is not None and (approval["timeout_s"], approval["on_timeout"]) == (14400, "reject")
    assert "unmatched_amount > 500" in (approval["when"] or "")


def test_a_limit_on_the_whole_thing_said_in_a_chat_reply_is_the_run_s_wall_time() -> None:
    plan = plan_json(HOLDOUT / "28-release-notes-slack" / "spec.md")  # read by `spec.run_limit` (round 5)
    assert plan["limits"]["wall_time_s"] == 600
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith(":32")
    assert all(s["policy"].get("attempt_timeout_s") != 600 for s in plan["steps"])
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith("spec.md:32")


def test_a_limit_on_the_whole_thing_said_in_a_remark_among_the_minutes_items_is_the_run_s_wall_time() -> None:
    plan = plan_json(HOLDOUT / "31-churn-outreach-minutes" / "spec.md")
    assert plan["limits"]["wall_time_s"] == 3600
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith("spec.md:31")
    report = json.loads(run("validate", str(HOLDOUT / "31-churn-outreach-minutes" / "spec.md"), "--json").stdout)
    assert not [w for w in report["warnings"] if w["line"] == 31]  # read, so no longer warned as not read
