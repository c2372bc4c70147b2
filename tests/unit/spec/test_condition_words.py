"""A step's condition said without "only" ("Runs if ...", "Do this if ...") or under a label of the
author's own ("Guard:", "Precondition:"), in a podcast run sheet, a ship's log, a lab protocol and an HR
checklist, is the step's condition; a bare "if" that speaks of failing, of a person or of no value is
left to the other readers."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition_words import bare_condition
from orchestrator.spec.vocabulary import Vocabulary

HEAD = "# Doc\n\n## Steps\n\n### Step 1: Prepare\n- Skill: `prepare`\n\n### Step 2: Go\n`go` the thing.\n"


@pytest.mark.parametrize(("sentence", "condition"), [
    ("Runs if the episode length is over 60.", "the episode length is over 60"),  # a podcast run sheet
    ("Do this if salary > 100000, otherwise skip.", "salary > 100000"),  # an HR checklist
    ("Only run this if ${wind_knots < 25}.", "${wind_knots < 25}"),  # a ship's log
    ("This step runs when the temperature is below 4.", "the temperature is below 4"),  # a lab protocol
    ("Runs if the score is 0.7 or more.", "the score is 0.7 or more"),
])
def test_a_bare_runs_if_with_a_comparison_is_the_steps_condition(sentence: str, condition: str) -> None:
    assert bare_condition(sentence) == condition


@pytest.mark.parametrize("sentence", [
    "Run it again if it fails.",  # a retry
    "Runs if needed.",  # no value compared
    "Run it if you have time.",  # a person, not a value
    "Do this if the upload times out twice.",  # a failure
    "Runs every night.",
])
def test_a_bare_if_about_failing_a_person_or_no_value_is_no_condition(sentence: str) -> None:
    assert bare_condition(sentence) is None


@pytest.mark.parametrize(("line", "when"), [
    ("Guard: wind_knots < 25", "wind_knots < 25"),  # a ship's log
    ("Precondition: the sample temperature is below 4", "the sample temperature is below 4"),  # a lab protocol
    ("Runs if the episode length is over 60.", "the episode length is over 60"),  # a podcast run sheet
    ("Run it if salary > 100000.", "salary > 100000"),  # an HR checklist
])
def test_the_condition_is_on_the_step_in_each_kind_of_document(line: str, when: str) -> None:
    spec = parse_spec_text(HEAD + line + "\n", "doc.md", "markdown")
    assert spec.steps[1].when == when


# -- a person's approval asked under what an earlier step "says" (`said_of_output`) ----------------

_OUTPUTS = {
    "weigh-cargo": frozenset({"overweight_kg", "manifest"}),  # a ship's log
    "check-levels": frozenset({"clipping", "peak_db"}),  # a podcast run sheet
    "damp-meter": frozenset({"wet", "reading_pct"}),  # a building survey
    "count-stock": frozenset({"missing_count", "lines"}),  # a shop's stock take
    "plan-route": frozenset({"route"}),
}


def _words() -> Vocabulary:
    return Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))


@pytest.mark.parametrize(("sentence", "want"), [
    ("If the cargo weigh says we're overweight at all, the mate has to OK the stowage plan.", "overweight_kg > 0"),
    ("When the levels check says it's clipping, the producer signs off before we publish.", "clipping == true"),
    ("If the damp meter shows it's wet, the site lead has to approve the plaster order.", "wet == true"),
    ("If the stock count says anything is missing, Priya has to OK the reorder first.", "missing_count > 0"),
])
def test_an_approval_under_what_a_step_says_is_read_on_that_output(sentence: str, want: str) -> None:
    from orchestrator.spec.condition_words import said_of_output

    got = said_of_output(sentence, _words())
    assert got is not None and got[0] == want


@pytest.mark.parametrize("sentence", [
    "If the route planner says it's foggy, the skipper has to OK it.",  # no output has the word
    "If the cargo weigh says we're over and short, the mate has to OK it.",  # two words, not one state
    "If Sam says so, the mate has to OK it.",
])
def test_an_approval_under_a_state_no_output_names_is_not_guessed(sentence: str) -> None:
    from orchestrator.spec.condition_words import said_of_output

    assert said_of_output(sentence, _words()) is None


SHIPS_LOG = """# Loading

1. Weigh the cargo with `weigh-cargo`.
2. Plan the route with `plan-route`.
   - If the cargo weigh says we're overweight at all, the mate has to OK the route before we sail.
"""


def test_a_ships_logs_approval_condition_is_read_as_a_guess_and_warned() -> None:
    spec = parse_spec_text(SHIPS_LOG, "log.md", "markdown", _words())
    approval = spec.steps[1].approval
    assert approval is not None and approval.when == "overweight_kg > 0"
    assert any(w.line == 5 and w.code == "spec.approval-condition" and "a guess" in w.message for w in spec.warnings)
