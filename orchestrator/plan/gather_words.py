"""An input value written in words that gathers a loop's results, or names the loop's item: bound so.

    steps:                                       an author's own YAML (or a `- input: value` line)
      "20": {tool: fit-boat, one_per: ..., feed: {boat: the boat this go is about}}
      "30": {tool: rollup-berths, feed: {fits: all the step-20 answers, as one list}}
        -> step-20's `boat` is each item of its loop
           step-30's `fits` is every result of step-20 (a For each step), gathered in item order

`plan.literal_words` tells when a literal value speaks of the run's own values; before, the value
was kept as the text and warned (`plan.literal-words`), and the skill got the sentence. A person
reads it as what it says, when the plan has it:

- a gather ("all the step-20 answers", "every result of the sorting step", "as one list"): the
  results of the `For each` step it names by number ("step 20", "#20", "stage-2") or by its id,
  else of the nearest `For each` step before (`Scope.nearest_gathered`, when there is one); each
  item's field of the input's singular when the loop's items output it (`fits` from each `fit`),
  else each item's whole output. A step it names that is no loop, or no loop before: no binding
  (the literal and its warning stand).
- the loop's item ("this go", "each one", "the current row") in a step that runs per item: the item.

Each binding is warned at the input's line with how it was read and how to write it plainly.
"""

from __future__ import annotations

from orchestrator.plan.fan_gather import gathered_pointer
from orchestrator.plan.model import InputBinding
from orchestrator.plan.scope import Scope
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "plan.gather-words"

_NUMBERED = _rx(r"(?i)(?<![\w-])(?:step|stage|job|task)[\s_-]?+(\d{1,4}+)(?!\w)|(?<![\w-])#(\d{1,4}+)(?!\w)")
_WORD = _rx(r"[\w-]++")


def _named_step(value: str, scope: Scope) -> str | bool | None:
    """The step the words name: its id; False when they name none; None when the one named is unknown."""
    m = _NUMBERED.search(value)
    if m is not None:
        sid = f"step-{m.group(1) or m.group(2)}"
        return sid if sid in scope.produced else None
    words = {w.lower() for w in _WORD.findall(value)}
    named = [sid for sid in scope.produced if sid.lower() in words]
    return named[0] if len(named) == 1 else False


def bound_in_words(name: str, value: str, said: str, scope: Scope,
                   loop: tuple[str, str] | None) -> tuple[InputBinding, str, str] | None:
    """The binding a literal `value` of input `name` that speaks of `said` (`literal_words`) stands
    for, its provenance note and the warning's text; None when the plan has no such value."""
    if said == "the loop's item":
        if loop is None:
            return None
        return (InputBinding(source="item"), f"for each item: the words '{value[:60]}' speak of the loop's item",
                f"`{name}` is given '{value[:80]}': read as each item of the loop over {loop[1]}. To say so plainly "
                f"write `{name}: {{{{ item }}}}`")
    if said != "a gather of results":
        return None
    named = _named_step(value, scope)
    if named is None:
        return None
    if named is False:
        nearest = scope.nearest_gathered()
        if len(nearest) != 1:
            return None
        sid, how = nearest[0], f"the nearest For each step before, {nearest[0]}"
    else:
        sid, how = str(named), str(named)
        if not scope.produced[sid].gathered:
            return None
    pointer = gathered_pointer(name, scope.produced[sid].fields)
    what = f"`{pointer[1:]}` of " if pointer else ""
    note = f"gathered: {what}every item output of {sid}, in item order (the words '{value[:60]}')"
    return (InputBinding(source="step", step=sid, pointer=pointer, gather=True), note,
            f"`{name}` is given '{value[:80]}': read as {what}every result of {how} (a For each step), gathered in "
            f"item order, not as that text. To say so plainly write `{name} (from Step {sid.rsplit('-', 1)[-1]})`")


_rx.save()
