"""The other branch said at the opening of a step's own text, whatever comes before it (a list marker,
a timestamp and a speaker, a step number), and a step whose text opens with a condition no reader took
(`spec.condition_opening`): in a ship's log, a lesson plan, a lab protocol, a Slack export, a recipe card,
an HR onboarding checklist and a podcast run sheet."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import condition_sentence
from orchestrator.spec.condition_opening import opening, plain
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


def _lines(spec: WorkflowSpec, code: str) -> list[int]:
    return [w.line for w in spec.warnings if w.code == code]


@pytest.mark.parametrize(("text", "words"), [
    ("14/03/2026, 18:40 - Bo (Galley): 3) if not, `x`", "if not, `x`"),  # a chat export
    ("[09:12] priya.k: Step 4: failing that, `x`", "failing that, `x`"),  # a Slack export
    ("- [ ] 2. else → `x`", "else → `x`"),  # an HR checklist
    ("Mr Dale: 5) otherwise `x`", "otherwise `x`"),  # a lesson plan's notes, the teacher speaking
    ("**3.** If it isn't, `x`", "If it isn't, `x`"),
    ("Note: if not, `x`", "Note: if not, `x`"),  # a label, no time or step number after it: not a speaker
])
def test_the_opening_is_the_words_after_markers_times_speakers_and_step_numbers(text: str, words: str) -> None:
    assert opening(text) == words


@pytest.mark.parametrize(("text", "said"), [
    ("'''Only''' if the tank_level is below 20.", "Only if the tank_level is below 20."),  # wiki
    ("**Only** if the guest_count is 0.", "Only if the guest_count is 0."),
    ("__only__ *if* the ph_value is over 8", "only if the ph_value is over 8"),
    ("keep missing_count and 2 * 3 as written", "keep missing_count and 2 * 3 as written"),
])
def test_emphasis_marks_around_words_are_taken_off(text: str, said: str) -> None:
    assert plain(text) == said


def test_an_emphasised_only_if_is_read_as_the_condition() -> None:  # a wiki page, a markdown card
    assert condition_sentence("'''Only''' if the tank_level is below 20.") == ("the tank_level is below 20", False)
    assert condition_sentence("**Only if** guest_count is 0") == ("guest_count is 0", False)


_SHIP = ("Ship's log, dawn watch\n\n"
         "1. `read-wind` from the mast sensor\n"
         "2. If wind_speed is over 25: `reef-sails` on the main\n"
         "3. {other} `hoist-sails` and log it\n")


@pytest.mark.parametrize("other", ["If not,", "Failing that,", "if it isn't →", "Else:", "and if it's under,",
                                   "If that's not the case,", "When that fails,"])
def test_ships_log_an_otherwise_opening_the_step_is_the_other_branch(other: str) -> None:
    spec = _read(_SHIP.format(other=other), "read-wind", "reef-sails", "hoist-sails")
    assert spec.steps[1].when is not None and "wind_speed" in spec.steps[1].when
    assert spec.steps[2].otherwise_where == "doc.md:5" and spec.steps[2].when is None
    assert spec.steps[2].otherwise_of in (None, "step-2")


def test_slack_export_an_otherwise_after_a_timestamp_and_speaker_is_the_other_branch() -> None:
    spec = _read("[09:10] priya.k: 1) `pull-hires` from the HR sheet\n\n"
                 "[09:11] priya.k: 2) If start_count is over 5: `book-room` for the welcome\n\n"
                 "[09:12] priya.k: 3) if it isn't, `book-desk` in the open area\n",
                 "pull-hires", "book-room", "book-desk")
    assert spec.steps[1].when is not None
    assert spec.steps[2].otherwise_of == "step-2" and spec.steps[2].otherwise_where == "doc.md:5"
    assert 5 in _lines(spec, "spec.lead-condition")


def test_lesson_plan_a_chat_like_otherwise_with_no_condition_before_warns_that_both_run() -> None:
    spec = _read("14/03/2026, 10:00 - Mr Dale: 1) `mark-quiz` for set 9B\n"
                 "14/03/2026, 10:01 - Mr Dale: 2) if the class did badly on it → `reteach-fractions`\n"
                 "14/03/2026, 10:02 - Mr Dale: 3) if not, `start-decimals` with the worksheet\n",
                 "mark-quiz", "reteach-fractions", "start-decimals")
    assert all(s.when is None and s.otherwise_where is None for s in spec.steps)
    unread = _lines(spec, "spec.condition-not-read")
    assert 2 in unread and 3 in unread  # the if-clause runs every time; so does its other branch
    said = " ".join(w.message for w in spec.warnings if w.line == 3)
    assert "both run on every run" in said


def test_lab_protocol_an_if_clause_no_reader_took_is_warned_at_its_line() -> None:
    spec = _read("Protocol 7 — buffer prep\n\n"
                 "1. `weigh-salts` for 500 mL\n"
                 "2. If the solution looks cloudy, `filter-buffer` through 0.22 µm\n"
                 "3. `autoclave-buffer` at 121 °C\n",
                 "weigh-salts", "filter-buffer", "autoclave-buffer")
    assert spec.steps[1].when is None
    assert _lines(spec, "spec.condition-not-read") == [4]


def test_recipe_card_a_failure_clause_opening_the_step_is_its_recovery_not_a_condition() -> None:
    spec = _read("# Sourdough card\n\n## Proof\n`proof-dough` overnight\n\n"
                 "## Rescue\nIf it fails to rise, `add-yeast` and wait\n\n"
                 "## Score\nIf you like, `score-loaf` before baking\n",
                 "proof-dough", "add-yeast", "score-loaf")
    assert not [w for w in spec.warnings if "its text opens" in w.message]


def test_podcast_run_sheet_the_same_direction_is_warned_the_other_direction_is_the_other_branch() -> None:
    spec = _read("# Run sheet ep. 42\n\n## 1. Stats\n`count-listens` from the host stats\n\n"
                 "## 2. Highlight\nOnly if listens is over 1000. `post-highlight` to socials.\n\n"
                 "## 3. Sponsor\nAnd if it's over 5000, `email-sponsor` the numbers.\n\n"
                 "## 4. Thanks\nand if it's under, `thank-guests` anyway.\n",
                 "count-listens", "post-highlight", "email-sponsor", "thank-guests")
    assert spec.steps[2].otherwise_where is None and _lines(spec, "spec.condition-not-read") == [10]
    assert spec.steps[3].otherwise_of == "step-2" and 13 in _lines(spec, "spec.lead-condition")


def test_hr_checklist_a_step_whose_condition_was_read_keeps_it() -> None:
    spec = _read("Onboarding — week one\n\n"
                 "- [ ] 1. `create-account` for the hire\n"
                 "- [ ] 2. If laptop_needed is true: `order-laptop` from IT\n"
                 "- [ ] 3. Otherwise: `assign-pool-laptop` from the cupboard\n",
                 "create-account", "order-laptop", "assign-pool-laptop")
    assert spec.steps[1].when is not None and spec.steps[2].otherwise_where is not None
    assert _lines(spec, "spec.condition-not-read") == []
