"""A value said "<field words> N <unit>" for a skill input named `<field>_<unit>` (`plan.unit_value54`, read
through `plan.said_value`), each phrasing with a near-miss."""

from __future__ import annotations

import pytest

from orchestrator.plan.said_value import said_value
from orchestrator.plan.unit_value54 import unit_value


@pytest.mark.parametrize(("name", "text", "value"), [
    ("shelf_life_hours", "Box it - pack-tray with the tray id and a shelf life of 36 hrs.", 36),
    ("dose_mg", "Give it with the patient and dose 250 mg, then chart it.", 250),
    ("hold_days", "Quarantine with hold 1 day after arrival.", 1),
    ("rest_mins", "then rest: 7.5 minutes before slicing", 7.5),
])
def test_a_value_said_with_its_unit_after_it(name: str, text: str, value: object) -> None:
    said = unit_value(name, text)
    assert said is not None and said[0] == value
    assert said_value(name, text) == said  # the reader every step's unbound inputs go through


@pytest.mark.parametrize(("name", "text"), [
    ("use_by_days", "print it with use-by 48 hours"),  # another unit: nothing is converted
    ("shelf_life_hours", "a shelf life of 36"),  # no unit said
    ("batch_size", "batch 2 trays"),  # the name ends in no unit
    ("dose_mg", "dose per kg 250 mg"),  # the field's words are not together
])
def test_near_miss_no_value_is_read(name: str, text: str) -> None:
    assert unit_value(name, text) is None
