"""A two-column table under a step, one field per row, split back into `Label: value` fields.

A team that writes each step under a heading often puts its fields in a small table

    | What        | Detail                                   |
    |-------------|------------------------------------------|
    | Script      | book-rope-team                           |
    | Only if     | A's top_grade is 4 or worse              |

which reached the anchored reader as one paragraph of pipes: the skill was found by its name and
the `Only if` row was lost without a word, so both branches ran. Each body row of a table with
exactly two columns (after its header and `|---|` rule) becomes the field `Label: value` at its
own line, for the step readers to take as they take a `- Label: value` bullet. Any other table is
left as it is.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

_RULE = _rx(r"^\s*+\|?\s*+:?-{2,}+:?\s*+\|\s*+:?-{2,}+:?\s*+\|?\s*+$")


def _cells(text: str) -> list[str]:
    body = text.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in body.split("|")]


def table_fields(lines: list[tuple[int, str]]) -> list[tuple[int, str]] | None:
    """(line, `Label: value`) per body row of a two-column pipe table, or None when the lines are
    no such table (a header, its rule, then at least two rows of two cells each)."""
    if len(lines) < 4 or not _RULE.match(lines[1][1]) or len(_cells(lines[0][1])) != 2:
        return None
    fields: list[tuple[int, str]] = []
    for line, text in lines[2:]:
        cells = _cells(text)
        if len(cells) != 2 or not cells[0] or "|" not in text:
            return None
        label = cells[0].strip("*_ ").rstrip(":").strip()
        fields.append((line, f"{label}: {cells[1]}" if cells[1] else label))
    return fields


_rx.save()
