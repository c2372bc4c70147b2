"""The model's reading of a spec's structure is checked before use; a fresh lockfile entry is used
offline, a stale one is warned at the changed line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orchestrator.config import Settings
from orchestrator.errors import PlanError
from orchestrator.lockfile import load_lock, lock_path
from orchestrator.plan.structure_reading import StructureReading, check_reading
from orchestrator.plan.structure_reading_lock import apply_structure, structure_doubts
from orchestrator.spec import parse_spec_text

LINES = ["# Mail", "", "First, fetch-list on the `url`.", "", "Then for each row, score-row.", "",
         "Last, report-all when all rows are scored."]
SKILLS = {"fetch-list", "score-row", "report-all"}


def _reading(**changes: Any) -> StructureReading:
    steps: list[dict[str, Any]] = [
        {"number": 1, "line": 3, "title": "Fetch", "skill": "fetch-list",
         "inputs": [{"name": "url", "source": {"kind": "input", "name": "url"}}]},
        {"number": 2, "line": 5, "title": "Score", "skill": "score-row", "depends_on": [1],
         "for_each": {"step": 1, "field": "rows"},
         "inputs": [{"name": "row", "source": {"kind": "item"}}]},
        {"number": 3, "line": 7, "title": "Report", "skill": "report-all", "depends_on": [2],
         "inputs": [{"name": "scores", "source": {"kind": "gathered", "step": 2}}]},
    ]
    for number, update in changes.items():
        steps[int(number.removeprefix("s")) - 1].update(update)
    return StructureReading.model_validate({"steps": steps, "inputs": [{"name": "url", "line": 3}]})


def _errors(reading: StructureReading) -> list[str]:
    return [f"{d.line}: {d.message}" for d in check_reading(reading, LINES, SKILLS, [], "mail.md")]


def test_a_reading_whose_steps_cite_lines_name_skills_and_sources_that_exist_passes() -> None:
    assert _errors(_reading()) == []


def test_a_step_citing_a_line_past_the_end_of_the_spec_is_an_error_naming_the_line() -> None:
    assert _errors(_reading(s2={"line": 40})) == [
        "1: the model's reading of the structure: step 2 (Score) cites line 40, which the spec does not have "
        "(it has 7 lines)"]


def test_a_step_citing_a_blank_line_is_an_error_at_that_line() -> None:
    assert _errors(_reading(s2={"line": 4})) == [
        "4: the model's reading of the structure: step 2 (Score) cites line 4, which is blank"]


def test_a_skill_not_in_the_catalog_is_an_error_at_the_step_line() -> None:
    assert _errors(_reading(s3={"skill": "report-every"})) == [
        "7: the model's reading of the structure: step 3 (Report) runs skill `report-every`, which is not in the "
        "catalog"]


def test_a_condition_the_condition_reader_cannot_read_is_an_error() -> None:
    errors = _errors(_reading(s3={"condition": "when it feels right"}))
    assert errors == ["7: the model's reading of the structure: step 3 (Report): the condition 'when it feels "
                      "right' cannot be read (write a comparison such as `step 2 reported passed = true`)"]
    assert _errors(_reading(s3={"condition": "step 2 reported count > 3"})) == []


def test_steps_that_wait_for_each_other_are_a_cycle_error() -> None:
    errors = _errors(_reading(s1={"depends_on": [3]}))
    assert errors == ["3: the model's reading of the structure: its steps wait for each other in a cycle: "
                      "step 1 -> step 3 -> step 2 -> step 1"]


def test_a_source_naming_a_missing_step_or_an_undeclared_input_is_an_error() -> None:
    errors = _errors(_reading(s3={"inputs": [{"name": "scores", "source": {"kind": "step", "step": 9}},
                                             {"name": "who", "source": {"kind": "input", "name": "owner"}}]}))
    assert errors == [
        "7: the model's reading of the structure: step 3 (Report): input `scores` names step 9, which the reading "
        "does not have",
        "7: the model's reading of the structure: step 3 (Report): input `who` comes from workflow input `owner`, "
        "which the spec does not declare"]


def test_an_item_source_outside_a_for_each_step_is_an_error() -> None:
    errors = _errors(_reading(s3={"inputs": [{"name": "row", "source": {"kind": "item"}}]}))
    assert errors == ["7: the model's reading of the structure: step 3 (Report): input `row` comes from the item, "
                      "but the step has no for_each"]


SPEC = """\
# Two

## Workflow Steps

### Step 1: Fetch
- Skill: `fetch-list`

### Step 2: Score
- Skill: `score-row`
"""


def test_a_lockfile_reading_replaces_the_rule_steps_and_an_edit_makes_it_stale_at_the_changed_line(
        tmp_path: Path) -> None:
    path = tmp_path / "two.md"
    path.write_text(SPEC, encoding="utf-8")
    spec = parse_spec_text(SPEC, str(path), "markdown")
    settings = Settings()
    answer = StructureReading.model_validate({"steps": [
        {"number": 1, "line": 5, "title": "Fetch", "skill": "fetch-list"},
        {"number": 2, "line": 8, "title": "Score", "skill": "score-row", "depends_on": [1],
         "condition": "step 1 reported ok = true"}], "reason": "two steps"})
    asked: list[int] = []

    def reader(rules: Any, doubts: Any) -> tuple[StructureReading, str]:
        asked.append(len(doubts))
        return answer, "model-x"

    doubt = structure_doubts(spec, [])  # no guard finding: nothing to ask
    assert doubt == []
    read, applied = apply_structure(spec, path, settings, SKILLS | {"fetch-list"}, interpret=True,
                                    doubts=lambda s: [*spec.warnings, *structure_doubts(s.model_copy(
                                        update={"steps": ()}), [])], reader=reader)
    assert asked == [1] and applied is not None and applied.model == "model-x"
    assert [(s.id, s.when, s.depends_on) for s in read.steps] == [
        ("step-1", None, ()), ("step-2", "step 1 reported ok = true", ("step-1",))]
    lock = load_lock(lock_path(path))
    assert lock is not None and [e.kind for e in lock.entries] == ["structure"]

    again, used = apply_structure(spec, path, settings, SKILLS)  # offline: no reader, no interpret
    assert used is not None and again.steps == read.steps

    edited = SPEC.replace("### Step 2: Score", "### Step 2: Score them")
    changed = parse_spec_text(edited, str(path), "markdown")
    stale, none = apply_structure(changed, path, settings, SKILLS)
    assert none is None and stale.steps == changed.steps
    assert [(w.line, w.code) for w in stale.warnings if w.code == "lock.stale"] == [(8, "lock.stale")]


def test_a_reading_from_the_model_that_fails_a_check_is_a_plan_error_and_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "two.md"
    path.write_text(SPEC, encoding="utf-8")
    spec = parse_spec_text(SPEC, str(path), "markdown")
    bad = StructureReading.model_validate({"steps": [{"number": 1, "line": 5, "title": "Fetch", "skill": "nope"}]})
    with pytest.raises(PlanError) as caught:
        apply_structure(spec, path, Settings(), SKILLS, interpret=True,
                        doubts=lambda s: structure_doubts(s.model_copy(update={"steps": ()}), []),
                        reader=lambda s, d: (bad, "m"))
    assert [(d.line, "`nope`" in d.message) for d in caught.value.diagnostics] == [(5, True)]
    assert not lock_path(path).exists()
