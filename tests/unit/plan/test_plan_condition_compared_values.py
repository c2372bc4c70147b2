"""A condition that compares a value with another value the run has, said in words ("the headcount
from 1 is more than the venue capacity"), and a duration that is a threshold, not a time limit.
Each in several kinds of document."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = FakeCatalog(
    skill("count-guests", input_schema=obj(("list",), list="array"),
          output_schema=obj(("headcount",), headcount="integer")),
    skill("trim-list", input_schema=obj(("headcount", "capacity"), headcount="integer", capacity="integer"),
          output_schema=obj(("kept",), kept="integer")),
    skill("confirm-all", input_schema=obj(("headcount",), headcount="integer"),
          output_schema=obj(("ok",), ok="boolean")),
)


def _plan(text: str) -> Plan:
    words = Vocabulary.of([(s.bound().name, None) for s in CATALOG])
    plan, errors = draft_plan(parse_spec_text(text, "doc.md", "markdown", words), CATALOG, settings=SETTINGS)
    assert plan is not None and not errors, errors
    return plan


_INPUTS = "## Inputs\n- list: the names\n- capacity: seats we have\n\n"
_SCHOOL_TRIP = _INPUTS + """\
## Steps
1. Count who's coming with `count-guests`.
2. If the headcount from 1 is MORE than the coach capacity: `trim-list`.
3. If not, `confirm-all`.
"""
_KITCHEN_CARD = _INPUTS + """\
### Step 1: tally
- Skill: count-guests

### Step 2: cut
- Skill: trim-list
- When: headcount exceeds the capacity

### Step 3: go
- Skill: confirm-all
- Otherwise: step 2
"""
_LAB_BOOKING = _INPUTS + """\
## Steps
1. `count-guests` on the sign-up list.
2. Only if the headcount from step 1 is greater than the room capacity: `trim-list`.
3. Otherwise `confirm-all`.
"""
_FERRY_LOG = _INPUTS + """\
## Steps
1. `count-guests` for the sailing.
2. Then `trim-list`, but only if the headcount is above the seat capacity.
3. Otherwise `confirm-all`.
"""


@pytest.mark.parametrize("text", [_SCHOOL_TRIP, _KITCHEN_CARD, _LAB_BOOKING, _FERRY_LOG],
                         ids=["school-trip", "kitchen-card", "lab-booking", "ferry-log"])
def test_a_field_said_to_be_more_than_another_value_compares_the_two(text: str) -> None:
    plan = _plan(text)
    trim = next(s for s in plan.steps if s.skill == "trim-list")
    assert trim.when == "steps['step-1'].output.headcount > inputs.capacity"
    other = next(s for s in plan.steps if s.skill == "confirm-all")
    assert other.when == "not (steps['step-1'].output.headcount > inputs.capacity)"


def test_a_compared_value_the_run_does_not_have_is_an_error_naming_it() -> None:
    words = Vocabulary.of([(s.bound().name, None) for s in CATALOG])
    text = _KITCHEN_CARD.replace("exceeds the capacity", "exceeds the `room_limit`")
    _, errors = draft_plan(parse_spec_text(text, "doc.md", "markdown", words), CATALOG, settings=SETTINGS)
    assert errors and any("room_limit" in e.message for e in errors)


@pytest.mark.parametrize("said", ["Jonas wants grade-3 with >8000 h to count as urgent too",
                                  "pallets with more than 48 h on the dock go first",
                                  "beehives over 12 days since the last check are flagged"])
def test_a_duration_that_is_a_threshold_is_no_attempt_timeout(said: str) -> None:
    plan = _plan(f"# x\n\n## Step 1: count\n- Skill: count-guests\n- {said}\n")
    assert plan.steps[0].policy.attempt_timeout_s is None


@pytest.mark.parametrize("said", ["kill it if it takes more than 30 s", "over 2 min = give up",
                                  "(>90s) abort the call"])
def test_a_duration_beside_words_of_time_running_out_is_still_a_timeout(said: str) -> None:
    plan = _plan(f"# x\n\n## Step 1: count\n- Skill: count-guests\n- {said}\n")
    assert plan.steps[0].policy.attempt_timeout_s in (30.0, 120.0, 90.0)
