"""A whole-run line in a paragraph that names a step's skill again (fifty-fifth round).

    DONE = oven-plan has given a start time
    whole thing 10 min tops!!

A paragraph that names a skill an earlier step already runs, and says nothing of that step, is not read as a
step (`spec.anchored_place`): its lines are covered. A line of it that does not name the skill and reads as the
whole run's limit ("whole thing 10 min tops", "the entire job: 2 h max") is the run's, not the paragraph's: it is
left uncovered, so the reader of the run's settings reads it (and warns as it does). A line that names the skill
("oven-plan stuck > 1 min") or reads as no whole-run limit ("Dan owes £5") stays covered as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.phrase import read_phrase


def run_lines(lines: Iterable[tuple[int, str]], skill: str) -> set[int]:
    """The numbers of `lines` that say the whole run's time limit without naming `skill` (module docstring)."""
    found: set[int] = set()
    for number, text in lines:
        if skill in text or not text.strip():
            continue
        statement = read_phrase(text.strip()).statement
        if statement.whole_run and statement.timeout_s is not None:
            found.add(number)
    return found
