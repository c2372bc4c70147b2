"""An approval's wait beside the run's wall time (`plan.limit_vs_wait29`): a gate pauses the run, so
a wait longer than the wall time is said in the plan's text, never warned of as a problem."""

from __future__ import annotations

from orchestrator.plan.limit_vs_wait29 import wait_note
from orchestrator.policy import Limits


def test_a_wait_longer_than_the_wall_time_is_said_to_run_its_length() -> None:
    note = wait_note(7200.0, Limits(wall_time_s=1800.0))  # a call sheet: "give her 2 hours", "30 mins" whole
    assert "not counted in the run's wall time 1800s" in note and "7200s" in note


def test_a_ticket_s_day_long_sign_off_under_a_15_minute_sla_is_said_too() -> None:
    assert "86400s" in wait_note(86400.0, Limits(wall_time_s=900.0))


def test_a_shorter_wait_or_none_says_nothing() -> None:
    assert wait_note(600.0, Limits(wall_time_s=1800.0)) == ""  # a recipe: "taste it within 10 min"
    assert wait_note(None, Limits(wall_time_s=1800.0)) == ""
    assert wait_note(1800.0, Limits(wall_time_s=1800.0)) == ""


def test_a_runbook_s_long_sign_off_under_a_short_wall_time_is_no_warning_and_the_text_says_why() -> None:
    from plan_factory import FakeCatalog, plan_of_text, skill

    from orchestrator.plan import check_plan
    from orchestrator.plan.render import render_text
    from orchestrator.spec import parse_spec_text

    text = ("# Restore drill\n\nWhole run: 30 min max.\n\n## Step 1: Restore\n- Skill: `db-restore`\n"
            "- Approval: required (timeout 2h -> reject)\n")
    catalog = FakeCatalog(skill("db-restore"))
    plan = plan_of_text(text, catalog)
    spec = parse_spec_text(text, "doc.md", "markdown")
    assert plan.limits.wall_time_s == 1800.0 and plan.steps[0].policy.approval.timeout_s == 7200.0
    assert not [d for d in check_plan(plan, spec) if "approval" in d.message]
    assert "not counted in the run's wall time 1800s" in render_text(plan)
