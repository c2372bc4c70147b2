"""What the person starting a run gives it, said in words (`spec.input_user_gives`): a line that says
the run needs things FROM someone, asks someone FOR them, says what someone enters (its items indented
under it) or what to bring; and the words that stand for an input's name (`spec.input_word_names`).
Documents: a lesson plan, a ship's log (an outline in a text file), a recipe card, an HR onboarding
checklist, a lab protocol; none a blind set's text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from orchestrator.spec.input_user_gives import read_user_gives
from orchestrator.spec.input_word_names import stand_ins

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))
from plan_factory import SaidCatalog, plan_of_text  # the plan tests' factory


def _said(text: str) -> list[str]:
    return [part for part, _ in read_user_gives(text.splitlines(), lambda n: f"doc:{n}")]


@pytest.mark.parametrize(("text", "parts"), [
    # a lab protocol: needed from someone, after a colon
    ("Protocol 9\nInfo the reader needs from the operator: the plate id, the read wavelength\n",
     ["the plate id", "the read wavelength"]),
    # an HR checklist
    ("Data needed from the requester: start date and laptop model.\n", ["start date", "laptop model"]),
    # a lesson plan: ask someone for them
    ("Before we start it has to ask whoever's running it which class it is and which room we're in.\n",
     ["which class it is", "which room we're in"]),
    # a recipe card: the run needs them from someone, at the line's end
    ("The run needs the flour weight and the oven log from whoever starts it.\n",
     ["the flour weight", "the oven log"]),
    # a ship's log outline: what someone enters, items indented under it
    ("Watch handover\nWhat the deck officer enters at 0400\n\tPosition fix: lat/lon\n\tWind and sea state\n"
     "\tWhole watch capped at 4 h\n1 · Log\n\tlog-position\n", ["Position fix", "Wind", "sea state"]),
    # a recipe card: bring, items bulleted
    ("Bring:\n- the allergen sheet\n- the oven log\n\nStep 1: bake\n", ["the allergen sheet", "the oven log"]),
])
def test_a_line_that_says_what_the_starter_gives_lists_its_things(text: str, parts: list[str]) -> None:
    assert _said(text) == parts


@pytest.mark.parametrize("text", [
    "The run needs two hours on a busy day.",  # a time, no one it is from
    "Ask the chef whether the oven is hot.",  # someone asked, but not the one starting the run
    "What the crew enjoys most is the 0400 watch.",
    "Bring the dough to room temperature first.",  # "bring" as a step's verb, no colon
])
def test_words_like_those_that_say_nothing_given_read_nothing(text: str) -> None:
    assert _said(text) == []


@pytest.mark.parametrize(("part", "words"), [
    ("the crate no.", {"id", "number"}), ("badge #", {"id"}), ("the order nr", {"id"}),
    ("today's date", {"run", "date"}), ("the date we run", {"run", "date"}), ("today", {"today"}),
    ("what's in it", {"commodity", "cargo"}), ("the contents", {"content"}), ("what the box holds", {"goods"}),
])
def test_words_that_stand_for_an_input_name_s_words(part: str, words: set[str]) -> None:
    assert words <= stand_ins(part)[0]


@pytest.mark.parametrize("part", ["today's shortage list", "the order board", "what we did last week"])
def test_other_words_stand_for_nothing(part: str) -> None:
    assert stand_ins(part)[0] & {"id", "run", "commodity"} == set()


# -- through the plan: a later step's input is the thing the starter gives --------------------------

CATALOG = SaidCatalog({
    "scan-crate": "Inputs: `crate_id` (string), `contents` (string).\n\nOutputs: `scan`.\n",
    "post-log": "Inputs: `scan` (object), `run_date` (`YYYY-MM-DD`), `berth_list` (list of berths).\n\n"
                "Outputs: `posted`.\n",
})

_DOCS = [
    # a ship's log: an outline in a text file, what someone enters indented under it
    ("log.txt", "Harbour check\nWhat the duty mate enters at 0600\n\tCrate no.: from the manifest\n"
                "\tWhat's in it\n\tToday's date, berth list\n1 · Scan\n\tscan-crate\n2 · Post\n\tpost-log\n"),
    # a lab protocol: needed from someone, one line
    ("protocol.md", "# Protocol 4\n\nInfo the run needs from the operator: crate no., what's in it, today's date, "
                    "berth list\n\n## Step 1: Scan\n\nUse `scan-crate`.\n\n## Step 2: Post\n\nUse `post-log`.\n"),
    # an HR onboarding checklist: bring, bulleted
    ("onboarding.md", "# Day one\n\nBring:\n- the crate no.\n- what's in it\n- today's date\n- the berth list\n\n"
                      "## Step 1: Scan\n\nUse `scan-crate`.\n\n## Step 2: Post\n\nUse `post-log`.\n"),
    # a lesson plan: ask whoever runs it
    ("lesson.md", "# Lesson 5\n\nIt has to ask whoever's running it for the crate no., what's in it, today's date "
                  "and the berth list.\n\n## Step 1: Scan\n\nUse `scan-crate`.\n\n## Step 2: Post\n\nUse `post-log`.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_the_things_the_starter_gives_are_the_run_s_inputs_in_each_document_kind(name: str, doc: str) -> None:
    plan = plan_of_text(doc, CATALOG, name)
    assert {i.name for i in plan.inputs} >= {"crate_id", "contents", "run_date", "berth_list"}
    post = plan.step("step-2")
    assert post.inputs["run_date"].source == "input" and post.inputs["berth_list"].source == "input"
    said = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert said and "stands for" in said[0].message  # the stand-in words are said, never silent
