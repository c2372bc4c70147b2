"""Every step shape hands the policy reader what the structure reader left, each sentence once.

Headings in any wording, list items, table rows with extra columns, runbook paragraphs and
YAML steps: a policy sentence in any of them is read once, with its line; a sentence read
as structure (a route, a labelled sentence) is not read again for policy; a text that is
neither is reported once, never by both readers.
"""

from __future__ import annotations

from collections import Counter

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of


def parse(text: str, fmt: str = "markdown") -> WorkflowSpec:
    return parse_spec_text(text, "flow.md" if fmt == "markdown" else "flow.yaml", fmt)


def read(spec: WorkflowSpec) -> list[tuple[tuple[str, ...], int, str]]:
    return [(r.steps, int(r.where.rsplit(":", 1)[1]), r.text) for r in spec.readings]


def assert_each_once(spec: WorkflowSpec) -> None:
    """No sentence read twice, no line warned twice with the same message."""
    assert not [k for k, n in Counter((r.where, r.text) for r in spec.readings).items() if n > 1]
    assert not [k for k, n in Counter((w.line, w.message) for w in spec.warnings).items() if n > 1]


SHAPES = {
    "heading": "# F\n\n## Stage 1 — Fetch\n\nFetch it with `fetch-it`. Give it 60 seconds.\n",
    "list item": "# F\n\n## Steps\n\n1. Fetch: `fetch-it` (url -> body). Give it 60 seconds.\n",
    "list sub-bullet": "# F\n\n## Steps\n\n1. Fetch: `fetch-it` (url -> body)\n   - Give it 60 seconds.\n",
    "table notes": "# F\n\n## Steps\n\n| # | Step | Skill | Notes |\n|---|---|---|---|\n"
                   "| 1 | Fetch | `fetch-it` | url -> body. Give it 60 seconds. |\n",
    "runbook": "# F\n\n## Runbook\n\nFirst fetch the page using `fetch-it`. Give it 60 seconds.\n",
}
LINES = {"heading": 5, "list item": 5, "list sub-bullet": 6, "table notes": 7, "runbook": 5}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_policy_sentence_is_read_once_in_every_step_shape(shape: str) -> None:
    spec = parse(SHAPES[shape])
    (step,) = spec.steps
    assert [(steps, at) for steps, at, _ in read(spec)] == [((step.id,), LINES[shape])]
    assert effect_of(spec.readings[0].statement).attempt_timeout_s == 60
    assert_each_once(spec)


def test_a_yaml_step_s_description_is_read_for_policy() -> None:
    spec = parse("name: f\nsteps:\n  - id: fetch\n    skill: fetch-it\n    description: retry twice, 5s apart\n",
                 "yaml")
    assert [(steps, text) for steps, _, text in read(spec)] == [(("fetch",), "retry twice, 5s apart")]
    retry = effect_of(spec.readings[0].statement).retry
    assert retry is not None and (retry.max_retries, retry.delays_s) == (2, (5.0,))


def test_a_steps_table_hands_its_max_attempts_and_extra_cells_to_the_policy_reader() -> None:
    spec = parse(
        "# F\n\n## Steps\n\n| # | Step | Skill | Owner | Max Attempts | On call |\n|---|---|---|---|---|---|\n"
        "| 1 | Fetch | `fetch-it` | platform | 3 | page the on-call |\n"
        "| 2 | Save | `save-it` | platform | - | |\n"
    )
    assert read(spec) == [(("step-1",), 7, "max attempts: 3"), (("step-1",), 7, "on call: page the on-call")]
    assert effect_of(spec.readings[0].statement).retry.max_retries == 2  # type: ignore[union-attr]
    fallback = effect_of(spec.readings[1].statement).fallback
    assert fallback is not None and fallback.message == "page the on-call"
    # each column that is not a step field is reported once, not once per row or cell
    assert [(w.line, w.message) for w in spec.warnings] == [  # and a "-" cell is no policy at all
        (5, "column 'On call' of the steps table is not a step field; its cells are read only for policy"),
        (5, "column 'Owner' of the steps table is not a step field; its cells are read only for policy")]


def test_a_sentence_read_as_structure_is_not_read_again_for_policy() -> None:
    spec = parse(
        "# F\n\n### Step 1: Classify\n\nClassify it with `classify`. Timeout: 30s. `billing` goes to Step 2, "
        "anything else to Step 3. Retry twice.\n\n### Step 2: Bill\n\nUse `bill`.\n\n### Step 3: Other\n\nUse `other`.\n"
    )
    one = spec.steps[0]
    assert one.timeout_s == 30 and one.routes == {"billing": "step-2"}
    assert [text for *_, text in read(spec)] == ["Retry twice."]
    assert_each_once(spec)


def test_an_unlabelled_bullet_read_in_part_as_a_dependency_is_read_for_policy_or_reported_once() -> None:
    spec = parse(
        "# F\n\n### Step 1: A\n\nUse `a-skill`.\n\n### Step 2: B\n\nUse `b-skill`.\n"
        "- Runs after Step 1; retry 3 times, 2s apart\n- Runs after Step 1 only when it said yes\n"
    )
    two = spec.steps[1]
    assert two.depends_on == ("step-1",)
    assert [(at, text) for _, at, text in read(spec)] == [(10, "Runs after Step 1; retry 3 times, 2s apart")]
    assert effect_of(spec.readings[0].statement).retry.delays_s == (2.0,)  # type: ignore[union-attr]
    assert [(w.line, w.message) for w in spec.warnings] == [
        (11, "step-2: bullet 'Runs after Step 1 only when it said yes' read only for the step it depends on; "
             "the rest is not read")]
    assert_each_once(spec)


def test_a_bullet_that_is_neither_structure_nor_policy_is_reported_once() -> None:
    spec = parse("# F\n\n### Step 1: A\n\nUse `a-skill`.\n- something about the weather\n- Colour: blue\n")
    assert [(w.line, w.code) for w in spec.warnings] == [(6, "spec.unread"), (7, "spec.unknown-label")]
    assert spec.readings == ()


def test_recovery_rows_and_bullets_find_their_step_by_its_name() -> None:
    spec = parse(
        "# F\n\n### Step 1: Pull the numbers\n\nUse `pull`.\n\n### Step 2: Send the mail\n\nUse `mail`.\n\n"
        "### Step 3: No-data notice\n\nUse `notice`.\n\n"
        "## Error Recovery\n\n| Failure | Recovery |\n|---|---|\n"
        "| Mail server down | retry 3x, 30s apart |\n| Warehouse returns zero rows | go to the no-data notice instead |\n\n"
        "- Step 1: never retry\n- If pulling the numbers fails, page the on-call\n"
    )
    rows = [(r.step, r.every_step, int(r.where.rsplit(":", 1)[1])) for r in spec.recovery]
    assert rows == [("step-2", False, 19), ("step-1", True, 20), ("step-2", True, 20), ("step-3", True, 20)]
    assert spec.recovery[1].rule.fallback is not None and spec.recovery[1].rule.fallback.step == "step-3"
    assert [(r.what, r.note) for r in spec.steps[1].readings if r.what == "recovery"] == [
        ("recovery", "Error Recovery row read as step-2's: its failure names the step ('mail')")]
    assert [(steps, at) for steps, at, _ in read(spec)] == [(("step-1",), 22), (("step-1",), 23)]
    assert sorted(w.code for w in spec.warnings if w.line == 20) == ["spec.unclassified", "spec.unread"]
