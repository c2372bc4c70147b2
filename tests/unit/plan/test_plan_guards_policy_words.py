"""The guards (plan/guards.py) on right policy readings: a failure said in other words ("is dead",
"goes offline") is a policy's condition, not a branch the plan lacks; "once every 10 minutes" is a
wait, not waiting for every result. A right reading with a wrong warning teaches users to ignore them."""

from __future__ import annotations

from pathlib import Path

import pytest
from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(*(skill(n) for n in ("sync-ledger", "cached-rates", "gather-all")))
HEAD = "# Ledger\n\n## Workflow Steps\n\n### Step 1: Sync\n- Skill: `sync-ledger`\n\n"


def _codes(tmp_path: Path, sentence: str) -> list[str]:
    text = HEAD + sentence + "\n"
    path = tmp_path / "flow.md"
    path.write_text(text, encoding="utf-8")
    plan = build_plan(parse_spec_text(text, str(path), "markdown"), CATALOG, settings=SETTINGS)
    return [w.code for w in plan.warnings if w.code in ("spec.condition-not-read", "spec.gather-not-read")]


@pytest.mark.parametrize("sentence", [
    "If the rates service is dead, use the `cached-rates` skill instead.",        # a runbook
    "Support macro: if the ledger API goes offline, use `cached-rates` instead.",  # a support macro
    "Postmortem action: if the feed is unresponsive, fall back to `cached-rates`.",
])
def test_a_failure_in_other_words_before_a_fallback_is_no_missing_condition(tmp_path: Path, sentence: str) -> None:
    assert _codes(tmp_path, sentence) == []


@pytest.mark.parametrize("sentence", [
    "Keep polling the ledger for up to 2h, once every 10 minutes.",
    "Status page: we check again once every half minute while it syncs.",
])
def test_once_every_so_often_is_a_wait_not_waiting_for_every_result(tmp_path: Path, sentence: str) -> None:
    assert _codes(tmp_path, sentence) == []


def test_if_on_data_and_once_every_result_are_still_reported(tmp_path: Path) -> None:
    codes = _codes(tmp_path, "If the total is over 100, stop. Once every shard has been read, sum them.")
    assert "spec.gather-not-read" in codes
