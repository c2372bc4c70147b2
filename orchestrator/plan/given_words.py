"""Readings of a value said in words for a name a skill reads, that the name's own words do not give.

"Which X": a thing the run is given, said as the choice of a thing ("which weather buoy to read",
"which room we're in"), is the name whose words are that thing and an id, name or code (`buoy_id`,
`room_name`), or the name whose SKILL.md description opens with them (`station` (buoy id: ...)).
`plan.prose_inputs` tries it last, when no name has every word of the part said; the warning at the
sentence says how it was read.

"The X from step N": a skill input nothing gives whose name ends in a unit (`limit_c`, `cap_kg`), where
the step's text says its other words and a step it comes from ("the cargo's limit from step 2", "the
weight cap out of step 3"), is that step's one output that ends in the same unit (`max_c`): a step the
step runs after, so no dependency is made up. Two such outputs, or none, are no reading: the input stays
unbound and its "nothing gives it" warning stands. A workflow input is never bound this way, and a name
a step's words give is never given to an output they do not name. Warned at the step, with the plain
way to write it (`limit_c = the max_c from step 2`).

A name said only inside a longer one ("the unknown names" says `unknown_names`) is no mention of the
shorter (`unknown`, an earlier step's output): `inside_longer`, for the planner's names a step's text
mentions, so that no dependency on that earlier step is made up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.near_input import singular_word
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.salon38 import shortened_field

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WORD = _rx(r"(?<![A-Za-z0-9])[A-Za-z0-9]++(?:['’][A-Za-z]++)?+")
_CASE = _rx(r"([a-z])([A-Z])")
# "which weather buoy to read", "which room we're in": the thing chosen, up to a verb's clause
_WHICH = _rx(r"(?i)^(?:the\s++)?+(?:which|what)\s++(?P<thing>[a-z]++(?:\s++(?!to\b|we\b|you\b|it\b|they\b|is\b|are\b|"
             r"i\b|the\b|for\b|of\b)[a-z]++){0,2}+)")
_IDS = frozenset({"id", "name", "code", "no", "number", "ref", "key", "tag"})
_ABOUT_HEAD = _rx(r"^[ \t(]*+(?P<lead>[^:;,.()\n]{1,40}+)")
UNITS = frozenset({"ms", "m", "s", "sec", "secs", "min", "mins", "h", "hr", "hrs", "km", "kg", "g", "mm", "cm",
                   "usd", "eur", "gbp", "pct", "percent", "c", "f", "kwh", "kw", "mw", "mph", "kph", "kmh", "kt",
                   "kn", "l", "ml"})
# "from step 2", "out of step 3", "off step 1", "that step 2 gives"
_FROM_STEP = _rx(r"(?i)\b(?:from|out\s++of|off|of|by)\s++(?:step|#)\s*+(?P<n>\d{1,3}+)\b")
_STOP = frozenset({"the", "a", "an", "its", "their", "our", "s", "of", "on", "in", "to", "for"})


def _name_words(name: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(_CASE.sub(r"\1 \2", name).replace("_", " "))]


def which_named(part: str, about: Mapping[str, str], made: Iterable[str]) -> tuple[str, str] | None:
    """(name, how it was read) for the one name that "which <thing>" stands for (module docstring)."""
    m = _WHICH.match(part.strip())
    if m is None:
        return None
    thing = [singular_word(w.lower()) for w in m.group("thing").split()]
    head = thing[-1]
    made_set = set(made)
    found: list[tuple[str, str]] = []
    for name, said in about.items():
        if name in made_set:
            continue
        words = [singular_word(w) for w in _name_words(name)]
        if head in words and set(words) - set(thing) <= _IDS and len(words) > 1:
            found.append((name, f"'which {head}' read as its {words[-1]}"))
            continue
        lead = _ABOUT_HEAD.match(said)
        lead_words = [singular_word(w.lower()) for w in _WORD.findall(lead.group("lead"))] if lead else []
        if head in lead_words and len(lead_words) <= 3 and set(lead_words) - set(thing) <= _IDS:
            found.append((name, f"'which {head}' read as what its skill says it is: '{lead_text(lead)}'"))
    return found[0] if len(found) == 1 else None


def lead_text(lead: re.Match[str] | None) -> str:
    return lead.group("lead").strip() if lead is not None else ""


def _runs(words: Sequence[str], run: Sequence[str]) -> int:
    n = len(run)
    return sum(list(words[i:i + n]) == list(run) for i in range(len(words) - n + 1)) if n else 0


def inside_longer(names: Sequence[str], text: str) -> set[str]:
    """The names of `names` the text says only inside a longer one of them: "the unknown names" says
    `unknown_names`, not `unknown` beside it (an earlier step's output named `unknown` is not read)."""
    if len(names) < 2:
        return set()
    said = [singular_word(w.lower()) for w in _WORD.findall(text.replace("_", " "))]
    words = {n: [singular_word(w) for w in _name_words(n)] for n in names}
    out: set[str] = set()
    for short in names:
        for long in names:
            if long == short or len(words[long]) <= len(words[short]) or not _runs(words[long], words[short]):
                continue
            if 0 < _runs(said, words[short]) <= _runs(said, words[long]):
                out.add(short)
    return out


def _sentences(text: str) -> list[str]:
    out, start = [], 0
    for i, ch in enumerate(text):
        if ch in ".!?;\n" and (i + 1 == len(text) or text[i + 1].isspace()):
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def _from_step(name: str, text: str) -> tuple[str, int] | None:
    """(the words said, step number) where a sentence of `text` says the name's words but its unit and a step."""
    words = _name_words(name)
    if len(words) < 2 or words[-1] not in UNITS:
        return None
    stem = {singular_word(w) for w in words[:-1] if w not in _STOP}
    if not stem:
        return None
    said: tuple[str, int] | None = None
    for sentence in _sentences(text):
        after = 0  # the words since the last "from step N" of the sentence are the next one's
        for m in _FROM_STEP.finditer(sentence):
            before = list(_WORD.finditer(sentence, after, m.start()))[-5:]
            after = m.end()
            at = [i for i, w in enumerate(before) if singular_word(w.group(0).lower()) in stem]
            if not stem <= {singular_word(w.group(0).lower()) for w in before}:
                continue
            if said is not None and said[1] != int(m.group("n")):
                return None  # two steps said: which? no reading
            said = (sentence[before[max(at[0] - 1, 0)].start(): m.end()], int(m.group("n")))
    return said


def bind_step_words(step: StepSpec, left: Iterable[str], text: str, order: Sequence[str],
                    runs_after: Callable[[str], bool], fields: Callable[[str], Iterable[str]], required: Iterable[str],
                    bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                    path: str) -> list[Diagnostic]:
    """Each name of `left` that the step's `text` says comes from an earlier step, bound to that step's one
    output of the same unit (module docstring); the warnings at the step."""
    found: list[Diagnostic] = []
    must = set(required)
    for name in left:
        if name in bindings:
            continue
        said = _from_step(name, text)
        if said is None:  # "with the unmatched list and the total": `unmatched_total` (`spec.salon38`)
            found += _shortened(step, name, text, order, runs_after, fields, name in must, bindings, provenance, path)
            continue
        if not 0 < said[1] <= len(order):
            continue
        source = order[said[1] - 1]
        if not runs_after(source):
            continue  # a step it does not run after: no dependency is made up
        unit = _name_words(name)[-1]
        same = sorted(f for f in fields(source) if len(_name_words(f)) > 1 and _name_words(f)[-1] == unit)
        if len(same) != 1:
            continue
        bindings[name] = InputBinding(source="step", step=source, pointer=f"/{same[0]}", optional=name not in must)
        provenance[f"inputs.{name}"] = from_spec(step.where, f"{source} output {same[0]} (the text says "
                                                             f"'{said[0]}'; its one output in `{unit}`)")
        found.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which nothing "
                                f"gives by name; the text says '{said[0]}', so it is given {source}'s "
                                f"`{same[0]}`, that step's one output in `{unit}`: check the plan, or write "
                                f"`{name} = the {same[0]} from step {said[1]}` in the step", "plan.input-from-step-words"))
    return found


def _shortened(step: StepSpec, name: str, text: str, order: Sequence[str], runs_after: Callable[[str], bool],
               fields: Callable[[str], Iterable[str]], must: bool, bindings: MutableMapping[str, InputBinding],
               provenance: MutableMapping[str, Provenance], path: str) -> list[Diagnostic]:
    """`name` bound to the one output of the steps the step runs after whose name ends in it, said with its
    other words in the step's text (`spec.salon38.shortened_field`); no warning when none or several fit."""
    owners: dict[str, str] = {}
    for source in order:
        if source != step.id and runs_after(source):
            for f in fields(source):
                owners.setdefault(f, source)
    field = shortened_field(name, text, list(owners))
    if field is None:
        return []
    source = owners[field]
    bindings[name] = InputBinding(source="step", step=source, pointer=f"/{field}", optional=not must)
    provenance[f"inputs.{name}"] = from_spec(step.where, f"{source} output {field} (the text says 'the {name}' "
                                                         f"and the rest of `{field}`'s words)")
    return [warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which nothing gives "
                       f"by name; the text says 'the {name}' and the other words of {source}'s `{field}`, so it is "
                       f"given that: check the plan, or write `{name} = the {field} from {source.replace('-', ' ')}` "
                       "in the step", "plan.input-from-step-words")]


_rx.save()
