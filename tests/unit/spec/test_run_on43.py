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
