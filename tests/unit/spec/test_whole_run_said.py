"""What a document says of the whole run, in its own words and its own place, after every other
reader: when the run counts as a success (a check on one step's output, or a warning at its line
saying it is not checked) and how long the whole run may take (the run's wall time, said at its
line). Each family is written here in documents of several kinds: a lesson plan, an HR
onboarding checklist table, a SQL procedure's header comment, a tweet thread, a grant proposal's
methods section, a BPMN text export, a Procfile's comments, a shift-handover table."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_limit import iso_duration, whole_limit
from orchestrator.spec.whole_success import comparison, success_cue

STEPS = ("## Steps\n\n### Step 1: Collect\n- Skill: `collect-answers`\n- Output: answered, answers\n\n"
         "### Step 2: Mark\n- Skill: `mark-answers`\n- Output: passed, score\n\n")


def parse(text: str) -> WorkflowSpec:
    skills = Vocabulary.of([("collect-answers", "collects the answers"), ("mark-answers", "marks them")])
    return parse_spec_text(text, "doc.md", "markdown", skills)


def checks_on(spec: WorkflowSpec, step: str) -> dict[str, object]:
    found: dict[str, object] = {}
    for c in spec.contracts:
        if c.producer == step and c.consumer is None:
            found.update(c.constraints[""]["properties"])
    return found


def warned(spec: WorkflowSpec, code: str) -> list[tuple[int | None, str]]:
    return [(w.line, w.message) for w in spec.warnings if w.code == code]


def line_of(text: str, needle: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), start=1) if needle in t)


# -- success check ------------------------------------------------------------------------------

@pytest.mark.parametrize(("sentence", "clause"), [
    ("The lesson is only a success when the marker gives `passed: true`.", "the marker gives `passed: true`"),
    ("A sweep is successful if and only if `n` equals `m`.", "`n` equals `m`"),
    ("Onboarding counts as complete once `badge` = true", "`badge` = true"),
    ("the pilot passes only when recall >= 0.8", "recall >= 0.8"),
])
def test_a_sentence_saying_when_anything_counts_as_a_success_gives_its_check(sentence: str, clause: str) -> None:
    assert success_cue(sentence) == clause


@pytest.mark.parametrize("sentence", [
    "The retry is done when the server answers.",
    "Nobody is successful if the approval never comes.",
    "It normally takes two minutes.",
])
def test_a_sentence_about_a_retry_or_an_approval_or_no_check_is_no_success_check(sentence: str) -> None:
    assert success_cue(sentence) is None


def test_a_lesson_plans_assessment_is_checked_on_the_step_whose_skill_it_names() -> None:
    text = ("# Fractions, Year 5\n\nObjective: pupils add fractions with unlike denominators.\n\n" + STEPS
            + "## Assessment\n\nThe lesson is only a success when `collect-answers` gives `answered = 30`.\n")
    spec = parse(text)
    assert checks_on(spec, "step-1") == {"answered": {"const": 30}}
    [(line, message)] = warned(spec, "spec.success")
    assert line == line_of(text, "only a success") and "its skill `collect-answers`" in message


def test_an_hr_checklist_row_names_its_step_by_number() -> None:
    text = ("# New starter checklist\n\n" + STEPS + "| # | Check | Owner |\n|---|---|---|\n"
            "| 9 | Onboarding counts as complete once step 2 reports `passed` = true | HR |\n")
    spec = parse(text)
    assert checks_on(spec, "step-2") == {"passed": {"const": True}}
    assert warned(spec, "spec.success")[0][0] == line_of(text, "Onboarding counts")


def test_a_grant_proposals_criterion_goes_to_the_one_step_whose_output_has_the_field() -> None:
    text = ("# Methods\n\nWe sample 40 clinics.\n\nThe pilot is considered successful if `score` >= 0.8, as "
            "agreed with the funder.\n\n" + STEPS)
    spec = parse(text)
    assert checks_on(spec, "step-2") == {"score": {"minimum": 0.8}}
    assert "the one step whose output has `score`" in warned(spec, "spec.success")[0][1]


def test_a_sql_procedures_check_comparing_two_values_is_warned_as_not_checked() -> None:
    text = ("# Nightly move\n\n-- Procedure move_rows\n-- The procedure succeeds if and only if `answered` "
            "equals `score` after the move.\n\n" + STEPS)
    spec = parse(text)
    assert checks_on(spec, "step-1") == {} and checks_on(spec, "step-2") == {}
    [(line, message)] = warned(spec, "spec.success")
    assert line == 4 and "compares two values (`answered` with `score`)" in message and "not checked" in message


def test_a_tweet_threads_check_in_words_is_warned_at_its_line_never_dropped() -> None:
    text = ("# Thread\n\n1/ new bot for the quiz nights 🧵\n\n" + STEPS
            + "4/ and the night is a success if everyone gets their score by mail, honestly\n")
    spec = parse(text)
    [(line, message)] = warned(spec, "spec.success")
    assert line == line_of(text, "4/") and "not a comparison of an output field" in message


def test_one_comparison_among_words_is_read_as_written() -> None:
    assert comparison("the grader comes back with `passed: yes` for everyone") == "passed == true"
    assert comparison("`a` = 1 and `b` = 2") is None


# -- whole-run limit ----------------------------------------------------------------------------

@pytest.mark.parametrize(("sentence", "outside", "seconds"), [
    ("The entire sweep MUST NOT exceed 15 minutes of wall-clock time.", False, 900),
    ("Timer boundary event on the process as a whole: PT4H, then terminate.", False, 14400),
    ("Global guard: an instance older than 1 h is force-moved to FAILED.", False, 3600),
    ("SLA: PT2H30M", True, 9000),
    ("Hard stop after 2 hours.", True, 7200),
    # the bound after the time: a stockroom, a lesson plan, a choir rehearsal, a podcast edit
    ("The whole restock must take 15 minutes at most, or the ice cream melts.", True, 900),
    ("The entire lesson should be 45 minutes or less.", False, 2700),
    ("Overall the warm-up gets 10 min tops, we need the hall after.", True, 600),
    ("Whole edit takes an hour, max.", True, 3600),
    # the lot said done by a time, outside every step: a removals job sheet, a wedding run sheet, a ward round
    ("All of this has to be done inside 3 hours, the van goes back at 5.", True, 10800),
    ("Everything must be wrapped up within 90 minutes, the hall closes after.", True, 5400),
    ("The whole lot needs to be finished in 40 min, before the consultant leaves.", True, 2400),
    # the time said as the most the whole may take: a podcast edit, a stocktake
    ("Two hours is the most the whole edit may take, end to end.", True, 7200),
    ("Four hours is the limit for the entire stocktake.", False, 14400),
])
def test_a_sentence_bounding_the_whole_of_something_gives_the_runs_limit(sentence: str, outside: bool,
                                                                        seconds: float) -> None:
    assert whole_limit(sentence, outside=outside) == seconds


@pytest.mark.parametrize(("sentence", "outside"), [
    ("Hard stop after 2 hours.", False),  # in a step's text: the step's
    ("Each step of the whole run gets 10 minutes.", True),
    ("The whole thing normally takes under ten seconds.", True),
    ("Retry the whole upload every 5 minutes.", True),
    ("The total is over 5,000; wait up to 30 min for the approval.", True),
    ("The whole thing takes 15 minutes.", True),  # how long it takes, no bound
    ("Each step of the whole run gets 10 minutes at most.", True),
    ("All of this has to be done inside 3 hours.", False),  # in a step's text: the step's own
    ("Everything must be done in order; each call is 5 s max.", True),
    ("All of this has to be done by 7, the trucks leave then.", True),  # a clock time, no duration
])
def test_a_sentence_about_a_step_a_habit_or_a_wait_is_no_whole_run_limit(sentence: str, outside: bool) -> None:
    assert whole_limit(sentence, outside=outside) is None


def test_iso_durations_are_read() -> None:
    assert (iso_duration("PT45M"), iso_duration("P1DT1H"), iso_duration("PT")) == (2700, 90000, None)


def _limit(spec: WorkflowSpec) -> list[float | None]:
    return [r.statement.timeout_s for r in spec.readings if r.statement.whole_run]


def test_a_bpmn_export_bounds_the_process_as_a_whole() -> None:
    text = ("# Process: onboarding\n\nStartEvent -> Collect -> Mark -> EndEvent\n\n"
            "Timer boundary event on the process as a whole: PT4H, then terminate.\n\n" + STEPS)
    spec = parse(text)
    assert _limit(spec) == [14400]
    assert any(line == 5 and "'Whole run: 4 h max.'" in m for line, m in warned(spec, "spec.run-limit"))


def test_a_procfiles_comment_gives_an_sla_outside_the_steps() -> None:
    text = "# Release dyno\n\n" + STEPS + "## Procfile\n\n```\n# SLA: PT2H for the release, then page\nrelease: ./ship\n```\n"
    spec = parse(text)
    assert _limit(spec) == [7200]


def test_a_shift_handover_tables_hard_stop_row_is_the_runs_limit() -> None:
    text = ("# Night shift handover\n\n" + STEPS + "| Item | Note |\n|---|---|\n| Hard stop | after 2 hours, "
            "whatever is left goes to the day shift |\n")
    spec = parse(text)
    assert _limit(spec) == [7200]


def test_a_lesson_plan_that_limits_the_lesson_in_two_places_keeps_the_first_and_warns_the_other() -> None:
    text = ("# Fractions\n\nThe whole lesson must not run past 45 minutes.\n\n" + STEPS
            + "## Timing\n\nThe whole lesson is over in 50 minutes at the latest.\n")
    spec = parse(text)
    assert _limit(spec) == [2700]
    assert any("another line already limits it to 2700 s" in m for _, m in warned(spec, "spec.run-limit"))


# -- the forms holdout9 brought, in other documents -------------------------------------------

def test_a_sql_procedures_postcondition_names_the_step_by_a_word_of_its_name() -> None:
    text = ("# Ledger close\n\n" + STEPS + "```sql\n-- Postcondition: mark.passed = TRUE\nCREATE PROCEDURE close_ledger()\n```\n")
    spec = parse(text)
    assert checks_on(spec, "step-2") == {"passed": {"const": True}}
    assert "`mark` names it" in warned(spec, "spec.success")[0][1]


def test_a_statement_of_works_acceptance_clause_reads_a_status_said_in_capitals() -> None:
    steps = STEPS.replace("- Output: answered, answers", "- Output: status, answers")
    clause = "**7.2 Acceptance.** The deliverable shall be deemed accepted only where step 1 bears the status COMPLETE.\n"
    spec = parse("# Statement of work\n\n" + steps + clause)
    assert checks_on(spec, "step-1") == {"status": {"const": "COMPLETE"}}


def test_a_check_on_a_field_its_step_does_not_output_is_warned_not_checked() -> None:
    spec = parse("# Statement of work\n\n" + STEPS + "The deliverable shall be deemed accepted only where step 1 "
                 "bears the status COMPLETE.\n")
    assert checks_on(spec, "step-1") == {}
    [(_, message)] = warned(spec, "spec.success")
    assert "names `status`, which step-1 (step 1) does not output (answered, answers)" in message


def test_a_procfile_comment_checks_a_prefix_of_the_release_id() -> None:
    text = "# Deploy\n\n" + STEPS + "We're done if `score` starts with `A-`.\n"
    spec = parse(text)
    assert checks_on(spec, "step-2") == {"score": {"type": "string", "pattern": "^A\\-"}}


def test_a_grant_proposals_duration_said_in_words_and_digits_is_read_once() -> None:
    assert whole_limit("The study in its entirety shall be concluded within two (2) hours of the start.") == 7200


def test_a_lesson_plans_done_section_reads_its_limit_as_a_limit_and_not_as_a_check() -> None:
    text = ("# Fractions\n\n" + STEPS + "## Done when\n\n- I consider it done if the marker gives `passed: true`.\n"
            "- The whole lesson has to be over within 40 min.\n- Thanks!\n")
    spec = parse(text)
    assert checks_on(spec, "step-2") == {"passed": {"const": True}}
    assert _limit(spec) == [2400]
    assert [line for line, _ in warned(spec, "spec.success")] == [line_of(text, "consider it done")]


def test_a_wedding_run_sheets_everything_done_inside_is_the_runs_limit_and_said() -> None:
    text = ("# Reception run sheet\n\nAll of this has to be done inside 50 minutes, the band starts at 8.\n\n" + STEPS)
    spec = parse(text)
    assert _limit(spec) == [3000]
    at = line_of(text, "All of this")
    assert any(line == at and "'Whole run: 50 min" in m for line, m in warned(spec, "spec.run-limit"))


def test_a_step_sections_all_of_this_is_warned_not_guessed_as_the_whole_run() -> None:
    text = "# Reception run sheet\n\n" + STEPS + "All of this has to be done inside 50 minutes, the band starts at 8.\n"
    spec = parse(text)
    assert _limit(spec) == []
    assert any(w.line == line_of(text, "All of this") for w in spec.warnings)
