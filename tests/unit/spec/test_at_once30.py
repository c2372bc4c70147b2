"""Steps named by bare numbers in a step's own text as going at once (`spec.at_once30`): a camping trip
packing plan, a kitchen service sheet, a rehearsal schedule; and sentences that say "at once" for
"immediately", tries, quantities or a negation, which are no start."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("pack-tent", "pack-stove", "load-car", "prep-veg", "make-sauce", "plate-up", "warm-up", "run-scene",
          "notes-out")


def _spec(text: str) -> Any:
    return parse_spec_text(text, "plan.md", "markdown", Vocabulary.of([(s, None) for s in SKILLS]))


def _steps(text: str) -> dict[str, Any]:
    return {s.skill or s.name: s for s in _spec(text).steps}


CAMPING = """\
CAMPING WEEKEND - PACKING PLAN
  1. Tent bag  [pack-tent]  - poles, pegs, the flysheet.
  2. Kitchen box  [pack-stove]  - stove and gas. 1 and 2 can go together, they're separate.
  3. Load up  [load-car]  - tent from 1, box from 2.
"""

KITCHEN = """\
SERVICE SHEET (Fri dinner)
  1. Veg prep [prep-veg] - carrots, leeks.
  2. Sauce [make-sauce] - stock on. Do steps 1 & 2 at the same time.
  3. Pass [plate-up] - veg from 1, sauce from 2.
"""

REHEARSAL = """\
REHEARSAL - Thursday
  1. Warm-up [warm-up] - vocal and physical.
  2. Scene work [run-scene] - act 2. Do 1 and 2
     at once, the cast is split.
  3. Notes [notes-out] - from 2.
"""


def _unordered(step: Any) -> bool:
    return not step.depends_on and (step.starts_with is not None or step.unordered_where is not None)


def test_a_packing_plan_says_two_items_go_together() -> None:
    steps = _steps(CAMPING)
    assert _unordered(steps["pack-stove"])
    assert not _unordered(steps["load-car"])


def test_a_service_sheet_names_steps_with_an_ampersand() -> None:
    assert _unordered(_steps(KITCHEN)["make-sauce"])


def test_a_rehearsal_schedule_over_a_line_wrap() -> None:
    step = _steps(REHEARSAL)["run-scene"]
    assert step.starts_with == "step-1"
    assert any("starts together with step-1" in r.note for r in step.readings)


def test_at_once_meaning_immediately_is_no_start() -> None:
    text = REHEARSAL.replace("Do 1 and 2\n     at once, the cast is split.", "Call me at once if it overruns.")
    assert not _unordered(_steps(text)["run-scene"])


def test_tries_quantities_and_negations_are_no_start() -> None:
    for said in ("Retry 1 and 2 at once.", "Add 1 and 2 cups at once.", "Never do 1 and 2 at once.",
                 "Don't run 1 and 2 together.", "Do 1 and 9 at once.", "Call me at once if 1 and 2 run late."):
        text = REHEARSAL.replace("Do 1 and 2\n     at once, the cast is split.", said)
        assert _steps(text)["run-scene"].starts_with is None, said
