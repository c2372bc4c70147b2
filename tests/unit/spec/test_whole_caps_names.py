"""A step named in capitals, as state machines, checklists and process exports name them
("**TILL_COUNT** — on error: carry on with `total := 0`"), is named by that word when a
sentence about it is said away from the step: the policy goes to that step, never dropped as
naming none. Documents: a shift-handover table, an HR checklist, a BPMN task export, a lab SOP."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = Vocabulary.of([("count-till", "counts the till"), ("lock-safe", "locks the safe"),
                        ("post-handover", "posts the handover")])


def table(title: str, names: tuple[str, str, str]) -> str:
    a, b, c = names
    return (f"# {title}\n\n| Task | Tool | Notes |\n|---|---|---|\n| {a} | `count-till` | first |\n"
            f"| {b} | `lock-safe` | then |\n| {c} | `post-handover` | last |\n\n## If things go wrong\n\n"
            f"- **{a}** — on error: don't stop, carry on with `total := 0`.\n"
            f"- **{b}** — give it 30 seconds, then fail.\n")


@pytest.mark.parametrize(("title", "names"), [
    ("Night shift handover", ("TILL_COUNT", "SAFE_LOCK", "HANDOVER")),
    ("New starter checklist", ("PAYROLL", "BADGE", "WELCOME")),
    ("BPMN export: Task list", ("TASK_COUNT", "TASK_LOCK", "TASK_POST")),
    ("SOP 12: closing the lab", ("INVENTORY", "SECURE", "REPORT")),
])
def test_a_sentence_opening_with_a_steps_name_in_capitals_is_that_steps_policy(
        title: str, names: tuple[str, str, str]) -> None:
    spec = parse_spec_text(table(title, names), "doc.md", "markdown", SKILLS)
    placed = {w.line: w.message for w in spec.warnings if w.code == "spec.placed"}
    assert placed[11].startswith("step-1 ") and placed[12].startswith("step-2 ")
    assert not any("names no step" in w.message for w in spec.warnings)
