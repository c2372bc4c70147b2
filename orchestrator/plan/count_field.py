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

from collections.abc import Callable, Iterable


def count_field(name: str, fields: Iterable[str]) -> str | None:
    """The one count field of `fields` whose words are all in `name` (a `..._count` name), or None."""
    if not name.endswith("_count"):
        return None
    said = set(name.split("_"))
    fits = [f for f in fields if f.endswith("count") and f != name and set(f.split("_")) <= said]
    return fits[0] if len(fits) == 1 else None


# a count said as "any X is Y" above zero, or "none of the X are Y"; what a flag of the same words answers
_SOME = {(">", 0), (">=", 1), ("!=", 0)}
_NONE = {("==", 0), ("<", 1), ("<=", 0)}


def flag_of_count(subject: tuple[str, ...], op: str, value: object, resolve: Callable[[str], str | None]) -> str | None:
    """"any brake is worn" read as `worn_count > 0` when no step counts them but one says whether any is:
    the flag `any_worn` (or `has_worn`), as `... == true` (`== false` for "none of them"); else None."""
    if not subject or subject[-1].lower() != "count" or isinstance(value, bool) or (op, value) not in _SOME | _NONE:
        return None
    words = [w.lower() for w in subject[:-1]]
    for start in range(len(words)):  # "brake worn": any_brake_worn, then any_worn
        for lead in ("any", "has", "have", "some"):
            path = resolve("_".join([lead, *words[start:]]))
            if path is not None:
                return f"{path} == {'true' if (op, value) in _SOME else 'false'}"
    return None
