"""An input named with the earlier step it comes from, the step called by its mark: "<input> from <step>".

    | Fed by | site name; booking_ref, crew from whichever of C/D ran; day from B |
        `day` <- step B's `window_day` (B outputs no `day`; `window_day` is its one output ending in "day")
    Takes: batch from (2), label from step 3
    - needs: total from C

A table cell, a labelled line or a list of inputs names each input and, after "from", the step whose
output it is: by the letter or number its heading or list item opens with ("## B. Find a window",
"C) ...", "3. ..."), by "(c)" or by "step N". The field is that step's output of the input's name; else
the one of its outputs whose name has the input's name as a whole word (`window_day` for `day`), said
as read by words (the caller warns); no such step, no such field, or several: the input is left to the
other rules. Only a clause that is exactly "<input> from <step>" is read: "the list from B" or
"crew from whichever of C/D ran" are not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from orchestrator.plan.list35 import Before, Handoff
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CLAUSES = _rx(r"[,;|]|\.(?=\s|$)|\n")
_FROM = _rx(r"^[ \t]*+(?:[-*][ \t]++)?+(?:[A-Za-z]++[ \t]*+:[ \t]*+)?+`?([A-Za-z_]\w{0,40}+)`?[ \t]++from[ \t]++"
            r"(?:\(([A-Za-z]|\d{1,2}+)\)|(?i:step)[ \t]++([A-Za-z]|\d{1,3}+)|([A-Z]|\d{1,2}+))[ \t]*+$")
# the mark a step's heading or list item opens with: "## B. Find ...", "C) ...", "(3) ...", "Step 4: ..."
_OPENS = _rx(r"^[ \t]*+(?:#{1,6}+[ \t]++)?+(?:[-*][ \t]++)?+(?:(?i:step)[ \t]++)?+\(?+([A-Za-z]|\d{1,2}+)[).:][ \t]")


def opening_mark(first_line: str) -> str:
    """The letter or number a step's first line opens with (heading marks too), lower case, or ""."""
    m = _OPENS.match(first_line)
    return m.group(1).lower() if m else ""


def _field(name: str, fields: Sequence[str]) -> tuple[str, bool] | None:
    if name in fields:
        return name, False
    word = name.lower()
    found = [f for f in fields if word in f.lower().split("_") and f.lower() != word]
    return (found[0], True) if len(found) == 1 else None


def said_from(texts: Iterable[str], reads: Sequence[str], before: Sequence[Before],
              mark_of: Callable[[Before], str]) -> dict[str, Handoff]:
    """input -> the earlier step's field each "<input> from <step>" clause of `texts` names (module docstring).
    `mark_of(step)`: the mark its first line opens with, asked only for a clause that reads so."""
    if not before or not reads:
        return {}
    wanted = set(reads)
    found: dict[str, Handoff] = {}
    marks: dict[str, str] | None = None
    for text in texts:
        for clause in _CLAUSES.split(text):
            m = _FROM.match(clause)
            if m is None or m.group(1) not in wanted or m.group(1) in found:
                continue
            if marks is None:
                marks = {b.id: mark_of(b) for b in before}
            ref = (m.group(2) or m.group(3) or m.group(4)).lower()
            steps = [b for b in before if marks[b.id] == ref]
            if not steps and ref.isdigit() and not m.group(4):
                steps = [b for b in before if str(b.position) == ref]
            if len(steps) != 1:
                continue
            field = _field(m.group(1), steps[0].fields)
            if field is not None:
                found[m.group(1)] = Handoff(step=steps[0].id, field=field[0], words=" ".join(clause.split()),
                                            guessed=field[1])
    return found


_rx.save()
