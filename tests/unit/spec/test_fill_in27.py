"""A value written right after an input's own name is the step's literal (`spec.fill_in27`)."""

from __future__ import annotations

from orchestrator.spec.fill_in27 import fill_in_said, fill_ins


def test_a_delivery_docket_lists_its_values_after_their_names() -> None:
    text = "3) LOAD - pallet-plan for the van: pallet_limit 24, dock_door 7, load_by 05:45.\n"
    assert fill_ins(text) == {"pallet_limit": (24, "pallet_limit 24"), "dock_door": (7, "dock_door 7"),
                              "load_by": ("05:45", "load_by 05:45")}


def test_a_theatre_show_report_gives_a_decimal_and_a_time_at_the_line_ends() -> None:
    text = ("Interval - `bar-stock` with house_size 412 and\n"
            "  interval_minutes 20\nCurtain: curtain_up: 19:30; `show-log` after.\n")
    assert fill_in_said("house_size", text) == (412, "house_size 412")
    assert fill_in_said("interval_minutes", text) == (20, "interval_minutes 20")
    assert fill_in_said("curtain_up", text) == ("19:30", "curtain_up: 19:30")


def test_a_purchase_order_gives_a_backticked_name_a_rate() -> None:
    text = "Price it with `po-total`, `vat_rate` 0.2, then send it."
    assert fill_in_said("vat_rate", text) == (0.2, "`vat_rate` 0.2")


def test_a_dotted_line_left_blank_is_an_input_not_a_value() -> None:
    text = ("  DATE: ............ (shoot_date)      LOCATION: .......... (location)\n"
            "  DELIVERY NOTE No. ........ (note_no)\n")
    assert fill_ins(text) == {}


def test_a_number_that_goes_on_is_no_value_of_the_name_before_it() -> None:
    assert fill_in_said("retry_count", "set retry_count 3 times over, then stop") is None
    assert fill_in_said("page_size", "page_size 50 rows per page") is None
    assert fill_in_said("build_no", "build_no 2026.05.01 is cut") is None


def test_a_pair_in_a_condition_is_no_value() -> None:
    assert fill_in_said("error_rate", "stop the rollout if error_rate 5, and page") is None
    assert fill_in_said("queue_depth", "when queue_depth 100; scale out") is None


def test_a_name_said_with_two_values_takes_neither() -> None:
    assert fill_in_said("day_hours", "day_hours 10, later day_hours 12.") is None
    assert fill_in_said("day_hours", "day_hours 10, again day_hours 10.") == (10, "day_hours 10")


def test_a_plain_word_before_a_number_is_no_name() -> None:
    assert fill_ins("Retry 3, wait 10. Chapter 4.") == {}
