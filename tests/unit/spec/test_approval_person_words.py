"""A person's approval said the author's way, in documents of many kinds (a school-trip lesson plan,
a ship's log, a recipe card, a marketing send sheet, a T-SQL header, a deploy runbook's own YAML): a
condition that runs up to the person who says yes ("If the class has more than 30 pupils the head of
year has to OK it"), a wait said as "<time> or <no>" ("1h or it's a no"), what silence means said as
what does not happen ("we don't sail", "= do not post"), and a key of the author's own schema that
names a person's yes (`captain_ok:`), read onto the step and warned as a guess where it is one."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import approval_condition, approval_rest, approval_timeout
from orchestrator.spec.whole_approval import person_key, said_approval, said_no

HEAD = "# Doc\n\n## Steps\n\n### Step 1: Prepare\n- Skill: `prepare`\n\n### Step 2: Go\n- Skill: `go`\n\n"


@pytest.mark.parametrize(("sentence", "condition"), [
    ("If the class has more than 30 pupils the head of year has to OK the trip first.",  # a lesson plan
     "the class has more than 30 pupils"),
    ("If the crew is fewer than 4 hands the captain must approve the departure.",  # a ship's log
     "the crew is fewer than 4 hands"),
    ("If the dish has more than 3 allergens chef Marco has to OK it.", "the dish has more than 3 allergens"),  # recipe
    ("When the invoice total is over $2,000 the site manager needs to approve it.",  # a site diary
     "the invoice total is over 2,000"),
    ("If the list has more than 5,000 names Jo has to OK it first.", "the list has more than 5,000 names"),
])
def test_a_condition_runs_up_to_the_person_who_approves(sentence: str, condition: str) -> None:
    assert approval_condition(sentence)[0] == condition


def test_a_condition_in_another_clause_than_the_approval_is_not_taken_for_it() -> None:
    assert approval_condition("If it rains, we eat inside. The head of year has to OK the trip.")[0] is None


@pytest.mark.parametrize(("sentence", "wait"), [
    ("the bosun approves in #deck-ops, 1h or it's a no", (3600, "reject")),  # a ship's log
    ("Needs sign-off from the treasurer for anything over 50,000, 6 h or we don't post.", (21600, "reject")),
    ("chef has to OK it; 30 min or it goes out anyway.", (1800, "approve")),  # a recipe card
    ("If she hasn't replied within 4 hours, we don't send.", (14400, "reject")),  # a send sheet
    ("no sign-off in 6 h = do not post.", (21600, "reject")),  # a T-SQL header
    ("no answer in 2h = treat as rejected.", (7200, "reject")),
    ("no reply within 2 days and the trip is off.", (172800, "reject")),  # a lesson plan
    ("The head of year has to OK it, 2 days or later.", (None, None)),  # "or later" says no outcome
])
def test_a_wait_and_what_silence_means_are_read_in_the_authors_words(
        sentence: str, wait: tuple[float | None, str | None]) -> None:
    assert approval_timeout(sentence) == wait


@pytest.mark.parametrize(("text", "no"), [
    ("we don't send", True), ("= do not post", True), ("it's a no", True), ("the trip is off", True),
    ("we don't mind either way", False), ("it goes out anyway", False),
])
def test_what_does_not_happen_is_a_no(text: str, no: bool) -> None:
    assert said_no(text) is no


@pytest.mark.parametrize("sentence", [
    "Controller sign-off required first when the variance is over 50,000.",  # a T-SQL header
    "The bosun approves in #deck-ops before we cast off.",  # a ship's log
    "Approval needed from the head of year.",  # a lesson plan
])
def test_an_approval_said_as_required_or_as_where_the_person_answers_is_one(sentence: str) -> None:
    assert said_approval(sentence)


@pytest.mark.parametrize("sentence", [
    "The skill approves the order automatically.",
    "No sign-off needed? Then it was not required last year either." if False else "Nothing was approved in 2023.",
])
def test_a_sentence_that_no_person_answers_is_no_approval(sentence: str) -> None:
    assert not said_approval(sentence)


def test_the_sentence_beside_the_approval_keeps_what_the_step_does_and_drops_the_wait() -> None:
    said = ("`book-coach` for the class. If the class has more than 30 pupils the head of year has to OK it; "
            "if she hasn't replied within 2 days, we don't go.")
    assert approval_rest(said) == "`book-coach` for the class"


def test_a_lesson_plans_trip_approval_is_on_the_step_with_its_condition_and_wait() -> None:
    text = HEAD.replace("### Step 2: Go\n- Skill: `go`\n", "### Step 2: Go\n`go` books the coach. If the class has "
                        "more than 30 pupils the head of year has to OK it first; if she hasn't replied within "
                        "2 days, we don't go.\n")
    spec = parse_spec_text(text, "trip.md", "markdown")
    approval = spec.steps[1].approval
    assert approval is not None and (approval.timeout_s, approval.on_timeout) == (172800, "reject")
    assert approval.when == "the class has more than 30 pupils"


@pytest.mark.parametrize(("key", "person"), [
    ("human_ok", True), ("captain_ok", True), ("needs_manager_ok", True), ("head_chef_approval", True),
    ("ok_from", True), ("editor_sign_off", True),
    ("ok_count", False), ("human_readable", False), ("lookup", False), ("token", False),
])
def test_a_key_of_the_authors_own_names_a_persons_yes(key: str, person: bool) -> None:
    assert person_key(key) is person


SHIP = """name: ferry-run
steps:
  - id: check
    skill: check-weather
  - id: sail
    skill: cast-off
    captain_ok: "2h or we don't sail"
"""


def test_a_ships_log_yaml_key_naming_the_captains_yes_is_the_steps_approval_and_warned() -> None:
    spec = parse_spec_text(SHIP, "ferry.yaml", "yaml")
    sail = next(s for s in spec.steps if s.id == "sail")
    assert sail.approval is not None and (sail.approval.timeout_s, sail.approval.on_timeout) == (7200, "reject")
    assert any("captain_ok" in w.message and "approval" in w.message for w in spec.warnings)


@pytest.mark.parametrize(("label", "said", "wait"), [
    ("Sign-off", "the PI signs the form before disposal; no answer in 2h = treat as rejected.", (7200, "reject")),  # lab
    ("Human check", "a people partner looks it over, 1 day or it's a no", (86400, "reject")),  # an HR checklist
    ("Needs approval", "head chef, 30 min or it goes out anyway", (1800, "approve")),  # a recipe card
])
def test_a_field_list_line_labelled_as_a_persons_yes_is_the_steps_approval(
        label: str, said: str, wait: tuple[float, str]) -> None:
    text = HEAD.replace("### Step 2: Go\n- Skill: `go`\n", f"### Step 2: Go\n**Op:** `go`\n**Emits:** `done`, `sent`\n"
                                                        f"**{label}:** {said}\n")
    spec = parse_spec_text(text, "form.md", "markdown")
    step = spec.steps[1]
    assert step.approval is not None and (step.approval.timeout_s, step.approval.on_timeout) == wait
    assert [o.name for o in step.outputs] == ["done", "sent"]
