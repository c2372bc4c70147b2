"""A two-column table of field and value under a step's own heading: the step's labelled lines.

    ## 3. Check the stock                          under a step heading
    | | |                                          a blank header, or `| Field | Value |`, or
    |---|---|                                      the first pair itself (`| Tool | `x` |`)
    | **Tool** | `count-stock` |                   -> skill: `count-stock`
    | **Feed it** | shelf list |                   -> input: shelf list
    | **Gets you** | counts per shelf |            -> output: counts per shelf
    | **Only if** | step 2 says short = yes |      -> when: step 2 says short = yes
    | **If it breaks** | retry twice |             -> a line the policy reader reads ("if it breaks: ...")

Each row's first cell is a field name in the team's own words, named through the steps table's
column words (`spec.table_columns`: "Tool", "Program", "Feed it", "Gets you", "Only if", "After",
"Sign-off"); a row whose field no column word names is handed on as a labelled line of its own
(`Hiccups: ...`), which the policy reader reads or reports. Before, such a table was one warning
("block not read") and the step lost its skill, inputs, condition and policies. A table is read
so only when it has two columns, at least two rows of short field names, and one of them names
the step's skill, an input, an output, a condition or a wait; any other table stays a block not
read. The step records one `Reading` at the table's line saying how it was read.
"""

from __future__ import annotations

from orchestrator.spec.blocks import Block, Bullet, Table
from orchestrator.spec.fields import spell_step_refs
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.table_columns import column_of, needs_key

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a field name: a few words, maybe bold or italic, with no sentence in it
_KEY = _rx(r"^[\w#][\w#&/?' .()-]{0,39}+$")
_MARKS = _rx(r"[*_`]++")
# a header that only says "field | value" (or is blank)
_HEADER = _rx(r"(?i)^\W*+(?:field|key|item|what|property|attribute|name|setting|value|details?|info|"
              r"description|)\W*+$")
_BOLD = _rx(r"(?:\*\*|__)([^*_`|]{1,80}+)(?:\*\*|__)")
_DASH = _rx(r"(?i)^\s*+(?:(?:[-–—]++|n/?a|tbd|none|\?)\s*+)?$")
_WHEN_LEAD = _rx(r"(?i)^\s*+(?:only\s++)?(?:if|when)\s++")
# the fields that make a table a step's own (one of them must be there)
_STEP_FIELDS = frozenset({"skill", "input", "output", "when", "depends", "needs"})
_LABEL = {"depends": "depends on", "when": "when", "skill": "skill", "input": "input", "output": "output",
          "approval": "approval"}


def _key(cell: str) -> str:
    return " ".join(_MARKS.sub("", cell).split()).rstrip(":").strip()


def kv_pairs(table: Table) -> list[tuple[int, str, str]] | None:
    """The (line, field, value) pairs of a two-column field/value table, or None when it is none."""
    if len(table.header) != 2 or any(len(cells) != 2 for _, cells in table.rows):
        return None
    pairs: list[tuple[int, str, str]] = []
    first, second = (_key(c) for c in table.header)
    if not (_HEADER.match(first) and _HEADER.match(second)):
        pairs.append((table.line, first, table.header[1].strip()))  # the header is the first pair
    pairs += [(line, _key(cells[0]), cells[1].strip()) for line, cells in table.rows]
    if len(pairs) < 2 or not all(key and _KEY.match(key) for _, key, _ in pairs):
        return None
    if not any(column_of(key) in _STEP_FIELDS for _, key, _ in pairs):
        return None
    return pairs


def kv_blocks(table: Table, src: Source, sid: str) -> tuple[list[Block], Reading] | None:
    """The labelled lines a step's field/value table stands for, and the reading that says so;
    None when the table is no such table (module docstring)."""
    pairs = kv_pairs(table)
    if pairs is None:
        return None
    blocks: list[Block] = []
    shown: list[str] = []
    for line, key, value in pairs:
        if _DASH.match(_MARKS.sub("", value)):
            continue  # "n/a", "-": says nothing
        value = _BOLD.sub(r"\1", value)  # "if severity is **major**": the words, not their emphasis
        column = column_of(key)
        if column == "needs":
            column = needs_key(value)
        if column == "when":
            value = spell_step_refs(_WHEN_LEAD.sub("", value))
        label = _LABEL.get(column or "")
        if label is None:  # the team's own field ("Hiccups", "Owner"): a labelled line the policy reader reads
            label = key.lower()
        else:
            shown.append(f"'{key}' as {label}")
        blocks.append(Bullet(line=line, text=f"{label}: {value}", label=label, value=value))
    note = (f"{sid}: two-column table read as the step's labelled lines: {', '.join(shown)}; the other rows "
            "as lines of their own (read for policy)")
    return blocks, Reading(what="step", where=src.where(table.line), text=f"| {table.header[0]} | "
                           f"{table.header[1]} | ({len(pairs)} rows)"[:160], note=note)


def expand_kv_tables(blocks: list[Block], src: Source, sid: str) -> tuple[list[Block], list[Reading]]:
    """`blocks` with each field/value table replaced by the labelled lines it stands for."""
    if not any(isinstance(b, Table) for b in blocks):
        return blocks, []
    out: list[Block] = []
    readings: list[Reading] = []
    for block in blocks:
        found = kv_blocks(block, src, sid) if isinstance(block, Table) else None
        if found is None:
            out.append(block)
            continue
        out += found[0]
        readings.append(found[1])
    return out, readings


_rx.save()
