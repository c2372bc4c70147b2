"""Round 46's readings of a to-do list's closing note (holdout30 186's kind): a project's name said done
when a step "N/" gives a field that is something, a lower-case limit that starts its own sentence, and
a limit said "for the lot" (`spec.success`, `spec.success_back27`, `spec.step_prose`, `spec.whole_limit`)."""

from __future__ import annotations

from orchestrator.spec.elsewhere import comparison
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.success import success_clause
from orchestrator.spec.success_back27 import step_said_back
from orchestrator.spec.whole_limit import whole_limit


def test_a_name_said_done_when_is_the_runs_check() -> None:
    assert success_clause("payroll = done when 4/ gives a total that is at least 1") == "4/ gives a total that is at least 1"
    assert success_clause("2026-03-01 stocktake: finished once step 2 returns ok = true") == "step 2 returns ok = true"
    assert success_clause("payroll = done by friday") is None  # no check: a day, not "when"
    assert success_clause("payroll = 4 people") is None


def test_a_step_numbered_with_a_slash_gives_a_field_that_is_something() -> None:
    assert step_said_back("4/ gives us a total which is at least 1", {}, 4) == (4, "total is at least 1", "'4/' names it")
    said = step_said_back("2/ returns the summary field that isn't empty", {}, 3)
    assert said is not None and said[:2] == (2, "summary is not empty") and comparison(said[1])
    assert step_said_back("7/ gives a total that is at least 1", {}, 5) is None  # no step 7
    plain = step_said_back("3/ gives a list of rows", {}, 3)
    assert plain is not None and not comparison(plain[1])  # no comparison: left to the other readers


def test_a_lower_case_limit_after_a_stop_is_its_own_sentence() -> None:
    said = [s for _, s in sentences("all sent when 3/ is back. max 20 min for the lot")]
    assert said == ["all sent when 3/ is back.", "max 20 min for the lot"]
    said = [s for _, s in sentences("pack the boxes. no more than 2 tries each")]
    assert said == ["pack the boxes.", "no more than 2 tries each"]
    assert len(sentences("we use approx. max 3 of them")) == 1  # an abbreviation: no end
    assert len(sentences("pack the boxes. maximum care please")) == 1  # no limit: the note goes on


def test_a_limit_for_the_lot_is_the_whole_runs() -> None:
    assert whole_limit("max 1hr for the lot, else kill it") == 3600
    assert whole_limit("no more than 45 min across the whole lot") == 2700
    assert whole_limit("max 20s for each lot") is None  # each one: no whole run
