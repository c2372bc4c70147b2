"""What the steps before make, as the fan-out reader asks it: the nearest step wins, a loop's
lists are its gathered results (not lists to loop over), and a typed field that is no list is
not one to loop over."""

from __future__ import annotations

from orchestrator.plan.fan_made import Made


def obj(**props: dict[str, object]) -> dict[str, object]:
    return {"type": "object", "properties": props}


ARRAY: dict[str, object] = {"type": "array"}


def test_the_nearest_step_with_a_list_of_the_items_wins() -> None:
    made = Made()
    made.add("step-1", obj(prs=ARRAY), loop=False)
    made.add("step-2", obj(title={"type": "string"}), loop=False)
    made.add("step-3", obj(prs=ARRAY, countries=ARRAY), loop=False)
    assert made.nearest_list(["pr"], ()) == "step-3"
    assert made.nearest_list(["country"], ()) == "step-3"
    assert made.nearest_list(["title"], ()) is None
    assert made.lists == ["step-1.prs", "step-3.prs", "step-3.countries"]
    assert made.fields == {"prs", "title", "countries"}


def test_a_counted_noun_finds_a_list_by_its_name_or_its_singular() -> None:
    made = Made()
    made.add("step-1", obj(rows=ARRAY), loop=False)
    made.add("step-2", obj(items=ARRAY), loop=False)
    assert made.nearest_list(["entry"], ("rows",)) == "step-1"
    assert made.nearest_list(["entry"], ("row",)) == "step-1"
    assert made.nearest_list(["entry"], ()) is None


def test_a_loops_lists_are_not_lists_to_loop_over_but_its_fields_are_made() -> None:
    made = Made()
    made.add("step-1", obj(prs=ARRAY), loop=False)
    made.add("step-2", obj(prs=ARRAY), loop=True)
    assert made.nearest_list(["pr"], ()) == "step-1"
    assert made.nearest_named(["prs"]) == ("step-1", "prs")
    assert "prs" in made.fields and made.lists == ["step-1.prs"]


def test_a_named_field_is_a_list_or_untyped_and_the_first_name_wins_at_one_step() -> None:
    made = Made()
    made.add("step-1", obj(top=ARRAY), loop=False)
    made.add("step-2", obj(top={"type": "integer"}, Rows={}), loop=False)
    assert made.nearest_named(["top"]) == ("step-1", "top")  # step-2's `top` is a number
    assert made.nearest_named(["rows", "top"]) == ("step-2", "Rows")
    made.add("step-3", obj(top=ARRAY, rows=ARRAY), loop=False)
    assert made.nearest_named(["rows", "top"]) == ("step-3", "rows")
    assert made.nearest_named(["nothing"]) is None
