"""What each column of a steps table holds, read from its header's words.

    | # | Task | Tool | Uses | After | Only when | If it fails | Who | Comments |
      number name skill input depends when       (policy)      ?     notes

A header is matched whole ("Only when"), then by its start ("Timeout (s)", "Notes for ops"),
then each of its alternatives ("Tool/skill", "Skill or script"). Two words that mean the skill
alone can mean something else beside a column that already names it: "Uses" and "Needs" next
to a Tool column say what the step takes, not which skill runs. A "Needs" cell that lists only
step numbers ("1, 2", "#3") is the step's dependencies; any other is what it takes (`needs_key`).
A column about failure ("If it fails", "On failure") is the policy reader's, so it is not
reported as a column that was not understood; every other header no field takes is (by
`step_forms.table_steps`, at the table's line).
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.step import LABELS

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COLUMNS: tuple[tuple[str, str], ...] = (
    ("#", "number"), ("no", "number"), ("nr", "number"), ("number", "number"), ("n", "number"),
    ("step #", "number"), ("step no", "number"), ("id", "id"),
    ("step", "name"), ("name", "name"), ("title", "name"), ("what", "name"), ("task", "name"),
    ("action", "name"), ("stage", "name"), ("job", "name"),
    ("notes", "notes"), ("note", "notes"), ("description", "notes"), ("details", "notes"),
    ("comments", "notes"), ("comment", "notes"), ("how", "notes"), ("what it does", "notes"),
    ("max attempts", "attempts"), ("attempts", "attempts"), ("max tries", "attempts"),
    ("runs when", "when"), ("run when", "when"), ("runs if", "when"), ("run if", "when"), ("when", "when"),
    ("condition", "when"), ("only if", "when"), ("only when", "when"), ("if", "when"), ("guard", "when"),
    ("runs only if", "when"), ("runs only when", "when"), ("executes when", "when"),
    ("script", "skill"), ("skill script", "skill"), ("command", "skill"), ("program", "skill"),
    ("gives back", "output"), ("hands back", "output"), ("comes back with", "output"), ("get back", "output"),
    ("feed it", "input"), ("give it", "input"), ("hand it", "input"), ("what goes in", "input"),
    ("goes in", "input"), ("gets you", "output"), ("you get", "output"), ("what you get", "output"),
    ("we get back", "output"), ("sends back", "output"), ("what comes out", "output"), ("comes out", "output"),
)  # fmt: skip
# a unit said once in a column's header: "Timeout (s)", "Wait [min]"
UNIT = _rx(r"(?:(?<!\s)\s+)?[(\[]\s*+(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?)\s*+[)\]]\s*+")
# the alternatives of one header: "Tool/skill", "Skill or script", "Skill | tool"
_ALTERNATIVES = _rx(r"(?:(?<!\s)\s++)?(?:/|\\|\bor\b)\s*+", re.I)
# words that name the skill alone, but say what the step takes beside a column that names the skill
_TAKES_BESIDE_SKILL = frozenset({"uses", "needs", "using", "takes", "reads", "inputs", "input", "needs from"})
# a column of what to do when the step fails: the policy reader reads its cells
_FAILURE = _rx(r"(?i)^\W*+(?:if\s++(?:it\s++|this\s++)?fails|on\s++(?:fail(?:ure)?|errors?)|if\s++errors?|"
               r"when\s++it\s++fails|failure(?:\s++handling)?|error\s++handling|fallback|recovery|"
               r"retry\s++policy|if\s++(?:it\s++)?breaks|on\s++trouble|if\s++down)\W*+$")
_POLICY = frozenset({"retries", "timeout", "attempts", "on_error"})  # "Retries / wait": the policy reader pairs them
_ASIDE = _rx(r"[(\[]\s*+([A-Za-z][A-Za-z ]{0,30}+)[)\]]")  # "Machine (skill)", "Tool [script]"
_STEP_REF = _rx(r"(?i)^(?:steps?\s*+|#\s*+|row\s*+)?\d{1,4}$")


def column_of(header: str) -> str | None:
    """The field one header names ("Timeout (s)": timeout), or None."""
    low = " ".join(re.sub(r"[^a-z# ]", " ", UNIT.sub(" ", header.lower())).split())
    for word, column in _COLUMNS:
        if low == word:
            return column
    label = LABELS.get(low)
    if label is not None:
        return label
    return next((column for word, column in _COLUMNS if len(word) > 2 and low.startswith(word)), None)


def columns_of(header: tuple[str, ...] | list[str]) -> list[str | None]:
    """The field of each header of one table (module docstring)."""
    columns: list[str | None] = []
    for text in header:
        column = column_of(text)
        if column is None and _ALTERNATIVES.search(text):  # "Tool/skill": the first alternative that names a field
            column = next((c for part in _ALTERNATIVES.split(text) if part and (c := column_of(part))
                           and c not in _POLICY), None)
        columns.append(column)
    if "number" in columns or "name" in columns:  # a table of steps by its other columns: "# | JOB | MACHINE (skill)"
        for i, text in enumerate(header):  # (a state table's "Entry action (skill)" stays the state reader's)
            if columns[i] is None and (aside := _ASIDE.search(text)):  # the field its aside names
                columns[i] = column_of(aside.group(1))
    skills = [i for i, c in enumerate(columns) if c == "skill"]
    if len(skills) > 1:
        for i in skills:
            if _low(header[i]) in _TAKES_BESIDE_SKILL:
                columns[i] = "needs"
    for i, text in enumerate(header):
        if columns[i] == "depends" and _low(text) == "needs" and "skill" in columns:
            columns[i] = "needs"
    return columns


def _low(text: str) -> str:
    return " ".join(re.sub(r"[^a-z ]", " ", text.lower()).split())


def needs_key(cell: str) -> str:
    """`depends` for a cell of step numbers ("1, 2", "#3 and #4"), else `input`."""
    parts = [p.strip() for p in re.split(r",|;|&|\+|\band\b", cell) if p.strip()]
    return "depends" if parts and all(_STEP_REF.match(p) for p in parts) else "input"


def failure_header(header: str) -> bool:
    """A column of what to do when the step fails ("If it fails", "On error"): the policy reader's."""
    return _FAILURE.match(header) is not None


_rx.save()
