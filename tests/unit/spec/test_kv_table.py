"""A two-column field/value table under a step's own heading is read as that step's labelled lines
(`spec.kv_table`), its field names through the steps table's column words; a row no column word
names is a line for the policy reader; any other table under a step stays a block not read. A step
that says it waits for a later one keeps that wait, and the default order no longer adds the
opposite edge (`plan.mapping`): no cycle."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("set-stage", input_schema=obj(("scene",), scene="string"), output_schema=obj(("ready",), ready="boolean")),
    skill("check-levels", input_schema=obj(("venue",), venue="string"), output_schema=obj(("db",), db="number")),
    skill("run-cue", input_schema=obj(("ready", "db"), ready="boolean", db="number"),
          output_schema=obj(("done",), done="boolean")),
)
_VOCABULARY = Vocabulary.of((s, None) for s in ("set-stage", "check-levels", "run-cue"))


def _plan(text: str) -> tuple[Plan, list[str]]:
    spec = parse_spec_text(text, "doc.md", "markdown", vocabulary=_VOCABULARY)
    return build_plan(spec, CATALOG, settings=SETTINGS), [f"{w.line}:{w.message}" for w in spec.warnings]


CUE_SHEET = """# Act I cue sheet

## Cue 1 - Dress the set

| | |
|---|---|
| **Program** | `set-stage` |
| **Give it** | `scene` |
| **If it breaks** | retry twice, 10 seconds apart |

## Cue 2 - Sound check

| Field | Value |
|---|---|
| Tool | `check-levels` |
| Takes | `venue` |

## Cue 3 - Go

| | |
|---|---|
| Tool | `run-cue` |
| After | 1, 2 |
| Only if | step 1 says ready = yes |
"""
LAB = """# Protocol 4: gel run

### 1. Pour the gel

| Tool | `set-stage` |
|---|---|
| Feed it | `scene` |
| Hiccups | cut it off at 2 min and fail the run |

### 2. Calibrate

| | |
|---|---|
| Tool | `check-levels` |
| Feed it | `venue` |

### 3. Run it

| | |
|---|---|
| Tool | `run-cue` |
| Wait for | 1, 2 |
| Only if | step 1 says ready = yes |
"""
RECIPE = """# Sourdough, card 12

## Step 1: Levain

| what | how |
|---|---|
| Skill | `set-stage` |
| Input | `scene` |
| If it fails | retry twice, 10 seconds apart |

## Step 2: Oven

| | |
|---|---|
| Skill | `check-levels` |
| Input | `venue` |

## Step 3: Bake

| | |
|---|---|
| Skill | `run-cue` |
| Depends on | 1, 2 |
| Only if | step 1 says ready = yes |
"""
CHANGE_REQUEST = """# CHG-2291 switch cut-over

## 1) Prep the switch

| | |
|---|---|
| Tool | `set-stage` |
| Feed it | `scene` |
| Hiccups | cut it off at 2 min and fail the run |

## 2) Baseline

| | |
|---|---|
| Tool | `check-levels` |
| Feed it | `venue` |

## 3) Cut over

| | |
|---|---|
| Tool | `run-cue` |
| After | 1, 2 |
| Only if | step 1 says ready = yes |
"""


@pytest.mark.parametrize("text", [CUE_SHEET, LAB, RECIPE, CHANGE_REQUEST],
                         ids=["theatre-cue-sheet", "lab-protocol", "recipe-card", "change-request"])
def test_a_field_value_table_under_a_step_heading_is_its_labelled_lines(text: str) -> None:
    plan, warned = _plan(text)
    assert [s.skill for s in plan.steps] == ["set-stage", "check-levels", "run-cue"]
    assert sorted(plan.steps[2].depends_on) == ["step-1", "step-2"]
    assert plan.steps[2].when is not None and "ready" in plan.steps[2].when
    assert not any("block not read" in w for w in warned)
    first = plan.steps[0].policy
    assert first.retry.max_retries == 2 or first.attempt_timeout_s == 120


def test_a_table_that_is_no_field_value_list_stays_a_block_not_read() -> None:
    text = ("# Kit list\n\n## Step 1: Pack\n\nRun `set-stage` with `scene`.\n\n"
            "| item | qty | where |\n|---|---|---|\n| rope | 2 | bay |\n")
    _, warned = _plan(text)
    assert any("block not read" in w for w in warned)


def test_a_two_column_table_of_sentences_is_not_read_as_fields() -> None:
    text = ("# Notes\n\n## Step 1: Pack\n\nRun `set-stage` with `scene`.\n\n"
            "| When the crew arrives at the dock early in the morning | they sign in |\n|---|---|\n"
            "| If the truck is late we wait for it until noon at the latest | then go |\n")
    _, warned = _plan(text)
    assert any("block not read" in w for w in warned)


def test_a_step_that_waits_for_a_later_one_is_not_also_chained_before_it() -> None:
    text = ("# Ship's log\n\n## 1. Plot the course\n\n| | |\n|---|---|\n| Tool | `run-cue` |\n\n"
            "Needs the levels from step 2, so this one has to wait for step 2.\n\n"
            "## 2. Sound the depth\n\n| | |\n|---|---|\n| Tool | `check-levels` |\n| Feed it | `venue` |\n")
    plan, warned = _plan(text)
    by_id = {s.id: s for s in plan.steps}
    assert list(by_id["step-1"].depends_on) == ["step-2"]
    assert list(by_id["step-2"].depends_on) == []
    assert not any("cycle" in w for w in warned)
    assert not any("not understood: 'wait'" in w for w in warned)  # the wait is the dependency read


def test_a_sign_off_row_keeps_its_condition_through_the_bold_words() -> None:
    text = RECIPE + "| **Sign-off** | if step 2 says db is over **90**, the head baker has to OK it first. Give her 10 min. |\n"
    plan, _ = _plan(text)
    approval = plan.steps[2].policy.approval
    assert approval is not None and approval.timeout_s == 600
    assert approval.when is not None and "90" in approval.when
