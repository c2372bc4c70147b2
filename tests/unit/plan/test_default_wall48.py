"""The `limits` warning that retries at their worst outlast the wall time says, when no whole-run limit is
said, that the wall time is the default and what that does (the run is stopped there, before the retries
the steps' words allow have run); with a whole-run limit said it is worded as before (`plan.checks`)."""

from __future__ import annotations

from plan_factory import FakeCatalog, plan_of_text, skill

from orchestrator.plan import check_plan
from orchestrator.spec import parse_spec_text

_CATALOG = FakeCatalog(skill("pull-feed"), skill("post-notice"))


def _limits(text: str) -> list[str]:
    plan = plan_of_text(text, _CATALOG)
    return [d.message for d in check_plan(plan, parse_spec_text(text, "doc.md", "markdown")) if d.code == "limits"]


def test_a_parish_notice_retrying_for_two_hours_names_the_default_wall_time() -> None:
    text = ("# Parish notice\n\n## Step 1: Pull\n- Skill: `pull-feed`\n\n## Step 2: Post\n- Skill: `post-notice`\n"
            "- Retry: 8 times, 15 minutes apart\n")
    said = _limits(text)
    assert any("more than the default wall time 3600s (no whole-run limit is said)" in m for m in said), said


def test_a_depot_feed_retrying_all_afternoon_names_the_default_wall_time() -> None:
    text = ("# Depot feed\n\n## Step 1: Pull\n- Skill: `pull-feed`\n- Retry: 5 times, 20 minutes apart\n")
    said = _limits(text)
    assert any("default wall time" in m and "say how long the whole run may take" in m for m in said), said


def test_a_said_whole_run_limit_is_not_called_the_default() -> None:
    text = ("# Parish notice\n\nWhole run: 30 min max.\n\n## Step 1: Pull\n- Skill: `pull-feed`\n\n"
            "## Step 2: Post\n- Skill: `post-notice`\n- Retry: 8 times, 15 minutes apart\n")
    said = _limits(text)
    assert said and not any("default" in m for m in said), said
