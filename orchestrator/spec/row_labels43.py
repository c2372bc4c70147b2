"""A steps table's own row labels are how its rows refer to each other: each label is mapped to its row's step.

    CCP | CHECK                               | RUNS
    1   | cook temp: product, core temp       | temp-verify       step-1
    1a  | same time as 1 - allergens          | allergen-lookup   step-2, starts with step-1
    2   | chill: passed (from 1), date        | chill-plan        step-3, `passed` from step-1
    3   | label: allergens (1a), use by (2)   | label-print       step-4, from step-2 and step-3
    4   | file: labelled = printed (3)        | haccp-file        step-5, `printed` from step-4

A table whose rows are numbered in order by the reader (its first column a label the reader does not take as
the step's number, or a number column holding a label such as `1a` that is no number) keeps its steps
numbered by position; where a label is not that position, a reference to it in the row's cells is
rewritten to the step's number: "(3)", "(from 2)", "(row 1a)", "same time as 1", "after #2", "from 3,".
A bare number not in brackets and not followed by an end of phrase is never a row ("after 2 tries",
"from 1 to 5"), and a number that is no label stays as it is. Labels are short: one to three digits and
one optional letter (`1a`, `2B`, `#3`); every row of the table must have one, each its own, and one of
them must be no plain number or not its row's position, else the table is numbered as it was.
One pass over each cell; patterns anchored and bounded.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LABEL = _rx(r"^#?+(\d{1,3}+[A-Za-z]?+)\.?+$")
# a row named by its label in brackets: "(3)", "(from 2)", "(row 1a)", "(see #2)"
_BRACKETED = r"\(\s*+(?:(?:from|see|as\s++in|per)\s++)?+(?:(?:row|line|no\.?|step|ccp)\s*+|#)?+"
# ... or after a word that names a row: "same time as 1", "alongside 1a", "after #2", "from 3,"
_WORDED = (r"(?<!\w)(?:(?:at\s++)?(?:the\s++)?same\s++time\s++as|alongside|together\s++with|in\s++parallel\s++with|"
           r"after|from|row|line)\s++(?:(?:row|line|no\.?|step|ccp)\s*+|#)?+")
_REF = _rx(r"(?i)(?:(?P<open>" + _BRACKETED + r")|(?P<word>" + _WORDED + r"))(?P<label>\d{1,3}+[a-z]?+)(?![\w.])")
_BRACKET_END = _rx(r"(?<!\s)\s*+\)")  # matched right after a label (never inside a run of spaces)
_PHRASE_END = _rx(r"(?<!\s)(?:\s*+(?:[,;)]|\.(?!\d)|$)|\s++[-–—:]\s)")


def row_labels(firsts: list[str], numbered: bool) -> dict[str, int] | None:
    """Each row's label (lower-cased) to its position (1, 2, ...), from the cells of the column that labels
    the rows (`numbered`: a number column the reader takes for the steps' numbers), or None when the
    cells are not all labels, not each its own, or say nothing the positions do not (module docstring)."""
    labels: dict[str, int] = {}
    for position, cell in enumerate(firsts, start=1):
        m = _LABEL.match(cell.strip())
        if m is None or m.group(1).lower() in labels:
            return None
        labels[m.group(1).lower()] = position
    if len(labels) < 2:
        return None
    lettered = any(not label.isdigit() for label in labels)
    moved = any(label != str(position) for label, position in labels.items())
    if not lettered and (numbered or not moved):
        return None  # a number column's numbers are the steps' own; labels that are the positions say nothing
    return labels


def relabel(text: str, labels: dict[str, int]) -> str:
    """The cell's text with each reference to a row by its label written with that row's step number."""
    out: list[str] = []
    at = 0
    for m in _REF.finditer(text):
        label = m.group("label").lower()
        if label not in labels:
            continue
        ends = _BRACKET_END if m.group("open") is not None else _PHRASE_END
        if ends.match(text, m.end()) is None:
            continue  # "after 2 tries", "(2 more)": a count, not a row
        out.append(text[at:m.start("label")])
        out.append(str(labels[label]))
        at = m.end()
    out.append(text[at:])
    return "".join(out)


_rx.save()
