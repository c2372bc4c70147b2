"""An input taken from whichever of several steps ran, each step giving it under its own field.

`spec.either_input` reads "the page id or ticket id as `ref`"; here each alternative is
placed on a step before the one that reads it, by its words against the steps' outputs
(their schemas, or what their SKILL.md says they return), first rule that finds one:

    its name        the words are an output's name (`page_id`)
    its words       the words are the output's name's words ("page id", "Page-ID")
    loosely         the output of those steps that shares the most words with them ("the
                    page" -> `page_id`), when one does and not only a word such as "id",
                    "code" or "number"; warned, with what to write

An alternative that names its step ("page-oncall's page_id", "page_id from step 3") is
looked for in that step only (a step's id, number, name or skill, or the word its text begins
with: a table row's first cell, a state's name); else in the steps before,
the latest first (those the step says it depends on first), `For each` steps left out. Two
alternatives found on two steps make a join binding (`InputBinding.any_of` with its
`pointers`: each step its own field), the first that ran giving the value; an alternative
found nowhere is a warning at its line saying what to write, when another one is found or
it names its step (else the text is no such input: "(fast or slow)"); one found alone binds
that step's field, warned.

`join_source_problems` is the static check of such bindings (`checks`): each of a join's
steps must be one the step depends on, which the planner makes so unless `Depends on:`
says otherwise.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.mapping import Dependencies, Mapped
from orchestrator.plan.model import InputBinding, Plan, PlanStep, Provenance
from orchestrator.plan.scope import Produced
from orchestrator.spec.either_input import Alternative, EitherInput, either_inputs
from orchestrator.spec.fields import step_id as numbered_step
from orchestrator.spec.model import StepSpec

_FILLER = frozenset({"the", "a", "an", "its", "their", "of", "from", "value", "field", "one"})
_LISTED = 4  # steps whose outputs a warning lists
# words many outputs end with: two names that share only these are not loosely the same
_GENERIC = frozenset({"id", "code", "number", "no", "name", "key", "ref", "reference", "url", "date", "time", "count",
                      "text", "type", "status", "result", "output", "data"})


def _words(text: str) -> list[str]:
    out = []
    for w in re.split(r"[^0-9a-z]+", text.lower()):
        if w and w not in _FILLER:
            out.append(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


_LEAD = re.compile(r"\A[\s|*#_`>-]*+([A-Za-z][\w-]*+|\d{1,3}+[a-z](?![\w-]))")  # "| 3a | ...": a grid line's label


def _lead(step: StepSpec) -> str:
    """The word a step's text begins with, past its markup: a table row's first cell (`| `RESERVING` | ...`),
    a state's or a bold lead's name, by which other rows call the step."""
    text = step.texts[0].text if step.texts else step.description
    m = _LEAD.match(text)
    return m.group(1).lower() if m is not None else ""


@dataclass(frozen=True)
class Placed:
    """An alternative placed on one step's output field, and by which rule."""

    alternative: Alternative
    step: str
    field: str
    how: str  # "its name", "its words", "loosely"


@dataclass
class JoinInput:
    """One reading of a step, with each alternative placed (or not)."""

    reading: EitherInput
    placed: list[Placed] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def steps(self) -> list[str]:
        return [p.step for p in self.placed]


class JoinReader:
    """Places the readings of every step of one spec (module docstring).

    Each step is looked for through indexes built once (which steps output a name, which output a name of given
    words, which name a word is in, which steps a step can be called by), never by walking every step before
    the reading: placing all of a spec's readings grows with the spec, not with its square."""

    def __init__(self, steps: Sequence[StepSpec], produced: Mapping[str, Produced],
                 skill_of: Mapping[str, str], path: str) -> None:
        self.steps = list(steps)
        self.order = [s.id for s in steps]
        self.index = {sid: i for i, sid in enumerate(self.order)}
        self.produced = produced
        self.skill_of = skill_of
        self.path = path
        self._word_cache: dict[str, tuple[str, ...]] = {}
        # the steps (ascending positions) each way of calling a step names: its id, name, skill or lead word
        # (lower-cased), and its id or "step-N" as `numbered_step` writes them
        self.called: dict[tuple[str, str], list[int]] = {}
        # ungathered steps (ascending) outputting a name / a name of these words; a word's names; steps with outputs
        self.by_name: dict[str, list[int]] = {}
        self.by_words: dict[tuple[str, ...], list[int]] = {}
        self.names_of_word: dict[str, set[str]] = {}
        self.with_fields: list[int] = []
        self.with_fields_ungathered: list[int] = []
        for i, s in enumerate(self.steps):
            for key in {("low", s.id.lower()), ("low", s.name.strip().lower()),
                        ("low", skill_of.get(s.id, "").lower()), ("low", _lead(s)),
                        ("num", s.id), ("num", f"step-{s.number}")}:
                self.called.setdefault(key, []).append(i)
            made = self._fields(s.id)
            if made:
                self.with_fields.append(i)
            if produced[s.id].gathered or not made:
                continue
            self.with_fields_ungathered.append(i)
            for f in made:
                self.by_name.setdefault(f, []).append(i)
                key_words = self._words(f)
                held = self.by_words.setdefault(key_words, [])
                if not held or held[-1] != i:
                    held.append(i)
                for w in set(key_words) - _GENERIC:
                    self.names_of_word.setdefault(w, set()).add(f)

    def _words(self, text: str) -> tuple[str, ...]:
        found = self._word_cache.get(text)
        if found is None:
            found = self._word_cache[text] = tuple(_words(text))
        return found

    def label(self, step: StepSpec) -> str:
        return f"{step.id} ({step.name})"

    def read(self, step: StepSpec, reads: set[str], known: bool) -> list[JoinInput]:
        """The step's readings whose name it reads (`reads`; any name when its skill does not say what it
        reads, `known` False), each placed. A name given a value or a source of its own is not read here."""
        out: list[JoinInput] = []
        taken = set(step.input_values) | {f.name for f in step.inputs if f.source}
        for reading in either_inputs(step):
            if reading.name in taken:
                continue
            join = self.place(step, reading)
            if reading.name not in reads and known:
                if reading.deliberate and join.placed:
                    join.warnings = [warning_at(reading.where, self.path, f"{self.label(step)}: `{reading.name}` "
                                                f"is said to be one of {self._said(reading)}, but its skill "
                                                f"`{self.skill_of.get(step.id, '?')}` does not read `{reading.name}`"
                                                f"; it is not passed", "plan.join-input")]
                    out.append(JoinInput(reading, [], join.warnings))
                continue
            if not join.placed and not any(a.step for a in reading.alternatives):
                continue  # "(fast or slow)", "... as `x`": no value is any step's, none names a step: no join input
            out.append(join)
        return out

    @staticmethod
    def _said(reading: EitherInput) -> str:
        return " or ".join(f"\"{a.words}\"" + (f" ({a.step})" if a.step else "") for a in reading.alternatives)

    def place(self, step: StepSpec, reading: EitherInput) -> JoinInput:
        join = JoinInput(reading)
        index = self.index[step.id]
        deps = sorted((self.index[d] for d in set(step.depends_on) if self.index.get(d, index) < index), reverse=True)
        earlier = _Around(self, index, [], ungathered=False)  # the steps before it, latest first
        for alt in reading.alternatives:
            if alt.step is not None:
                named = self._named(alt.step, index)
                if named is None:
                    join.warnings.append(self._warn(step, reading, f"`{alt.step}` (written with \"{alt.words}\") is "
                                                    "no step before it", earlier))
                    continue
                among = _Among(self, index, deps, {self.index[p.step] for p in join.placed}, only=named)
            else:
                among = _Among(self, index, deps, {self.index[p.step] for p in join.placed}, only=None)
            placed = self._field(alt, among, step, reading, join)
            if placed is None:
                continue
            if placed.step in join.steps:
                join.warnings.append(self._warn(step, reading, f"\"{alt.words}\" is {placed.step}'s "
                                                f"`{placed.field}`, and {placed.step} already gives another of "
                                                "the values: one step gives one of them", earlier))
                continue
            join.placed.append(placed)
        if len(join.placed) == 1 and len(reading.alternatives) > 1 and not join.warnings:
            join.warnings.append(self._warn(step, reading, "only one of the values is found", earlier))
        return join

    def _named(self, said: str, before: int) -> int | None:
        """The latest step before position `before` that `said` calls (by id, number, name, skill or lead word)."""
        low = said.strip().strip("`").lower()
        numbered = numbered_step(said)
        found = [_latest(self.called.get(("low", low), []), before)]
        if numbered is not None:
            found.append(_latest(self.called.get(("num", numbered), []), before))
        return max((i for i in found if i is not None), default=None)

    def _field(self, alt: Alternative, among: _Among, step: StepSpec, reading: EitherInput,
               join: JoinInput) -> Placed | None:
        said = alt.words.replace("`", "").strip()
        key = self._words(said)
        at = among.first(self.by_name.get(said, []), lambda i: said in self._fields(self.order[i]))
        if at is not None:
            return Placed(alt, self.order[at], said, "its name")
        at = among.first(self.by_words.get(key, []),
                         lambda i: any(self._words(f) == key for f in self._fields(self.order[i])))
        if at is not None:
            hit = min(f for f in self._fields(self.order[at]) if self._words(f) == key)
            return Placed(alt, self.order[at], hit, "its words")
        scored: dict[str, tuple[int, str]] = {}  # field -> (shared words, the first step looked at that outputs it)
        if among.only is not None:
            names: set[str] = set(self._fields(self.order[among.only]))
        else:
            names = set().union(*(self.names_of_word.get(w, set()) for w in set(key) - _GENERIC))
        for f in names:
            common = set(key) & set(self._words(f))
            shared = len(common) if common - _GENERIC else 0  # "gift id" is not `refund_id`
            if not shared:
                continue
            at = among.first(self.by_name.get(f, []), functools.partial(self._outputs, f))
            if at is not None:
                scored[f] = (shared, self.order[at])
        best = max((n for n, _ in scored.values()), default=0)
        top = sorted(f for f, (n, _) in scored.items() if n == best) if best else []
        if len(top) == 1:
            placed = Placed(alt, scored[top[0]][1], top[0], "loosely")
            join.warnings.append(warning_at(reading.where, self.path,
                                            f"{self.label(step)}: \"{alt.words}\" (one of the values for "
                                            f"`{reading.name}`) is read as {placed.step}'s `{placed.field}`, the "
                                            f"output that shares its words; if another is meant, write its "
                                            f"name (`{reading.name}` = {self._example(reading, placed)})",
                                            "plan.join-input"))
            return placed
        what = f"\"{alt.words}\"" + (f" ({alt.step})" if alt.step else "")
        candidates = among.around()
        if len(top) > 1:
            join.warnings.append(self._warn(step, reading, f"{what} could be {' or '.join(f'`{f}`' for f in top)}",
                                            candidates))
        else:
            join.warnings.append(self._warn(step, reading, f"{what} is no output of "
                                            f"{'it' if alt.step else 'any step before it'}", candidates))
        return None

    def _outputs(self, name: str, at: int) -> bool:
        return name in self._fields(self.order[at])

    def _fields(self, sid: str) -> frozenset[str]:
        made = self.produced[sid]
        return made.fields

    def _example(self, reading: EitherInput, placed: Placed | None = None) -> str:
        parts = [placed.field if placed is not None and a is placed.alternative else a.words.replace(" ", "_")
                 for a in reading.alternatives]
        return " or ".join(parts)

    def _warn(self, step: StepSpec, reading: EitherInput, why: str, around: Iterable[StepSpec]) -> Diagnostic:
        listed = list(itertools.islice((s for s in around if self._fields(s.id)), _LISTED))
        outputs = "; ".join(f"{s.id} ({self.skill_of.get(s.id) or s.name}) outputs "
                            f"{', '.join(sorted(self._fields(s.id)))}" for s in listed)
        return warning_at(reading.where, self.path,
                          f"{self.label(step)}: `{reading.name}` is one of {self._said(reading)}, but {why}. "
                          f"Write each value as its step outputs it, `{reading.name}` = a_field (from Step N) or "
                          f"another_field (from Step M)" + (f" ({outputs})" if outputs else ""), "plan.join-input")


def _latest(held: Sequence[int], before: int) -> int | None:
    """The greatest of the ascending positions `held` below `before`."""
    at = bisect.bisect_left(held, before)
    return held[at - 1] if at else None


def _has(held: Sequence[int], i: int) -> bool:
    at = bisect.bisect_left(held, i)
    return at < len(held) and held[at] == i


@dataclass
class _Around:
    """The steps before position `before` as a warning lists them: those it depends on, then the rest latest
    first (`ungathered`: `For each` steps left out); only steps with outputs, found through the reader's index."""

    reader: JoinReader
    before: int
    deps: list[int]  # positions, latest first
    ungathered: bool

    def __iter__(self) -> Iterator[StepSpec]:
        r = self.reader
        held = r.with_fields_ungathered if self.ungathered else r.with_fields
        for d in self.deps:
            if _has(held, d):
                yield r.steps[d]
        skip = set(self.deps)
        for j in range(bisect.bisect_left(held, self.before) - 1, -1, -1):
            if held[j] not in skip:
                yield r.steps[held[j]]


@dataclass
class _Among:
    """Where one alternative is looked for: the step it names (`only`), or the ungathered steps before position
    `before` - those the step depends on first, then the latest first - with the steps other values were
    already found on (`used`) looked at last. `first` is the first of them in that order among `held`."""

    reader: JoinReader
    before: int
    deps: list[int]
    used: set[int]
    only: int | None

    def first(self, held: Sequence[int], outputs: Callable[[int], bool]) -> int | None:
        """The first step looked at that outputs the name: `held`, the ascending ungathered positions that do
        (an index), or `outputs` asked of the one named step."""
        if self.only is not None:
            return self.only if outputs(self.only) else None
        for d in self.deps:
            if d not in self.used and _has(held, d):
                return d
        skip = set(self.deps)
        for j in range(bisect.bisect_left(held, self.before) - 1, -1, -1):
            if held[j] not in skip and held[j] not in self.used:
                return held[j]
        later = sorted(self.used, key=lambda u: (u not in skip, -u))  # the used ones, in the same order
        return next((u for u in later if u < self.before and _has(held, u)), None)

    def around(self) -> Iterable[StepSpec]:
        """The steps looked in, as a warning lists them."""
        if self.only is not None:
            return [self.reader.steps[self.only]]
        return _Around(self.reader, self.before, self.deps, ungathered=True)


def join_binding(join: JoinInput, optional: bool) -> tuple[InputBinding, Provenance] | None:
    """The binding of a placed reading (module docstring), with its provenance; None when nothing was placed."""
    placed = join.placed
    if not placed:
        return None
    reading = join.reading
    each = ", or ".join(f"{p.step}'s `{p.field}` (\"{p.alternative.words}\", by {p.how})" for p in placed)
    first = placed[0]
    binding = InputBinding(source="step", step=first.step, pointer=f"/{first.field}", optional=optional)
    if len(placed) == 1:
        return binding, from_spec(reading.where, f"explicit: `{reading.name}` = {each}; the other values are "
                                                 "found in no step (warned)")
    pointers = {p.step: f"/{p.field}" for p in placed}
    update: dict[str, object] = {"any_of": tuple(pointers)}
    if len(set(pointers.values())) > 1:
        update["pointers"] = pointers
    return (binding.model_copy(update=update),
            from_spec(reading.where, f"join, each step its own field: `{reading.name}` = {each}; whichever ran"))


def join_source_problems(plan: Plan) -> Iterator[tuple[PlanStep, str, str]]:
    """(step, input, message) for each step of a join binding with `pointers` that the step does not depend on."""
    steps = {s.id for s in plan.steps}
    for step in plan.steps:
        for name, binding in step.inputs.items():
            if not binding.pointers:
                continue
            for sid in binding.any_of:
                if sid not in steps:
                    yield step, name, f"`{name}` is read from `{sid}`, which is not a step of this workflow"
                elif sid not in step.depends_on:
                    yield step, name, (f"`{name}` is read from whichever of {', '.join(binding.any_of)} ran, but it "
                                       f"does not run after {sid} (it depends on {', '.join(step.depends_on) or 'nothing'})"
                                       f": add {sid} to its `Depends on`, or take `{name}` from a step it runs after")


def after_joins(deps: Dependencies, step: StepSpec, joins: Sequence[JoinInput]) -> Dependencies:
    """A step that does not say what it depends on also runs after each step its join inputs read."""
    if step.depends_on or step.depends_where is not None:
        return deps
    missing = [sid for j in joins for sid in j.steps if sid not in deps.depends_on]
    if not missing:
        return deps
    names = ", ".join(dict.fromkeys(j.reading.name for j in joins if set(j.steps) & set(missing)))
    note = f"{deps.provenance.note}; and {', '.join(dict.fromkeys(missing))}, for {names} (whichever ran)"
    return deps.model_copy(update={"depends_on": tuple(dict.fromkeys([*deps.depends_on, *missing])),
                                   "provenance": deps.provenance.model_copy(update={"note": note})})


def bind_joins(mapped: Mapped, joins: Sequence[JoinInput], required: Sequence[str], reads: set[str]) -> set[str]:
    """Each placed reading's binding replaces what the other rules gave its name (it is explicit); an
    output the text named only as one of its values ("the page id") is then no input of its own. The
    names so bound."""
    bound: set[str] = set()
    for join in joins:
        name = join.reading.name
        made = join_binding(join, optional=name not in required)
        if made is None:
            continue
        bound.add(name)
        mapped.bindings[name], mapped.provenance[f"inputs.{name}"] = made
        for placed in join.placed:
            f = placed.field
            prov = mapped.provenance.get(f"inputs.{f}")
            if f != name and f not in reads and prov is not None and prov.note.endswith("(named in the step's text)"):
                mapped.bindings.pop(f, None)
                mapped.provenance.pop(f"inputs.{f}", None)
    return bound
