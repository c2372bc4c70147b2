"""A steps sheet's cells that say when a row starts, and names typed in capitals.

    | #  | JOB         | WAIT FOR | NOTES                              |
    | 2  | FLOUR CHECK |          | starts same time as 1, dont wait   |  -> starts with step-1 (waits for nothing it doesn't)
    | 4  | Pack        |          | alongside row 3                    |  -> starts with step-3
    | 5  | Shelve      |          | goes with 4, no need to wait       |  -> starts with step-4
    | 3  | Lunch       |          | wait for it, the hall is busy      |  -> nothing: no row is named
    | 6  | Count       |          | same time as 5 finishes            |  -> nothing: after it, not beside it

    | FEED IT |
    | ORDERS  |  -> the input `orders`: a plain word typed in capitals, as the sheet writes its headers

In a sheet (CSV/TSV or a markdown steps table) the rows are numbered, so a notes or "wait for" cell names
another row by its bare number: "starts same time as 1" says the row starts together with row 1 (it waits
for what row 1 waits for, `StepSpec.starts_with`), not after the row above it. The words "dont wait",
"no need to wait", "no waiting" beside it say the same thing again and are taken with it (they are no
retry wait). A name cell may say it in a bracket at its end, "Mileage (same time as 1, doesnt need it)":
the row starts with row 1 and is named "Mileage" (`aside_start`). A cell that only chats ("shop + wholesale together", "wait for it") names no row and is
left to the other readers; "same time as 5 finishes" is an order, not a start together.

A name in a takes-cell typed in capitals as a plain word ("ORDERS", no underscore or digit, which an
environment variable or a CI file's name has: `DB_NAME` keeps its case) is the author's shouting, as
a sheet writes its headers: it is read in lower case, the name a skill reads, warned.
"""

from __future__ import annotations

from orchestrator.spec.fields import split_top
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.start_together import ends_after

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "starts same time as 1", "at the same time as row 2", "alongside #3", "goes with 4", "together with 2"
_TOGETHER = (r"(?:(?:at\s++)?(?:the\s++)?same\s++time\s++as|alongside|together\s++with|in\s++parallel\s++with|"
             r"parallel\s++(?:with|to))")
_BESIDE_ROW = _rx(
    r"(?i)(?<!\w)(?:(?:starts?|runs?|goes|go|begins?)\s++(?:" + _TOGETHER + r"|with)|" + _TOGETHER + r")\s++"
    r"(?:(?:row|line|job|step|no\.?|#)\s*+)?(?P<n>\d{1,3}+)(?=\s*+(?:[,;)]|\.(?!\d)|$)|\s++[-–—:]\s)")
# the same said again: "dont wait", "don't wait for it", "no need to wait", "no waiting"
_NO_WAIT = _rx(r"(?i)^\W*+(?:(?:do\s*+n[o'’]?t|do\s++not|no\s++need\s++to)\s++wait(?:\s++for\s++(?:it|them|that|\d{1,3}+))?|"
               r"no\s++waiting|without\s++waiting)\W*+$")
_SHOUTED = _rx(r"^[A-Z]{3,40}+$")


def start_note(cell: str) -> tuple[int, str] | None:
    """(the row number the cell says this row starts with, the cell's words left once the start and a
    "dont wait" beside it are taken), or None (module docstring)."""
    m = _BESIDE_ROW.search(cell)
    if m is None or ends_after(cell, m.end()):
        return None
    rest = [p.strip().lstrip("-–—: ") for p in (cell[:m.start()] + "," + cell[m.end():]).replace(";", ",").split(",")]
    left = [p for p in rest if p.strip(" .-") and not _NO_WAIT.match(p)]
    return int(m.group("n")), ", ".join(left)


# "Mileage (same time as 1, doesnt need it)": a name cell with a start said in its bracket at its end
_NAME_ASIDE = _rx(r"^(?P<name>[^()\n]{1,120}+)\((?P<aside>[^()\n]{1,160}+)\)\s*+$")


def aside_start(name: str) -> tuple[int, str] | None:
    """(the row number a name cell's closing bracket says the row starts with, the name without the
    bracket), or None: "Mileage (same time as 1, doesnt need it)" -> (1, "Mileage")."""
    m = _NAME_ASIDE.match(name) if len(name) <= 300 else None
    said = start_note(m.group("aside")) if m is not None else None
    if m is None or said is None or not m.group("name").strip():
        return None
    return said[0], m.group("name").strip()


def shouted_name(part: str) -> str | None:
    """The lower-case name a takes-cell part typed in capitals as a plain word stands for, or None."""
    word = part.strip().strip("`")
    return word.lower() if _SHOUTED.match(word) else None


# "OVEN LOADS says fits (last tray out by half six)": a row's name, a verb of saying, one of its outputs
_SAYS_FLAG = _rx(r"(?i)^(?:the\s++)?(?P<who>[A-Za-z][\w -]{0,60}?)\s++(?:says|shows|reports|answers|gives)\s++"
                 r"(?P<field>[A-Za-z_]\w{0,60}+)\s*+(?P<aside>\([^()]{0,120}+\))?\s*+\.?$")


def said_flag(clause: str, name: str, outputs: frozenset[str]) -> str | None:
    """The output a done-line says as what the row named `name` says ("OVEN LOADS says fits": `fits`, a
    yes/no that must be true), or None when the clause does not start with that row's name or the word
    after the verb is not one of its outputs."""
    m = _SAYS_FLAG.match(clause.strip())
    if m is None or " ".join(m.group("who").lower().split()) != " ".join(name.lower().split()):
        return None
    return m.group("field") if m.group("field") in outputs else None


# "date = trip date": a name given the author's own words for a value, in lower case, no source said
_OWN_WORDS = _rx(r"^\s*+`?+(?P<name>[A-Za-z_]\w{0,60}+)`?+\s*+=\s*+(?P<words>[a-z][a-z'’ -]{0,60}+)$")
_NOT_OWN = _rx(r"(?i)\b(?:from|step|row|same|whichever|output|result)\b")


def own_words(cell: str) -> list[tuple[str, str]]:
    """(name, the words) for each takes-cell part that gives a name the author's own words for a value
    ("date = trip date"), which the inputs said in prose are matched by (`plan.prose_inputs.author_name`)."""
    out: list[tuple[str, str]] = []
    for part in split_top(cell, ",;"):
        m = _OWN_WORDS.match(part.strip())
        if m is not None and not _NOT_OWN.search(m.group("words")) and len(m.group("words").split()) <= 4:
            out.append((m.group("name"), " ".join(m.group("words").split())))
    return out


# "transport_cost = cost from whichever of 3/4 happened", "price from either of rows 2 or 5 ran"
_WHICHEVER_ROWS = _rx(r"(?i)^\s*+(?:`?+(?P<name>[A-Za-z_]\w{0,60}+)`?+\s*+=\s*+)?(?P<words>[A-Za-z_][\w ]{0,40}?)\s++"
                      r"(?:from|of|out\s++of)\s++(?:whichever|either)\s++(?:one\s++)?(?:of\s++)?(?:(?:the\s++)?(?:rows?|steps?|jobs?|#)\s*+)?"
                      r"(?P<a>\d{1,3}+)\s*+(?:/|or|and|,|&)\s*+#?\s*+(?P<b>\d{1,3}+)(?:\s++[a-z]{2,12}+){0,2}+\s*+$")
# "vehicle from same", "vehicle from the same one": the rows the part before named
_FROM_SAME = _rx(r"(?i)^\s*+(?:`?+(?P<name>[A-Za-z_]\w{0,60}+)`?+\s*+=\s*+)?(?P<words>[A-Za-z_]\w{0,40}+)\s++"
                 r"(?:from|of)\s++(?:the\s++)?same(?:\s++(?:one|ones|rows?|steps?))?\s*+$")


def whichever_rows(cell: str) -> list[tuple[str, str, tuple[int, ...]]]:
    """(input name, the field's words, the rows) for each takes-cell part that takes a value from whichever
    of two numbered rows ran ("transport_cost = cost from whichever of 3/4 happened"), and for a part "from
    same" after it ("vehicle from same": the same rows, the field its own name)."""
    out: list[tuple[str, str, tuple[int, ...]]] = []
    rows: tuple[int, ...] = ()
    for part in split_top(cell, ",;"):
        m = _WHICHEVER_ROWS.match(part)
        if m is not None:
            rows = (int(m.group("a")), int(m.group("b")))
            words = " ".join(m.group("words").split())
            out.append(((m.group("name") or words).replace(" ", "_"), words.replace(" ", "_"), rows))
        elif rows and (same := _FROM_SAME.match(part)) is not None:
            out.append((same.group("name") or same.group("words"), same.group("words"), rows))
    return out


def lower_shouted(cell: str) -> tuple[str, list[str]]:
    """The takes-cell with each part typed in capitals as a plain word in lower case, and those words."""
    parts = [p.strip() for p in split_top(cell, ",;")]
    said = [p for p in parts if shouted_name(p) is not None]
    return ", ".join(shouted_name(p) or p for p in parts if p), said


_rx.save()
