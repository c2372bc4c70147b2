"""An output a skill says has "the same" fields as a list it reads inside another input: that list's items.

    Inputs: `manifest` (object with `lender`, `loan_no`, `objects`: list of `{obj_id, title, arrival_notes}`).
    Outputs: `loan_no`, `objects` (same fields, obj_id upper-cased), `total`.

A skill that cleans or normalises a list hands it back by the same name and says so in a word ("same
fields", "the same records", "same shape"). When the list it reads is an input of its own, the planner
already takes that input's item fields (`plan.wanted`); when it is a field of a larger input (a manifest, a
payload, an order), written "`objects`: list of `{a, b}`" or "`objects` (list of `{a, b}`)" in the
instructions, these are the output's item fields too. A loop over that output then knows what each item
carries, so a step reading a name its items do not carry is not bound to a field that is never there.
Only the one list of that name written with its fields in braces is read; none or two, nothing is.

A loop's step whose skill reads a name the items do not carry, where one item field is close to it (`notes`
and `arrival_notes`, `near_input.close_names`) and the step's text says that field in words ("its arrival
notes", "the arrival_notes"), takes that field (`renamed_item_field`), warned at the step. Without the text
saying it, the name stays unbound, warned, and the step fails before its skill runs (`engine.runs37`).

A count a step takes "from" a step it names by a word ("number of objects from the summary", "the count of
rows from step 2", "how many crates off the tally") is that step's one count field (`n`, `count`, `total`,
`..._count`, `..._n`) when the skill input is a count itself (`count`, `n`, `num`): the words share no
word with a field called `n`, but the count is what they say (`count_field`, read in `plan.output_aliases`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "`objects`: list of `{a, b}`", "`objects` (list of {a, b})", "`objects` - array of objects `{a, b}`"
_FIELD_LIST = _rx(r"`([A-Za-z_]\w{0,60}+)`[ \t]*+(?::|\(|-|—)[ \t]*+(?:an?[ \t]++)?+(?:list|array)[ \t]++of[ \t]++"
                  r"(?:objects?[ \t]++|records?[ \t]++)?+`?+\{([^{}`\n]{1,400}+)\}")
_KEY = re.compile(r"[A-Za-z_]\w*+")


def same_list_items(body: str, name: str) -> dict[str, object] | None:
    """The array schema of the one list `name` whose item fields `body` writes in braces, or None."""
    found = [m for m in _FIELD_LIST.finditer(body) if m.group(1) == name]
    if len(found) != 1:
        return None
    keys = _KEY.findall(found[0].group(2))
    if not keys:
        return None
    return {"type": "array", "items": {"type": "object", "properties": {k: {} for k in dict.fromkeys(keys)}}}



def renamed_item_field(name: str, fields: Iterable[str], text: str, close: Callable[[str, str], bool]) -> str | None:
    """The one item field of `fields` close to `name` that `text` says in words (module docstring), or None."""
    near = [f for f in fields if f != name and close(name, f)]
    if len(near) != 1:
        return None
    words = [w for w in re.split(r"[_\W]+", near[0]) if w]
    said = r"[ \t_-]{1,3}".join(re.escape(w) for w in words)
    return near[0] if len(words) > 1 and re.search(rf"(?i)(?<![\w-]){said}(?![\w-])", text) else None



_COUNTS = frozenset({"n", "count", "num", "number", "total"})
_COUNT_WORDS = _rx(r"(?i)^(?:the\s++)?+(?:number|count|total|how\s++many)\b")


def count_field(name: str, words: str, fields: Iterable[str]) -> str | None:
    """The one count field of `fields` that `words` ("number of objects") name for the count input `name`."""
    if name not in _COUNTS or not _COUNT_WORDS.match(words):
        return None
    counts = [f for f in fields if f != name and (f in _COUNTS or f.endswith(("_count", "_n")) or f.startswith("n_"))]
    return counts[0] if len(counts) == 1 else None


_rx.save()
