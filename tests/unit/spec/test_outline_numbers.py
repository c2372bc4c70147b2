"""A word processor's document saved as text with 1 / 1.1 / 1.1.1 numbering (`spec.outline_numbers`):
its procedure's x.y items are the steps at their lines, their sub-items the step's text, the steps'
numbers in the text read as "step N", the reading warned at the procedure's line. Kinds: a kitchen
HACCP procedure (tabs), a ship's engine-room routine (two spaces, "4." top numbers), an HR onboarding
work instruction (a "Method" section, steps on one line each), a podcast publishing SOP (a non-step
x.y item, a wrapped line); and documents that are no such outline."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.outline_numbers import numbered_markdown

_KITCHEN = """\
GREENLEAF CATERING LTD\tFood Safety Manual
HACCP-07\tCooling cooked rice

1\tSCOPE
1.1\tApplies to every batch of rice cooked in the main kitchen.

2\tPROCEDURE
2.1\tProbe the batch
2.1.1\tRun probe-batch on the batch number.
2.1.2\tIt gives core_temp in degrees C.
2.2\tBlast chill
2.2.1\tIn the event that the core temperature is over 8 (core_temp > 8), run blast-chill with the batch from 2.1.
2.3\tLog it
2.3.1\tAfter 2.1 or 2.2, run log-haccp with the batch number.

3\tRECORDS
3.1\tLogs are kept for a year.
"""

_SHIP = """\
MV KESTREL - ENGINE ROOM STANDING ORDERS

1.  GENERAL
1.1  Weekly, on the Sunday watch.
1.2  Chief engineer signs the log.

4.  PROCEDURE
4.1  Sample the lube oil
4.1.1  Use oil-sample on the main engine.
4.2  Report
4.2.1  Run send-oil-report with the result from 4.1, not from 4.1.1.
4.2.2  Retry twice if the satellite link drops.
"""

_ONBOARDING = """\
People Team - Work Instruction WI-HR-12 (starter's first day)

1\tPURPOSE
1.1\tSo a new starter has a desk, a laptop and a buddy on day one.
2\tMETHOD
2.1\tRun create-account for the starter.
2.2\tRun order-laptop with the account from 2.1.
2.3\tRun assign-buddy with the starter's team.
"""

_PODCAST = """\
Episode publishing SOP, rev 3

1 PURPOSE
1.1 How an episode goes from the edit to the feed.
2 STEPS
2.1 Master
2.1.1 Run master-audio on the final edit,
  keeping the loudness at -16 LUFS.
2.2 Publish
2.2.1 Run push-feed with the mastered file from 2.1.
2.3 Notes
2.3.1 The host listens once before it goes out.
"""


def test_kitchen_procedure_steps_are_its_x_y_items_at_their_lines() -> None:
    spec = parse_spec_text(_KITCHEN, "haccp.txt", "markdown")
    assert [(s.id, s.name, s.where) for s in spec.steps] == [
        ("step-1", "Probe the batch", "haccp.txt:8"), ("step-2", "Blast chill", "haccp.txt:11"),
        ("step-3", "Log it", "haccp.txt:13")]
    said = [w for w in spec.warnings if "outline-numbered" in w.message]
    assert [w.line for w in said] == [7] and "2.1 to 2.3" in said[0].message


def test_kitchen_where_clause_and_step_numbers_in_the_text() -> None:
    spec = parse_spec_text(_KITCHEN, "haccp.txt", "markdown")
    assert spec.steps[1].when == "core_temp > 8"
    converted = numbered_markdown(_KITCHEN)
    assert converted is not None
    text = converted[0].split("\n")
    assert text[11] == "- In the event that the core temperature is over 8 (core_temp > 8), run blast-chill with the batch from step 1."
    assert text[13] == "- After step 1 or step 2, run log-haccp with the batch number."


def test_ship_routine_with_spaces_and_dotted_top_numbers() -> None:
    converted = numbered_markdown(_SHIP)
    assert converted is not None
    lines = converted[0].split("\n")
    assert lines[2] == "## GENERAL" and lines[6] == "## PROCEDURE"
    assert lines[7] == "### Step 1: Sample the lube oil"
    assert lines[10] == "- Run send-oil-report with the result from step 1, not from 4.1.1."  # a sub-item's number is kept
    spec = parse_spec_text(_SHIP, "orders.txt", "markdown")
    assert [s.name for s in spec.steps] == ["Sample the lube oil", "Report"]
    assert [t.line for t in spec.steps[1].texts] == [11, 12]  # its sub-items, at their lines


def test_onboarding_method_steps_on_one_line_each() -> None:
    spec = parse_spec_text(_ONBOARDING, "wi-hr-12.txt", "markdown")
    assert [s.where for s in spec.steps] == ["wi-hr-12.txt:6", "wi-hr-12.txt:7", "wi-hr-12.txt:8"]
    assert [w.line for w in spec.warnings if "outline-numbered" in w.message] == [5]


def test_podcast_non_step_item_and_wrapped_line() -> None:
    converted = numbered_markdown(_PODCAST)
    assert converted is not None
    markdown, origin, _ = converted
    lines = markdown.split("\n")
    assert lines[7] == "  keeping the loudness at -16 LUFS."  # goes on with the item above it
    assert lines[10] == "### Notes"  # no work asked: not a step
    assert len(origin) == len(lines) and origin[10] == 10
    spec = parse_spec_text(_PODCAST, "sop.txt", "markdown")
    assert [s.name for s in spec.steps] == ["Master", "Publish"]


def test_documents_that_are_no_numbered_outline() -> None:
    plain_list = "# Bake\n\n1. Run mix-dough.\n2. Run bake-loaf.\n3. Run slice-loaf.\n"
    assert numbered_markdown(plain_list) is None
    orphan = "1\tA\n3.1\tRun a-b.\n3.2\tRun c-d.\n3.3\tRun e-f.\n2\tB\n"
    assert numbered_markdown(orphan) is None  # 3.1 before any 3
    no_procedure = "1\tSCOPE\n1.1\tRun a-b.\n1.2\tRun c-d.\n2\tRECORDS\n2.1\tKept a year.\n"
    assert numbered_markdown(no_procedure) is None
    no_work = "1\tSCOPE\n1.1\tAll sites.\n2\tPROCEDURE\n2.1\tBe careful.\n2.2\tBe quick.\n"
    assert numbered_markdown(no_work) is None
    markdown = "# T\n\n## 1 Steps\n1.1 Run a-b.\n1.2 Run c-d.\n1.3 Run e-f.\n2 End\n"
    assert numbered_markdown(markdown) is None  # markdown's own headings: read as markdown


def test_a_long_line_is_read_in_bounded_time() -> None:
    text = "1\tPURPOSE\n1.1\tAll.\n2\tPROCEDURE\n2.1\tRun a-b.\n2.1.1\t" + "from 2.1 " * 400 + "\n2.2\tRun c-d.\n"
    converted = numbered_markdown(text)
    assert converted is not None and converted[0].count("from step 1") == 400
