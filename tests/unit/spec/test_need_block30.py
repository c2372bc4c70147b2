"""A plan sheet's own input block (`spec.need_block30`): a need heading in the author's words over a list
("WHAT I NEED BEFORE I HIT GO"), the night and a list of people said in words, and a header label as a
step's literal. A camping trip packing plan, a kitchen service sheet, a rehearsal schedule; and headings
of chores or notes, which are no inputs."""

from __future__ import annotations

from orchestrator.plan.prose_inputs import prose_inputs
from orchestrator.spec.need_block30 import labelled_value, need_head, stand_ins30
from orchestrator.spec.prose_inputs import read_prose_inputs


def _said(text: str) -> list[str]:
    return [part for part, _ in read_prose_inputs(text.splitlines(), lambda n: f"sheet.txt:{n}")]


CAMPING = """\
CAMPING WEEKEND - PACKING PLAN    Site: Glen Etive    Nights: 2

What we need from you before we leave:
  - the gear list (tick what's packed)
  - which evening we set off

  1. Tent bag  [pack-tent]
"""

KITCHEN = """\
SERVICE SHEET                 Covers: 60         Station: pass

WHAT I NEED BEFORE SERVICE
  * the booking sheet: from the front desk
  * how many covers

  1. Veg prep [prep-veg]
"""

REHEARSAL = """\
REHEARSAL - THURSDAY

Things I need first
  - who's coming (from the group chat)
  - the scene list

1. Warm-up [warm-up]
"""


def test_need_headings_in_the_authors_words() -> None:
    for line in ("WHAT I NEED BEFORE I HIT GO", "What we need from you before we leave:", "Things I need first",
                 "## What I need", "What you'll need up front -"):
        assert need_head(line), line


def test_headings_of_chores_or_notes_are_no_need_heading() -> None:
    for line in ("What I need to do tonight", "WHAT YOU NEED TO KNOW", "What I need is a holiday, honestly.",
                 "What went wrong last time"):
        assert not need_head(line), line


def test_a_packing_plan_lists_what_it_is_given() -> None:
    assert _said(CAMPING) == ["the gear list", "which evening we set off"]


def test_a_service_sheet_lists_each_item_up_to_its_colon() -> None:
    assert _said(KITCHEN) == ["the booking sheet", "how many covers"]


def test_a_rehearsal_schedule_lists_people_in_words() -> None:
    assert _said(REHEARSAL) == ["who's coming", "the scene list"]
    words, said = stand_ins30("who's coming")
    assert "attendees" in words and said == ["who's coming"]


def test_the_night_stands_for_the_day_a_skill_reads() -> None:
    reads = {"day": ("", False), "scenes": ("", False), "cast": ("(list)", False)}
    inputs, found = prose_inputs([("which night it is", "sheet.txt:6"), ("the scene list", "sheet.txt:7")],
                                 reads, made=(), have=(), path="sheet.txt")
    assert [i.name for i in inputs] == ["day", "scenes"]
    assert "'night' stands for" in found[0].message


def test_words_that_name_no_night_or_people_stand_for_nothing() -> None:
    assert stand_ins30("the booking sheet") == (frozenset(), [])
    assert stand_ins30("nightly totals")[0] == frozenset()


def test_a_header_label_is_a_steps_literal_when_the_step_names_it() -> None:
    assert labelled_value("site", "pitch the tent on the site Glen Etive", CAMPING) == ("Glen Etive", "Site: Glen Etive")
    assert labelled_value("station", "plate at the station", KITCHEN) == ("pass", "Station: pass")


def test_a_header_label_the_step_does_not_name_or_a_label_said_twice_is_no_literal() -> None:
    assert labelled_value("site", "pitch the tent", CAMPING) is None
    twice = CAMPING + "Site: Loch Ness\n"
    assert labelled_value("site", "pitch it on the site", twice) is None
    assert labelled_value("venue", "at the venue", REHEARSAL) is None
    form = "DATE: ...... (shoot_date)      LOCATION: ______ (location)\n"
    assert labelled_value("location", "at the location", form) is None
