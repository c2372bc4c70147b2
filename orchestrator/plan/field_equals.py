"""A step's input given as another step's field of another name, the step named by its skill or number:

    low_stock = check-glycol's low          (a handover log's sub-item)
    ration ← weigh-stores's per_head        (a ship's stores list)
    `grade` from step 2's `band`            (a lesson plan)
    the ward := triage-desk’s output ward_code

The name before the sign ("=", ":=", "←", "<-", "from", "comes from") must be one the step's skill
reads; the step after it is an earlier step, named by the skill it runs or as "step N"; the field
after its "'s" ("output"/"field" before it left aside) must be one that step outputs. That field is
then the input's source, as explicit as an Input line: the step waits for that step (a dependency
the data references alone would not give, when nothing else of that step is named) and the input
is bound to it over the nearest-step and renaming rules.

Words that name a read input and an earlier step but a field that step does not output are said
(a warning at the step): nothing is guessed for them. Every pattern is bounded and possessive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PAIR = _rx(
    r"(?<![\w`.-])`?+(?P<name>[A-Za-z_]\w*+)`?+[ \t]*+(?::=|=|←|<-|⟵|(?i:comes[ \t]++from|from)(?=[ \t]))[ \t]*+"
    r"(?i:the[ \t]++)?+`?+(?P<step>(?i:step)[ \t]*+\d{1,4}+|#\d{1,4}+|[a-z0-9]++(?:-[a-z0-9]++)*+)`?+"
    r"(?:['’]s|[ \t]++(?i:step)['’]s)[ \t]++(?i:(?:output|field|value)[ \t]++)?+`?+(?P<field>[A-Za-z_]\w*+)`?+"
)
_NUMBER = _rx(r"\d++")
_ROW_LABEL = _rx(r"^\d{1,3}+[a-z]$")


@dataclass(frozen=True)
class Said:
    """An input the text gives a field of an earlier step: the step, its field and the words as written."""

    step: str
    field: str
    words: str


def field_equals(texts: Iterable[str], reads: Iterable[str], by_skill: Mapping[str, str], count: int,
                 numbered: Callable[[int], str], outputs: Callable[[str, str], bool]) -> tuple[dict[str, Said], list[str]]:
    """name -> what the texts say it is (module docstring), and what was said of a field the step named does not
    output. `by_skill`: each skill name (lower-case) of the `count` steps before this one -> the latest such step;
    `numbered(n)`: the id of the n-th step (1 to `count`); `outputs(step id, field)`: whether that step outputs it."""
    wanted = set(reads)
    found: dict[str, Said] = {}
    unread: list[str] = []
    for text in texts:
        for m in _PAIR.finditer(text):
            name, step, field = m.group("name"), m.group("step").lower(), m.group("field")
            if name not in wanted or name in found:
                continue
            if _ROW_LABEL.match(step):
                continue  # "3a's label line": a grid's line label, not step 3 (`plan.join_sources` reads it)
            number = _NUMBER.search(step)
            if number is not None:
                n = int(number.group(0))
                sid = numbered(n) if 0 < n <= count else None
            else:
                sid = by_skill.get(step)
            if sid is None:
                continue
            if outputs(sid, field):
                found[name] = Said(sid, field, m.group(0))
            else:
                unread.append(f"'{m.group(0)}' gives `{name}` the field `{field}` of {sid}, which that step does not "
                              "output: it is not bound so")
    return found, unread



def names_given(text: str) -> set[str]:
    """The names the text gives a step's field ("low_stock = check-glycol's low"), whichever step and field:
    none of them is a value from outside the run (the planner's derived inputs leave them out)."""
    return {m.group("name") for m in _PAIR.finditer(text)}


_rx.save()
