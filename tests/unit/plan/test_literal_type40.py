"""`plan.literal_type40`: a literal takes the type its skill's input schema declares; one that cannot be
that type is kept and warned. Values of our own (a bakery's oven batch, a dog walker's rota)."""

from __future__ import annotations

from orchestrator.plan.literal_type40 import type_literals
from orchestrator.plan.model import InputBinding

_SCHEMA = {"type": "object", "properties": {
    "loaves": {"type": "integer"}, "temp_c": {"type": "number"}, "tray": {"type": "string"},
    "fan": {"type": "boolean"}, "note": {}, "either": {"type": ["string", "number"]}}}


def _lit(value: object) -> InputBinding:
    return InputBinding(source="literal", value=value)


def test_a_numeric_text_given_to_a_number_input_is_its_number() -> None:
    bound = {"loaves": _lit("24"), "temp_c": _lit("212.5"), "fan": _lit("TRUE")}
    assert type_literals(bound, _SCHEMA, "bake.md:3", "bake.md", "step-2") == []
    assert bound["loaves"].value == 24 and isinstance(bound["loaves"].value, int)
    assert bound["temp_c"].value == 212.5 and bound["fan"].value is True


def test_a_number_given_to_a_string_input_is_its_text() -> None:
    bound = {"tray": _lit(3), "loaves": _lit(24.0)}
    assert type_literals(bound, _SCHEMA, "rota.md:7", "rota.md", "step-1") == []
    assert bound["tray"].value == "3" and bound["loaves"].value == 24


def test_negative_undeclared_or_unfit_values_are_kept_and_the_unfit_warned() -> None:
    bound = {"note": _lit("30"), "either": _lit("30"), "loaves": _lit("two dozen"), "temp_c": _lit("hot"),
             "src": InputBinding(source="input", name="loaves")}
    warned = type_literals(bound, _SCHEMA, "bake.md:5", "bake.md", "step-3")
    assert bound["note"].value == "30" and bound["either"].value == "30"
    assert bound["loaves"].value == "two dozen" and bound["temp_c"].value == "hot"
    assert [(w.line, w.code) for w in warned] == [(5, "plan.literal-type"), (5, "plan.literal-type")]
    assert "declares it an integer" in warned[0].message
    assert type_literals({"x": _lit("1")}, None, None, "a.md", "step-1") == []
