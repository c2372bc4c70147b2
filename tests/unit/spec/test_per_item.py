"""What a list holds in its author's words (`spec.per_item`): the words said about a backticked
name in a step's text, and the one-item words they say the list holds. Texts from a lesson plan, a
pass card, a kennel rota, a lab protocol and a podcast run sheet."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from orchestrator.spec.per_item import described_fields, held_items

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))
from plan_factory import (  # the plan tests' factory
    SaidCatalog,
    loop_of,
    plan_of_text,
    step_by_skill,
)


@pytest.mark.parametrize(("text", "name", "said"), [
    # lesson plan: the words before "(`name`)"
    ("Gives back the pupils who never sat it (`roster`) and how many.", "roster", "Gives back the pupils who never sat it"),
    # pass card: a parenthesis after the name
    ("it hands back `open_now` (the order slips still open) and the count", "open_now", "the order slips still open"),
    # kennel rota: a colon after the name
    ("**Out:** `kennels`: every dog booked in tonight. Then feed them.", "kennels", "every dog booked in tonight"),
    # lab protocol: a dash after the name
    ("Returns `plates` — the culture plates past 48 h; and `n`", "plates", "the culture plates past 48 h"),
])
def test_the_words_said_about_a_name(text: str, name: str, said: str) -> None:
    assert described_fields(text, [name, "other"]) == {name: said}


def test_a_name_said_nothing_about_has_no_words() -> None:
    assert described_fields("Run `book-guests` on the `episode` and wait.", ["episode"]) == {}


@pytest.mark.parametrize(("words", "held"), [
    ("the list of patients due for a cleaning", {"patient"}),  # surgery recall sheet
    ("the order slip records still open", {"slip"}),  # pass card: "slip records"
    ("every dog booked in tonight", set()),  # kennel rota: no plural, nothing said
    ("the culture plates past 48 h", {"plate"}),  # lab protocol
    ("the guests who said yes, by slot", {"guest"}),  # podcast run sheet: first clause only
    ("how many were sent, counts per channel", set()),  # a count is no item
])
def test_what_the_words_say_a_list_holds(words: str, held: set[str]) -> None:
    assert held_items(words) == held


def test_verbs_and_counting_words_are_no_items() -> None:
    assert held_items("returns totals and gives back ids") == frozenset()


# A step said to run once per item of a list an earlier step makes, the list named only by its words:
# the loop is read over that list, the later "all ... together" step gathers its results.
_SKILLS = {
    "list-pupils": "Inputs: `class_code`.\n\nOutputs: `roster`, `missing_count`.",
    "mark-quiz": "Inputs: `pupil` (object `{name, answers}`).\n\nOutputs: `name`, `score`, `band`.",
    "post-grades": "Inputs: `marks` (list).\n\nOutputs: `posted`, `per_band`.",
    "pick-orders": "Inputs: `service`.\n\nOutputs: `open_now` (the order slip records still open), `open_count`.",
    "plate-dish": "Inputs: `slip` (object `{table, dish}`).\n\nOutputs: `table`, `plate`.",
    "ring-pass": "Inputs: `plates` (list).\n\nOutputs: `rung`, `by_table`.",
    "list-starters": "Inputs: `month`.\n\nOutputs: `cohort` (this month's new hires, by start date), `cohort_size`.",
    "issue-badge": "Inputs: `hire` (object `{name, team}`).\n\nOutputs: `badge`, `door`.",
    "file-badges": "Inputs: `badges` (list).\n\nOutputs: `filed`.",
    "pull-cultures": "Inputs: `rack`.\n\nOutputs: `due`, `due_n`, `shelf`.",
    "read-plate": "Inputs: `culture` (object `{id, medium}`).\n\nOutputs: `id`, `growth`.",
    "sign-off-rack": "Inputs: `readings` (list).\n\nOutputs: `signed`.",
}
_CATALOG = SaidCatalog(_SKILLS)

_LESSON_PLAN = """\
# Year 8 science: quiz catch-up (Mr Adeyemi)

## Who still owes the quiz
Use `list-pupils` with the class code. Gives back the pupils who never sat it (`roster`) and how many.

## Mark them
`mark-quiz`, once for each pupil on that roster. Ten minutes max per pupil.

## Post the grades
`post-grades` gets every mark from above in one go. Returns how many were posted and a count per band.
"""

_PASS_CARD = """\
Pass card: Saturday dinner service

1. `pick-orders` for the `service`; it hands back what is still open and the count.
2. For every slip that is still open, run `plate-dish`. No more than 4 min a slip.
3. `ring-pass` with all the plated dishes, together, so the runner takes one tray. It says a total per table.
"""

_ONBOARDING = """\
# People team: first-day checklist

- [ ] Pull the month's starters with `list-starters` (`month`).
- [ ] `issue-badge` per hire from that pull. If the printer jams, try again once.
- [ ] File all the badges in one go with `file-badges`.
"""

_LAB_PROTOCOL = """\
# SOP-MB-12: reading the 48 h plates

## Step 1 - Pull
Run `pull-cultures` for the `rack`. Returns `due` (the cultures past 48 h, oldest first) and `shelf`.

## Step 2 - Read
Read each culture from that pull with `read-plate`, one at a time.

## Step 3 - Sign off
`sign-off-rack` takes all the readings together.
"""


@pytest.mark.parametrize(("text", "maker", "looper", "gatherer", "item", "field", "gathered"), [
    (_LESSON_PLAN, "list-pupils", "mark-quiz", "post-grades", "pupil", "roster", "marks"),
    (_PASS_CARD, "pick-orders", "plate-dish", "ring-pass", "slip", "open_now", "plates"),
    (_ONBOARDING, "list-starters", "issue-badge", "file-badges", "hire", "cohort", "badges"),
    (_LAB_PROTOCOL, "pull-cultures", "read-plate", "sign-off-rack", "culture", "due", "readings"),
], ids=["lesson-plan", "pass-card", "onboarding-checklist", "lab-protocol"])
def test_a_loop_over_a_list_known_by_its_words_and_the_gather_after_it(
        text: str, maker: str, looper: str, gatherer: str, item: str, field: str, gathered: str) -> None:
    plan = plan_of_text(text, _CATALOG)
    made, loop = step_by_skill(plan, maker), step_by_skill(plan, looper)
    assert loop_of(loop) == (item, made.id, f"/{field}")
    assert loop.inputs[item].source == "item"
    took: Any = step_by_skill(plan, gatherer).inputs[gathered]
    assert (took.step, took.gather) == (loop.id, True)
    said = next(w for w in plan.warnings if w.code == "fan-out-read")
    assert f"say `{field}` holds {item}s" in said.message and f"For each: {item} in {made.id}.{field}" in said.message
    assert not any(w.code == "spec.each-not-read" for w in plan.warnings)


def test_two_lists_said_to_hold_the_item_are_not_guessed_between() -> None:
    """A kennel rota: both lists of the step before hold dogs, so the loop is not read (warned)."""
    catalog = SaidCatalog({
        "list-kennels": "Inputs: `night`.\n\nOutputs: `booked` (the dogs booked in), `waiting` (dogs on the wait list).",
        "feed-dog": "Inputs: `dog`.\n\nOutputs: `fed`.",
    })
    plan = plan_of_text("# Kennel rota\n\n1. `list-kennels` for the `night`.\n2. `feed-dog` per dog, one scoop.\n",
                        catalog)
    assert step_by_skill(plan, "feed-dog").for_each is None
    said = next(w for w in plan.warnings if w.code == "spec.each-not-read")
    assert "several lists fit" in said.message and "For each: dog in <list>" in said.message
