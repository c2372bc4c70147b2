"""A numbered item whose sentence wraps onto a line that opens with a number (round 47).

Plain text typed to a fixed width (a fax, an email, a memo) wraps a numbered item's sentence at any
word, so a line may open with the number a sentence names: "2. draft - the name and the time from\n
   1. Gives you the text." The "1." there is the step the sentence cites, not an item under item 2.
Read as the item going on (`goes_on`, asked by `spec.outline`) when both hold:

- the line before ends mid-sentence, on a word that needs what follows ("from", "of", "to", "after",
  "than", "and", "the", ...), with no stop, colon or dash after it;
- the number is bare ("1.", "2)"), and the line is indented deeper than the item's own number and no
  deeper than its text (a wrapped line lines up under the text; the next item at the margin, or a sub-item
  under "Do these:", still reads as one).

"Check these:\n   1. the totals" stays a sub-item (a colon ends the line); so does "the time from"
followed by "   a. Gives" (a letter is no step's number). Such a line is no note keyed by that number either
(`continues_line`, asked by `spec.cue_notes`). Every pattern is linear.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a word a sentence cannot stop on: a preposition, a conjunction, an article ("the dough step" may end one)
_OPEN_END = _rx(
    r"(?i)(?:^|\s)(?:from|of|to|in|into|at|by|with|after|before|than|over|under|and|or|the|a|an|as|per|"
    r"no\.|#)\s*+$")
_BARE_NUMBER = _rx(r"^\d{1,3}[.)]$")


def goes_on(before: str, label: str, indent: int, content: int, depth: int = -1) -> bool:
    """Whether an outline item `label` opening a line indented `indent` continues the sentence that ends
    the line before (`before`), in an item whose marker is at column `depth` and whose text starts at
    column `content` (module docstring): deeper than the marker, no deeper than the text."""
    if not before.strip() or _BARE_NUMBER.match(label.strip()) is None or not depth < indent <= content:
        return False
    return _OPEN_END.search(before.rstrip()) is not None


_INDENTED_NUMBER = _rx(r"^([ \t]++)(\d{1,3}[.)])[ \t]")


def continues_line(before: str, line: str) -> bool:
    """Whether `line`, indented and opening with a bare number ("   1. Gives you ..."), goes on with the
    sentence `before` leaves open ("... and the time from"): no note keyed by that number (`spec.cue_notes`)."""
    m = _INDENTED_NUMBER.match(line)
    return m is not None and goes_on(before, m.group(2), len(m.group(1)), len(m.group(1)))


_rx.save()
