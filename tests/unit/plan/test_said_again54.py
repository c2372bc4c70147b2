"""A step whose text holds the list of the run's inputs and names one again in the same words: the author's
name for it (`plan.said_again54`, through `plan.prose_inputs.author_name`)."""

from __future__ import annotations

from orchestrator.plan.prose_inputs import author_name
from orchestrator.plan.said_again54 import said_again


def test_a_shift_memo_that_names_the_tank_reading_again_calls_it_so() -> None:
    memo = ("Night shift. What it needs: the site, the tank reading from the dipstick. "
            "Then check-tank runs on the site and the tank reading.")
    parts = ["the site", "the tank reading from the dipstick"]
    assert author_name("the tank reading from the dipstick", "reading", memo, parts) == "tank_reading"


def test_a_voice_note_that_says_the_hive_weight_twice_calls_it_so() -> None:
    note = ("ok so you give it the apiary and the hive weight off the scale, right, "
            "and weigh-hive takes the apiary and the hive weight")
    parts = ["the apiary", "the hive weight off the scale"]
    assert author_name("the hive weight off the scale", "weight", note, parts) == "hive_weight"


def test_a_memo_that_says_the_words_only_in_its_list_keeps_the_skill_s_name() -> None:
    memo = "so what you'll need is the tide table and the crew list, then run it on the table"
    parts = ["the tide table", "the crew list"]
    assert author_name("the tide table", "table", memo, parts) == "table"


def test_said_again_counts_the_list_as_often_as_the_step_holds_it() -> None:
    part = ["the", "tide", "table"]
    twice = [*part, "and", *part]
    assert not said_again(twice, [part], ["tide", "table"])
    assert said_again([*part, "then", "tide", "table"], [part], ["tide", "table"])
    assert not said_again(part, [part], [])
