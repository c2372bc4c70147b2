"""More ways a document's intro says what whoever starts the run supplies ("whoever kicks it off
pastes in: ...", "what we need from whoever starts this: ...", "Working from the tender file and
the budget."), in prose, chat exports and spreadsheet notes; and each part matched to the name a
skill reads when two names share its words (`sample` / `samples`) or the name ends in a unit the
words leave out (`limit_ms` for "the wind limit")."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.prose_inputs import read_prose_inputs


def _said(text: str) -> list[tuple[str, int]]:
    return [(part, int(where)) for part, where in read_prose_inputs(text.splitlines(), str)]


# -- the sentence ---------------------------------------------------------------------------------


def test_a_lab_protocol_says_what_whoever_runs_it_pastes_in() -> None:
    text = "# Plate read\n\nWhoever runs it pastes in: the plate map, the blank wells and the read time.\n"
    assert _said(text) == [("the plate map", 3), ("the blank wells", 3), ("the read time", 3)]


def test_a_chat_export_s_message_ends_at_the_next_stamped_message() -> None:
    text = ("03/02/2026, 10:01 - Sam: ok so for the bake sale thing\n"
            "03/02/2026, 10:02 - Sam: the person starting it needs to give it the float and the stall list\n"
            "03/02/2026, 10:03 - Sam: 1) count-float checks the tin. plus ones are fine\n")
    assert _said(text) == [("the float", 2), ("the stall list", 2)]


def test_a_spreadsheet_s_notes_row_lists_what_whoever_runs_it_needs() -> None:
    text = ("#,Task,Tool\n1,Count,count-crates,crates\n,,\n"
            '"Whoever runs this needs the dock pack: crate no., berth, manifest lines.",,\n'
            '"Whole run max 2 hrs.",,\n')
    assert _said(text) == [("crate no", 4), ("berth", 4), ("manifest lines", 4)]


def test_an_hr_checklist_says_what_it_needs_from_whoever_starts_it() -> None:
    text = "What we need from whoever starts this: the hire's start date and their badge photo.\n"
    assert _said(text) == [("the hire's start date", 1), ("their badge photo", 1)]


def test_a_tender_note_opens_with_what_it_works_from() -> None:
    assert _said("Working from the tender file and the budget.\n\nThen score it.\n") == [
        ("the tender file", 1), ("the budget", 1)]


def test_a_step_s_sentence_that_names_its_skill_first_is_no_list_of_inputs() -> None:
    # a ship's log line: the skill is named in the same sentence, before the lead
    assert _said("Log it with log-watch, whoever starts it pastes in the position.\n") == []
    assert _said("The crew keeps working from the old chart.\n") == []  # not opening the paragraph


# -- matched to what the skills read -------------------------------------------------------------

RANK = skill("rank-hives", input_schema=obj(("hives",), hives={"type": "array", "description": "list of hives"}),
             output_schema=obj(("top_hive",), top_hive="string"))
VISIT = skill("book-visit", input_schema=obj(("hive", "limit_kmh"), hive="string", limit_kmh="number"),
              output_schema=obj(("booked",), booked="boolean"))
CATALOG = FakeCatalog(RANK, VISIT)

_APIARY = """\
# Apiary visit round

Whoever kicks it off brings: the hive list and the wind limit (km/h).

1. Rank them with `rank-hives`.
2. Book with `book-visit` (the hive is the top_hive from step 1).
"""


def test_the_name_for_many_is_taken_for_a_list_and_a_trailing_unit_may_go_unsaid() -> None:
    plan = build_plan(parse_spec_text(_APIARY, "w.md", "markdown"), CATALOG, settings=SETTINGS)
    assert [i.name for i in plan.inputs] == ["hives", "limit_kmh"]
    [warned] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert warned.line == 3
    assert "'the hive list' as `hives`" in warned.message
    assert "'the wind limit' as `limit_kmh` (its unit `kmh` not said)" in warned.message


def test_a_podcast_run_sheet_s_single_guest_takes_the_name_for_one() -> None:
    guest = skill("prep-guest", input_schema=obj(("guest", "guests_csv"), guest="string", guests_csv="string"),
                  output_schema=obj(("brief",), brief="string"))
    text = "# Run sheet\n\nWhoever starts it pastes in the guest.\n\n1. Prep with `prep-guest`.\n2. Rank with `rank-hives`.\n"
    plan = build_plan(parse_spec_text(text, "w.md", "markdown"), FakeCatalog(guest, RANK), settings=SETTINGS)
    assert "guest" in [i.name for i in plan.inputs]
