"""A fan-out whose list is found by its items' fields: "price each room type, one by one".

`fan_words` pairs a step said to run per item with a list by names: the skill reads `pr` and a step
before gives `prs`, or the words count the list ("every object" and `objects`). Often neither
holds: the skill reads the fields of one item (`code`, `base_rate`), and a step before says its
list holds items with those fields (`room_types`, "list of `{code, base_rate}`"). A person reads
the loop from that: the list whose items carry what the step needs is the one it goes through.

This module says which list that is: the nearest step before whose list's items declare one of
the step's free inputs as a field. One list there is the loop (its item named after the list's
singular); two lists of that step that both fit are several (the caller warns and runs the step
once). A free input no item field covers stays what it was (warned by the input checks).
"""

from __future__ import annotations

from orchestrator.plan.fan_gather import singular
from orchestrator.plan.fan_made import Made


def item_field_pairs(free: list[str], made: Made) -> list[tuple[str, str, str]]:
    """(producer, list field, item name) for each list of the nearest step before whose items
    declare one of `free` as a field; empty when no list's items do."""
    pairs: list[tuple[str, str, str]] = []
    for sid, field in made.lists_of_items_with(free):
        one = singular(field)
        pairs.append((sid, field, one if one != field.lower() else "item"))
    return pairs


def counted_names(listed: str | None, nouns: tuple[str, ...]) -> list[str]:
    """The names a cue may call its list by: the list it names, the words it counts joined
    ("every room type" and `room_type`, `room_types`) and each word alone."""
    joined = ["_".join(nouns)] if len(nouns) > 1 else []
    return [n for n in (listed, *joined, *nouns) if n]
