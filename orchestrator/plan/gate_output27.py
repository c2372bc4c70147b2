"""A gate's condition said of what an earlier step comes out at, the step named by its letter or number.

    C) OT COST  - overtime-costing. ...
    D) PUBLISH  - callsheet-publish: ..., extra_budget = OT from C (ot_cost).
         >> If C comes out over GBP 1,500 Dana has to OK it before D runs.
                                                 -> approval only when step-3's `ot_cost` > 1500
    3. Tally the order with po-total.  4. Send it: if step 3 comes back above 5,000 the FD signs.
                                                 -> step-3's one value step 4 is given (or its one output) > 5000
    If the total comes out over 5,000 the FD signs.            -> `total > 5000` (the words "comes out" left aside)

Call sheets, dockets and order forms letter or number their steps and then say a gate as what a step
"comes out" (at, over, under ...), "comes back", "ends up" or "is": the subject is the step, not a value
named for it. The subject's label is one earlier step's: a letter that opens exactly one earlier step's
line ("C) OT COST", "(c) ...", "C. ..."), or "step N". The value compared is the one value this step is
given from that step (its input's source, as written elsewhere: "extra_budget = OT from C (ot_cost)"),
or else that step's one output; with several and none given, nothing is guessed. A subject that is no
label keeps its own words without the verb ("the total comes out over 5,000" -> `total > 5000`), for the
planner to place as any condition. Read only when the condition as written could not be placed; the
reading is warned with the plain way to write it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from orchestrator.plan.model import InputBinding
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LETTERED = _rx(r"^[ \t>*-]{0,6}+\(?(?P<l>[A-Za-z])[).][ \t]")
_LETTER_OPENS = _rx(r"^\s*+(?P<l>[A-Z])\s")
_POINTER = _rx(r"^/(?P<f>[A-Za-z_]\w{0,60}+)$")
_VERBS = (("comes", "out"), ("comes", "back"), ("came", "out"), ("came", "back"), ("ends", "up"),
          ("ended", "up"), ("comes", "in"), ("came", "in"), ("works", "out"), ("worked", "out"), ("is",), ("was",),
          ("totals",), ("returns",))
_OPS = frozenset({">", ">=", "<", "<="})


def step_letters(text: str, steps: Sequence[StepSpec]) -> dict[str, str]:
    """Upper-case letter -> step id, for the steps whose line opens with a letter label ("C) OT COST");
    a letter two steps open with is left out."""
    lines = text.splitlines()
    found: dict[str, list[str]] = {}
    for step in steps:
        at = step.where.rsplit(":", 1)[-1]
        if not at.isdigit() or not 0 < int(at) <= len(lines):
            continue
        m = _LETTERED.match(lines[int(at) - 1])
        if m is not None:
            found.setdefault(m.group("l").upper(), []).append(step.id)
    return {letter: ids[0] for letter, ids in found.items() if len(ids) == 1}


def _without_verb(subject: tuple[str, ...]) -> tuple[str, ...] | None:
    words = tuple(w.lower() for w in subject)
    for verb in _VERBS:
        if len(words) >= len(verb) and words[-len(verb):] == verb:
            return subject[:-len(verb)]
    return None


def output_named(when: str, letters: Mapping[str, str], earlier: Sequence[str],
                 bindings: Mapping[str, InputBinding], outputs: Callable[[str], list[str]]) -> tuple[str, str] | None:
    """(the condition to place, what it was read as) for a gate said of what a step or value "comes out"
    at (module docstring); None when the words are no such comparison. `letters`: `step_letters` of the
    earlier steps; `earlier`: their ids; `bindings`: this step's inputs; `outputs(sid)`: a step's outputs."""
    from orchestrator.spec.condition import read_condition

    read = read_condition(when)
    if read is None or read.expression is not None or len(read.clauses) != 1 or read.negated:
        return None
    clause = read.clauses[0]
    if (clause.kind != "compare" or clause.other or clause.op not in _OPS or isinstance(clause.value, bool)
            or not isinstance(clause.value, int | float)):
        return None
    rest = _without_verb(clause.subject)
    if rest is None:
        return None
    value = f"{clause.op} {clause.value!r}"
    if clause.step is None and not rest and (opening := _LETTER_OPENS.match(when)) is not None:
        rest = (opening.group("l"),)  # "A comes out over 5": the letter is no article here
    if clause.step is not None and not rest:
        sid = clause.step
    elif clause.step is None and len(rest) == 1 and len(rest[0]) == 1 and rest[0].isupper():
        sid = letters.get(rest[0], "")
    elif clause.step is None and len(rest) == 1 and rest[0].lower() not in ("it", "this", "that"):
        return f"{rest[0]} {value}", f"the value `{rest[0]}`"  # "the total comes out over 5,000"
    else:
        return None
    if sid not in earlier:
        return None
    given = sorted({m.group("f") for b in bindings.values() if b.source == "step" and b.step == sid and not b.gather
                    and (m := _POINTER.match(b.pointer or "")) is not None})
    field = given[0] if len(given) == 1 else None
    if field is None and not given and len(made := outputs(sid)) == 1:
        field = made[0]
    if field is None:
        return None
    return f"{sid}.{field} {value}", f"{sid}'s `{field}`" + (" (the value this step is given from it)"
                                                             if given else " (its one output)")


_rx.save()
