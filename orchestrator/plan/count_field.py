"""A count said in words placed on the count field a step outputs.

    "Only if step 1 found at least 1 affected order"   step 1 outputs `affected`, `affected_count`
    -> steps['step-1'].output.affected_count >= 1

A condition that counts things of a step it names ("found 3 or more late trucks") reads as the
field `<words>_count` of that step (`spec.condition`). When the step outputs no field of that exact
name but exactly one count field whose words are all among the words said (`affected_count` for
"affected order count"), that field is the one meant; with none or several the name as said stays
and the plan's field check warns that the step has no such field.
"""

from __future__ import annotations

from collections.abc import Iterable


def count_field(name: str, fields: Iterable[str]) -> str | None:
    """The one count field of `fields` whose words are all in `name` (a `..._count` name), or None."""
    if not name.endswith("_count"):
        return None
    said = set(name.split("_"))
    fits = [f for f in fields if f.endswith("count") and f != name and set(f.split("_")) <= said]
    return fits[0] if len(fits) == 1 else None
