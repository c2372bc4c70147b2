"""The run's inputs in the author's own words, each bound to the skill input it is (`plan.own_inputs54`)."""

from __future__ import annotations

from orchestrator.plan.own_inputs54 import own_inputs


def _names(parts: list[str], reads: dict[str, tuple[str, bool]], made: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    found, warned = own_inputs([(p, "x.txt:3") for p in parts], reads, made, (), "x.txt")
    assert warned and warned[0].line == 3
    return [(i.name, i.description.rsplit("for skill input ", 1)[1] if "for skill input " in i.description else "")
            for i in found]


def test_each_part_is_named_as_said_and_bound_to_the_skill_input_it_is() -> None:
    reads = {"client": ("", False), "postcode": ("", False), "start_date": ("", False), "end_date": ("", False)}
    assert _names(["the customer's name", "the property postcode", "the day they'd like"], reads, ("end_date",)) == [
        ("customer_name", "client"), ("property_postcode", "postcode"), ("wanted_day", "")]
    reads = {"customer": ("", False), "from_date": ("", False)}
    assert _names(["the client's name", "the date you'd prefer"], reads) == [
        ("client_name", "customer"), ("wanted_date", "from_date")]


def test_a_part_that_says_the_skill_s_own_name_keeps_it() -> None:
    assert _names(["the booking ref", "the week number"], {"booking_ref": ("", False), "week": ("", False)}) == [
        ("booking_ref", ""), ("week", "")]


def test_a_part_no_skill_reads_is_the_author_s_input_and_said_not_matched() -> None:
    found, warned = own_inputs([("miles out", "x.txt:2")], {"start_miles": ("", False)}, (), (), "x.txt")
    assert [i.name for i in found] == ["miles_out"]
    assert "not matched" in warned[0].message
    # two dates a step reads and none outputs: a wished-for date is neither
    assert _names(["the date they'd like"], {"from_date": ("", False), "to_date": ("", False)}) == [("wanted_date", "")]
