"""A slide deck's outline saved as text (titles at the line's start, bullets indented with tabs) reads as
one section per slide and one step per numbered slide, at the author's lines (`spec.outline_slides`);
what the slide before the steps says the crew enters is the inputs said in words and its time cap the
run's limit (`spec.steps_lead`); "X approves ... before we ..." with "Level 4+ →" in front is an approval
with its condition and its wait (`spec.approval_hold`). Tested in a theatre production deck, a school
governors' deck, a lab onboarding deck and a sales kick-off deck."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.outline_slides import is_outline, outline_markdown

CATALOG = FakeCatalog(
    skill("count-tickets", input_schema=obj(("bookings",), bookings="array"),
          output_schema=obj(("sold", "risk_level"), sold="integer", risk_level="integer")),
    skill("call-crew", output_schema=obj(("called",), called="boolean")),
    skill("book-extra-security", output_schema=obj(("booked",), booked="boolean")),
    skill("print-programmes", output_schema=obj(("printed",), printed="integer")),
)

_THEATRE = """Opening night run-down
\tProduction meeting deck, spring season
What front of house enters at 17:00
\tBookings export, crew rota
\tWhole thing capped at 45 min, doors open at 19:00
1 · Count the house
\tcount-tickets
\tIn: the bookings export
2 · Call the crew
\tcall-crew
3 · Extra security
\tbook-extra-security
\tLevel 3+ → the venue manager approves by phone before we book
\t\tNo answer within 20 min = no extra security tonight
4 · Programmes
\tprint-programmes
Questions?
\tAsk me at the stage door
"""


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "deck.txt", "markdown"), CATALOG, settings=SETTINGS)


def test_a_theatre_deck_reads_a_step_per_numbered_slide_with_its_inputs_limit_and_approval() -> None:
    plan = _plan(_THEATRE)
    assert [(s.id, s.skill) for s in plan.steps] == [
        ("step-1", "count-tickets"), ("step-2", "call-crew"), ("step-3", "book-extra-security"),
        ("step-4", "print-programmes")]
    assert [int(s.where.rsplit(":", 1)[1]) for s in plan.steps] == [6, 9, 11, 15]
    assert plan.limits.wall_time_s == 45 * 60
    assert plan.step("step-1").inputs["bookings"].source == "input"
    approval = plan.step("step-3").policy.approval
    assert approval is not None and approval.when == "steps['step-1'].output.risk_level >= 3"
    assert (approval.timeout_s, approval.on_timeout) == (1200, "reject")
    assert plan.step("step-2").policy.approval is None  # the deck's other steps wait for nobody


@pytest.mark.parametrize("text", [
    # a school governors' deck
    "Term review\n\tGovernors, autumn\nAgenda\n\tbudget\n\tbuildings\n1 · Budget\n\tcount-tickets\n",
    # a lab onboarding deck
    "New starters\n\tLab 4\n1 • Induction\n\tcall-crew\n2 • Safety\n\tprint-programmes\n",
    # a sales kick-off deck, numbered with a dash
    "SKO 2026\n\tEMEA\n1 - Targets\n\tcount-tickets\n2 - Awards\n\tcall-crew\n",
])
def test_other_decks_are_outlines_whose_lines_keep_their_numbers(text: str) -> None:
    assert is_outline(text.split("\n"))
    converted, origin = outline_markdown(text) or ("", [])
    assert origin == list(range(len(text.split("\n"))))
    assert converted.split("\n")[0].startswith("# ")
    assert any(line.startswith("## 1") for line in converted.split("\n"))


@pytest.mark.parametrize("text", [
    "# Title\n\n## Step 1\n\tcode block\n## Step 2\nmore\n",  # markdown's own headings
    "Intro\n    indented with spaces\nNext\n    more\nLast\n    end\n",  # spaces: no outline export
    "one line\nanother\nthird\n\tonly this one indented\nfourth\nfifth\nsixth\n",  # too few bullets
])
def test_markdown_and_plain_text_are_no_outline(text: str) -> None:
    assert not is_outline(text.split("\n"))
