"""A run given a key its plan does not take names every such key, the inputs the plan takes with
where each was read, and the line where the author spoke of the key, if any."""

from __future__ import annotations

from orchestrator.engine.unknown_input import unknown_inputs_message
from orchestrator.errors import Diagnostic, Severity
from orchestrator.plan.model import PlanInput


def _warn(line: int, message: str) -> Diagnostic:
    return Diagnostic(file="log.md", line=line, message=message, severity=Severity.WARNING, code="x")


INPUTS = [PlanInput(name="port", where="log.md:4"), PlanInput(name="crew", where=None)]


def test_a_ship_s_log_key_described_in_words_points_at_the_line_that_describes_it() -> None:
    said = unknown_inputs_message(["tide_height"], INPUTS, [
        _warn(2, "step-1: bullet 'weather' not read"),
        _warn(4, "the text says what the run is given: ...; not matched to any input a skill reads: 'the tide height'")])
    assert said.startswith("unknown input 'tide_height'; the plan takes: crew, port (log.md:4)")
    assert "The spec speaks of 'tide_height' at log.md:4" in said


def test_a_recipe_card_key_named_in_backticks_wins_over_one_that_only_shares_a_word() -> None:
    said = unknown_inputs_message(["oven_temp"], INPUTS, [_warn(3, "'the oven' is read as a step"),
                                                            _warn(9, "its skill reads `oven_temp`, but nothing gives it")])
    assert "at log.md:9" in said and "log.md:3" not in said


def test_keys_the_author_never_spoke_of_are_all_named_and_nothing_is_pointed_at() -> None:
    said = unknown_inputs_message(["a_b", "zz"], INPUTS, [_warn(5, "not understood: 'cake'")])
    assert said.startswith("unknown inputs 'a_b', 'zz'; the plan takes:")
    assert "speaks of" not in said
