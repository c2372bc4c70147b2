"""The fields of a `For each` item that its list's producer says in words, when no schema says them.

    tally-stock  Outputs: `short_sites` (list of `{site, short}`), `spare_sites` ...
    For each entry in the tally's `short_sites`, run `match-donor` with that entry's site + shortfall

The loop over `short_sites` is named `site` (from "every short site"), and `match-donor` reads
`site`: without the item's fields that name is the loop's variable, the whole item
(`{site, short}`), which a script then prints as a site. Its producer's SKILL.md says the items
are `{site, short}`: `site` is the item's field, and so is `short`. The planner's item fields are
a declared schema's first (`plan.dataflow.item_properties`); these are read only when the list's
schema gives none, from the producer's instructions (`plan.wanted`, "(list of {a, b})").

When nothing says the item's fields, the text may: "with that entry's site", "each row's `qty`", "the
item's due date" name a field of the item by its owner, so an input of that name (even the loop's own
name) is that field (`says_item_field`), the plan's note quoting the words. So does a field of the
item handed on under another name: "their name goes in as swimmer", "each order's id is passed as
`ref`", "the row's code goes in as sku" make `swimmer`, `ref`, `sku` that field of each item
(`says_item_field_as`); a name of no owner ("the name goes in as swimmer") is not read so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orchestrator.plan.schema import properties_of
from orchestrator.plan.wanted import Instructions
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OWNED = _rx(r"(?i)\b(?:that|this|each|every|the|its|their)\s++(?:entry|item|row|record|line|one|element|member|"
             r"object|card|listing)['’]s?+\s++`?+([A-Za-z_][\w ]{0,40}+)")


def said_item_properties(said: Instructions | None, field: str) -> dict[str, Any]:
    """The item properties the producer's instructions give its output `field` ("(list of `{site,
    short}`)"); empty when they say none."""
    if said is None or not field:
        return {}
    named = next((n for n in said.outputs if n.name == field), None)
    schema: Mapping[str, Any] | None = named.schema_ if named is not None else None
    items = schema.get("items") if isinstance(schema, Mapping) else None
    return dict(properties_of(items)) if isinstance(items, dict) else {}


_OWNED_AS = _rx(r"(?i)\b(?:their|its|(?:that|this|each|every|the)\s++[a-z]{2,20}+['’]s?+)\s++`?+([A-Za-z_]\w{0,40}+)`?+"
                r"\s++(?:goes|go|is\s++passed|passed|is\s++given|is\s++fed|feeds?)\s++(?:in\s++)?+as\s++"
                r"[`\"'“‘]?+([A-Za-z_]\w{0,40}+)")


def says_item_field_as(text: str, name: str) -> tuple[str, str] | None:
    """(the item's field, the words) when `text` hands a field of each item on as `name` ("their name goes
    in as swimmer"), or None."""
    for m in _OWNED_AS.finditer(text):
        if m.group(2) == name and m.group(1).lower() != name.lower():
            return m.group(1), " ".join(m.group(0).split())
    return None


def says_item_field(text: str, name: str) -> str | None:
    """The words ("that entry's site") by which `text` names `name` as a field of each item, or None."""
    want = name.lower().replace("_", " ")
    for m in _OWNED.finditer(text):
        said = m.group(1).lower().replace("_", " ")
        if said == want or said.startswith(want + " ") or said.startswith(want + "`"):
            return " ".join((m.group(0)[:m.start(1) - m.start(0)] + m.group(1)[:len(want)]).split())
    return None


_rx.save()
