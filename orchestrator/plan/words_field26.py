"""The field of a step that the words before "from step N" mean when they name none of its fields.

    pupils = headcount from step 1      step 1 gives pupils, helpers_needed   -> `pupils` (the input's own name)
    adults = helpers from step 1        step 1 gives pupils, helpers_needed   -> `helpers_needed` (by meaning)
    entry_price = price from 2          step 2 gives price_per_head, open     -> `price_per_head` (by meaning)

An input given "the <words> from step N" (`spec.input_prose`) takes the field the words name. An
author often calls a value by a word of their own ("headcount" for `pupils`), so when no word is a
field of that step: the field named as the input is (the same name on both sides), else the one
field whose name shares a stem with the words (`plan.meaning`), else the one that shares a stem with
the input's own name ("flour_kg = flour in the bin (FLOUR CHECK)": `kg_on_hand`). A name alone that nothing gives
("pupils = headcount", the author's word) is the input's own name as the other rules place it. Each is a guess, warned by the
caller; none or several such fields leave the whole output, as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.plan.meaning import stems
from orchestrator.plan.model import InputBinding


def field_of_words(words: str, name: str, fields: Iterable[str]) -> tuple[str, str] | None:
    """(the field, how it was read) or None (module docstring)."""
    have = sorted(fields)
    if not have or any(w in have for w in words.replace("`", " ").split()):
        return None  # a word names a field: the reference's own rule takes it
    if name in have:
        return name, f"the words '{words}' name none of its fields, and it gives `{name}`, the input's own name"
    said = stems(words)
    if not said:
        return None
    meant = [f for f in have if stems(f) & said]
    if not meant and len(own := [f for f in have if stems(f) & stems(name)]) == 1:  # "flour_kg = flour in the bin"
        return own[0], (f"the words '{words}' name none of its fields; read as `{own[0]}`, the one that shares a word "
                        f"with the input's own name `{name}`")
    if len(meant) != 1:
        return None
    return meant[0], f"the words '{words}' name none of its fields; read as `{meant[0]}`, the one that shares a word"


def own_said(binding: InputBinding) -> str:
    """How a binding by the input's own name reads in a warning."""
    if binding.source == "input":
        return f"the workflow input `{binding.name}`"
    return f"{binding.step}'s output" + (f" `{binding.pointer.lstrip('/')}`" if binding.pointer else "")
