"""A success check that compares an output field with another name ("accuracy >= min_accuracy",
"`plated` equals `ordered`") instead of a value written in the spec is said at its line, naming
both and what to write; it is never dropped with a word that it is "not a comparison"."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.success import compared_names


def _success_warnings(text: str) -> list[tuple[int, str]]:
    spec = parse_spec_text(text, "w.md", "markdown")
    return [(w.line, w.message) for w in spec.warnings if w.code == "spec.success"]


def test_a_lab_protocol_step_checks_its_yield_against_a_threshold_never_declared() -> None:
    text = ("# Plate prep\n\n## Steps\n\n### Step 1: Extract\n- Skill: `extract-dna`\n"
            "- Success criteria: yield_ng >= min_yield\n")
    [(line, message)] = _success_warnings(text)
    assert line == 7
    assert "`yield_ng` with `min_yield`" in message and "`yield_ng >= VALUE`" in message
    assert "declare `min_yield` under `## Inputs`" in message


def test_a_recipe_card_and_a_ship_s_log_compare_two_of_their_own_names() -> None:
    assert compared_names("`plated` equals `ordered`") == ("plated", "equals", "ordered")
    assert compared_names("the fuel_left is at least reserve_fuel from the log") == (
        "fuel_left", "is at least", "reserve_fuel")


def test_a_podcast_run_sheet_s_checks_with_values_are_not_names() -> None:
    assert compared_names("duration_min <= 45") is None
    assert compared_names("status is done") is None  # a word, not a name
    assert compared_names("published == true") is None
