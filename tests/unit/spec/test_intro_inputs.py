"""Workflow inputs named inside a sentence of an intro or a description (`spec.intro_inputs`): the name in
backticks or opening the brackets after the words for each thing, the words after a colon there its fields."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = Vocabulary.of((s, None) for s in ("plot-position", "fuel-report", "order-laptop", "make-badge"))


def _read(text: str, path: str = "w.md") -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    spec = parse_spec_text(text, path, "markdown", vocabulary=_SKILLS)
    said = [(i.name, i.description) for i in spec.inputs_said]
    warned = [(w.line or 0, w.message) for w in spec.warnings if w.code == "spec.inputs-in-intro"]
    return said, warned


def test_a_lesson_plan_s_intro_names_what_the_teacher_pastes_in() -> None:
    text = ("# Year 9 quiz marking\n\n"
            "Ms Okafor pastes in two things at the end of the lesson: the class answers (`answers` — one row per\n"
            "pupil) and the mark scheme (`scheme` — question, mark).\n\n"
            "- `mark-quiz` marks each pupil.\n- then `post-grades` puts them in the gradebook.\n")
    said, warned = _read(text)
    assert said == [("answers", "said in the text as 'the class answers'"),
                    ("scheme", "said in the text as 'the mark scheme'")]
    [(line, message)] = warned
    assert line == 3 and "a guess" not in message and "## Inputs" in message


def test_a_ship_s_log_entry_names_them_in_brackets_without_backticks_as_a_guess() -> None:
    text = ("0400  JB  Bosun - for the noon report it wants two things off you: the last GPS fix (fix: lat, lon)\n"
            "            and the fuel soundings (soundings).\n"
            "            a) `plot-position` on the fix.\n"
            "            b) then `fuel-report` on the soundings.\n")
    said, warned = _read(text, "log.txt")
    assert [n for n, _ in said] == ["fix", "soundings"]
    [(line, message)] = warned
    assert line == 1 and message.count("a guess") == 2


def test_a_ticket_description_says_the_form_gives_the_run_its_inputs() -> None:
    text = ("Description\n"
            "The request form gives the run its two inputs: the starter's details (starter: name, team, start date)\n"
            "and the kit wanted (kit_items). Subtasks below are the steps.\n\n"
            "Subtasks\n  1 · Order the laptop → order-laptop\n  2 · Make the badge → make-badge\n")
    said, _ = _read(text, "ticket.txt")
    assert [n for n, _ in said] == ["starter", "kit_items"]


def test_a_recipe_card_keeps_a_thing_without_a_name_for_the_planner() -> None:
    text = ("# Sourdough bake\n\n"
            "Before you start, the baker gives it the **starter age**, the flour weight and the hydration\n"
            "(`hydration`: percent) from the card.\n\n"
            "1. `mix-dough` mixes.\n2. `bake-loaf` bakes.\n")
    spec = parse_spec_text(text, "w.md", "markdown")
    assert [i.name for i in spec.inputs_said] == ["hydration"]
    assert [p for p, _ in spec.inputs_prose] == ["the starter age", "the flour weight"]


def test_words_in_brackets_that_are_no_name_and_sentences_that_are_no_list_are_not_read() -> None:
    # a podcast run sheet: "(optional)" and "(MP3)" are no names; a bare word that echoes nothing is none either
    text = ("# Episode run sheet\n\n"
            "The host drops in the intro music (optional), the raw audio (MP3) and the guest bio (again).\n"
            "It gives you back the show notes (`notes`).\n\n"
            "1. `trim-audio` trims the take (take).\n2. `publish-episode` posts it.\n")
    said, warned = _read(text)
    assert said == [] and warned == []


def test_a_step_s_own_sentence_and_a_sentence_after_the_first_step_are_not_read() -> None:
    text = ("# Lab protocol: plate read\n\n"
            "- `read-plate` takes the plate map (`plate_map`) and the blank wells (`blanks`).\n"
            "- then the analyst enters the dilution (`dilution`: fold) into `fit-curve`.\n")
    said, warned = _read(text)
    assert said == [] and warned == []


def test_a_declared_inputs_section_wins() -> None:
    text = ("# Onboarding checklist\n\nHR pastes in: the offer letter (`offer`) and the start date (`start`).\n\n"
            "## Inputs\n- offer: the letter\n\n## Steps\n1. `send-welcome` sends it.\n")
    assert _read(text) == ([], [])


ENTER = skill("count-tally", input_schema=obj(("counts",), counts="array"),
              output_schema=obj(("total",), total="number"))
POST = skill("post-total", input_schema=obj(("total", "site"), total="number", site="string"),
             output_schema=obj(("posted",), posted="boolean"))


def test_the_inputs_named_in_the_intro_are_the_plan_s_and_given_to_the_steps_that_read_them() -> None:
    text = ("# Bird survey tally\n\n"
            "The surveyor types in two things when they get back: the count sheet (counts: species, number)\n"
            "and the site code (site).\n\n"
            "- `count-tally` adds up the sheet.\n- then `post-total` posts the total for the site.\n")
    plan = build_plan(parse_spec_text(text, "w.md", "markdown"), FakeCatalog(ENTER, POST), settings=SETTINGS)
    assert {i.name for i in plan.inputs} == {"counts", "site"}
    post = plan.steps[1]
    assert post.inputs["site"].source == "input" and post.inputs["site"].name == "site"


def test_a_podcast_run_sheet_names_one_after_as_and_one_in_brackets() -> None:
    text = ("# Episode prep\n\n"
            "Each week the producer hands it the guest list as `guests` and the episode number (`episode`).\n\n"
            "1. `book-studio` books the room.\n2. `email-guests` sends the call sheet.\n")
    said, warned = _read(text)
    assert said == [("guests", "said in the text as 'the guest list'"),
                    ("episode", "said in the text as 'the episode number'")]
    assert len(warned) == 1


@pytest.mark.parametrize(("opening", "names"), [
    # a kennel rota: "I run it with three things:"
    ("Weekend kennels. I run it with three things: the booking list (`bookings`), the walk rota (`rota`) and the "
     "vet's notes (`vet_notes`).", ["bookings", "rota", "vet_notes"]),
    # a darkroom log: "we kick the job off with"
    ("Contact sheets. We kick the job off with the roll list (`rolls`) and the chemistry temps (`temps`).",
     ["rolls", "temps"]),
    # a choir's concert sheet: "the sheet runs off two things"
    ("Spring concert. The sheet runs off two things: the set list (`set_list`) and who's singing (`singers`).",
     ["set_list", "singers"]),
    # a lab protocol: "you start this with"
    ("Plate reading. You start this with the plate map (`plate_map`).", ["plate_map"]),
])
def test_an_intro_that_says_what_the_run_is_started_with_names_its_inputs(opening: str, names: list[str]) -> None:
    text = f"# Saturday\n\n{opening}\n\n- `mark-quiz` marks each one.\n- then `post-grades` posts them.\n"
    said, _ = _read(text)
    assert [name for name, _ in said] == names

