"""The whole run's limit wherever a document puts it: a preamble line, a comment line the
markdown reader takes for a second title, a sentence left in the steps section, a paragraph of
a section no reader knows. Read, it is the plan's wall time with its line; spoken of but not
understood, it is a warning that says what to write; never dropped."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.run_limit import write_as

STEPS = "## Steps\n\n### Step 1: Load\n- Skill: `load`\n\n### Step 2: Save\n- Skill: `save`\n"


def parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


def _limit(spec: WorkflowSpec) -> tuple[float | None, str | None]:
    found = [r for r in spec.readings if r.statement.whole_run]
    return (found[0].statement.timeout_s, found[0].where) if found else (None, None)


@pytest.mark.parametrize(("text", "seconds"), [
    ("Whole batch: if it has not finished within 40 minutes, stop it.", 2400.0),
    ("Overall time: at most 2 hours, waiting for people included.", 7200.0),
    ("The entire rollout keeps its 20-minute hard cap.", 1200.0),
    ("The whole notebook must finish inside the 1 h maintenance window.", 3600.0),
    ("The whole migration must not run past 50 minutes.", 3000.0),
])
def test_a_whole_run_limit_said_in_other_words_is_read(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.whole_run and phrase.statement.timeout_s == seconds, phrase


def test_a_preamble_line_limiting_the_whole_run_is_the_wall_time_with_its_line() -> None:
    spec = parse("# Sync\n\nOverall time: no more than 30 minutes, start to end.\n\n" + STEPS)
    assert _limit(spec) == (1800.0, "flow.md:3")


def test_a_comment_line_read_as_a_second_title_that_limits_the_run_is_read_not_warned_as_a_title() -> None:
    spec = parse("# Sync\n\n# Whole job: if it isn't done within 15 minutes, stop it.\n\n" + STEPS)
    assert _limit(spec) == (900.0, "flow.md:3")
    assert not any("second title" in w.message for w in spec.warnings)


def test_a_sentence_left_in_the_steps_section_that_limits_the_run_is_read() -> None:
    spec = parse("# Sync\n\n" + STEPS + "\nThe whole pipeline keeps a 45-minute ceiling.\n")
    assert _limit(spec)[0] == 2700.0
    assert not any("not a step" in w.message for w in spec.warnings)


def test_a_section_of_notes_with_the_run_s_limit_gives_the_limit() -> None:
    spec = parse("# Sync\n\n" + STEPS + "\n## Notes for the operator\n\nTotal time: 10 min max.\n")
    assert _limit(spec)[0] == 600.0


def test_a_whole_run_limit_not_understood_is_a_warning_that_says_what_to_write_with_the_author_s_duration() -> None:
    spec = parse("# Sync\n\nThe whole job was 5 minutes last time, keep it so.\n\n" + STEPS)
    assert _limit(spec) == (None, None)
    assert any(w.line == 3 and "Whole run: 5 minutes max." in w.message for w in spec.warnings)


def test_the_advice_for_a_whole_run_limit_not_understood_carries_the_author_s_own_time() -> None:
    spec = parse("# Sync\n\nThe entire batch used to take 40 min, we'd like that again.\n\n" + STEPS)
    said = [w.message for w in spec.warnings if w.line == 3 and "Whole run:" in w.message]
    assert said and all("40 min max." in m and "25" not in m for m in said)


def test_a_whole_run_limit_not_understood_and_without_a_duration_gets_a_stated_example() -> None:
    assert write_as("the whole run should be quick, keep an eye on it") == "write it as 'Whole run: 30 min max.'"


def test_what_the_author_wants_done_after_the_limit_is_warned_not_dropped() -> None:
    phrase = read_phrase("Whole run: if it hasn't finished within 20 minutes, stop it and page the on-call.")
    assert phrase.statement.timeout_s == 1200.0 and phrase.statement.on_failure is None
    assert any("page the on-call" in p for p in phrase.problems)


@pytest.mark.parametrize(("text", "seconds"), [
    ("The scheduler wraps it in `timeout 30m`, so the whole job is killed after 30 minutes.", 1800.0),
    ("The entire pipeline dies after 2 hours, whatever happens.", 7200.0),
])
def test_a_whole_run_that_dies_or_is_killed_after_a_time_is_the_run_s_limit(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.whole_run and phrase.statement.timeout_s == seconds, phrase
