"""`spec.outline39.path_patterns`: an outline item named by its number with its sub-item's letter in brackets
("2(b)", "step 2(b)", "1 (a)", "3(ii)") is that step, as "II.B" is; another document's "4(b) of the lease"
and a label no item has stay as written. Documents of our own: a kitchen close-down list and a school
trip plan; none is a fixture's."""

from __future__ import annotations

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.outline39 import path_patterns
from orchestrator.spec.vocabulary import Vocabulary

WORDS = Vocabulary.of([(n, None) for n in (
    "count-stock", "place-order", "book-cleaner", "log-temps", "book-coach", "send-consent", "chase-forms")])

KITCHEN = """Kitchen close-down

1. Stock
   (a) Count the fridge with count-stock.
   (b) Order what is short from 1(a) with place-order.
2. Clean
   (a) Book the deep clean with book-cleaner once step 1(b) is done.
   (b) Log the fridge temps with log-temps; use the count from 1 (a). Clause 1(b) of the lease says
       the landlord checks them; 3(c) is not ours.
"""

TRIP = """Year 8 trip plan

1. Transport
   (i) Book the coach with book-coach.
   (ii) Order the packed lunches with place-order.
2. Families
   (i) Send the consent letters with send-consent, naming the coach from 1(i).
   (ii) Chase the forms still out with chase-forms after Step 2(i).
"""


def _read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", WORDS)


def _texts(spec: WorkflowSpec) -> list[str]:
    return [" ".join(t.text for t in s.texts) for s in spec.steps]


def test_a_number_with_its_letter_in_brackets_names_the_step() -> None:
    spec = _read(KITCHEN)
    texts = _texts(spec)
    assert "short from step 1 with" in texts[1]
    assert "once step 2 is done" in texts[2] and spec.steps[2].depends_on == ("step-2",)
    assert "count from step 1." in texts[3]


def test_roman_sub_items_in_brackets_and_step_in_capitals() -> None:
    spec = _read(TRIP)
    texts = _texts(spec)
    assert "coach from step 1." in texts[2]
    assert "after step 3." in texts[3]


def test_negative_another_documents_item_and_a_label_no_item_has_stay() -> None:
    texts = _texts(_read(KITCHEN))
    assert "Clause 1(b) of the lease" in texts[3] and "3(c) is not ours" in texts[3]
    assert len(path_patterns(["3.1"])) == 1  # a dotted number alone: no bracket form
