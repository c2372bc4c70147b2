"""`plan.runs37`: a list handed back with "the same fields" as a list inside another input, an item field
the step's text names for a name the items do not carry, and a count taken "from" a named step."""

from __future__ import annotations

from orchestrator.plan.near_input import close_names
from orchestrator.plan.output_aliases import Earlier, said_alias
from orchestrator.plan.runs37 import count_field, renamed_item_field, same_list_items
from orchestrator.plan.wanted import read_instructions

_FREIGHT = """Inputs: `order` (object with `customer`, `lines`: list of `{sku, qty, unit_weight_kg}`).

Outputs: `customer`, `lines` (same fields, sku upper-cased), `total_kg`.
"""
_LAB = """Inputs: `run_sheet` (object: `operator`, `wells` (list of {well, sample_id, od_raw}), `plate`).

Outputs: `wells` (the same records, blanks subtracted), `plate`.
"""
_RECIPE = """Takes `menu` with `dishes` - array of objects `{dish, covers, prep_notes}` and a `date`.

Returns `dishes` (same shape, scaled to covers) and `shopping` (list of strings).
"""


def _outputs(body: str) -> dict[str, object]:
    return {n.name: n.schema_ for n in read_instructions(body, "SKILL.md").outputs}


def test_a_freight_skill_hands_back_the_lines_it_read_inside_the_order() -> None:
    items = _outputs(_FREIGHT)["lines"]
    assert items == {"type": "array", "items": {"type": "object",
                                                "properties": {"sku": {}, "qty": {}, "unit_weight_kg": {}}}}


def test_a_lab_skill_and_a_kitchen_skill_too() -> None:
    assert set(_outputs(_LAB)["wells"]["items"]["properties"]) == {"well", "sample_id", "od_raw"}  # type: ignore[index]
    assert set(_outputs(_RECIPE)["dishes"]["items"]["properties"]) == {"dish", "covers", "prep_notes"}  # type: ignore[index]


def test_no_list_of_that_name_or_two_of_them_or_no_same_says_nothing() -> None:
    assert same_list_items("Inputs: `order` (object with `rows`: list of `{a, b}`).", "lines") is None
    two = "`lines`: list of `{a, b}` in v1; in v2 `lines`: list of `{a, c}`."
    assert same_list_items(two, "lines") is None
    other = _FREIGHT.replace("(same fields, sku upper-cased)", "(one per parcel)")
    assert _outputs(other)["lines"] is None


def test_a_field_the_text_names_for_a_name_the_items_do_not_carry() -> None:
    assert renamed_item_field("notes", {"obj_id", "arrival_notes"}, "its id and its arrival notes", close_names) \
        == "arrival_notes"
    assert renamed_item_field("weight", {"sku", "unit_weight"}, "each line's `unit_weight` and qty", close_names) \
        == "unit_weight"
    assert renamed_item_field("date", {"dish", "prep_date"}, "cook on the prep-date", close_names) == "prep_date"


def test_no_item_field_when_the_text_does_not_name_it_or_two_are_close() -> None:
    assert renamed_item_field("notes", {"obj_id", "arrival_notes"}, "its id and its notes", close_names) is None
    assert renamed_item_field("notes", {"arrival_notes", "exit_notes"}, "arrival notes, exit notes",
                              close_names) is None
    assert renamed_item_field("notes", {"footnotes"}, "the footnotes", close_names) is None


def test_a_count_from_a_named_step_is_its_one_count_field() -> None:
    assert count_field("count", "number of objects", {"worst_grade", "flagged", "n"}) == "n"
    assert count_field("n", "the count of rows", {"rows", "row_count"}) == "row_count"
    assert count_field("num", "how many crates", {"crates", "n_crates"}) == "n_crates"


def test_no_count_field_for_another_name_other_words_or_two_counts() -> None:
    assert count_field("weight", "number of objects", {"n"}) is None
    assert count_field("count", "the objects", {"n"}) is None
    assert count_field("count", "number of objects", {"n", "total"}) is None


def test_the_count_is_read_where_the_step_says_it_comes_from() -> None:
    earlier = [Earlier(id="step-1", number=1, label="Weigh crates weigh-crates", fields=frozenset({"crates", "kg"})),
               Earlier(id="step-2", number=2, label="Tally tally-crates", fields=frozenset({"n", "short"}))]
    alias = said_alias("count", "Label: takes the dock, number of crates from the tally", {}, earlier, ["count"])
    assert alias is not None and (alias.step, alias.field) == ("step-2", "n")
    assert said_alias("count", "Label: takes the dock and the crates", {}, earlier, ["count"]) is None
