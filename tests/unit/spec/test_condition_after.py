"""A condition said after the skill a step runs, and the skill said after a condition
(`spec.condition_after`, `spec.branch_condition`): in a recipe card, a lesson plan, a ship's log,
an HR onboarding checklist and a lab protocol."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition_after import closed, cut_at_skill, failure_words, skill_first_lead
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


def _codes(spec: WorkflowSpec, line: int) -> list[str]:
    return [w.code for w in spec.warnings if w.line == line]


@pytest.mark.parametrize(("doc", "skills", "when"), [
    ("Recipe card: sourdough\n\n- `weigh-flour` into the bowl\n- `add-water`, but only when the dough_weight is "
     "over 500\n- `bake-loaf` at 230C\n", ("weigh-flour", "add-water", "bake-loaf"), "dough_weight is over 500"),
    ("Lesson plan, Y9 maths\n\n1. `mark-quiz` for 9B\n2. then `reteach-topic`, when the fail_count is above "
     "`pass_mark`.\n3. `set-homework`\n", ("mark-quiz", "reteach-topic", "set-homework"),
     "the fail_count is above `pass_mark`"),
    ("Ship's log\n\n1. `read-wind` at the mast\n2. `reef-sails` if the wind_speed is over 25\n3. `log-watch`\n",
     ("read-wind", "reef-sails", "log-watch"), "the wind_speed is over 25"),
    ("HR onboarding checklist\n\n* [ ] `pull-hires` from the sheet\n* [ ] `book-room` only when new_starters is at "
     "least 6\n* [ ] `send-welcome`\n", ("pull-hires", "book-room", "send-welcome"), "new_starters is at least 6"),
])
def test_a_condition_after_the_skill_is_read_and_warned_as_a_guess(doc: str, skills: tuple[str, ...],
                                                                   when: str) -> None:
    spec = _read(doc, *skills)
    assert spec.steps[1].when is not None and when in spec.steps[1].when
    assert "spec.lead-condition" in _codes(spec, 4)
    assert spec.steps[0].when is None and spec.steps[2].when is None


@pytest.mark.parametrize(("doc", "skills"), [
    ("Lesson plan\n\n1. `take-register` for 7C\n2. `play-video` when the projector feels friendly\n3. `tidy-up`\n",
     ("take-register", "play-video", "tidy-up")),
    ("Lab protocol, PCR\n\n1. `thaw-samples` on ice\n2. `spin-down`, but only when the tubes look cloudy\n"
     "3. `load-plate`\n", ("thaw-samples", "spin-down", "load-plate")),
    ("Recipe card\n\n- `knead-dough`\n- `rest-dough` if the kitchen feels cold\n- `bake-loaf`\n",
     ("knead-dough", "rest-dough", "bake-loaf")),
    ("Ship's log\n\n1. `read-wind`\n2. `reef-sails` when the sky turns ugly\n3. `log-watch`\n",
     ("read-wind", "reef-sails", "log-watch")),
])
def test_a_condition_after_the_skill_that_is_not_read_is_warned_at_its_line(doc: str,
                                                                            skills: tuple[str, ...]) -> None:
    spec = _read(doc, *skills)
    assert spec.steps[1].when is None
    assert "spec.condition-not-read" in _codes(spec, 4)


@pytest.mark.parametrize("text", ["`fetch-rates` if it times out", "`book-room` if needed", "`x` when you like"])
def test_a_failure_or_filler_clause_after_the_skill_is_not_warned_as_an_unread_condition(text: str) -> None:
    spec = _read(f"Notes\n\n1. `a-step`\n2. {text}\n", "a-step", text.split("`")[1])
    assert "spec.condition-not-read" not in _codes(spec, 4)


@pytest.mark.parametrize(("doc", "skills", "skill"), [
    ("Party plan\n\n1. `count-guests`, giving headcount\n2. Only if the headcount from step 1 is over the "
     "capacity, run `trim-list`.\n", ("count-guests", "trim-list"), "trim-list"),
    ("Ship's log\n\n1. `read-wind`, giving wind_speed\n2. Only when the wind_speed is above 25, then call "
     "`reef-sails`.\n", ("read-wind", "reef-sails"), "reef-sails"),
    ("Lab protocol\n\n1. `read-od`, giving od\n2. Only if the od is under 0.4, use `grow-more` overnight.\n",
     ("read-od", "grow-more"), "grow-more"),
    ("Lesson plan\n\n1. `mark-quiz`, giving score\n2. Only if the score is below 50, we run `reteach-topic`.\n",
     ("mark-quiz", "reteach-topic"), "reteach-topic"),
])
def test_a_skill_after_a_condition_said_first_stays_the_steps_skill(doc: str, skills: tuple[str, ...],
                                                                    skill: str) -> None:
    step = _read(doc, *skills).steps[1]
    assert step.when is not None and "`" not in step.when and "run" not in step.when.split()
    assert skill in [m.text for m in step.mentions]


def test_a_number_compared_is_not_a_status_code_of_failure() -> None:
    assert "500" not in failure_words("the total is over 500")
    assert "500" in failure_words("the API gives a 500")


def test_a_title_opening_with_its_skill_gives_the_words_after_if_as_its_condition() -> None:
    assert skill_first_lead("`flag-audit` if the total is over 500") == ("the total is over 500", False)
    assert skill_first_lead("`skip-it` unless dry_run is true") == ("dry_run is true", True)
    assert skill_first_lead("Flag the audit if over 500") is None


def test_a_condition_ends_before_the_skill_its_step_runs() -> None:
    assert cut_at_skill("the od is under 0.4, use `grow-more`") == "the od is under 0.4"
    assert closed("above `capacity") == "above `capacity`" and closed("above `capacity`") == "above `capacity`"


def test_a_values_name_is_not_a_word_of_failure() -> None:
    assert "fail" not in failure_words("the fail_count is over 3")
    assert "errors" not in failure_words("`errors` is above 2")
    assert "fails" in failure_words("the upload fails")
