"""A success check run on after another sentence with no capital, and "its"/"thats" for "it's"/"that's"
(`spec.run_on43`, `spec.done_when`)."""

from __future__ import annotations

import pytest

from orchestrator.spec.run_on43 import run_on_check
from orchestrator.spec.whole_success import success_cue
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill


@pytest.mark.parametrize(("said", "tail"), [
    ("keep the whole thing under 20 min. its done when the upload gives back a ref.",
     "its done when the upload gives back a ref."),
    ("no more than an hour in all! thats a success once `sent` is at least 1",
     "thats a success once `sent` is at least 1"),
])
def test_a_check_run_on_after_a_stop_is_its_own_words(said: str, tail: str) -> None:
    assert run_on_check(said) == tail


@pytest.mark.parametrize("said", [
    "keep the whole thing under 20 min. then text me.",  # no success cue after the stop
    "Keep it under 2.5 h. It's done when the ref is back.",  # a capital: already a sentence of its own
    "its done when the ref is back",  # no stop before it
])
def test_no_run_on_check_where_none_is_run_on(said: str) -> None:
    assert run_on_check(said) is None


@pytest.mark.parametrize("said", ["its done when the ref is back", "thats done once `ok` is true"])
def test_its_and_thats_without_an_apostrophe_open_a_check(said: str) -> None:
    assert success_cue(said) is not None


def test_its_with_no_check_after_it_is_no_cue() -> None:
    assert success_cue("its done.") is None


_NOTES = """\
# shelf restock

the whole thing should take 15 min max. its done when the order has gone in (placed = true).

## Steps

### Step 1: Count
- Skill: count-shelf

### Step 2: Order
- Skill: place-order
"""


def test_the_run_on_check_is_read_at_its_own_line_and_the_limit_is_kept() -> None:
    catalog = FakeCatalog(skill("count-shelf", output_schema=obj(counted="integer")),
                          skill("place-order", output_schema=obj(placed="boolean")))
    plan = plan_of_text(_NOTES, catalog, "notes.md")
    assert plan.limits.wall_time_s == 900.0
    assert [c.where for c in plan.run_checks] == ["notes.md:3"]
    assert not any("after the whole run's limit is not read" in w.message for w in plan.warnings)


# -- holdout36 219: a line of its own that the sentence before runs into (`spec.line_run_on54`) -----------------
@pytest.mark.parametrize(("said", "lines", "tail"), [
    ("whole thing inside 10 mins, the van goes at 4:30 regardless it's a good run when pack says sealed: true",
     ((5, "whole thing inside 10 mins, the van goes at 4:30 regardless"), (6, "it's a good run when pack says sealed: true")),
     "it's a good run when pack says sealed: true"),
    ("kill it after an hour, no arguments done when upload-file comes back with ref_ok == true",
     ((3, "kill it after an hour, no arguments"), (4, "done when upload-file comes back with ref_ok == true")),
     "done when upload-file comes back with ref_ok == true"),
])
def test_a_check_on_a_line_of_its_own_is_its_own_words(said: str, lines: tuple[tuple[int, str], ...], tail: str) -> None:
    from orchestrator.spec.line_run_on54 import line_run_on

    assert line_run_on(said, lines, lines[0][0], lines[-1][0]) == tail


def test_a_line_going_on_a_sentence_is_no_check_of_its_own() -> None:
    from orchestrator.spec.line_run_on54 import line_run_on

    said = "the run is done when the invoice is sent with sent == true"
    lines = ((2, "the run is done"), (3, "when the invoice is sent with sent == true"))
    assert line_run_on(said, lines, 2, 3) is None


@pytest.mark.parametrize("said", ["it's a good run when print-out says printed: true",
                                  "that's a clean job once mailer comes back with sent == true"])
def test_a_good_run_when_is_a_cue(said: str) -> None:
    assert success_cue(said) is not None


def test_a_good_idea_is_no_cue() -> None:
    assert success_cue("it's a good idea when the portal is slow to retry it") is None
