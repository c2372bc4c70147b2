"""A step that says it gathers, whose text also has a word of a loop: a gather, not a loop over one value.

"Feed it every reminder from the step above, all together. Comes back with how many got queued,
counts per channel" gathers the reminders; "per channel" says what it gives back. `plan.fan_words`
reads "per channel" as a fan-out and finds `channel`, a field of the step before with no declared
type, as its list: the step became a For each over one value, each item the whole of it, and the
reminders it was to take were never given. A person reads it the other way: the skill reads a list
(`drafts`, a plural), the words say "all together", and `channel` is one value (its name is
singular, no type says it is a list) — nothing to go through.

`gather_over_loop` says when a fan-out so found is that: the list found is a field named in the
singular with no declared array type, every input the step's skill misses is a list (a plural
name), and the step's text says a gather (`mapping.SAYS_EVERY`: "every reminder", "all
together", "merge all the ..."). The step then runs once; its list inputs take the gathered
results of the For each step before it (`mapping`), and a warning at the line says how it was read
and how to write either reading plainly.
"""

from __future__ import annotations

from orchestrator.errors import Diagnostic
from orchestrator.plan.fan_gather import is_plural, singular
from orchestrator.plan.location import warning_at
from orchestrator.plan.mapping import SAYS_EVERY
from orchestrator.plan.schema import types_of


def _one_value(field: str, prop: object) -> bool:
    """`channel` with no type, or any field of a declared type other than an array: not a list."""
    types = types_of(prop) if isinstance(prop, dict) else set()
    if types:
        return "array" not in types
    return singular(field) == field.lower() and not is_plural(field)


def gather_over_loop(text: str, free: list[str], field: str, prop: object) -> str | None:
    """The gather words of `text` when a fan-out over `field` (its schema `prop`) is a gather misread
    (module docstring); None when the loop may stand."""
    if not free or not all(is_plural(n) for n in free) or not _one_value(field, prop):
        return None
    said = SAYS_EVERY.search(text)
    return said.group(0).strip() if said else None


def gather_warning(where: str, path: str, label: str, cue: str, gather: str, producer: str, field: str,
                   free: list[str], looped: str | None) -> Diagnostic:
    """The warning at the line of a fan-out read as a gather instead (`gather_over_loop`)."""
    name = free[0]
    taken = (f"`{name}` takes every result of {looped} (a For each step), gathered" if looped else
             f"no step before it runs per item, so nothing gives `{name}`")
    step_no = looped.split("-", 1)[1] if looped and looped.startswith("step-") else "N"
    return warning_at(where, path,
                      f"{label}: the text says `{cue}` and `{gather}`: read as a gather, not a For each over "
                      f"{producer}'s `{field}` (one value: its name is singular and no type says it is a list) — "
                      f"{taken}. To say so write `{name} (from Step {step_no})`; to loop, write "
                      f"`For each: <item> in <list>`", "spec.gather-not-loop")
