"""A step opening with one of an input's listed values and an arrow: the branch for that value (round 45).

    species (species - "cat" or "dog")                       the input and the values it lists
    b) CAT -> feline-dose-calc with ...                       runs only when species == 'cat'
    c) DOG (i.e. anything that isn't a cat) -> canine-...     the other branch of b): species is not 'cat'
    - Gold -> `vip-desk`   (tier: 'gold', 'silver' or 'bronze')   runs only when tier == 'gold'

Protocols and run sheets name the case a step is for by a bare label before an arrow: the label is one
of the values a workflow input lists where it is declared (its gloss after the name in brackets, quoted
or split by "/": `gloss_values`). Such a step, with no condition of its own, runs only when that input
is that value. A label with an aside that says it is everything else ("anything that isn't a cat",
"anything else", "otherwise", "all others") is the other branch of the nearest earlier step read so on
the same input (when the aside names a value, that step's value): it runs exactly when that condition is
false, whatever its own label says. Each reading is a warning at the step's line. A label that is no
listed value ("Weigh -> `x`") or that two inputs list is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from orchestrator.spec.model import InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.lead-condition"

# a gloss's values: '"cat" or "dog"', "'gold', 'silver' or 'bronze'", "S/M/L", "low | high"
_QUOTED = _rx(r"\"([^\"\n]{1,40}+)\"|'([^'\n]{1,40}+)'|“([^”\n]{1,40}+)”")
_QUOTED_LIST = _rx(r"^(?:(?:\"[^\"\n]{1,40}+\"|'[^'\n]{1,40}+'|“[^”\n]{1,40}+”)[ \t]*+(?:,|/|\||or(?![\w-])|,[ \t]*+or"
                   r"(?![\w-]))?+[ \t]*+){2,12}+$")
_SLASHED = _rx(r"^[\w.-]{1,30}+(?:[ \t]*+[/|][ \t]*+[\w.-]{1,30}+){1,11}+$")
# the name opening a gloss and what separates it from the values: "species - ", "tier: ", "size — "
_NAME_HEAD = _rx(r"^[ \t]*+`?+[A-Za-z_]\w{0,60}+`?+[ \t]*+(?:[:—–=]|-(?=[ \t]))[ \t]*+")
# a step's opening label, its aside, an arrow: "CAT -> ", "DOG (i.e. anything that isn't a cat) -> "
_LABEL = _rx(r"^[^\w`]{0,4}+(?P<label>[A-Za-z][\w-]{0,30}+)[ \t]*+(?:\((?P<aside>[^()\n]{1,120}+)\)[ \t]*+)?+"
             r"(?:->|→|=>|⇒)[ \t]*+\S")
# an aside that says the branch is everything else: "anything that isn't a cat", "everything else"
_REST = _rx(r"(?i)(?<![\w-])(?:otherwise|else|the[ \t]++rest|all[ \t]++others?|any[ \t]++other|anything|everything|"
            r"anyone|everyone|whatever)(?![\w-])")
_NOT_VALUE = _rx(r"(?i)(?:isn['’]t|is[ \t]++not|aren['’]t|are[ \t]++not|not|other[ \t]++than|except|but)[ \t]++"
                 r"(?:an?[ \t]++|the[ \t]++)?+\"?+(?P<v>[\w-]{1,30}+)")


def gloss_values(inside: str) -> list[str]:
    """The values a declared input's bracket lists after its name (module docstring); [] when it lists none."""
    rest = inside[m.end():] if (m := _NAME_HEAD.match(inside)) is not None else inside
    rest = rest.strip().rstrip(".;")
    if _QUOTED_LIST.match(rest):
        return [next(g for g in q.groups() if g is not None).strip() for q in _QUOTED.finditer(rest)]
    if _SLASHED.match(rest):
        return [v.strip() for v in re.split(r"[/|]", rest) if v.strip()]
    return []


def _values(inputs: Iterable[InputSpec]) -> dict[str, list[tuple[str, str]]]:
    """Each listed value (lower case) -> (input, the value as listed) of the inputs that list it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for spec in inputs:
        for part in re.findall(r"\(([^()]{1,200})\)", spec.description):
            for value in gloss_values(part):
                out.setdefault(value.lower(), []).append((spec.name, value))
    return out


def _line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def _opening(step: StepSpec) -> str:
    return step.texts[0].text if step.texts else step.description


def read_choice_labels(steps: list[StepSpec], inputs: Iterable[InputSpec], src: Source) -> list[StepSpec]:
    """The steps, each that opens with a listed value's label read as that branch (module docstring)."""
    values = _values(inputs)
    if not values:
        return steps
    out: list[StepSpec] = []
    latest: dict[str, tuple[StepSpec, str]] = {}  # input -> the nearest earlier branch read here, its value
    for step in steps:
        m = _LABEL.match(_opening(step))
        said = step.when or step.otherwise_where or step.routes or step.depends_where
        owners = values.get(m.group("label").lower(), []) if m is not None else []
        if m is None or said or len({n for n, _ in owners}) != 1:
            out.append(step)
            continue
        (name, listed), label, aside = owners[0], m.group("label"), m.group("aside") or ""
        who, line = f"{step.id} ({step.name.strip()[:60]})", _line(step)
        partner = latest.get(name)
        said_not = _NOT_VALUE.search(aside)
        if partner is not None and _REST.search(aside) and (said_not is None or said_not.group("v").lower() ==
                                                            partner[1].lower()):
            src.warn(line, f"{who}: its label '{label} ({aside.strip()})' is read as the other branch of "
                           f"{partner[0].id} ({partner[0].when}): it runs exactly when that condition is false", CODE)
            reading = Reading(what="when", where=step.where, text=f"{label} ({aside.strip()})"[:160],
                              note=f"runs exactly when the condition of {partner[0].id} was false (its label)")
            out.append(step.model_copy(update={
                "otherwise_where": step.where, "otherwise_of": partner[0].id,
                "field_where": {**step.field_where, "when": step.where}, "readings": (*step.readings, reading)}))
            continue
        when = f"{name} == '{listed}'"
        src.warn(line, f"{who}: its label '{label}' is one of the values `{name}` lists, read as its condition: it "
                       f"runs only when {when}; if it always runs, reword the label", CODE)
        reading = Reading(what="when", where=step.where, text=label,
                          note=f"the branch '{label}' runs only when {when} (a value `{name}` lists)")
        done = step.model_copy(update={"when": when, "field_where": {**step.field_where, "when": step.where},
                                       "readings": (*step.readings, reading)})
        latest[name] = (done, listed)
        out.append(done)
    return out


_rx.save()
