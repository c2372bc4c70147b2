"""Two parts of a sentence that lists what the run is given, both matching one name a skill reads
("the EDC listing export" and "the safety case listing" for `listing`), are neither read: the warning
names both, rather than one silently taking the name (`plan.prose_inputs`)."""

from __future__ import annotations

from orchestrator.plan.prose_inputs import prose_inputs


def test_two_parts_for_one_name_are_neither_read_and_both_are_named() -> None:
    said = [("the bar tab sheet", "w.md:3"), ("the kitchen order sheet", "w.md:3"), ("the table count", "w.md:3")]
    reads = {"sheet": ("", False), "table_count": ("", False)}  # a restaurant close-out
    found, warnings = prose_inputs(said, reads, [], [], "w.md")
    assert [i.name for i in found] == ["table_count"]
    assert len(warnings) == 1 and "'the bar tab sheet', 'the kitchen order sheet'" in warnings[0].message
    assert "`sheet`" in warnings[0].message


def test_one_part_per_name_is_read_as_before() -> None:
    said = [("the tide sheet", "log.md:2"), ("the crew count", "log.md:2")]  # a harbour log
    found, _ = prose_inputs(said, {"sheet": ("", False), "crew_count": ("", True)}, [], [], "log.md")
    assert [(i.name, i.required) for i in found] == [("sheet", True), ("crew_count", False)]
