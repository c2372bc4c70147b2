"""Round 40: "everything below / on this page / that follows" said done within a time is the whole run's
limit wherever it stands, in a section no reader knows too (a stage manager's wiki page; `spec.whole_limit`).
Near misses: what everything below is or how often it is done is no limit."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.whole_limit import whole_limit

STEPS = "## Steps\n\n### Step 1: Load\n- Skill: `load`\n\n### Step 2: Save\n- Skill: `save`\n"


def test_the_lot_that_follows_said_done_within_a_time_is_the_whole_runs_limit() -> None:
    assert whole_limit("All of what follows must be done inside 2 hours.", outside=True) == 7200
    assert whole_limit("Everything on this page should be over in 40 min, hard.", outside=True) == 2400


def test_a_paragraph_of_a_section_no_reader_knows_limits_the_run_at_its_line() -> None:
    text = ("# Get-in\n\n## Before the doors\n\nWhat the crew does before the get-in.\n\n"
            "*Everything below has to be finished within 50 minutes - otherwise stop and call the desk.*\n\n" + STEPS)
    spec = parse_spec_text(text, "getin.md", "markdown")
    found = [r for r in spec.readings if r.statement.whole_run]
    assert found and found[0].statement.timeout_s == 3000 and found[0].where.endswith(":7")


def test_what_everything_below_is_or_how_often_it_is_done_is_no_limit() -> None:
    assert whole_limit("Everything below is optional and takes about 5 minutes.", outside=True) is None
    assert whole_limit("Everything below has to be tested every 10 minutes.", outside=True) is None
    assert whole_limit("Everything below has to be wrapped up within 35 minutes.", outside=False) is None
