"""A skill input that the workflow also takes as an input, in a step whose text names an earlier step's
output of a close name (`free_rooms` for `rooms`), is that output, warned; never silently the workflow
input (`plan.bind_step_named`). Each in a kind of document of its own."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text

A = {"type": "array"}
CATALOG = FakeCatalog(
    skill("check-rooms", input_schema=obj(("rooms",), rooms=A), output_schema=obj(("free_rooms",), free_rooms=A)),
    skill("seat-guests", input_schema=obj(("rooms", "guests"), rooms=A, guests=A),
          output_schema=obj(("seating",), seating=A)),
)


def _plan(text: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "w.md", "markdown"), CATALOG, settings=SETTINGS)


_HOTEL_NIGHT_AUDIT = """\
# Night audit - late arrivals

Inputs: `rooms`, `guests`.

1. `check-rooms` over the room list; gives `free_rooms`.
2. `seat-guests` puts the late guests into the `free_rooms`.
"""

_LAB_PROTOCOL = """\
# SOP 9 - incubator allocation

Inputs: `rooms` (incubators), `guests` (plates).

## Step 1
Run `check-rooms` on the incubators. Output: `free_rooms`.

## Step 2
`seat-guests` with the plates and `free_rooms` from step 1.
"""

_PODCAST_SHEET = """\
# Ep. 41 run sheet: studio booking

Inputs: `rooms`, `guests`.

- [ ] `check-rooms` -> `free_rooms`
- [ ] book the guests with `seat-guests`, only into `free_rooms`
"""

_SHIPS_LOG = """\
# Ship's log: berthing the relief crew

Inputs: `rooms` (cabins), `guests` (relief crew).

- 0800 Purser runs `check-rooms` on the cabin list -> `free_rooms`.
- 0830 `seat-guests` assigns the relief crew to `free_rooms`.
"""


@pytest.mark.parametrize("text", [_HOTEL_NIGHT_AUDIT, _LAB_PROTOCOL, _PODCAST_SHEET, _SHIPS_LOG],
                         ids=["hotel-night-audit", "lab-protocol", "podcast-sheet", "ships-log"])
def test_an_input_the_text_points_at_an_earlier_output_for_takes_that_output_warned(text: str) -> None:
    plan = _plan(text)
    seat = next(s for s in plan.steps if s.skill == "seat-guests")
    rooms = seat.inputs["rooms"]
    assert (rooms.source, rooms.step, rooms.pointer) == ("step", "step-1", "/free_rooms")
    assert seat.inputs["guests"].source == "input"
    warned = [w for w in plan.warnings if w.code == "plan.input-step-named"]
    assert len(warned) == 1 and "`free_rooms`" in warned[0].message and "`rooms = free_rooms`" in warned[0].message


def test_a_text_that_names_the_input_itself_too_keeps_the_workflow_input() -> None:
    plan = _plan(_HOTEL_NIGHT_AUDIT.replace("into the `free_rooms`", "into the `rooms` (not `free_rooms`)"))
    seat = next(s for s in plan.steps if s.skill == "seat-guests")
    assert seat.inputs["rooms"].source == "input"
    assert not [w for w in plan.warnings if w.code == "plan.input-step-named"]


def test_a_text_naming_no_close_output_keeps_the_workflow_input_unwarned() -> None:
    plan = _plan(_HOTEL_NIGHT_AUDIT.replace("into the `free_rooms`", "into whatever is left"))
    seat = next(s for s in plan.steps if s.skill == "seat-guests")
    assert seat.inputs["rooms"].source == "input"
    assert not [w for w in plan.warnings if w.code == "plan.input-step-named"]
