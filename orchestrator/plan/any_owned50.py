"""Some of a thing the step a condition names gives: its count above zero.

    If the cue report has any failures, Fi has to OK clearance    step-4 (Cue report): failed, failed_count
    -> steps['step-4'].output.failed_count > 0

A condition that says some of a thing exists ("has any failures", "found at least one rejection") or
none does ("has no errors"), whose noun names no value the run has, is read on the step its words name
by that step's title or skill ("the cue report" is the step titled "Cue report"). Of that step's
output fields, those with a word of the noun's own root ("failed" and "failed_count" of "failures",
"rejected" of "rejections", "warn_count" of "warnings": one root, the other ending only in a
-ure/-ion/-ing/-ment/-e of the same root) are meant: the count among them compared with zero, else the
one such field itself, filled or empty. A step not named, a root no field of it shares, or several
fields of it that do leave the condition unread, as before (`plan.condition_unplaced`); what is
read so is shown in the plan and warned.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from orchestrator.plan.meaning import Value, stems

_COUNT = frozenset({"count", "total", "num", "number", "n"})
# what a noun made of a verb's root ends in, after that root: "fail-ur(es)", "reject-ion", "warn-ing"
_TAILS = ("", "e", "ur", "ure", "ion", "ation", "ing", "ment", "al")


@dataclass(frozen=True)
class Owned:
    expression: str
    note: str


def _same_root(noun: str, word: str) -> bool:
    short, long = sorted((noun, word), key=len)
    return len(short) >= 4 and long.startswith(short) and long[len(short):] in _TAILS


def _named(owner: Sequence[str], said: frozenset[str]) -> bool:
    """Whether the condition's words name the step by its skill's name or its title (each of their words said)."""
    return any(words and words <= said for words in (stems(name) for name in owner))


def owned_any(subject: Sequence[str], some: bool, said: str, values: Iterable[Value]) -> Owned | None:
    """The expression of "<step named> has any <noun>" (`some`) or "... has no <noun>" (module docstring), or None."""
    if len(subject) != 1:
        return None
    noun_stems = stems(subject[0])
    if len(noun_stems) != 1:
        return None
    (noun,) = noun_stems
    text = stems(said) - noun_stems
    by_step: dict[str, list[Value]] = {}
    for v in values:
        if v.owner and v.path.startswith("steps[") and _named(v.owner, text):
            by_step.setdefault(v.path.split("]")[0], []).append(v)
    if len(by_step) != 1:
        return None
    (fields,) = by_step.values()
    meant = [v for v in fields if any(_same_root(noun, w) for w in stems(v.name) - _COUNT)]
    counts = [v for v in meant if stems(v.name) & _COUNT]
    if len(counts) == 1:
        v = counts[0]
        expression = f"{v.path} {'>' if some else '=='} 0"
    elif len(meant) == 1:
        v = meant[0]
        expression = v.path if some else f"not {v.path}"
    else:
        return None
    step = v.path.split("'")[1]
    short = expression.replace(v.path, f"`{v.name}`") if v in counts else ("`" if some else "not `") + v.name + "`"
    return Owned(expression, f"'{'any' if some else 'no'} {subject[0]}' read on {step}, the step the words name, "
                             f"as {short}")
