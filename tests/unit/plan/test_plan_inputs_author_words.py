"""What the run is given, in the author's words: an intro that counts what it needs ("it needs two
things from you:"), a need a colon opens ("you'll need from the manager: ..."), a list under a need
heading ("What you need:" then bullets, each up to its colon); and each value named as the author
names it when the step that reads it says the same words (`answer_key` for a skill's `key` when the
list says "the quiz answer key" and the step "the answer key"), warned at the list's line. A name a
step before outputs is no value from outside; an item matched to nothing is said, never dropped."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.prose_inputs import author_name
from orchestrator.spec import parse_spec_text
from orchestrator.spec.prose_inputs import read_prose_inputs


def _said(text: str) -> list[tuple[str, int]]:
    return [(part, int(where)) for part, where in read_prose_inputs(text.splitlines(), str)]


# -- where the document says it -------------------------------------------------------------------


def test_a_podcast_run_sheet_counts_what_it_needs_from_the_host() -> None:
    text = "# Episode drop\n\nIt needs two things from you: the episode number and the guest list.\n"
    assert _said(text) == [("the episode number", 3), ("the guest list", 3)]


def test_an_hr_checklist_opens_its_need_with_a_colon() -> None:
    text = "Before day one you'll need from the hiring manager: the start date, the laptop tag.\n"
    assert _said(text) == [("the start date", 1), ("the laptop tag", 1)]
    assert _said("You'll need to wait for the badge: it takes a day.\n") == []  # a need to do, not to give


def test_a_lab_protocol_lists_what_you_need_under_a_heading() -> None:
    text = ("PLATE WASH\n\nWhat you need:\n- the plate map: 96 wells, A1 top left\n"
            "- the reagent lot (on the box)\n  and the wash volume\n\n1. Wash with `wash-plate`.\n")
    assert _said(text) == [("the plate map", 4), ("the reagent lot", 5), ("the wash volume", 5)]


def test_a_need_heading_with_no_list_under_it_says_nothing() -> None:
    assert _said("YOU WILL NEED\nnothing special, just patience.\n") == []


# -- named as the author names it -----------------------------------------------------------------

MARK = skill("mark-quiz", input_schema=obj(("key", "roster"), key="object", roster="array"),
             output_schema=obj(("marks",), marks="array"))
POST = skill("post-marks", input_schema=obj(("marks",), marks="array"), output_schema=obj(("posted",), posted="boolean"))
CATALOG = FakeCatalog(MARK, POST)

_LESSON = """\
# Friday quiz marking (Year 8)

## You will need

  * the quiz answer key (from the shared drive)
  * the class roster

## Steps

1. Mark every paper against the answer key with `mark-quiz`, using the class roster.
2. Post the marks with `post-marks`.
"""


def _plan(text: str, catalog: FakeCatalog = CATALOG):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "w.md", "markdown"), catalog, settings=SETTINGS)


def test_a_lesson_plan_s_value_takes_the_name_its_list_and_its_step_both_say() -> None:
    plan = _plan(_LESSON)
    assert sorted(i.name for i in plan.inputs) == ["answer_key", "class_roster"]
    bound = plan.step("step-1").inputs["key"]
    assert (bound.source, bound.name) == ("input", "answer_key")
    [warned] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert warned.line == 5
    assert "'the quiz answer key' as `answer_key` (the skill reads `key`" in warned.message
    assert any(w.line == 10 and "`key`" in w.message for w in plan.warnings)  # the binding is said at the step
    assert not any("key (step-1" in w.message for w in plan.warnings)  # not also read as the skill's own name


def test_a_value_the_step_names_in_other_words_keeps_the_skill_s_name() -> None:
    plan = _plan(_LESSON.replace("against the answer key", "against the key"))
    assert sorted(i.name for i in plan.inputs) == ["class_roster", "key"]


def test_the_author_s_name_needs_the_same_word_before_the_name_in_both() -> None:
    assert author_name("the tide table for the day", "table", "read the tide table with x") == "tide_table"
    assert author_name("the tide table", "table", "read the table with x") == "table"
    assert author_name("our table", "table", "read our table") == "table"  # a word that names nothing
    assert author_name("the tide table, then the tide table", "table", "the tide table") == "table"  # said twice


LOAD = skill("load-samples", input_schema=obj(("tray_id",), tray_id="string"),
             output_schema=obj(("samples",), samples="array"))
SPIN = skill("spin-samples", input_schema=obj(("samples", "rpm"), samples="array", rpm="integer"),
             output_schema=obj(("spun",), spun="boolean"))

_PROTOCOL = """\
# Spin-down protocol

What you need:
- the tray id
- the samples from the fridge
- the rpm: 3000 unless told

Steps:

1. Load the tray with `load-samples`.
2. Spin the samples with `spin-samples` at the rpm.
"""


def test_a_value_a_step_before_outputs_is_no_input_from_outside_and_is_said() -> None:
    plan = _plan(_PROTOCOL, FakeCatalog(LOAD, SPIN))
    assert sorted(i.name for i in plan.inputs) == ["rpm", "tray_id"]
    assert plan.step("step-2").inputs["samples"].source == "step"
    [warned] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert "not matched to any input a skill reads: 'the samples from the fridge'" in warned.message


# -- a value a later step's own skill hands back ----------------------------------------------------

CUT = skill("cut-audio", input_schema=obj(("raw_audio",), raw_audio="string"), output_schema=obj(("mp3",), mp3="string"))
PUBLISH = skill("publish-episode", input_schema=obj(("mp3", "release_date"), mp3="string", release_date="string"),
                output_schema=obj(("url", "release_date"), url="string", release_date="string"))

_RUN_SHEET = """\
# Episode drop — run sheet

The host brings the raw audio and picks the release date before we start.

1. Cut the raw audio with `cut-audio`.
2. Publish the mp3 on the release date with `publish-episode`.
"""


def test_a_podcast_s_release_date_its_publish_step_hands_back_is_still_a_value_from_outside() -> None:
    plan = _plan(_RUN_SHEET, FakeCatalog(CUT, PUBLISH))
    assert "release_date" in {i.name for i in plan.inputs}
    bound = plan.step("step-2").inputs["release_date"]
    assert (bound.source, bound.name) == ("input", "release_date")


def test_a_step_whose_text_holds_the_list_itself_does_not_say_the_words_again() -> None:
    # a voice memo read as one long step: the list of inputs is inside the step's own text
    memo = "so what you'll need is the tide table and the crew list, then run it on the table"
    parts = ["the tide table", "the crew list"]
    assert author_name("the tide table", "table", memo, parts) == "table"
    assert author_name("the tide table", "table", "read the tide table", parts) == "tide_table"


# -- a skill's name in the step's text does not say the value's name again ----------------------------

GAUGE = skill("read-tide-gauge", input_schema=obj(("gauge",), gauge="object"),
              output_schema=obj(("level_m",), level_m="number"))
POST_LEVEL = skill("post-level", input_schema=obj(("level_m",), level_m="number"),
                   output_schema=obj(("posted",), posted="boolean"))

_HARBOUR = """\
# Harbour board

What you need:
- the tide gauge readings

## Steps

### 1. Tide gauge

read-tide-gauge

### 2. Post

Post it with `post-level`.
"""


def test_a_harbour_step_that_only_names_its_skill_keeps_the_skill_s_name() -> None:
    plan = _plan(_HARBOUR, FakeCatalog(GAUGE, POST_LEVEL))
    assert [i.name for i in plan.inputs] == ["gauge"]


def test_a_harbour_step_that_says_the_words_itself_takes_the_author_s_name() -> None:
    text = _HARBOUR.replace("read-tide-gauge\n", "read-tide-gauge on the tide gauge by the pier\n")
    plan = _plan(text, FakeCatalog(GAUGE, POST_LEVEL))
    assert [i.name for i in plan.inputs] == ["tide_gauge"]
