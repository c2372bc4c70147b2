"""A skill input nothing gives binds to the one workflow input whose name is close (a run of its
words at the start or end, the case and underscores aside, a plural): never to one of two."""

from __future__ import annotations

from orchestrator.plan.near_input import near_input


def test_a_skill_input_binds_to_the_declared_input_that_ends_with_its_name() -> None:
    assert near_input("ideas", ["contacts", "subject_ideas", "send_date"]) == "subject_ideas"  # a mail send
    assert near_input("audio", ["episode_audio", "guest"]) == "episode_audio"  # a podcast run sheet
    assert near_input("barcode", ["plate_barcode"]) == "plate_barcode"  # a lab plate reader


def test_case_underscores_and_plurals_are_not_differences() -> None:
    assert near_input("rate_table", ["rateTable"]) == "rateTable"  # a SQL job's parameter
    assert near_input("entry", ["entries"]) == "entries"  # a ledger close
    assert near_input("crew_members", ["crewMember"]) == "crewMember"  # a ship's log


def test_two_close_inputs_a_middle_word_or_a_short_word_bind_nothing() -> None:
    assert near_input("date", ["start_date", "end_date"]) is None  # an HR onboarding checklist: which one?
    assert near_input("id", ["user_id"]) is None  # too short to say
    assert near_input("batch", ["first_batch_size"]) is None  # a word in the middle


def test_a_close_input_is_not_taken_when_the_text_names_another_close_value() -> None:
    text = "takes the `new_version` from whichever bump ran and the notes"
    assert near_input("version", ["current_version"], text) is None
    assert near_input("version", ["current_version"], "takes the version and the notes") == "current_version"
    assert near_input("rate", ["rate_table"], "reads baseRate from the feed") is None
