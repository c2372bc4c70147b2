"""A paragraph that opens on a condition and names another skill "instead" ("If the tide is out, then
instead `x` does y") is the other branch, a step of its own, not a fallback merged into the step
before; a failure's "instead" ("if it fails, use `x` instead") stays the fallback."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.skill_mentions import roles
from orchestrator.spec.vocabulary import Vocabulary

WORDS = Vocabulary.of([(n, None) for n in (
    "log-position", "plan-anchorage", "plan-passage", "mark-quiz", "set-reteach", "send-report",
    "create-account", "order-laptop", "lend-laptop", "weigh-samples", "rerun-assay", "file-results")])


def _roles(text: str) -> list[tuple[str, str]]:
    return [(m.skill, m.role) for m in roles(text, WORDS)]


def test_instead_after_a_plain_condition_names_a_doer_in_four_kinds() -> None:
    # a ship's log, a lesson plan, an HR onboarding checklist, a lab protocol
    assert _roles("If the wind is over 30 knots, then instead plan-anchorage picks a bay for the night.") == [
        ("plan-anchorage", "doer")]
    assert _roles("When fewer than half pass, instead `set-reteach` books a reteach lesson.") == [
        ("set-reteach", "doer")]
    assert _roles("If the starter is a contractor, order-laptop is skipped and instead lend-laptop runs.") == [
        ("order-laptop", "doer"), ("lend-laptop", "doer")]
    assert _roles("If the blank reads above 0.1, then instead rerun-assay repeats the plate.") == [
        ("rerun-assay", "doer")]


def test_instead_after_a_failure_or_with_use_stays_the_fallback() -> None:
    assert _roles("If the GPS fails, then instead log-position takes the dead reckoning.") == [
        ("log-position", "fallback")]
    assert _roles("If the wifi is flaky, use `lend-laptop` instead.") == [("lend-laptop", "fallback")]
    assert _roles("If the scale is busy, fall back to weigh-samples instead.") == [("weigh-samples", "fallback")]
    assert _roles("Otherwise run plan-passage instead.") == [("plan-passage", "fallback")]


LOG = """Bosun's note for the relief skipper

Each morning log-position records where we are and the wind.

If the wind is under 30 knots, plan-passage lays out the day's leg from the position.

If the wind is over 30 knots, then instead plan-anchorage picks a bay for the night.
"""

LESSON = """Friday quiz routine

Mark the papers with mark-quiz as soon as the bell goes.

If the class average is at least 60, send-report goes home to the parents.

If the class average is under 60, then instead set-reteach books a reteach lesson for Monday.
"""


def test_a_ships_note_and_a_lesson_plan_read_the_instead_branch_as_its_own_step() -> None:
    for text, skills in ((LOG, ["log-position", "plan-passage", "plan-anchorage"]),
                         (LESSON, ["mark-quiz", "send-report", "set-reteach"])):
        spec = parse_spec_text(text, "note.txt", "markdown", WORDS)
        said = [next(m.text for m in s.mentions if WORDS.skill_for(m.text)) for s in spec.steps]
        assert said == skills, text
        assert not [w for w in spec.warnings if "merged" in w.message]
