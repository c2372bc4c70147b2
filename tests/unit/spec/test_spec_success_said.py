"""Success checks said as people say them, wherever the document kind puts them: "it's ready
when", "only counts as good when", a Gherkin "Then x equals ...", a section titled like one.
A comparison with a value becomes a check on the step's output; anything else is a warning at
its line that says what to write; a done-condition that only tells what happened is prose."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.success import success_clause, then_clauses

HEAD = "# F\n\n## Steps\n\n### Step 1: Load\n- Skill: `load`\n\n### Step 2: Send\n- Skill: `send`\n\n"


def parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


@pytest.mark.parametrize(("sentence", "clause"), [
    ("It's done when `sent` equals 3.", "`sent` equals 3"),
    ("The batch only counts as successful when `failed` is empty.", "`failed` is empty"),
    ("The job succeeds if `status` == 'ok'.", "`status` == 'ok'"),
    ("Definition of done: `rows` >= 1", "`rows` >= 1"),
])
def test_a_sentence_stating_a_success_check_gives_its_criteria(sentence: str, clause: str) -> None:
    assert success_clause(sentence) == clause


def test_a_then_line_that_compares_is_a_check_and_one_that_says_what_comes_back_is_not() -> None:
    text = 'Given the list When `send` mails it Then "sent" equals the number of rows And the log is kept'
    assert then_clauses(text) == ['"sent" equals the number of rows']
    assert then_clauses("When `load` reads it Then I get the rows") == []


def test_a_success_sentence_in_a_step_that_compares_with_a_value_is_a_check_on_its_output() -> None:
    spec = parse(HEAD + "It's done when `sent` is at least 1.\n")
    checks = [c for c in spec.contracts if c.producer == "step-2"]
    assert checks and checks[0].constraints[""]["properties"]["sent"] == {"minimum": 1}


def test_a_success_sentence_in_a_step_comparing_with_something_else_is_a_warning_at_its_line() -> None:
    spec = parse(HEAD + "It's done when `sent` equals the number of addresses in the list.\n")
    assert any(w.line == 11 and w.code == "spec.success" for w in spec.warnings)


def test_a_done_condition_that_tells_what_happened_is_prose_not_a_warning() -> None:
    spec = parse(HEAD + "Done when the mail server answered.\n")
    assert not any(w.code == "spec.success" for w in spec.warnings)


@pytest.mark.parametrize("title", ["It's done when…", "Acceptance criteria", "How we know it worked"])
def test_a_section_titled_as_a_success_check_is_warned_as_one_not_as_an_unknown_section(title: str) -> None:
    spec = parse(HEAD + f"## {title}\n\n`sent` equals the number of addresses.\n")
    assert any(w.code == "spec.success" and "not tied to a step" in w.message for w in spec.warnings)
    assert not any("not a spec section" in w.message for w in spec.warnings)


def test_a_whole_run_success_sentence_after_a_list_of_steps_is_warned_with_what_to_write() -> None:
    spec = parse("# F\n\n## Steps\n\n- **Load**: `load` reads the file.\n- **Send**: `send` mails it.\n\n"
                 "The run only counts as good when `sent` is at least 1.\n")
    found = [w for w in spec.warnings if w.code == "spec.success"]
    assert found and "Success criteria: `sent` is at least 1" in found[0].message, spec.warnings


@pytest.mark.parametrize(("sentence", "clause"), [
    ("it only counts if deploy printed healthy=true", "deploy printed healthy=true"),
    ("Check (cell C4): `total` must equal the sum of the rows.", "`total` must equal the sum of the rows"),
    ("It worked if we have a report id.", "we have a report id"),
])
def test_other_openers_of_a_success_check_are_found(sentence: str, clause: str) -> None:
    assert success_clause(sentence) == clause
