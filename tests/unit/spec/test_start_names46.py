"""The workflow inputs named in a request to supply them when the run starts (`spec.start_names46`):
"fill X and Y in when I kick it off", "you'll need the X and the Y", "give it A, B and C when you start
it", each name in capitals or backticks, a bracket after it its format or example; not a sentence that
names a step or what a step makes, nor one about a person. Documents: a kitchen's prep board, a
plumber's job note, a radio rota, a gym's class sheet; none a blind set's text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from orchestrator.spec.start_names46 import read_start_names

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))
from plan_factory import SaidCatalog, plan_of_text  # the plan tests' factory


def _said(text: str) -> list[tuple[str, int]]:
    return [(name, int(where)) for name, where in read_start_names(text.splitlines(), str)]


@pytest.mark.parametrize(("text", "names"), [
    # a kitchen's prep board: fill ... in when the run starts, a format in brackets
    ("PREP BOARD\n\nEach morning: type SHIFT and COVERS (a number) in before you start it.\n",
     [("SHIFT", 3), ("COVERS", 3)]),
    # a plumber's job note: you'll need ..., an example in brackets, the sentence over two lines
    ("Job note for the van.\nYou'll need the POSTCODE (e.g. LS6 2AB) and\nthe BOILER MAKE (Vaillant, Worcester).\n",
     [("POSTCODE", 2), ("BOILER MAKE", 2)]),
    # a radio rota: give it ... when you start it, names in backticks and capitals together
    ("Give it `show_slug`, `air_date` plus the HOST when you start it.", [("show_slug", 1), ("air_date", 1),
                                                                          ("HOST", 1)]),
    # a gym's class sheet: one name, but the run's start is said
    ("- put in the STUDIO when you kick things off @desk\n", [("STUDIO", 1)]),
    # a todo.txt line: its date and tags are no step
    ("(A) 2027-03-01 weekly stock - fill STORE + WEEK (YYYY-Www) in when I run it +stock @office\n",
     [("STORE", 1), ("WEEK", 1)]),
])
def test_a_request_to_supply_named_things_names_the_inputs(text: str, names: list[tuple[str, int]]) -> None:
    assert _said(text) == names


@pytest.mark.parametrize("text", [
    "You'll need the KEY from Dee.",  # a person to get it from, not the run's input
    "you'll need the key and the padlock code from reception",  # about a person, and no names
    "Fill NET and VAT in from 3/ when you run it.",  # what a step made
    "You'll need the TOTAL and the COUNT that step 2 works out.",  # what a step made
    "You'll need the TOTAL (from the tally) and the COUNT.",  # its bracket says where from
    "After tally-up you'll need the TOTAL and the COUNT.",  # a step's sentence
    "You'll need the VPN.",  # one name and no word of the start
    "Put the TRAYS and the LIDS in the dishwasher after service.",  # a chore, not the run's start
    "```\nyou'll need the SITE and the DATE\n```\n",  # fenced code is no prose
])
def test_near_misses_name_no_inputs(text: str) -> None:
    assert _said(text) == []


# -- through the plan: the names are the run's inputs, warned at the sentence, not derived ------------

CATALOG = SaidCatalog({
    "pull-bookings": "Inputs: `studio` (string), `week` (`YYYY-Www`).\n\nOutputs: `bookings` (list).\n",
    "post-rota": "Inputs: `bookings` (list).\n\nOutputs: `posted` (boolean).\n",
})


@pytest.mark.parametrize("lead", [
    "Fill STUDIO and WEEK (YYYY-Www) in when you kick it off.",
    "You'll need the STUDIO (Leeds or York) and the WEEK.",
])
def test_the_names_are_the_run_s_inputs_and_nothing_is_derived(lead: str) -> None:
    doc = (f"# Class rota\n\n{lead}\n\n## Step 1: Pull\n\nUse `pull-bookings`.\n\n"
           "## Step 2: Post\n\nUse `post-rota` with the bookings from step 1.\n")
    plan = plan_of_text(doc, CATALOG)
    assert [i.name for i in plan.inputs] == ["studio", "week"]
    codes = [w.code for w in plan.warnings]
    assert "derived-inputs" not in codes
    [said] = [w for w in plan.warnings if w.code == "plan.inputs-in-prose"]
    assert said.line == 3 and "'STUDIO' as `studio`" in said.message


def test_without_the_sentence_the_inputs_are_derived_and_warned() -> None:
    doc = "# Class rota\n\n## Step 1: Pull\n\nUse `pull-bookings`.\n\n## Step 2: Post\n\nUse `post-rota`.\n"
    plan = plan_of_text(doc, CATALOG)
    assert "derived-inputs" in [w.code for w in plan.warnings]
