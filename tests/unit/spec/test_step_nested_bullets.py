"""What is nested under a step's unlabelled bullet is the step's text too (a policy there is read, a
line not understood is said), where it was dropped without a word before (`spec.step._nested_after`).
Tested in a kitchen prep list, a ship's log, a release checklist and a clinic triage page."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text

CASES = [
    ("Prep list", "- Stock check first\n   - if the scale times out, retry 3 times, 10 s apart", 3),
    ("Deck log", "* Log the fix\n  * try again 2 times, 30 seconds apart if the GPS drops", 2),
    ("Release checklist", "- Tag it\n    - on failure retry 4 times with a 5 s wait", 4),
    ("Triage page", "- Score the patient\n   - Note for nurses\n      - retry 1 time after 20 s", 1),
]


@pytest.mark.parametrize(("title", "bullets", "retries"), CASES, ids=[c[0] for c in CASES])
def test_a_policy_nested_under_an_unlabelled_bullet_is_read_at_its_line(title: str, bullets: str, retries: int) -> None:
    text = f"# {title}\n\n## Steps\n\n### Step 1: Do it\n- Skill: do-it\n{bullets}\n"
    spec = parse_spec_text(text, "d.md", "markdown")
    read = [r for r in spec.readings if r.section == "step" and r.statement.retries is not None]
    assert [r.statement.retries for r in read] == [retries]
    assert int(read[0].where.rsplit(":", 1)[1]) == 7 + bullets.count("\n")  # the nested line, not its parent


def test_a_nested_line_nobody_reads_is_said() -> None:
    text = "# T\n\n## Steps\n\n### Step 1: Do it\n- Skill: do-it\n- Some note\n   - the blue van is parked round the back\n"
    spec = parse_spec_text(text, "d.md", "markdown")
    assert any(w.where == "d.md:8" for w in spec.warnings)
