"""One runbook paragraph that tells two steps is read as the two (`spec.para_split`): "at the same
time", "meanwhile", ", and also" start the second beside the first, "then" after it; each sentence
after the split goes with the step whose skill's name its words share; a skill named only as what to
use when the first fails is no second step. Each split is warned at its line."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("count-guests", input_schema=obj(("rsvps",), rsvps="array"), output_schema=obj(("guests",), guests="array")),
    skill("hold-venue", input_schema=obj(("date",), date="string"), output_schema=obj(("rooms",), rooms="array")),
    skill("seat-guests", input_schema=obj(("guests", "rooms"), guests="array", rooms="array"),
          output_schema=obj(("plan",), plan="string")),
    skill("backup-venue", input_schema=obj(("date",), date="string"), output_schema=obj(("rooms",), rooms="array")),
)


def _plan(text: str) -> tuple[Plan, list[str]]:
    spec = parse_spec_text(text, "doc.md", "markdown")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    return plan, [f"{w.line}:{w.code}" for w in spec.warnings]


WEDDING = """# Saturday wedding, planner's notes

First up, go through the RSVPs with `count-guests` and get who is coming. At the same time have
`hold-venue` hold the rooms for the date. If the venue thing falls over, don't stop, carry on with no rooms.

Once both of those are back, use `seat-guests` to draw the seating plan.
"""
SHIPS_LOG = """# Night watch, MV Kestrel

First the purser tallies the crew list with `count-guests`. Meanwhile the mate runs `hold-venue` on
the berth date; if the berth lookup times out, retry it twice.

Then `seat-guests` assigns the cabins.
"""
LAB = """# Protocol 7: plate and count

First thing, log the samples with `count-guests`, and also have `hold-venue` book the incubator for the date.

Then run `seat-guests` on the plates.
"""
THEATRE = """# Cue notes, Act II

First the stage manager checks in the cast with `count-guests`. Then run `hold-venue` for the
matinee date. If the matinee check fails, retry once.

After that, `seat-guests` does the blocking.
"""


@pytest.mark.parametrize("text", [WEDDING, SHIPS_LOG, LAB], ids=["wedding-planner", "ships-log", "lab-protocol"])
def test_a_paragraph_naming_two_skills_at_the_same_time_is_two_steps_started_together(text: str) -> None:
    plan, warned = _plan(text)
    assert [s.skill for s in plan.steps] == ["count-guests", "hold-venue", "seat-guests"]
    assert [sorted(s.depends_on) for s in plan.steps] == [[], [], ["step-1", "step-2"]]
    assert any(w.endswith("spec.para-split") for w in warned)
    assert not any(w.endswith("spec.skill-not-run") for w in warned)


def test_a_then_sentence_in_the_paragraph_makes_the_second_step_run_after_the_first() -> None:
    plan, _ = _plan(THEATRE)
    assert [s.skill for s in plan.steps] == ["count-guests", "hold-venue", "seat-guests"]
    assert list(plan.steps[1].depends_on) == ["step-1"]
    assert plan.steps[1].policy.retry.max_retries == 1  # the matinee check's retry is the second step's
    assert plan.steps[0].policy.retry.max_retries == 0


def test_the_carry_on_value_said_of_the_second_skill_is_its_own_not_the_firsts() -> None:
    plan, _ = _plan(WEDDING)
    first, second = plan.steps[0], plan.steps[1]
    assert first.policy.fallback is None or first.policy.fallback.value is None
    assert second.policy.fallback is not None


def test_a_sentence_naming_the_first_skill_after_the_split_stays_with_it() -> None:
    text = ("# Wedding\n\nFirst run `count-guests` on the RSVPs. At the same time run `hold-venue` for the date. "
            "If the guests count fails, retry it 3 times.\n\nThen `seat-guests`.\n")
    plan, warned = _plan(text)
    assert plan.steps[0].policy.retry.max_retries == 3
    assert plan.steps[1].policy.retry.max_retries == 0
    assert any("read with `count-guests`" in w or w.endswith("spec.para-split") for w in warned)


def test_a_skill_named_as_what_to_use_when_the_first_fails_is_no_second_step() -> None:
    text = ("# Wedding\n\nFirst hold the rooms with `hold-venue` for the date. Then if that fails, use "
            "`backup-venue` instead.\n\nNext `count-guests` on the RSVPs.\n\nThen `seat-guests`.\n")
    plan, warned = _plan(text)
    assert [s.skill for s in plan.steps] == ["hold-venue", "count-guests", "seat-guests"]
    assert not any(w.endswith("spec.para-split") for w in warned)
