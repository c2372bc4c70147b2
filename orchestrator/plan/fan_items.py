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

A list is found by what its words say it holds too (`holds`, `said_pairs`): "once per patient on the
overdue list" and a step before that "comes back with the list of patients due (`due`)", or whose
skill says "`good` (the sheets that pass)": the nearest step so saying a list holds what the step
reads one of (`patient`) is the loop; two lists of it so said are several (warned, run once).
"""

from __future__ import annotations

from orchestrator.kinds import BoundSkill
from orchestrator.plan.fan_gather import singular
from orchestrator.plan.fan_made import Made
from orchestrator.plan.schema import properties_of, types_of
from orchestrator.plan.wanted import Instructions
from orchestrator.spec.per_item import described_fields, held_items


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


def holds(text: str, skill: BoundSkill | None, said: Instructions | None,
          schema: dict[str, object]) -> dict[str, frozenset[str]]:
    """What each list a once-run step outputs holds, by its words (`spec.per_item`): the words of
    its skill's Outputs line about it and of the step's own text; fields of a declared type other
    than an array hold no items."""
    props = properties_of(schema)
    names = [n for n, p in props.items() if not isinstance(p, dict) or not (t := types_of(p)) or "array" in t]
    if skill is None or not names:
        return {}
    words = described_fields(text, names)
    for named in said.outputs if said is not None else ():
        if named.name in names and named.about:
            words[named.name] = f"{words.get(named.name, '')}; {named.about}"
    held = {name: held_items(w) for name, w in words.items()}
    return {name: items for name, items in held.items() if items}


def said_pairs(nouns: tuple[str, ...], free: list[str], made: Made) -> list[tuple[str, str, str]]:
    """(producer, list, item) of the nearest step whose words say a list holds what the step reads
    one of (`patient` and "the list of patients (`due`)"), or, for a step with one such input,
    what the words count ("per patient")."""
    items = [n for n in free if singular(n) == n.lower()]
    found = made.said_lists(items)
    if not found and len(items) == 1 and nouns:
        found = [(sid, name, items[0]) for sid, name, _ in made.said_lists(singular(n) for n in nouns)]
    return found
