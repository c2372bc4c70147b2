"""Headings with no step numbers under a section not called Steps, each naming its skill in a Skill
bullet, are the steps (`spec.skill_headings`): in a recipe card, an HR onboarding checklist, a ship's
log and a podcast run sheet."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([]))


@pytest.mark.parametrize(("doc", "names", "lines"), [
    ("# Rye loaf\n\n## Bake day\n\n### Weigh\n\n- Skill: weigh-flour\n- Output: flour_g\n\n### Knead\n\n"
     "- Skill: knead-dough\n- Input: flour_g\n", ["Weigh", "Knead"], [5, 10]),
    ("# New starter\n\n## Day one\n\n### Laptop\n- skill: issue-laptop\n### Badge\n- Uses skill: print-badge\n"
     "### Buddy\n- Skill: `pick-buddy`\n", ["Laptop", "Badge", "Buddy"], [5, 7, 9]),
    ("# Dawn watch\n\n## Watch\n\n### Wind\n\n- Tool: read-wind\n\n### Why we log\n\nHabit.\n\n### Log\n\n"
     "- Skill: write-log\n", ["Wind", "Log"], [5, 13]),
    ("## Episode 42\n\n### Levels\n\n* Skill: check-levels\n* Timeout: 30s\n\n### Record\n\n* Skill: record-show\n",
     ["Levels", "Record"], [3, 8]),
])
def test_headings_that_name_a_skill_in_a_skill_bullet_are_the_steps_each_warned(
        doc: str, names: list[str], lines: list[int]) -> None:
    spec = _read(doc)
    assert [s.name for s in spec.steps] == names
    assert all(s.skill for s in spec.steps)
    warned = [w.line for w in spec.warnings if w.code == "spec.reading" and "is read as step" in w.message]
    assert warned == lines


def test_a_subheading_with_no_skill_bullet_is_not_a_step_and_is_warned() -> None:
    spec = _read("# Dawn watch\n\n## Watch\n\n### Wind\n\n- Skill: read-wind\n\n### Why we log\n\nHabit.\n")
    assert [s.name for s in spec.steps] == ["Wind"]
    assert any(w.line == 9 and w.code == "spec.unread" for w in spec.warnings)


def test_a_steps_section_still_wins_over_a_section_with_skill_headings() -> None:
    spec = _read("# Plan\n\n## Notes\n\n### Old way\n\n- Skill: old-tool\n\n## Steps\n\n### Fetch\n\n"
                 "- Skill: fetch-rows\n")
    assert [s.name for s in spec.steps] == ["Fetch"]
