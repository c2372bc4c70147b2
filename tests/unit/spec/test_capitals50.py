"""Comments and rules written all in capitals (a JCL deck's, round 50): a wrapped line goes on from the one above
unless it opens a rule of its own; 'carry on as x = v' keeps its pairs when another clause follows; the names in a
sentence all in capitals are the lower-case fields."""

from __future__ import annotations

from orchestrator.spec.key_comments27 import _joined
from orchestrator.spec.phrase import read_phrase


def test_a_capitals_line_goes_on_from_the_one_above_unless_it_opens_a_rule() -> None:
    said = [(5, "THE LEDGER SERVICE IS SLOW ON FRIDAYS SO GIVE IT A TIMEOUT OF 4 MIN AND"),
            (6, "RETRY IT ONCE."), (7, "NEVER SEND IT TWICE")]
    assert _joined(said) == [(5, said[0][1] + " RETRY IT ONCE."), (7, "NEVER SEND IT TWICE")]
    said = [(1, "PRINTER JAMS A LOT AT THE START OF THE SHIFT - TIMEOUT 30 SEC, THEN ONE"), (2, "MORE GO AFTER 1 MIN")]
    assert _joined(said)[0][1].endswith("ONE MORE GO AFTER 1 MIN")
    # near-miss: mixed case keeps the old rule (a capital starts a line of its own)
    said = [(1, "The ledger service is slow on Fridays so give it a timeout of 4 min and"), (2, "Retry it once.")]
    assert len(_joined(said)) == 2
    said = [(1, "ONE LETTER PER ACCOUNT, EACH OF THEM ON ITS OWN SHEET OF PAPER FOR THE"), (2, "IF ONE FAILS RETRY")]
    assert len(_joined(said)) == 2


def _value(text: str) -> object:
    st = read_phrase(text, frozenset()).statement
    return st.on_failure.value if st.on_failure is not None else None


def test_carry_on_as_pairs_then_another_clause_keeps_the_pairs() -> None:
    assert _value("if the archive is down carry on as archived = false and we redo it monday") == {"archived": False}
    assert _value("IF THE SCANNER WONT ANSWER KEEP GOING AS SCANNED=NO, WE CHECK BY HAND") == {"scanned": False}
    # near-miss: a pair then "and" then another pair is two pairs, not a clause
    assert _value("if it fails carry on as sent = no and ref = PAPER") == {"sent": False, "ref": "PAPER"}
