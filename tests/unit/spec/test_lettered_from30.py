"""`spec.lettered_from30`: a field named by the lettered item that makes it ("margin_t from (b)")."""

from __future__ import annotations

from orchestrator.spec.lettered_from30 import rewrite_letters
from orchestrator.spec.log_entries import log_markdown
from orchestrator.spec.vocabulary import Vocabulary

LETTERS = {"a": 1, "b": 2, "c": 3, "d": 4}


def test_shift_log_condition_on_an_earlier_items_field() -> None:
    said = "c) ONLY IF queue_depth from (b) is over 500: scale-out with that queue_depth"
    assert rewrite_letters(said, LETTERS) == "c) ONLY IF queue_depth from step 2 is over 500: scale-out with that queue_depth"


def test_lab_notebook_renamed_handoff() -> None:
    said = "b) dilute-sample -> stock_ml is the volume_ml from (a), target from the sheet"
    assert rewrite_letters(said, LETTERS) == "b) dilute-sample -> stock_ml = step-1.volume_ml, target from the sheet"


def test_ticket_bare_letter_after_fields() -> None:
    said = "d) close-ticket -> refundId (a), `owner` (b), fee_total of (c)."
    assert rewrite_letters(said, LETTERS) == \
        "d) close-ticket -> refundId from step 1, `owner` from step 2, fee_total from step 3."


def test_negatives_plain_words_unknown_letters_and_lists() -> None:
    assert rewrite_letters("the oven (a) is hot", LETTERS) == "the oven (a) is hot"  # not a code-shaped name
    assert rewrite_letters("take spare_parts from (z)", LETTERS) == "take spare_parts from (z)"  # no item z
    assert rewrite_letters("see options (a) list", LETTERS) == "see options (a) list"
    assert rewrite_letters("queue_depth (b)x", LETTERS) == "queue_depth (b)x"
    assert rewrite_letters("queue_depth from (b)", {}) == "queue_depth from (b)"


SHIFT_LOG = """\
NIGHT SHIFT -- plant 3
22:00  JO  Handover done, nothing open.
22:30  JO  Pressure round as follows:
           a) read-gauges -> take the line list.
           b) pressure-model -> inlet_bar is the max_bar from (a).
           c) ONLY IF drop_bar from (b) is over 2: open-bypass with that drop_bar.
           d) shift-note -> max_bar (a), drop_bar (b).
23:10  JO  Kettle broken again.
"""


def test_log_entry_items_get_their_steps_numbers() -> None:
    out = log_markdown(SHIFT_LOG, Vocabulary())
    assert out is not None
    text = out[0]
    assert "inlet_bar = step-1.max_bar" in text
    assert "drop_bar from step 2 is over 2" in text
    assert "max_bar from step 1, drop_bar from step 2" in text


def test_numbered_log_items_are_left_alone() -> None:
    numbered = SHIFT_LOG.replace("a) ", "1) ").replace("b) ", "2) ").replace("c) ", "3) ").replace("d) ", "4) ")
    out = log_markdown(numbered, Vocabulary())
    assert out is not None
    assert "from (a)" in out[0]
