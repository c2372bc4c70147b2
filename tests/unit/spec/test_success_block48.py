"""A block warned "not read (not a step)" that is all one sentence, later read as the run's success check, loses
that warning even when the sentence is longer than the 60 characters the warning shows ("4. COMPLETION" over
"Only counts as complete when ..."): the success reading says what became of it (`spec.whole_net`). Texts: a
kennel's intake protocol, a print shop's job sheet; near-miss: a block that says more after the sentence keeps
its warning."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

_KENNEL = """\
WILLOWBANK KENNELS            INTAKE PROTOCOL K-3
--------------------------------------------------

1. METHOD
   a) Scan the chip: chip-scan, with the dog's name.
   b) Book the run: book-run, with the chip_id from (a).

2. OUTCOME
   Only counts as complete when book-run comes back booked = true on the kennel board.

3. NOTES
   Muzzle anything that growls.
"""

_PRINT = """\
HARBOUR PRINT CO              JOB SHEET J-9
-------------------------------------------

1. STEPS
   a) Proof the artwork: proof-art, with the job number.
   b) Print it: press-run, with the proof from (a).

2. HANDOVER
   It is only finished when press-run comes back printed = true for the full order.

3. NOTES
   Keep the offcuts for the recycling bin.
"""

_OUTPUTS = {"chip-scan": frozenset({"chip_id"}), "book-run": frozenset({"booked", "run_no"}),
            "proof-art": frozenset({"proof"}), "press-run": frozenset({"printed", "sheets"})}
_WORDS = Vocabulary.of([(n, None) for n in _OUTPUTS]).with_outputs(lambda n: _OUTPUTS.get(n, frozenset()))


def _unread_at(text: str, line: int) -> list[str]:
    spec = parse_spec_text(text, "p.txt", "markdown", _WORDS)
    return [w.message for w in spec.warnings if w.code == "spec.unread" and w.line == line]


def _success_at(text: str, line: int) -> bool:
    spec = parse_spec_text(text, "p.txt", "markdown", _WORDS)
    return any(w.line == line and "success check" in w.message for w in spec.warnings)


def test_a_long_success_sentence_under_a_caps_label_is_not_warned_unread() -> None:
    assert _success_at(_KENNEL, 9)
    assert not _unread_at(_KENNEL, 8) and not _unread_at(_KENNEL, 9)


def test_another_label_over_a_long_success_sentence_is_not_warned_unread() -> None:
    assert _success_at(_PRINT, 9)
    assert not _unread_at(_PRINT, 8) and not _unread_at(_PRINT, 9)


def test_a_block_that_says_more_keeps_its_warning() -> None:
    text = _KENNEL.replace("on the kennel board.\n", "on the kennel board.\n   Ring the owner if the van is late.\n")
    assert _success_at(text, 9)
    assert _unread_at(text, 8) or _unread_at(text, 9) or _unread_at(text, 10)
