"""A loop over a workflow input that is a list, its items' fields what the skill reads (round 45).

    notices (each one has a group, a text and an until)
    2. every notice gets tidied up -> format-notice          (reads group, text, until)
       for each notice: its group, text and until            ->  For each: notice in notices,
                                                                 group/text/until <- each item's field

A step whose words count a thing ("every notice", "for each notice") that is the singular of one workflow
input (`notices`), and whose skill reads no such thing but several names nothing gives, the step's own
text naming each of them as a word ("its group, text and until"), runs once per item of that input: the
names it reads are the item's fields. `plan.author_inputs24.input_list_pairs` reads the case where the skill
reads the item itself (`field` of `fields`); this one the case where it reads the item's fields. A free
name the text does not say leaves the loop unread (warned by `plan.fan_words`): nothing says it is a field.
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.plan.fan_gather import singular
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WORD = _rx(r"[A-Za-z_][\w-]{0,60}+")


def item_field_input_pairs(nouns: Sequence[str], free: Sequence[str], inputs: Sequence[InputSpec],
                           text: str) -> list[tuple[str, str, str]]:
    """[("", list input, item)] when the one workflow input whose singular the words count (`nouns`) is a
    list whose item is none of `free`, and the step's `text` names every one of `free` (its item's
    fields); [] otherwise."""
    counted = {singular(n) for n in nouns}
    lists = [i.name for i in inputs if singular(i.name) != i.name.lower() and singular(i.name) in counted
             and (i.type is None or i.type.startswith("array"))]
    if len(lists) != 1 or not free or any(singular(n) == singular(lists[0]) for n in free):
        return []
    said = {w.lower() for w in _WORD.findall(text)}
    if not all(n.lower() in said for n in free):
        return []
    return [("", lists[0], singular(lists[0]))]


_rx.save()
