"""The fields of a `For each` item that its list's producer says in words, when no schema says them.

    tally-stock  Outputs: `short_sites` (list of `{site, short}`), `spare_sites` ...
    For each entry in the tally's `short_sites`, run `match-donor` with that entry's site + shortfall

The loop over `short_sites` is named `site` (from "every short site"), and `match-donor` reads
`site`: without the item's fields that name is the loop's variable, the whole item
(`{site, short}`), which a script then prints as a site. Its producer's SKILL.md says the items
are `{site, short}`: `site` is the item's field, and so is `short`. The planner's item fields are
a declared schema's first (`plan.dataflow.item_properties`); these are read only when the list's
schema gives none, from the producer's instructions (`plan.wanted`, "(list of {a, b})").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orchestrator.plan.schema import properties_of
from orchestrator.plan.wanted import Instructions


def said_item_properties(said: Instructions | None, field: str) -> dict[str, Any]:
    """The item properties the producer's instructions give its output `field` ("(list of `{site,
    short}`)"); empty when they say none."""
    if said is None or not field:
        return {}
    named = next((n for n in said.outputs if n.name == field), None)
    schema: Mapping[str, Any] | None = named.schema_ if named is not None else None
    items = schema.get("items") if isinstance(schema, Mapping) else None
    return dict(properties_of(items)) if isinstance(items, dict) else {}
