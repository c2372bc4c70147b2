"""A part of the run's success check said as something being there (`spec.success_there29`). Documents:
a courier's dispatch sheet, a clinic booking runbook, a conference talk's upload checklist; negatives:
"there's no rush", "there is a chance it rains", a thing no step gives."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.success_there29 import there_field
from tests.unit.spec.success_probe import success_checks as _checks

DISPATCH = ("# Dispatch\n\n## Steps\n\n### Step 1: Pack\n- Skill: `pack-box`\n- Output: `weight_g`\n\n"
            "### Step 2: Label\n- Skill: `print-label`\n- Output: `tracking_id`, `cost`\n\n")


def test_a_dispatch_sheets_tracking_id_being_there_is_that_output_not_empty() -> None:
    spec = parse_spec_text(DISPATCH + "We're done when there's a tracking id and the label has a cost.\n", "d.md", "markdown")
    checks = _checks(spec)
    assert "tracking_id" in checks.get("step-2", {})
    assert not any("'there's a tracking id' names no step's output" in w.message for w in spec.warnings)


def test_a_clinic_runbooks_booking_reference_being_there() -> None:
    text = ("# Clinic booking\n\n## Steps\n\n### Step 1: Book\n- Skill: `book-slot`\n- Output: `booking_ref`\n\n"
            "We're finished when there is a booking reference.\n")
    assert "booking_ref" in _checks(parse_spec_text(text, "c.md", "markdown")).get("step-1", {})


@pytest.mark.parametrize(("part", "field"), [
    ("there's a label id", "label id"),
    ("there is a booking reference", "booking reference"),  # a clinic runbook
    ("there are some slide urls", "slide urls"),  # a talk's upload checklist
    ("There's no rush", None),
    ("the label is there", None),
])
def test_what_is_said_to_be_there(part: str, field: str | None) -> None:
    assert there_field(part) == field


def test_a_thing_no_step_gives_stays_warned() -> None:
    spec = parse_spec_text(DISPATCH + "We're done when there is a chance it rains and the label has a tracking id.\n", "d.md",
                           "markdown")
    assert any("'there is a chance it rains' names no step's output" in w.message for w in spec.warnings)
