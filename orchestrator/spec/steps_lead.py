"""What a section says before the steps read from it: a whole-run limit, and the inputs said in words.

    ## What the crew enters at 6:00             a section whose title speaks of what goes in
    - Plot readings: new snow, wind             -> inputs said in words: 'Plot readings'
    - Lift list with status, terrain list       -> 'Lift list with status', 'terrain list'
    - Whole thing capped at 90 min              -> the run's limit, 90 min
    ## 1. Study plot                            (the steps, read as ever)

The steps reader takes the numbered headings under such a section as its steps; the lines before
the first of them belonged to no reader and were dropped without a word. Each is read for the whole
run's limit (`spec.run_limit`); when the section's title speaks of what the workflow takes
(`inputs_heading.goes_in_title`) and every other line is a value said in words, those are the
inputs said in words (`prose_inputs.listed_in_words`), matched to what the skills read by the
planner and warned there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orchestrator.spec.blocks import Bullet, Para
from orchestrator.spec.inputs_heading import goes_in_title
from orchestrator.spec.prose_inputs import listed_in_words
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.source import Source

if TYPE_CHECKING:
    from orchestrator.spec.markdown import Section


def steps_lead(section: Section, first_step: int, src: Source) -> tuple[tuple[str, int], ...]:
    """Read the limit said before `first_step` (a line) in `section`; the inputs it says in words."""
    items: list[tuple[str, int]] = []
    for block in section.blocks:
        if block.line >= first_step or not isinstance(block, Para | Bullet):
            continue
        before = len(src.readings)
        read_run_limit(block.text, block.line, src, who="whole run")
        if len(src.readings) == before:
            items.append((block.text, block.line))
    if not goes_in_title(section.title) or not all(line < first_step for _, line in items):
        return ()
    return listed_in_words(items)
