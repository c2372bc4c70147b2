"""A success check said of what a lettered or numbered step comes back with (`spec.success_back27`), the
thing the run makes "'s good when" (`spec.success`), and a sentence that ends on a cut-short time unit."""

from __future__ import annotations

from orchestrator.spec.step_prose import sentences
from orchestrator.spec.success import success_clause
from orchestrator.spec.success_back27 import step_said_back


def test_a_call_sheet_s_publish_row_is_named_by_its_letter() -> None:
    assert step_said_back("D comes back published = true", {"A": 1, "D": 4}, 4) == (
        4, "published = true", "its row label 'D' names it")


def test_a_docket_names_its_step_by_number_and_says_with() -> None:
    assert step_said_back("step 3 came back with posted = yes", {}, 4) == (3, "posted = yes", "'step 3' names it")


def test_an_order_form_s_row_returns_its_field() -> None:
    assert step_said_back("B returns sent == true", {"A": 1, "B": 2}, 2) == (2, "sent == true", "its row label 'B' names it")


def test_a_label_no_step_has_or_a_step_past_the_last_is_none() -> None:
    assert step_said_back("E comes back published = true", {"D": 4}, 4) is None
    assert step_said_back("step 9 comes back ok = true", {}, 4) is None
    assert step_said_back("the van comes back empty", {"A": 1}, 4) is None


def test_the_thing_the_run_makes_is_good_when() -> None:
    assert success_clause("Sheet's good when D comes back published = true.") == "D comes back published = true"
    assert success_clause("The docket's done once `signed` is true.") == "`signed` is true"
    assert success_clause("Tom's good if needed.") is None


def test_a_time_with_its_unit_cut_short_ends_the_sentence_before_a_capital() -> None:
    said = [s for _, s in sentences("Whole build has 30 mins. Sheet's good when it is out.")]
    assert said == ["Whole build has 30 mins.", "Sheet's good when it is out."]
    assert len(sentences("Wait 5 mins. then go on.")) == 1  # no capital after it: the same sentence
    assert len(sentences("Allow approx. Two tries.")) == 1  # no time before it: the abbreviation
