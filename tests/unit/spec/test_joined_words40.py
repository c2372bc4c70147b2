"""An Input line's assignment that puts several steps' values together in order (`spec.joined_words40`):
read into one joined reference (`plan.joined_value40`); a sum with a number, "plus tax" or "from steps 1
and 2" without a word of putting together is no join."""

from __future__ import annotations

import pytest

from orchestrator.spec.fields import assigned_source
from orchestrator.spec.joined_words40 import joined_source

BOTH = "steps.step-1.output.picked + steps.step-2.output.picked"


@pytest.mark.parametrize("value", [
    "step-1.picked + step-2.picked",
    "step 1's picked followed by step 2's picked",
    "picked of step 1 then picked of step 2",
    "the picked lists of steps 1 and 2 put together",
    "all the picked values from steps 1 and 2, concatenated into one list",
    "`step-1.picked`+`step-2.picked`",
])
def test_several_steps_values_said_put_together_are_one_joined_reference(value: str) -> None:
    assert joined_source(value) == BOTH


def test_three_parts_and_a_workflow_input_keep_their_order() -> None:
    assert joined_source("stage 3's rows followed by step 1's rows + inputs.extra") == \
        "steps.step-3.output.rows + steps.step-1.output.rows + inputs.extra"


@pytest.mark.parametrize("value", [
    "step-1.count + 1",  # arithmetic
    "step 2's total plus tax",
    "picked from steps 1 and 2",  # which of them ran: `spec.either_input`
    "step-1.picked",
    "step 1's picked followed by the manager's notes",
])
def test_a_sum_a_single_value_or_a_part_that_is_no_value_is_no_join(value: str) -> None:
    assert joined_source(value) is None


def test_an_input_line_assignment_takes_the_joined_reference() -> None:
    assert assigned_source("lines = step 1's picked followed by step 2's picked") == ("lines", BOTH)
    assert assigned_source("lines = step-2.picked") == ("lines", "steps.step-2.output.picked")
