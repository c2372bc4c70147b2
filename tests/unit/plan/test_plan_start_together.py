"""A `together` about starting at the same time is a parallel start, not a gather: the gather
words (`mapping.SAYS_EVERY`) do not read it, in several kinds of document; "put the scores
together" still gathers."""

from __future__ import annotations

import pytest

from orchestrator.plan.fan_gather import blank_start_together
from orchestrator.plan.mapping import SAYS_EVERY

STARTS = [
    # recipe card
    "Weigh the flour and heat the oven; kick both off together, the oven takes ages.",
    # ship's log
    "0600: start the bilge check and the fuel sounding together, bosun's orders.",
    # lab protocol
    "Spin up the centrifuge run and the buffer prep together (no dependency).",
    # podcast run sheet
    "Guest intro + sound check -- fire them off together, at once.",
    # HR onboarding checklist
    "Laptop order and badge request can go out together, neither needs the other.",
    # release notes
    "Pull commits and tickets: these run together, in parallel.",
]

GATHERS = [
    "Put the tasting scores together on one sheet.",  # recipe card
    "The watch reports are then consolidated into the day's log.",  # ship's log
    "Bring all the plate readings together before the summary.",  # lab protocol
    "Roll the segment timings up into one total.",  # podcast run sheet
]


@pytest.mark.parametrize("text", STARTS)
def test_together_about_starting_is_no_gather(text: str) -> None:
    assert SAYS_EVERY.search(text) is None, SAYS_EVERY.search(text)


@pytest.mark.parametrize("text", GATHERS)
def test_gather_words_still_read(text: str) -> None:
    assert SAYS_EVERY.search(text) is not None


def test_blanking_keeps_length_and_reads_across_a_line_break() -> None:
    text = "Doesn't need the oven, so kick\nboth off together."
    out = blank_start_together(text)
    assert len(out) == len(text) and "together" not in out and "kick" in out


def test_a_start_together_step_gets_no_gather_warning() -> None:
    from plan_factory import SETTINGS, FakeCatalog, obj, skill

    from orchestrator.plan.build import draft_plan
    from orchestrator.spec import parse_spec_text
    from orchestrator.spec.vocabulary import Vocabulary

    arr = {"type": "array"}
    catalog = FakeCatalog(
        skill("check-tanks", input_schema=obj(("vessel",), vessel="string"), output_schema=obj(("ok",), ok="boolean")),
        skill("read-gauges", input_schema=obj(("gauges",), gauges=arr), output_schema=obj(("log",), log="string")),
    )
    text = ("# Ship's log, morning round\n\n1. `check-tanks` on the `vessel`.\n"
            "2. `read-gauges` on the gauge list. Doesn't need step 1, so kick\n   both off together.\n")
    words = Vocabulary.of([(s.bound().name, None) for s in catalog])
    plan, errors = draft_plan(parse_spec_text(text, "log.md", "markdown", words), catalog, settings=SETTINGS)
    assert plan is not None and not errors
    assert not [w for w in plan.warnings if w.code == "spec.gather-not-read"], plan.warnings
