"""A value a condition names by what it means rather than by its field's name.

    If the computed refund is over 200 EUR ...     -> step-2's `refund_amount` (compute-refund)
    when the detected language is not English      -> step-1's `language` (detect-language)

The words of the subject ("computed refund") are compared, stem by stem ("computed" and "compute"
are one), with each value the condition can reach: each earlier step's output field and each
workflow input. A value is meant when its name shares a word with the subject and every word of the
subject is in its name or in what produces it (the step's skill and title: "compute-refund"). Only a
unique such value is taken, shown in the plan and warned; otherwise the error names the values that
share a word with the subject (or, when none does, the values there are), so the author can write one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

_NOT_MEANING = frozenset({"the", "a", "an", "its", "their", "this", "that", "these", "those", "of", "value", "field",
                          "output", "result", "results", "step", "from", "in", "for", "our", "we", "it", "is"})
_SUFFIXES = ("ing", "ed", "es", "s", "e")
# the words of a field that holds a count ("more than 30 pupils" is `pupil count`: `total_pupils`, `n_pupils`)
_COUNT_WORDS = frozenset({"count", "total", "num", "number", "n", "how_many"})
# the words of a field that holds a measure: "hazard 3 or higher" is `hazard_level`, not `hazard_label`
# (a scale or a count, not an amount: `refund_amount` beside `refund_fee` stays a question for the author)
_MEASURE_WORDS = ("level", "score", "rating", "grade", "rank", "index", "pct", "percent", "count", "total", "num", "number",
                  "n")


def _stem(word: str) -> str:
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: -len(suffix)]
    return w


def stems(text: str) -> frozenset[str]:
    """The stems of the words of a name or a text (`refund_amount`, "compute-refund", "Score it")."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return frozenset(_stem(w) for w in re.findall(r"[A-Za-z]+", spaced) if w.lower() not in _NOT_MEANING)


_MEASURE = frozenset(_stem(w) for w in _MEASURE_WORDS)


@dataclass(frozen=True)
class Value:
    """A value a condition can reach: its name, its path in an expression, and what produces it."""

    name: str
    path: str
    said: str  # "step-2's output (compute-refund)", "the workflow input"
    about: str = ""  # the producer's words: its skill's name and its step's title
    owner: tuple[str, ...] = ()  # the producing step's skill's name and its title, each apart (`plan.any_owned50`)


def by_meaning(words: Iterable[str], values: Iterable[Value], *, numeric: bool = False) -> tuple[Value | None, str]:
    """The one value `words` mean (module docstring) and how it was read; (None, what to write) when
    none or several are. `numeric`: the condition compares it with a number, so of several values
    meant the one whose name says a measure (`hazard_level` beside `hazard_label`) is."""
    from orchestrator.plan.people_words26 import (  # "kids" of `pupils` (its module)
        counted_by_noun,
        widen,
    )

    subject = widen(stems(" ".join(words)))
    if not subject:
        return None, ""
    reachable = list(values)
    meant: list[Value] = []
    near: list[Value] = []
    for v in reachable:
        own = widen(stems(v.name))
        if numeric and counted_by_noun(subject, own, v.name):  # "more than 20 kids": `pupils`, a number of them
            own = own | {"count"}
        if "count" in subject and own & _COUNT_WORDS:  # "more than 5,000 recipients": `total_recipients`, `n_items`
            own = own | {"count"}
        if subject & own:
            (meant if subject <= own | stems(v.about) else near).append(v)
    if len(meant) > 1 and "count" in subject:  # a count of pupils: `n_pupils` rather than the list `pupils`
        meant = [v for v in meant if stems(v.name) & _COUNT_WORDS] or meant
    if len(meant) > 1 and numeric:
        meant = [v for v in meant if _MEASURE & stems(v.name)] or meant
    said = " ".join(words)
    if len(meant) == 1:
        v = meant[0]
        return v, f"`{said}` read as `{v.name}`, {v.said}, by its meaning"
    if not meant and not near and (only := _sole_output(subject, reachable)) is not None:
        return only, f"`{said}` read as `{only.name}`, {only.said}, the one output of the step its words name"
    listed = meant or near or reachable
    if not listed:
        return None, ""
    names = ", ".join(f"`{v.name}` ({v.said})" for v in listed[:8])
    what = "the values it may mean" if meant or near else "the values there are"
    return None, f"; {what}: {names}; write the one meant by its name"


def meant_values(steps: Iterable[str], inputs: Iterable[object], produced: Mapping[str, object],
                 bound: Mapping[str, object], spec: object) -> Callable[..., tuple[str | None, str]]:
    """The `Meaning` of a condition (`plan.conditions`): its subject's words against the outputs of
    `steps` (the nearest first: a name two of them output is the nearest's) and the workflow `inputs`."""
    def values() -> list[Value]:  # built only when a subject is read by meaning: plan() asks per step
        titles = {s.id: s.name for s in getattr(spec, "steps", ())}
        out: dict[str, Value] = {}
        for sid in steps:
            made = produced.get(sid)
            skill = getattr(bound.get(sid), "name", "") or ""
            for name in sorted(getattr(made, "fields", ()) or ()):
                out.setdefault(name, Value(name, f"steps['{sid}'].output.{name}",
                                           f"{sid}'s output" + (f" ({skill})" if skill else ""),
                                           f"{skill} {titles.get(sid, '')}", (skill, titles.get(sid, ""))))
        for item in inputs:
            name = str(getattr(item, "name", ""))
            out.setdefault(name, Value(name, f"inputs.{name}", "a workflow input"))
        return list(out.values())

    return _Meaning(values)


class _Meaning:
    """The `Meaning` `meant_values` gives; `owned_any` reads "the cue report has any failures" (`plan.any_owned50`)."""

    def __init__(self, values: Callable[[], list[Value]]) -> None:
        self._values = values

    def __call__(self, words: tuple[str, ...], numeric: bool = False) -> tuple[str | None, str]:
        found, note = by_meaning(words, self._values(), numeric=numeric)
        return (found.path if found is not None else None), note

    def owned_any(self, subject: tuple[str, ...], some: bool, said: str) -> tuple[str, str] | None:
        from orchestrator.plan.any_owned50 import owned_any

        found = owned_any(subject, some, said, self._values())
        return (found.expression, found.note) if found is not None else None


def _sole_output(subject: frozenset[str], values: list[Value]) -> Value | None:
    """"if the quote's over £150" where `quote-callout` gives one output, `price`: the subject names a step
    (every word of it in one step's skill or title, no value's name) and that step's one output is meant."""
    by_step: dict[str, list[Value]] = {}
    for v in values:
        if v.about and ".output." in v.path and subject <= stems(v.about):
            by_step.setdefault(v.path.split(".output.")[0], []).append(v)
    return by_step.popitem()[1][0] if len(by_step) == 1 and len(next(iter(by_step.values()))) == 1 else None
