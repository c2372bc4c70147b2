"""Two sections of one kind under different titles never refuse a spec: the intent kind is read
as one intent, any other kind keeps its first section and warns at the second naming both."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text

STEPS = "## Steps\n\n### Step 1: Pull\n- Skill: `pull-logs`\n\n### Step 2: Sum\n- Skill: `sum-up`\n- Depends on: Step 1\n\n"


def _warnings(spec_text: str) -> list[tuple[int | None, str]]:
    spec = parse_spec_text(spec_text, "doc.md", "markdown")
    return [(w.line, w.message) for w in spec.warnings]


def test_a_postmortem_with_a_summary_and_a_background_reads_both_as_its_intent() -> None:
    text = (
        "# Outage review\n\n## Summary\n\nThe queue stalled for an hour.\n\n"
        "## Background\n\nThe consumer lost its lease after a deploy.\n\n" + STEPS
    )
    spec = parse_spec_text(text, "doc.md", "markdown")
    assert "The queue stalled" in spec.intent and "lost its lease" in spec.intent
    assert [s.skill.strip("`") for s in spec.steps] == ["pull-logs", "sum-up"]


def test_a_readme_overview_after_an_introduction_gives_its_whole_run_limit_to_the_plan() -> None:
    text = (
        "# Nightly sync\n\n## 1. Introduction\n\nSyncs the mirror.\n\n"
        + STEPS
        + "## 4. Overview\n\nThe whole run: at most 20 minutes.\n"
    )
    spec = parse_spec_text(text, "doc.md", "markdown")
    assert [r.statement.timeout_s for r in spec.readings if r.statement.whole_run] == [1200]
    assert "Syncs the mirror" in spec.intent


def test_an_rfc_intent_that_bounds_the_whole_run_in_its_own_words_is_read_and_said_at_its_line() -> None:
    text = (
        "# Sweep\n\n## Abstract\n\nx\n\n## 1. Motivation\n\nOld way was slow.\n\n## 2. Purpose\n\n"
        "The entire scan MUST NOT exceed 12 minutes of wall-clock time.\n\n" + STEPS
    )
    found = [(line, m) for line, m in _warnings(text) if "whole run's limit" in m]
    assert found and found[0][0] == 13 and "'Whole run: 12 min max.'" in found[0][1]
    spec = parse_spec_text(text, "doc.md", "markdown")
    assert [r.statement.timeout_s for r in spec.readings if r.statement.whole_run] == [720]


def test_two_differently_titled_input_sections_keep_the_first_and_name_both_titles() -> None:
    text = (
        "# Billing runbook\n\n## Inputs\n\n- account (string): the account id\n\n"
        + STEPS
        + "## Parameters\n\n- region (string): where it runs\n"
    )
    spec = parse_spec_text(text, "doc.md", "markdown")
    assert [i.name for i in spec.inputs] == ["account"]
    [(line, message)] = [(line, m) for line, m in _warnings(text) if "same kind of section" in m]
    assert line == 16 and "'Parameters'" in message and "'Inputs' at line 3" in message


def test_the_same_title_twice_is_still_an_error() -> None:
    text = "# Status page\n\n" + STEPS + "## Background\n\na\n\n## background\n\nb\n"
    with pytest.raises(SpecError) as info:
        parse_spec_text(text, "doc.md", "markdown")
    assert [d.code for d in info.value.diagnostics] == ["spec.duplicate-section"]
