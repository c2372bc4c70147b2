"""Workflow inputs under the author's own names, given to the skill inputs they stand for, and a loop
over a workflow input that is a list.

    FEED_DATE ?= ...   (a skill reads `date`)              ->  date <- input FEED_DATE
    REGION    ?= ...   (a skill reads `region`)            ->  region <- input REGION
    Sailing date .... sail_date  (skills read `date`)      ->  date <- input sail_date
    weather-routing, departure to arrival  (reads from, to) -> from <- input departure, to <- input arrival
    FIELDS TO TREAT: fields (list)  "one go per field on the list"  (the skill reads `field`)
                                                           ->  For each: field in fields

A block of inputs written in a file's or a form's own way (`spec.input_blocks24`) names them as the
person who runs it types them; a skill may read the same value under a shorter name. A skill input
that nothing gives once every other rule has had its turn is given the one workflow input whose name
is close to it (`plan.near_input`: the same words in another case, or its words at the end or start
of the input's; never an input whose words are only a part of the skill input's: `lifts` is not
`ready_lifts`, but `core_temp` is `core_temp_c`: the same words and a unit at the end, `c`, `kg`,
`min`) or stands for it (`plan.input_names_kept`: `sail_date` for `date`), the input keeping
its name; two candidates are a guess and nothing is bound. A skill that reads a pair of ends (`from`
and `to`, `origin` and `destination`, `source` and `target`, `start` and `end`) is given the two
workflow inputs the step's text says as "A to B" (or "from A to B"), in that order. Each binding is a
guess and is warned at the step.

A step after such a loop whose words say it gathers ("all the field figures together", "every result") and
whose skill reads the loop's list by its own name (`fields`) takes the loop's results, gathered, rather
than the workflow input it looped over: the list went in whole, the figures come back per item. Warned.

A step whose words say it runs once per item ("per field", "each field") and whose skill reads one
thing nothing gives (`field`) loops over the workflow input that is its list: declared as a list, or
named as its plural (`fields`). Only one such input; the loop reader (`plan.fan_words`) then reads it
as a `For each` over that input, with its warning.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, MutableMapping, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.fan_gather import singular
from orchestrator.plan.input_names_kept import stands_for
from orchestrator.plan.location import warning_at
from orchestrator.plan.loop_gather46 import items_are_results, looped_list
from orchestrator.plan.mapping import SAYS_EVERY, parse_for_each
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.near_input import given_input, near_input
from orchestrator.plan.said_step import said_step
from orchestrator.spec.model import InputSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ENDS = (("from", "to"), ("origin", "destination"), ("source", "target"), ("start", "end"), ("src", "dst"))
_A_TO_B = _rx(r"(?i)(?<![\w-])([A-Za-z_][A-Za-z0-9_]{0,60}+)[ \t]++(?:to|->|→|-)[ \t]++([A-Za-z_][A-Za-z0-9_]{0,60}+)"
              r"(?![\w-])")


def _words(name: str) -> list[str]:
    return [w for w in name.lower().replace("-", "_").split("_") if w]


# a unit written at a name's end: `core_temp_c` is `core_temp` in degrees C, `weight_kg` is `weight` in kg
_UNITS = frozenset({"c", "f", "k", "degc", "degf", "kg", "g", "mg", "lb", "lbs", "oz", "mm", "cm", "m", "km", "mi",
                    "ml", "l", "s", "sec", "secs", "ms", "min", "mins", "h", "hr", "hrs", "pct", "percent"})


def _unit_more(name: str, near: str) -> bool:
    """Whether the skill input `name` is the input `near` with a unit at its end (`core_temp_c`, `core_temp`)."""
    words, base = _words(name), _words(near)
    return len(words) == len(base) + 1 and words[:-1] == base and words[-1] in _UNITS


def _one_for(name: str, inputs: Sequence[str], text: str) -> str | None:
    """The one workflow input that is `name` under the author's name, or None (module docstring)."""
    near = near_input(name, inputs, text)
    if near is not None and not set(_words(name)) <= set(_words(near)) \
            and not _unit_more(name, near):  # `lifts` for `ready_lifts`: a part, not it
        near = None
    kept = [i for i in inputs if i != name and stands_for(i, name)]
    found = {n for n in (near, *kept) if n is not None}
    return next(iter(found)) if len(found) == 1 else None


def _ends(left: Sequence[str], inputs: Sequence[str], text: str) -> dict[str, str]:
    """{skill input: workflow input} for a pair of ends the text says as "A to B" (module docstring)."""
    out: dict[str, str] = {}
    lower = {i.lower(): i for i in inputs}
    for first, second in _ENDS:
        if first not in left or second not in left:
            continue
        pairs = {(lower[m.group(1).lower()], lower[m.group(2).lower()]) for m in _A_TO_B.finditer(text)
                 if m.group(1).lower() in lower and m.group(2).lower() in lower and m.group(1) != m.group(2)}
        if len(pairs) == 1:
            a, b = next(iter(pairs))
            out[first], out[second] = a, b
    return out


def bind_author_inputs(step: StepSpec, left: Iterable[str], inputs: Sequence[str], text: str, required: Iterable[str],
                       bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                       path: str) -> list[Diagnostic]:
    """Each skill input of `left` that nothing gives bound to the workflow input that is it under the
    author's name, or to one end of an "A to B" (module docstring); a warning at the step for each."""
    found: list[Diagnostic] = []
    must = set(required)
    wanted = [n for n in left if n not in bindings and n not in inputs]
    chosen = _ends(wanted, inputs, text)
    for name in wanted:
        if name in chosen:
            own, why = chosen[name], "the text says the two ends as 'A to B'"
        elif (one := _one_for(name, inputs, text)) is not None and one not in chosen.values():
            own, why = one, "the input's name, as the document writes it, says the same value"
        else:
            continue
        found.append(given_input(step, name, own, f"{why}, for", f"({why})", name in must, bindings, provenance,
                                 path))
    return found


def input_list_pairs(nouns: Sequence[str], free: Sequence[str], inputs: Sequence[InputSpec]) -> list[tuple[str, str, str]]:
    """("", list input, item input) for the one workflow input that is the list of what the step reads one of
    (module docstring); [] when none or several fit."""
    lists = [i.name for i in inputs if singular(i.name) != i.name.lower()
             and (i.type is None or i.type.startswith("array"))]
    counted = {singular(n) for n in nouns}
    fits = [("", name, item) for item in free if singular(item) == item.lower() for name in lists
            if singular(name) == item.lower() or (singular(name) in counted and len(free) == 1)]
    return fits if len(fits) == 1 else []


def _without_names(text: str, names: Collection[str]) -> str:
    """`text` with each step name it writes out blanked (same length), so a word of a name is no cue."""
    low = text.lower()
    for name in names:
        key = name.strip().lower()
        if len(key) < 3:
            continue
        start = low.find(key)
        while start != -1:
            text = text[:start] + " " * len(key) + text[start + len(key):]
            start = low.find(key, start + len(key))
    return text


def loop_list_gathers(step: StepSpec, loop: StepSpec | None, reads: Iterable[str], inputs: Sequence[str],
                      text: str, path: str, about: Callable[[str], str | None] = lambda _: None,
                      loop_gives: Sequence[str] = (), loop_reads: Collection[str] = (), names: Collection[str] = ()
                      ) -> tuple[dict[str, str | None], list[Diagnostic]]:
    """{list name: the loop step} when `step` gathers `loop`, the nearest For each step before it, over a
    workflow input or an earlier step's list whose name its skill reads (module docstring,
    `plan.loop_gather46`), with a warning at the step; ({}, []) otherwise. `about` gives what the step's
    skill says of an input, `loop_gives` / `loop_reads` the loop step's outputs and inputs, `names` the steps'
    names (a step named "Roll-up" written in the text says no gather)."""
    over = parse_for_each(loop.for_each) if loop is not None else None
    looped = looped_list(over[1], inputs) if over is not None and step.for_each is None else None
    if loop is None or looped is None or looped[1] not in set(reads):
        return {}, []
    producer, name = looped
    if producer and said_step(text, name) == producer:  # "the lines from 1/": the list itself, as said
        return {}, []
    said = SAYS_EVERY.search(_without_names(text, names))  # "the counts from *Roll-up*": a step's name, no gather
    field = items_are_results(about(name), loop_gives, loop_reads) if producer and said is None else None
    if said is None and field is None:
        return {}, []
    whose = f"{producer}'s list `{name}`" if producer else f"the workflow input `{name}`"
    why = (f"the text says `{said.group(0).strip()}`" if said is not None else
           f"its skill says each item of `{name}` carries `{field}`, which {loop.id} gives")
    keep = f"`{name} (from {producer})`" if producer else f"`{name}: {name} (workflow input)`"
    return {name: loop.id}, [warning_at(step.where, path, f"{step.id} ({step.name}): {why} after {loop.id} runs "
                                        f"once per item of {whose}: its skill's `{name}` is read as {loop.id}'s "
                                        f"results, gathered, not the list itself. If the list is meant, write "
                                        f"{keep} in the step", "plan.gather-words")]


_rx.save()
