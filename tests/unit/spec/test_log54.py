"""`spec.log54`: a deck or shift log's policy phrasings, in words that are not the blind set's own, each with a
near-miss; and a success check's field said with where it is ("has a permit_no on it", `spec.success_words`)."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from tests.unit.spec.success_probe import success_checks as _checks


@pytest.mark.parametrize(("text", "seconds"), [
    ("The entire stock count to be done within 45 minutes.", 2700.0),
    ("Whole unloading, start to end, is to be wrapped up in 2 hours.", 7200.0),
    ("Whole night-shift handover to be finished inside the hour, else stop.", 3600.0),
])
def test_the_whole_of_a_job_to_be_finished_by_a_time_is_the_run_s_limit(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    assert (phrase.statement.timeout_s, phrase.statement.whole_run, phrase.problems) == (seconds, True, ())


def test_near_miss_each_job_to_be_done_within_the_hour_is_no_whole_run_limit() -> None:
    assert not read_phrase("Each job to be done within the hour.").statement.whole_run


@pytest.mark.parametrize("text", ["Seals round the nets again.", "Rain in the hold again!", "Foxes at the bins again"])
def test_a_note_that_something_is_somewhere_again_is_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert (phrase.signal, phrase.problems, phrase.statement.is_empty()) == (False, (), True)


@pytest.mark.parametrize("text", ["Try the feed again.", "Run it on the backup again."])
def test_near_miss_a_sentence_of_doing_again_is_still_a_policy_sentence(text: str) -> None:
    assert read_phrase(text).signal


_YARD = ("# Yard\n\n## Steps\n\n### Step 1: Permit\n- Skill: `issue-permit`\n- Output: `permit_no`, `fee`\n\n"
         "### Step 2: Tell\n- Skill: `tell-gate`\n- Output: `told`\n\n")


@pytest.mark.parametrize("said", ["the permit has a permit_no on it", "the permit has a permit number in there"])
def test_a_field_said_with_where_it_is_is_that_output_not_empty(said: str) -> None:
    spec = parse_spec_text(_YARD + f"Job's good when {said}.\n", "y.md", "markdown")
    assert "permit_no" in _checks(spec).get("step-1", {})


def test_near_miss_a_field_no_step_outputs_stays_warned() -> None:
    spec = parse_spec_text(_YARD + "Job's good when the permit has a stamp on it.\n", "y.md", "markdown")
    assert not _checks(spec)
    assert any("not checked" in w.message for w in spec.warnings)


def test_a_banner_with_spaces_inside_its_tildes_is_no_strike_through() -> None:
    from orchestrator.spec.agreed_version27 import superseded_aside

    for banner in ("~~ NIGHT SHIFT CARD ~~", "  ~~ Bakery run sheet (wall copy) ~~"):
        assert superseded_aside(banner + "\n\n1. Mix - mix-dough with the flour.\n") is None
    struck = superseded_aside("~~1. Mix - mix-dough with the flour.~~\n2. Bake - bake-it.\n")
    assert struck is not None  # near-miss: struck through as markdown strikes it


def test_near_miss_a_verb_is_no_word_of_the_job() -> None:
    # "the whole `task publish` has to be over in 15 mins" with the name taken out: left to the reader that warns it
    assert not read_phrase("the whole  has to be over in 15 mins, the portal locks at 01:00").statement.whole_run
