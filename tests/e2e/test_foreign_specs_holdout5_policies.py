"""The fifth holdout (tests/fixtures/foreign-specs-holdout5) through the real `skillweave`: what the
policy reader owns. Blind at dc8f4ff: 0/3 approvals (33's conditional sign-off was a silent 4 h attempt
timeout), 0/6 whole-run limits, 0/6 success checks, 33's "retry twice" for a mail 5xx only under a
code-error rule. The shapes three of the specs are written in (a justfile, a spreadsheet tab, a chat
transcript) are the kind readers'; those specs are refused here and listed in `KNOWN` with why."""

from __future__ import annotations

import json
from typing import Any

import pytest
from foreign_kit import FIXTURES, expectation, folders_of, plan_json, run

HOLDOUT = FIXTURES / "foreign-specs-holdout5"
FOLDERS = folders_of(HOLDOUT)
# folder -> why its whole-run limit is not read yet (none now: 37's TOTAL row is read by the sheet reader)
KNOWN: dict[str, str] = {}


def _case(folder: str) -> Any:
    if folder in KNOWN:
        return pytest.param(folder, marks=pytest.mark.xfail(reason=KNOWN[folder], strict=False))
    return folder


@pytest.mark.parametrize("folder", [_case(f) for f in FOLDERS])
def test_a_fifth_holdout_whole_run_limit_is_the_plan_s_wall_time_cited_at_its_line(folder: str) -> None:
    meant = expectation(HOLDOUT / folder)["workflow_policies"][0]
    plan = plan_json(HOLDOUT / folder / "spec.md")
    assert plan["limits"]["wall_time_s"] == meant["meaning"]["timeout_s"]
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith(f":{meant['line']}")


def _policies(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [s["policy"] for s in plan["steps"]]


def test_a_conditional_sign_off_with_its_answer_time_is_an_approval_never_an_attempt_timeout() -> None:
    plan = plan_json(HOLDOUT / "33-dunning-feature" / "spec.md")
    queue = next(s for s in plan["steps"] if s["skill"] == "queue-reminders")
    approval = queue["policy"]["approval"]
    assert approval is not None and (approval["timeout_s"], approval["on_timeout"]) == (14400, "reject")
    assert "total_due" in approval["when"] and "10000" in approval["when"]
    assert all(p["attempt_timeout_s"] != 14400 for p in _policies(plan))


def test_a_retry_for_a_service_that_throws_5xx_is_the_step_s_retry_not_a_code_error_rule() -> None:
    plan = plan_json(HOLDOUT / "33-dunning-feature" / "spec.md")
    policy = next(s for s in plan["steps"] if s["skill"] == "queue-reminders")["policy"]
    assert (policy["retry"]["max_retries"], policy["retry"]["delays_s"]) == (2, [60.0])
    assert not any(r.get("on") == "code_error" for r in policy["rules"])
    assert policy["fallback"]["skill"] == "export-reminders-csv"


def test_an_approval_that_defaults_to_yes_after_its_wait_is_read() -> None:
    plan = plan_json(HOLDOUT / "36-tenant-recipe-card" / "spec.md")
    approvals = [p["approval"] for p in _policies(plan) if p["approval"]]
    assert [(a["timeout_s"], a["on_timeout"]) for a in approvals] == [(7200, "approve")]


@pytest.mark.parametrize(("folder", "line"), [("33-dunning-feature", 50), ("34-release-pr", 30),
                                               ("36-tenant-recipe-card", 44)])
def test_a_success_check_the_plan_cannot_hold_is_warned_at_its_line_never_silent(folder: str, line: int) -> None:
    report = json.loads(run("validate", str(HOLDOUT / folder / "spec.md"), "--json").stdout)
    found = [w for w in report["warnings"] if w.get("code") == "spec.success"]
    assert found, report["warnings"]
    # the Gherkin scenario's lines run together: its Then is cited at the scenario's first line
    assert any(w["line"] in (line, 45) for w in found), found
