"""Warnings that said more was unread or contradicted than was (`spec.held_words44`, `spec.success_cut44`,
the bare-count row of `spec.grammar`, `spec.lead_condition`, `spec.recipes`): a count that is no count of
tries, a policy word whose rule was read, a negated title condition, a check run on into the next line's
whole-run limit, and a Rakefile's run check said in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.spec import parse_spec
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.success_cut44 import cut
from orchestrator.spec.whole_doc import Said
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill


@pytest.mark.parametrize("said", [
    "Don't retry: it charges the card, and twice means a double charge.",
    "never re-run this one, thrice would lock the account",
    "no retries here. it emails the parents, twice = complaints",
])
def test_a_count_that_is_what_a_rerun_brings_is_no_count_of_tries(said: str) -> None:
    phrase = read_phrase(said)
    assert phrase.statement.no_retry
    assert phrase.problems == ()


@pytest.mark.parametrize("said", ["no retry here - if it fails retry twice", "never retry. retry twice."])
def test_a_count_of_tries_against_no_retry_still_contradicts(said: str) -> None:
    phrase = read_phrase(said)
    assert phrase.statement.no_retry
    assert any("contradict each other" in p for p in phrase.problems)


@pytest.mark.parametrize(("said", "word"), [
    ("scanner hangs a lot: retry 4 times, wait 5s first and double it every go", "wait"),
    ("retry 3 times, hold off 20s first then double each wait", "wait"),
    ("never rerun it, the bank logs each attempt", "attempt"),
    ("do not retry, the card company counts every attempt", "attempt"),
])
def test_a_policy_word_of_a_rule_that_was_read_is_not_called_unread(said: str, word: str) -> None:
    phrase = read_phrase(said)
    assert phrase.read
    assert word not in phrase.unread
    assert not any("not understood" in p for p in phrase.problems)


@pytest.mark.parametrize(("said", "word"), [
    ("retry 3 times, wait for the lock", "wait"),  # no wait read: the word is still unread
    ("the bank logs each attempt", "attempt"),  # no rule read at all
])
def test_a_policy_word_whose_rule_was_not_read_is_still_said(said: str, word: str) -> None:
    assert word in read_phrase(said).unread


@pytest.mark.parametrize("said", ["if not approved -> manual-review instead",
                                  "when nothing was found, draft-reply instead"])
def test_instead_of_a_condition_s_other_branch_is_not_an_unread_fallback(said: str) -> None:
    phrase = read_phrase(said)
    assert "instead" not in phrase.unread
    assert phrase.problems == ()


def test_instead_after_a_failure_is_still_a_fallback_to_read() -> None:
    phrase = read_phrase("if the portal is down, use the spare laptop instead")
    assert phrase.statement.on_failure is not None or "instead" in phrase.unread or phrase.problems


_BRANCHES = """\
# intake

## Steps

### Step 1: Triage
- Skill: triage

### Step 2: If NOT urgent -> file-it
- Skill: file-it
"""


@pytest.mark.parametrize(("title", "runs"), [
    ("If NOT urgent -> file-it", "it runs unless urgent"),
    ("If NOT urgent: file-it", "it runs unless urgent"),
    ("If urgent -> file-it", "it runs only when urgent"),  # not negated: "only when" as before
])
def test_a_negated_title_condition_is_said_as_unless(title: str, runs: str) -> None:
    catalog = FakeCatalog(skill("triage", output_schema=obj(urgent="boolean")),
                          skill("file-it", output_schema=obj(filed="boolean")))
    plan = plan_of_text(_BRANCHES.replace("If NOT urgent -> file-it", title), catalog, "intake.md")
    said = [w.message for w in plan.warnings if "its title is read as its condition" in w.message]
    assert said and all("only when unless" not in m for m in said)
    assert any(f"{runs};" in m for m in said)


_RUN_ON = """\
# parcel run

done = the notice comes back sent: true anything else is a fail
the whole run has to be over in 20 mins, the depot shuts at 18:00

## Steps

### Step 1: Pack
- Skill: pack-parcel

### Step 2: Notice
- Skill: send-notice
"""

def _parcel() -> FakeCatalog:
    return FakeCatalog(skill("pack-parcel", output_schema=obj(packed="boolean")),
                       skill("send-notice", output_schema=obj(sent="boolean")))


def test_a_check_run_on_into_the_next_line_s_limit_ends_where_the_limit_starts() -> None:
    plan = plan_of_text(_RUN_ON, _parcel(), "run.md")
    assert plan.limits.wall_time_s == 1200.0
    assert [c.where for c in plan.run_checks] == ["run.md:3"]
    assert not any("is not a comparison of an output field" in w.message for w in plan.warnings)


@pytest.mark.parametrize(("lines", "kept"), [
    (((3, "ok when the notice comes back sent: true"), (4, "and the depot note says signed: yes")),
     "ok when the notice comes back sent: true and the depot note says signed: yes"),  # no limit: carried on
    (((3, "ok when the notice comes back sent: true"), (4, "it took 20 mins last week")),
     "ok when the notice comes back sent: true it took 20 mins last week"),  # a habit, no limit of the run
])
def test_a_next_line_that_is_no_limit_stays_part_of_the_check(lines: tuple[tuple[int, str], ...], kept: str) -> None:
    text = " ".join(t for _, t in lines)
    assert " ".join(cut(text, Said(text, 3, 4, lines)).split()) == kept


def test_the_check_s_other_side_said_again_is_cut_but_not_a_check_that_ends_on_a_fail_word() -> None:
    lines = ((3, "ok when sent: true; otherwise it's a fail"),)
    assert cut(lines[0][1], Said(lines[0][1], 3, 3, lines)) == "ok when sent: true"
    lines = ((3, "ok when failed == false"),)
    assert cut(lines[0][1], Said(lines[0][1], 3, 3, lines)) == "ok when failed == false"


_RAKE = """\
STORE = ENV.fetch('STORE')

task :count do
  @stock = skill('stock-count', store: STORE)
end

task :report => :count do
  skill('stock-report', store: STORE, lines: @stock['lines'])
end

# the run counts if stock-report comes back filed: true
# (the till pc runs ruby 3.1, leave it)
"""


def test_a_rakefile_s_run_check_in_words_is_said_to_be_read(tmp_path: Path) -> None:
    path = tmp_path / "Rakefile"
    path.write_text(_RAKE)
    spec = parse_spec(path)
    said = [w for w in spec.warnings if "is read as the run's success check" in w.message]
    assert [w.where for w in said] == [f"{path}:11"]
    assert "filed == true" in said[0].message and "step-2 (report)" in said[0].message
    assert not any(w.where == f"{path}:12" for w in spec.warnings)  # the note about ruby: no check, nothing said


@pytest.mark.parametrize("said", ["If the quote is rejected, use module *fallbackquote* instead.",
                                  "when the upload goes wrong, hand it to ops instead"])
def test_instead_after_a_failure_word_is_not_a_branch_s_otherwise(said: str) -> None:
    phrase = read_phrase(said)
    assert phrase.statement.on_failure is not None or "instead" in phrase.unread or phrase.problems
