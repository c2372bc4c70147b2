"""The list a step after a For each step reads: the loop's results, gathered, not the list it looped over (round 46).

    1/ bank-feed-pull                          -> lines (each has desc, amount_p)
    2/ categorise-line on every line from 1    -> For each: line in step-1.lines
    3/ sum-by-category, all the categorised lines in one go   (its skill reads `lines`)
                                                ->  lines <- step-2's results, gathered (not step-1's `lines`)

A For each step runs once per item of a list (a workflow input, or an earlier step's output field); a later
step whose skill reads that list by its name (`lines`) is given the loop's results, gathered, when either
- its words say it takes them all ("all the categorised lines", "every result", "the whole lot of"), or
- its skill says the list's items carry a field the loop step gives and does not read from the item
  ("lines (list of objects with category and amount_p)", the loop giving `category`): the items are the loop's,
  unless the items' shape is written as a set with a field the loop does not give ("packages (list of {name,
  version, license})" after a loop giving name, license and verdict: the packages are the list itself).
A step whose text names the step the list comes from for that name ("the lines from 1/", "lines (from step 1)")
keeps that step's list: the author said so. `plan.author_inputs24.loop_list_gathers` warns each reading.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `steps.step-1.output.lines`, `step-1.lines`, `step-1.output.lines`: an earlier step's output field
_STEP_LIST = _rx(r"^(?:steps\.)?+(step-\d{1,4}+)(?:\.output)?+\.([A-Za-z_]\w{0,60}+)$")
_WORD = _rx(r"[A-Za-z_]\w{0,60}+")
# "list of {name, version, license}": the items' fields, written as a set
_SHAPE = _rx(r"\{([^{}]{1,300}+)\}")


def looped_list(over: str, inputs: Collection[str]) -> tuple[str, str] | None:
    """(producer step id or "" for a workflow input, the list's name) of a For each's list, or None."""
    over = over.strip()
    if over in inputs:
        return "", over
    m = _STEP_LIST.match(over)
    return (m.group(1), m.group(2)) if m else None


def items_are_results(about: str | None, loop_gives: Sequence[str], loop_reads: Collection[str]) -> str | None:
    """The first field the skill's words on the list (`about`) name that the loop step gives and does not
    read from its item ("list of objects with category and amount_p", the loop giving `category`), or None."""
    if not about:
        return None
    gives = {g.lower() for g in loop_gives}
    shape = _SHAPE.search(about)
    if shape is not None and any(w.lower() not in gives for w in _WORD.findall(shape.group(1))):
        return None  # the items' written shape has a field the loop does not give: they are not its results
    said = {w.lower() for w in _WORD.findall(about)}
    own = {r.lower() for r in loop_reads}
    return next((f for f in loop_gives if f.lower() in said and f.lower() not in own), None)


_rx.save()
