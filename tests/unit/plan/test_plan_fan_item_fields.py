"""A fan-out whose list is known by what its items carry: the step's skill reads the fields of one
item (`port`, `eta`), a step before gives a list whose items have those fields, and the text says
the step goes through them ("one by one", "per segment", "repeat for every hire on the list").
The list so found is the loop, the next step that takes "all"/"the collected" results gathers
them. Each in several kinds of document (none is a kind the holdout fixtures use but the .rst)."""

from __future__ import annotations

import pytest
from plan_factory import FakeCatalog, loop_of, obj, plan_of_text, skill, step_by_skill

from orchestrator.plan.model import Plan


def _list_of(**fields: str) -> dict[str, object]:
    return {"type": "array", "items": obj((), **fields)}


A = {"type": "array"}
CATALOG = FakeCatalog(
    skill("list-calls", input_schema=obj(("voyage_no",), voyage_no="string"),
          output_schema=obj(("calls", "crew"), calls=_list_of(port="string", eta="string"),
                            crew=_list_of(rank="string"))),
    skill("clear-port", input_schema=obj(("port", "eta", "pilot_code"), port="string", eta="string",
                                         pilot_code="string"),
          output_schema=obj(("cleared",), cleared="boolean")),
    skill("log-clearances", input_schema=obj(("clearances",), clearances=A), output_schema=obj(("entry",), entry="string")),
    skill("list-hires", input_schema=obj(("month",), month="string"), output_schema=obj(("hires",), hires={})),
    skill("set-up-laptop", input_schema=obj(("hire_id", "team"), hire_id="string", team="string"),
          output_schema=obj(("laptop",), laptop="string")),
    skill("welcome-pack", input_schema=obj(("laptops",), laptops=A), output_schema=obj(("sent",), sent="boolean")),
    skill("list-segments", input_schema=obj(("episode",), episode="string"),
          output_schema=obj(("segments", "stings"), segments=_list_of(slot="integer", topic="string"),
                            stings=_list_of(slot="integer", sound="string"))),
    skill("record-segment", input_schema=obj(("slot", "topic"), slot="integer", topic="string"),
          output_schema=obj(("take",), take="string")),
    skill("master-episode", input_schema=obj(("takes",), takes=A), output_schema=obj(("file",), file="string")),
    skill("cue-slot", input_schema=obj(("slot",), slot="integer"), output_schema=obj(("cued",), cued="boolean")),
    skill("place-sting", input_schema=obj(("slot", "sound"), slot="integer", sound="string"),
          output_schema=obj(("placed",), placed="boolean")),
)


def _plan(text: str, path: str = "doc.md") -> Plan:
    return plan_of_text(text, CATALOG, path)  # type: ignore[no-any-return]


_step, _loop = step_by_skill, loop_of


_SHIPS_LOG = """\
# Deck log, MV Kittiwake: port clearance routine

- 0600 Bosun pulls this week's calls for the `voyage_no` with `list-calls`.
- 0615 Harbour master clears them one by one, `clear-port`.
- 0700 Mate writes all the clearances into the log (`log-clearances`).
"""

_LAB_PROTOCOL = """\
# Protocol 7: harbour clearance audit

## Step 1 - Retrieve calls
Run `list-calls` on the `voyage_no`.

## Step 2 - Clear
`clear-port`, one at a time; pilot code from the duty sheet.

## Step 3 - Record
`log-clearances` with the collected results.
"""


@pytest.mark.parametrize("text", [_SHIPS_LOG, _LAB_PROTOCOL], ids=["ships-log", "lab-protocol"])
def test_a_step_run_one_by_one_loops_over_the_list_whose_items_carry_its_inputs(text: str) -> None:
    plan = _plan(text)
    clear = _step(plan, "clear-port")
    assert _loop(clear) == ("call", _step(plan, "list-calls").id, "/calls")  # not `crew`: its items carry `rank`
    assert clear.inputs["port"].source == "item" and clear.inputs["eta"].source == "item"
    logged = _step(plan, "log-clearances").inputs["clearances"]
    assert (logged.step, logged.gather) == (clear.id, True)
    warning = next(w for w in plan.warnings if w.code == "fan-out-read")
    assert "`port`, `eta`, the item's fields" in warning.message  # not `pilot_code`: no item carries it
    assert f"For each: call in {_step(plan, 'list-calls').id}.calls" in warning.message


_ONBOARDING = """\
# New starter checklist (People team)

- [ ] Pull this month's starters from the HRIS with `list-hires` (`month`).
- [ ] Repeat for every hire on the list: `set-up-laptop`, with their id and team.
- [ ] Once all of them are done, hand the laptops to `welcome-pack`.
"""


def test_a_checklist_repeating_for_every_hire_loops_over_an_untyped_list_of_hires() -> None:
    plan = _plan(_ONBOARDING)
    laptop = _step(plan, "set-up-laptop")
    assert _loop(laptop) == ("hire", _step(plan, "list-hires").id, "/hires")
    pack = _step(plan, "welcome-pack").inputs["laptops"]
    assert (pack.step, pack.gather) == (laptop.id, True)


_RUN_SHEET_RST = """\
Episode 112 run sheet
=====================

Segments
--------

:tool: ``list-segments``
:needs: the episode

Recording
---------

:tool: ``record-segment``
:when: per segment, in slot order

Master
------

:tool: ``master-episode``
:needs: every take, together
"""


def test_a_run_sheet_field_list_saying_per_segment_loops_over_the_segments() -> None:
    plan = _plan(_RUN_SHEET_RST, "episode.rst")
    record = _step(plan, "record-segment")
    assert _loop(record) == ("segment", _step(plan, "list-segments").id, "/segments")
    takes = _step(plan, "master-episode").inputs["takes"]
    assert (takes.step, takes.gather) == (record.id, True)


_TWO_LISTS = """\
# Sound desk notes

1. `list-segments` for the `episode`.
2. `{skill}`, one by one.
"""


def test_of_two_lists_the_one_whose_items_carry_more_of_the_inputs_is_the_loop() -> None:
    plan = _plan(_TWO_LISTS.format(skill="place-sting"))  # `slot` in both lists' items, `sound` in stings' only
    assert _loop(_step(plan, "place-sting")) == ("sting", "step-1", "/stings")


def test_two_lists_whose_items_carry_the_inputs_alike_are_warned_and_the_step_runs_once() -> None:
    plan = _plan(_TWO_LISTS.format(skill="cue-slot"))  # `slot` in both lists' items
    assert _step(plan, "cue-slot").for_each is None
    warning = next(w for w in plan.warnings if w.code == "spec.each-not-read")
    assert "several lists fit" in warning.message and "step-1.segments" in warning.message


_NO_ITEM_FIELDS = """\
# Deck log

- 0600 `list-segments` for the `episode`.
- 0615 `clear-port` one by one.
"""


def test_a_list_whose_items_carry_none_of_the_inputs_is_not_the_loop() -> None:
    plan = _plan(_NO_ITEM_FIELDS)
    assert _step(plan, "clear-port").for_each is None
