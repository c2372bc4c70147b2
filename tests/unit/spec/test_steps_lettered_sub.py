"""Sub-steps numbered with a letter (`spec.steps_lettered_sub`): "4a."/"4b." headings or list lines
are steps of their own, the later steps renumbered and the marks in the text read as those steps."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.steps_lettered_sub import lettered_sub_steps


def _spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown")


RECIPE = """# Pancake Sunday

## 1. Mix
Run `mix-batter`.

## 2a. Cook plain ones
Run `fry-plain`.

## 2b. Cook blueberry ones
Run `fry-blueberry`. Uses the batter from step 1.

## 3. Serve
Run `plate-up`, after 2a and 2b.
"""


def test_a_recipe_cards_lettered_headings_are_steps_and_later_steps_renumbered() -> None:
    spec = _spec(RECIPE)
    assert [(s.number, s.name) for s in spec.steps] == [
        (1, "Mix"), (2, "Cook plain ones"), (3, "Cook blueberry ones"), (4, "Serve")]
    said = [w for w in spec.warnings if "sub-steps numbered with a letter" in w.message]
    assert [w.line for w in said] == [6] and "2a as step 2, 2b as step 3" in said[0].message
    assert not [w for w in spec.warnings if "not a spec section" in w.message]


def test_marks_in_the_text_are_rewritten_once_each() -> None:
    text = "### 1. Haul\n### 2. Check\n### 3a. Fix\n### 3b. Log\n### 4. Report\nafter 3a/3b, as step 4 said\n"
    out, said = lettered_sub_steps(text)
    assert out.split("\n")[2:6] == ["### 3. Fix", "### 4. Log", "### 5. Report", "after step 3/step 4, as step 5 said"]
    assert said[0][0] == 3


SHIPS_LOG = """Dog watch routine

1. Read the barometer with `read-baro`
2. Check the bilge with `check-bilge`
3a) If the bilge is high, pump it with `run-pump`
3b) Otherwise log it dry with `log-dry`
4. Write the watch entry with `write-log`
"""


def test_a_ships_log_lists_lettered_lines_as_steps_not_run_on_into_the_step_before() -> None:
    spec = _spec(SHIPS_LOG)
    assert len(spec.steps) == 5
    assert [s.number for s in spec.steps] == [1, 2, 3, 4, 5]
    assert "run-pump" in spec.steps[2].description and "log-dry" in spec.steps[3].description


def test_a_lesson_plan_and_a_run_sheet_out_of_order_or_without_letters_are_left_as_written() -> None:
    lesson = "## 1. Warm up\n## 3a. Groups\n## 3b. Share\n## 4. Exit ticket\n"  # 2 missing: no reading
    assert lettered_sub_steps(lesson) == (lesson, [])
    run_sheet = "1. Intro music\n2. Guest intro\n3. Interview\n4. Outro\n"
    assert lettered_sub_steps(run_sheet) == (run_sheet, [])
    podcast = "## 1. Record\n## 1a. Backup the raw files\n## 2. Edit\n```\n## 9z. not a step\n```\n"
    out, said = lettered_sub_steps(podcast)
    assert out.split("\n")[:4] == ["## 1. Record", "## 2. Backup the raw files", "## 3. Edit", "```"]
    assert out.split("\n")[4] == "## 9z. not a step" and said[0][0] == 2
