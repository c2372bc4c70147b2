"""A number said with the name's own unit before the name's word ("100 L/ha water" for `water_l_ha`) is beside
it: the unit's words are no words apart (`plan.literal_said`), so a per-item step takes it, not the item's field."""

from __future__ import annotations

import pytest

from orchestrator.plan.literal_said import literal_said


@pytest.mark.parametrize(("name", "text", "value"), [
    ("water_l_ha", "mix each block with the product and 120 L/ha water", 120),
    ("seed_kg_ha", "drill every strip at 180 kg/ha seed, no more", 180),
    ("speed_km_h", "tow each trailer at 40 km/h speed on the lanes", 40),
])
def test_a_number_with_the_names_unit_is_beside_its_word(name: str, text: str, value: int) -> None:
    said = literal_said(name, text, near=2)
    assert said is not None and said[0] == value


@pytest.mark.parametrize(("name", "text"), [
    ("water_l_ha", "with 100 litres of clean water"),  # other words between: not beside
    ("water_l_ha", "the 100 fields and the water"),
])
def test_other_words_between_are_still_words_apart(name: str, text: str) -> None:
    assert literal_said(name, text, near=2) is None
