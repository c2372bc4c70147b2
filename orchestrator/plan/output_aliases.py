"""An earlier step's output that the step's words name by another name than the skill input that takes it.

    notify-agent at the arrival port with the plan number from 3a and the steaming time from 2a
        -> `plan_no` <- 3a's `plan_ref`; `steaming_hours` <- 2a's `hours`
    record-spray-log: ... the wind reading from i (called the wind speed on the record)
        -> `wind_speed` <- i's `wind_kmh`
    jq '{squeezed: .below_floor, floor: $f}' $< | reprice-suggest
    reprice-suggest only looks at the squeezed SKUs (the under-floor list out of margins.json)
        -> `squeezed` <- `below_floor`
    This forks on how many survivors there are (`kept_n` from the filter) ... rake the survivors;
    the table takes ... the survivor count
        -> `survivors` <- the filter's `kept`; `n` <- the filter's `kept_n` (not step 1's own `n`)

A step's skill reads a name that nothing gives by that name (or that it would take, by name alone, from
a step other than the one its words point at). Three ways of writing say which earlier output it is:

- an object written with the name as a key and a field path as its value, `squeezed: .below_floor` (jq,
  JSONPath-like recipes): the field an earlier step outputs;
- "the <words> from <step>" (also "out of", "off"; up to four words, "the" or not: "worn brake
  positions from step 1"), the step by its number, its label (`3a`), a roman
  numeral (its place), or a word of its skill (`the filter`, `margins.json` for `margin-check`): the
  words share a word with the input's name (`plan number` for `plan_no`, the words `no`/`number`/`num`
  being one), or the phrase stands in parentheses after words that do ("the squeezed SKUs (the
  under-floor list out of margins.json)"), and that step (or, when
  the step is not said by a label the plan knows, the steps before) has exactly one output sharing a
  word with the words or the name (`plan_ref`, `hours`, `wind_kmh`); of several, the one whose every
  word is said (`worn` over `any_worn`); a form's blanks (`____`) after "from" are skipped; with no
  output sharing a word, a step said by its label whose skill's words say the input's ("the summary
  from 5.3", `viability-summary`) gives its whole output; a label is a word of the step's name, skill
  or first line (`5.3`, `1a`, `iii`); "from" after a verb of going again ("fix the offending lines and
  rerun from step 4", "start over from", "pick up from") says where the run goes on, no output;
- a count said in apposition to its field anywhere in the document, "how many survivors there are
  (`kept_n` ...)", "the number of seats (`seat_count`)": the noun (`survivors`) is then the list that
  field counts (the same step's output without the count's `_n` / `_count`: `kept`), and "the survivor
  count" / "how many survivors" in a step is the count itself, for an input whose name is a count (`n`,
  `count`, or the count field's own last words).

A reference to a field the step's skill does not declare (`"rate": "$fx.rate"` where fx-rate gives
`usd_per_unit` and `source`) is the one output whose name (else name and description in its skill's
instructions) shares a word with the reading input's name, the field said, or what the reading skill says
the input is ("`rate` (USD per EUR)"): warned as a guess, with the plain way to write it; none or two, and
the step's whole output stands, warned (`described_field`).

A workflow input said with a qualifier, "tide-window for the departure port ... notify-agent at the
arrival port", where the skill reads `port` and the workflow has an input named by the qualifier
(`arrival`, `arrival_port`): that input, not the one named `port` (`bind_qualified_inputs`). When no
such input exists and two steps take the input `port` under two qualifiers, the planner warns that the
text says two values for it (`plan.dataflow`).

Only outputs of a step the step runs after are taken (no dependency is made up); two candidates, or
none, are no reading and the input's "nothing gives it" warning stands. Every reading is warned at the
step's line with the plain way to write it (`plan_no = the plan_ref from step 4`); a binding by name it
replaces is said in the warning, so a guess is never silent.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.near_input import singular_word
from orchestrator.plan.runs37 import count_field
from orchestrator.spec.model import StepSpec
from orchestrator.spec.notes38 import (
    stem_count,  # "the 'how many went' number from the send": `sent_count`
)
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TEXTTT = _rx(r"\\(?:texttt|code|verb|emph|textit|textbf)\{([^{}\n]{1,80}+)\}")
_KEYED = _rx(r"(?<![\w.$-])[\"']?+(?P<name>[A-Za-z_]\w{0,40}+)[\"']?+\s*+:\s*+\.(?P<field>[A-Za-z_]\w{0,40}+)\b")
_PHRASE = _rx(r"(?i)(?<![\w-])(?P<words>(?:[a-z][a-z'-]{0,30}+\s++){0,3}[a-z][a-z'-]{0,30}+)\s++"
              r"(?:from|out\s++of|off)\s++(?:_{2,40}+\s++){0,4}+(?:the\s++)?(?P<ref>step\s*+\d{1,3}+|\d{1,3}+\.\d{1,3}+(?!\d)|\d{1,3}+[a-z]?+|[a-z][\w-]{0,40}+)\b")
_COUNT_SAID = _rx(r"(?i)(?:how\s++many\s++(?P<a>[a-z]{3,30}+)(?:\s++there\s++(?:are|is|were))?+"
                  r"|(?:number|count)\s++of\s++(?P<b>[a-z]{3,30}+)|(?P<c>[a-z]{3,30}+)\s++count)"
                  r"\s*+\(\s*+`(?P<field>[A-Za-z_]\w{0,40}+)`")
_WORD = _rx(r"[a-z0-9]++")
_PER_ITEM = _rx(r"(?i)(?<![\w-])(?:per|each|every)\s++[a-z][a-z'-]{0,30}+$")
_ROMAN = _rx(r"(?i)^[ivx]{1,5}+$")
_LABEL = _rx(r"(?i)^\d{1,3}+(?:[a-z]|\.\d{1,3}+)?+$")
_SAME = {"no": "number", "num": "number", "nr": "number", "qty": "quantity", "ref": "reference"}
_STOP = frozenset({"the", "value", "values", "result", "results", "output", "outputs", "data", "info", "and",
                   "its", "their", "our", "new", "one", "with", "to", "of", "for", "at", "in", "on", "a", "an", "from",
                   "by", "plus", "then", "take", "takes", "use", "uses", "using", "give", "gives", "it", "is"})
_COUNT_NAMES = frozenset({"n", "count", "num", "total", "number"})
_ARTICLES = frozenset({"the", "our", "their", "its", "your", "this", "that"})
_NOT_QUALIFIERS = frozenset({"same", "given", "input", "workflow", "new", "current", "right", "usual", "one", "other",
                             "first", "last", "next", "previous", "whole", "full", "main", "default", "own"})
_AGAIN = frozenset({"rerun", "re-run", "restart", "resume", "retry", "redo", "repeat", "replay", "again", "over",
                    "continue", "proceed", "onward", "onwards", "up", "on"})  # "rerun from step 4": a place
_ROMANS = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}


class Earlier(BaseModel):
    """A step before the one being bound: its id, the words it is known by (name, skill) and its outputs."""

    model_config = ConfigDict(frozen=True)

    id: str
    number: int  # its place in the document, from 1
    label: str  # its name and skill, in words
    fields: frozenset[str]


class Alias(BaseModel):
    """The earlier output the text names for a skill input, and the words that say so."""

    model_config = ConfigDict(frozen=True)

    step: str
    field: str
    said: str


def plain(text: str) -> str:
    """The text with LaTeX's code markup as backticks (`\\texttt{kept\\_n}` -> `` `kept_n` ``)."""
    return _TEXTTT.sub(r"`\1`", text.replace("\\_", "_"))


@functools.lru_cache(maxsize=1 << 16)  # a step's label is asked again for each phrase of each later step
def _words(text: str) -> frozenset[str]:
    out = set()
    for w in _WORD.findall(text.lower()):
        w = _SAME.get(w, w)
        if w not in _STOP and len(w) >= 3:  # "limit_c"'s `c` is no word said
            out.add(singular_word(w))
    return frozenset(out)


def _name_words(name: str) -> frozenset[str]:
    return _words(name.replace("_", " "))


def _steps_named(ref: str, earlier: Sequence[Earlier]) -> list[Earlier] | None:
    """The steps `ref` names ("step 4", "3a", "iii", "filter"), [] for a word that names none, None for a
    label the plan does not know (any step before may be meant)."""
    ref = ref.lower().strip()
    if ref.startswith("step"):
        n = int(ref[4:].strip())
        return [e for e in earlier if e.number == n]
    if _LABEL.match(ref) or _ROMAN.match(ref):
        by_label = [e for e in earlier if ref in e.label.lower().replace("(", " ").replace(")", " ").split()]
        if by_label:
            return by_label
        if ref.isdigit():
            return [e for e in earlier if e.number == int(ref)]
        if ref in _ROMANS:
            return [e for e in earlier if e.number == _ROMANS[ref]]
        return None
    said = _words(ref)
    return [e for e in earlier if said and said <= _words(e.label)]


def _keyed(name: str, text: str, earlier: Sequence[Earlier]) -> Alias | None:
    for m in _KEYED.finditer(text):
        if m.group("name") != name or m.group("field") == name:
            continue
        field = m.group("field")
        makers = [e for e in earlier if field in e.fields]
        if makers:
            return Alias(step=makers[-1].id, field=field, said=m.group(0))
    return None


def _apposed(text: str, at: int, mine: frozenset[str]) -> bool:
    """Whether the phrase at `at` stands in parentheses just after words that say the name ("the squeezed
    SKUs (the under-floor list out of margins.json)")."""
    head = text[max(0, at - 80):at].rstrip()
    if not head.endswith("("):
        return False
    return bool(_words(" ".join(head[:-1].split()[-3:])) & mine)


def _phrased(name: str, text: str, earlier: Sequence[Earlier], taken: set[str]) -> Alias | None:
    mine = _name_words(name)
    found: dict[tuple[str, str], str] = {}
    whole: dict[str, str] = {}
    for m in _PHRASE.finditer(text):
        if m.group("words").lower().split()[-1] in _AGAIN:  # "fix the lines and rerun from step 4": where to go on
            continue
        if _PER_ITEM.search(m.group("words")):  # "once per item from 1": a For each over its list (`plan.fan_words`)
            continue
        said = _words(m.group("words"))
        steps = _steps_named(m.group("ref"), earlier)
        if steps and len(steps) == 1 and (field := count_field(name, m.group("words"), steps[0].fields)
                                                  or stem_count(name, m.group("words"), steps[0].fields)) \
                and field not in taken:  # "number of objects from the summary": its `n` (`plan.runs37`)
            found.setdefault((steps[0].id, field), m.group(0))
            continue
        if not said & mine and not _apposed(text, m.start(), mine):
            continue
        if steps is None:
            steps = list(earlier)
        elif len(steps) == 1 and not any(_name_words(f) & (said | mine) for f in steps[0].fields) \
                and said & mine and mine <= _words(steps[0].label):
            whole.setdefault(steps[0].id, m.group(0))  # "the summary from 5.3": that step's whole output
        for e in steps:
            for field in e.fields:
                if field != name and field not in taken and _name_words(field) & (said | mine):
                    found.setdefault((e.id, field), m.group(0))
    if not found and len(whole) == 1:
        sid, said_text = next(iter(whole.items()))
        return Alias(step=sid, field="", said=said_text)
    if len(found) > 1:  # "worn brake positions": `worn`, every word said, over `any_worn`
        every = {k: v for k, v in found.items() if _name_words(k[1]) <= _words(v) | mine}
        found = every if len(every) == 1 else found
    if len(found) != 1:
        return None
    (sid, field), said_text = next(iter(found.items()))
    return Alias(step=sid, field=field, said=said_text)


def count_aliases(document: str, earlier: Sequence[Earlier]) -> dict[str, tuple[Earlier, str, str | None]]:
    """noun (singular) -> (the step, its count field, the list that field counts or None), from the
    counts the document says in apposition to their field (module docstring)."""
    out: dict[str, tuple[Earlier, str, str | None]] = {}
    for m in _COUNT_SAID.finditer(plain(document)):
        noun = singular_word((m.group("a") or m.group("b") or m.group("c")).lower())
        field = m.group("field")
        makers = [e for e in earlier if field in e.fields]
        if not makers:
            continue
        maker = makers[-1]
        listed = None
        for affix in ("_n", "_count", "_num"):
            if field.endswith(affix) and field[: -len(affix)] in maker.fields:
                listed = field[: -len(affix)]
        for affix in ("n_", "num_"):
            if field.startswith(affix) and field[len(affix):] in maker.fields:
                listed = field[len(affix):]
        out.setdefault(noun, (maker, field, listed))
    return out


def _counted(name: str, text: str, counts: Mapping[str, tuple[Earlier, str, str | None]]) -> Alias | None:
    lower = text.lower()
    for noun, (maker, field, listed) in counts.items():
        said = [f"the {noun} count", f"the {noun}s count", f"number of {noun}s", f"how many {noun}s",
                f"count of {noun}s"]
        count_name = name in _COUNT_NAMES or (_name_words(name) and _name_words(name) <= _name_words(field))
        hit = next((s for s in said if s in lower), None)
        if hit is not None and count_name and name != field:
            return Alias(step=maker.id, field=field, said=hit)
        if listed is not None and singular_word(name.lower()) == noun and name != listed:
            return Alias(step=maker.id, field=listed, said=f"the {name}")
    return None


def said_alias(name: str, text: str, counts: Mapping[str, tuple[Earlier, str, str | None]],
               earlier: Sequence[Earlier], reads: Iterable[str]) -> Alias | None:
    """The earlier output the step's words name for `name`, by any of the readings (module docstring):
    the planner waits for its step before the inputs are bound."""
    text = plain(text)
    return (_keyed(name, text, earlier) or _phrased(name, text, earlier, set(reads) - {name})
            or _counted(name, text, counts))


def described_field(name: str, said_field: str, about: str, outputs: Mapping[str, str]) -> str | None:
    """The one output of `outputs` (name -> what its skill's instructions say of it) that a reference to a
    field the step does not declare means (`$fx.rate` where fx-rate gives `usd_per_unit` and `source`):
    the words of the reading input's name, of the field said and of what its skill says it is ("`rate` (USD
    per EUR)") shared with one output's name (else with its name and description) and with no other's."""
    mine = _name_words(name) | _name_words(said_field) | _words(about)
    if not mine or said_field in outputs:
        return None
    for described in (False, True):
        sharing = [f for f in outputs if (_name_words(f) | (_words(outputs[f]) if described else set())) & mine]
        if len(sharing) == 1:
            return sharing[0]
        if sharing:
            return None
    return None


def _replaces(binding: InputBinding | None, name: str, alias: Alias) -> bool:
    """Whether a binding the input has may be replaced by the text's reading: none, or one by its own
    name alone (a workflow input or another step's field of that name)."""
    if binding is None:
        return True
    if binding.source == "input":
        return binding.name == name
    if binding.source == "step":
        return binding.pointer == f"/{name}" and (binding.step, name) != (alias.step, alias.field)
    return False


def _what(binding: InputBinding, name: str) -> str:
    return f"the workflow input `{name}`" if binding.source == "input" else f"{binding.step}'s `{name}`"


def qualifier(name: str, text: str) -> str | None:
    """The word the step's text says before the name's words ("the arrival port" -> "arrival"), or None."""
    words = name.lower().split("_")
    n = len(words)
    for clause in _CLAUSE_BREAK.split(plain(text).lower()):  # "the delivery, copies and ...": a list, no qualifier
        tokens: list[str] = [str(t) for t in _WORD.findall(clause)]
        for i in range(2, len(tokens) - n + 1):
            if tokens[i:i + n] == words and tokens[i - 2] in _ARTICLES and tokens[i - 1] not in _NOT_QUALIFIERS \
                    and len(tokens[i - 1]) >= 3 and not tokens[i - 1].isdigit():
                return tokens[i - 1]
    return None


_CLAUSE_BREAK = _rx(r"[,;:()\[\]+&]")  # "the material + thickness": two things, no qualifier


def bind_qualified_inputs(step: StepSpec, reads: Iterable[str], text: str, inputs: Sequence[str],
                          bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                          path: str) -> list[Diagnostic]:
    """Each of `reads` the text qualifies ("the arrival port" for `port`) bound to the workflow input the
    qualifier names (`arrival`, `arrival_port`, `port_arrival`) instead of the input of its own name, warned."""
    found: list[Diagnostic] = []
    for name in reads:
        binding = bindings.get(name)
        if binding is not None and not (binding.source == "input" and binding.name == name):
            continue
        q = qualifier(name, text)
        if q is None:
            continue
        meant = [i for i in (q, f"{q}_{name}", f"{name}_{q}") if i in inputs and i != name]
        if len(meant) != 1:
            continue
        bindings[name] = InputBinding(source="input", name=meant[0],
                                      optional=binding.optional if binding is not None else False)
        provenance[f"inputs.{name}"] = from_spec(step.where, f"workflow input: {meant[0]} (the text says "
                                                             f"'the {q} {name.replace('_', ' ')}')")
        was = "" if binding is None else f", not the workflow input `{name}`"
        found.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`; the text says "
                                f"'the {q} {name.replace('_', ' ')}', read as the workflow input `{meant[0]}`{was}: "
                                f"check the plan, or write `{name} = {meant[0]}` in the step", "plan.input-qualified"))
    return found


def bind_output_aliases(step: StepSpec, reads: Iterable[str], text: str, counts: Mapping[str, tuple[Earlier, str,
                        str | None]], earlier: Sequence[Earlier], runs_after: Callable[[str], bool],
                        required: Iterable[str], bindings: MutableMapping[str, InputBinding],
                        provenance: MutableMapping[str, Provenance], path: str) -> list[Diagnostic]:
    """Each of `reads` the step's words give an earlier output of another name (module docstring), bound to
    it and warned."""
    from orchestrator.plan.literal_shape28 import entered_as  # it reads this module's Earlier
    from orchestrator.plan.named_as27 import as_named  # it reads this module's Earlier

    found: list[Diagnostic] = []
    text = plain(text)
    reads = list(dict.fromkeys(reads))
    must = set(required)
    readings: dict[str, tuple[Alias, InputBinding | None]] = {}
    for name in reads:
        binding = bindings.get(name)
        if binding is not None and binding.source not in ("input", "step"):
            continue
        taken = set(reads) - {name}
        alias = _keyed(name, text, earlier) or _phrased(name, text, earlier, taken) \
            or as_named(name, text, earlier, taken) \
            or entered_as(name, text, earlier, taken)  # "the premium under C.2 shall be entered as the insurance fee"
        if alias is None:
            alias = _counted(name, text, counts)
        elif binding is not None:
            continue  # "the X from 3a" for a name something gives by name: that is kept
        if alias is not None and _replaces(binding, name, alias):
            readings[name] = (alias, binding)
    claims: dict[str, list[str]] = {}
    for name, (alias, _) in readings.items():
        claims.setdefault(alias.said, []).append(name)
    for said, names in claims.items():  # one phrase says one value: for the name it stands after, else none
        if len(names) > 1:
            at = text.find(said)
            apposed = [n for n in names if at >= 0 and _apposed(text, at, _name_words(n))]
            for name in names:
                if len(apposed) != 1 or name != apposed[0]:
                    readings.pop(name)
    for name, (alias, binding) in readings.items():
        if not runs_after(alias.step):
            found.append(warning_at(step.where, path, f"{step.id} ({step.name}): the text says '{alias.said}' for "
                                    f"`{name}`, {alias.step}'s `{alias.field}`, but the step does not run after "
                                    f"{alias.step}: it is not bound so; make the step wait for it", "plan.output-alias"))
            continue
        bindings[name] = InputBinding(source="step", step=alias.step, pointer=f"/{alias.field}" if alias.field else "",
                                      optional=name not in must)
        field = alias.field or "whole output"
        provenance[f"inputs.{name}"] = from_spec(step.where, f"{alias.step} output {field} (the text says "
                                                             f"'{alias.said}')")
        was = "" if binding is None else f" (by its name alone it was {_what(binding, name)})"
        found.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`; the text says "
                                f"'{alias.said}', read as {alias.step}'s {f'`{alias.field}`' if alias.field else 'whole output'}"
                                f"{was}: check the plan, or write `{name} = "
                                f"{f'the {alias.field} from {alias.step}' if alias.field else alias.step + '.output'}` "
                                "in the step",
                                "plan.output-alias"))
    return found


_rx.save()
