"""Values a document fixes once in a glossary or a definitions clause, and the shape a literal takes.

Two ways of writing a fixed value for every run, read for a skill input that nothing else gives:

- a glossary line with dot leaders: a short term, three dots or more, then the value
  (`year ......... 2026 (change in January)`, `holds ..... barcodes on hold: ["31055"] this quarter`);
- a definition in quotes with "means" (`"the Loan Fee" means USD 1,500`, `"the Borrower" means Harbourview
  Gallery;`), the way contracts and schedules define their terms.

The term matches an input when each of its words (singular, lower case, without "the") is a word of the
input's name: `year` for `this_year`, `idle` for `idle_years`, `holds` for `on_hold`, `Loan Fee` for
`loan_fee_usd`. When several terms match, the one covering most of the name's words wins, the word after
a value's number counting as its own (`idle ..... 6 years` covers `idle_years`; `year ..... 2026` only
half of it); two different values left equal are a guess, and nothing is bound. The value taken depends on what the input is (`plan.bind_type_guard.kind_of`): a list
takes the bracketed list written in the value (`["31055"]`), a number the number it opens with (or, in a
definition, the first amount: `USD 1,500` -> 1500), any other input a quoted text or a proper name (words
in capitals, as in `Harbourview Gallery`). A value that is prose ("the objects listed in Schedule A") is
no literal. Each reading is warned with the line it was read from.

A literal given to an input its skill says is a list (`on_hold` (list of barcodes)) must be a list: a
single value read for it (a number, a yes/no, a text of one word such as a code) becomes a one-item
list, warned (words, "all the step 1 answers", are left to the readers that warn them); never a text the script would read character by
character. And a list an earlier step's skill reads from outside the run, when the spec declares no
inputs, is a list a later step may loop over (`outside_lists`); a gather for an input its skill says is a
list of records (`list of {accession, crate, crate_cost_usd}`) the loop step gives takes each item's
whole output, not the one field named like the input (`shape_gathers`); "the premium arrived at under
C.2 shall be entered as the insurance fee" hands an earlier step's output to an input of another name
(`entered_as`, read beside `plan.named_as27`). Every pattern is linear (no nested quantifiers over overlapping classes).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Collection, Iterable, Mapping, MutableMapping, Sequence

from pydantic import BaseModel

from orchestrator.errors import Diagnostic
from orchestrator.plan.bind_type_guard import kind_of
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.near_input import singular_word
from orchestrator.plan.output_aliases import Alias, Earlier
from orchestrator.spec.model import InputSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_DOTTED = _rx(r"^[ \t]*+([A-Za-z][A-Za-z0-9_ -]{0,30}?)[ \t]*+\.{3,}+[ \t]*+(\S[^\n]*+)$")
_MEANS = _rx(r"[\"“]([A-Za-z][A-Za-z0-9 _-]{0,40}+)[\"”][ \t\n]++means[ \t\n]++([^;.\n]{1,120}+(?:\.\d[^;.\n]{0,60}+)?+)")
_LIST = _rx(r"\[[^\[\]\n]{0,200}+\]")
_LEAD_NUMBER = _rx(r"^-?\d++(?:\.\d++)?+(?![\d,])")
_AMOUNT = _rx(r"^(?:(?:USD|EUR|GBP|CAD|AUD|CHF|JPY|[$€£])[ \t]*+)?+(\d{1,3}+(?:,\d{3})++|\d++)(?:\.\d++)?+\b")
_QUOTED = _rx(r"^[\"“]([^\"”\n]{1,60}+)[\"”]")
_PROPER = _rx(r"^(?:[A-Z][A-Za-z0-9&'-]*+)(?:[ \t]++(?:[A-Z][A-Za-z0-9&'-]*+|&|of|and))*+")
_SPLIT = _rx(r"[^0-9a-z]++")
_UNIT = _rx(r"^-?\d++(?:\.\d++)?+[ \t]++([A-Za-z]++)")
_RECORD = _rx(r"(?i)list\s++of\s++`?+\{([^{}\n]{1,200}+)\}")
_KEYS = _rx(r"[^0-9a-z_]++")
_ENTERED = _rx(r"(?i)(?<![\w-])the\s++(?P<what>[a-z][a-z-]{1,30}+(?:\s++(?!(?:arrived|found|computed|worked|determined|obtained|given|under|in|by|from|at)\b)"
               r"[a-z][a-z-]{1,30}+)?+)\s++(?:(?:arrived\s++at|"
               r"found|computed|worked\s++out|determined|obtained|given)\s++)?+(?:under|in|by|from|at)\s++(?:clause\s++)?+"
               r"(?P<ref>(?:step|section|clause|part)\s++\d{1,3}+|[A-Z]?+\.?+\d{1,3}+(?:\.\d{1,3}+)?+)\s++(?:shall|will|is|are|must)"
               r"(?:\s++be)?+\s++(?:entered|used|taken|given|recorded|carried|shown)\s++as\s++(?:the\s++)?+"
               r"(?P<input>[a-z][a-z-]{1,30}+(?:\s++[a-z][a-z-]{1,30}+){0,2}+)")
_ARTICLES = frozenset({"the", "a", "an"})


class Term(BaseModel):
    """One fixed value the document states: its term's words, the raw value text, and its line."""

    words: tuple[str, ...]
    value: str
    line: int
    how: str  # "glossary" or "definition"


def _words(text: str) -> tuple[str, ...]:
    return tuple(singular_word(w) for w in _SPLIT.split(text.lower()) if w and w not in _ARTICLES)


@functools.lru_cache(maxsize=4)
def terms(text: str) -> tuple[Term, ...]:
    """Every glossary line and quoted definition in `text`, in order: read once per spec text (every step
    asks; a 10 000-step spec read it 10 000 times, quadratic)."""
    found: list[Term] = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = _DOTTED.match(line)
        if m is not None and (words := _words(m.group(1))) and len(words) <= 3:
            found.append(Term(words=words, value=m.group(2).strip(), line=number, how="glossary"))
    for m in _MEANS.finditer(text):
        words = _words(m.group(1))
        if words:
            found.append(Term(words=words, value=" ".join(m.group(2).split()),
                              line=text.count("\n", 0, m.start()) + 1, how="definition"))
    return tuple(found)


def value_for(kind: str | None, term: Term) -> tuple[bool, object]:
    """(found, value) the term's value gives an input of `kind` (module docstring)."""
    value = term.value
    if kind in ("list", "dates", "records"):
        listed = _LIST.search(value)
        if listed is None:
            return False, None
        try:
            parsed = json.loads(listed.group(0))
        except ValueError:
            return False, None
        return isinstance(parsed, list), parsed
    if kind == "number":
        lead = _LEAD_NUMBER.match(value)
        if lead is not None:
            return True, json.loads(lead.group(0))
        amount = _AMOUNT.match(value) if term.how == "definition" else None
        if amount is not None:
            digits = amount.group(0).split()[-1].lstrip("$€£").replace(",", "")
            return True, json.loads(digits)
        return False, None
    if kind is not None:
        return False, None
    quoted = _QUOTED.match(value)
    if quoted is not None:
        return True, quoted.group(1)
    if term.how == "definition" and (proper := _PROPER.match(value)) is not None and proper.group(0) == value:
        return True, value
    lead = _LEAD_NUMBER.match(value)
    if lead is not None and term.how == "glossary":
        return True, json.loads(lead.group(0))
    return False, None


def term_value(name: str, about: str, found: Iterable[Term]) -> tuple[object, Term] | None:
    """The one value the document's terms fix for the input `name` (its skill says `about` of it), or None
    when none or two different ones do."""
    words = set(_words(name.replace("_", " ")))
    kind = kind_of(name, about)
    got: list[tuple[int, object, Term]] = []
    for term in found:
        if not set(term.words) <= words:
            continue
        ok, value = value_for(kind, term)
        if ok:
            unit = _UNIT.match(term.value)  # "6 years without a loan": the term `idle` and its unit `years`
            covers = set(term.words) | ({singular_word(unit.group(1).lower())} if unit else set())
            got.append((len(covers & words), value, term))
    if not got:
        return None
    best = max(n for n, _, _ in got)
    top = [(v, t) for n, v, t in got if n == best]
    if any(v != top[0][0] for v, _ in top[1:]):
        return None
    return top[0]


def bind_terms(step: StepSpec, names: Iterable[str], about: Mapping[str, str], text: str,
               bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
               path: str) -> list[Diagnostic]:
    """Bind each of `names` (inputs nothing gives) to the value a glossary line or definition fixes, warned."""
    names = [n for n in names if n not in bindings]
    found = terms(text) if names else ()
    out: list[Diagnostic] = []
    if not found:
        return out
    for name in names:
        if name in bindings:
            continue
        got = term_value(name, about.get(name, ""), found)
        if got is None:
            continue
        value, term = got
        where = f"{path}:{term.line}"
        said = " ".join(term.words)
        bindings[name] = InputBinding(source="literal", value=value)
        provenance[f"inputs.{name}"] = from_spec(where, f"literal value: the document's {term.how} of '{said}'")
        out.append(warning_at(where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which nothing gives; "
                              f"the {term.how} of '{said}' is read as its value {json.dumps(value)} for this step, no "
                              f"workflow input: to say so plainly write `{name}: {json.dumps(value)}` in the step",
                              "plan.input-term-value"))
    return out


def outside_lists(reads: Iterable[tuple[str, str]], made: Iterable[str]) -> list[InputSpec]:
    """The lists an earlier step's skill reads that no step makes, when the spec declares no inputs: the
    run's inputs as the plan will derive them (`plan.dataflow.derived_inputs`), so that "for each Object"
    in a later step can loop over `objects` ("the Objects", read by the first step's skill)."""
    made = set(made)
    return [InputSpec(name=name, type="array", description=about, where="") for name, about in reads
            if name not in made and kind_of(name, about) in ("list", "records", "dates")]


def shape_gathers(step: StepSpec, about: Mapping[str, str], bindings: MutableMapping[str, InputBinding],
                  fields: Callable[[str], Collection[str]], path: str) -> list[Diagnostic]:
    """A gather that takes one field of each item's output (`crates` <- `crate` of each) where the skill says
    the input is a list of records holding that field and others the loop step gives (`crates` (list of
    `{accession, crate, crate_cost_usd}`)): the whole item outputs, warned."""
    out: list[Diagnostic] = []
    for name, binding in list(bindings.items()):
        record = _RECORD.search(about.get(name, ""))
        if not binding.gather or not binding.step or not binding.pointer or record is None:
            continue
        keys = {k for k in _KEYS.split(record.group(1).lower()) if k}
        made = set(fields(binding.step))
        field = binding.pointer.strip("/")
        if len(keys) < 2 or field not in keys or not keys <= made:
            continue
        bindings[name] = binding.model_copy(update={"pointer": ""})
        out.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}` as a list of "
                              f"{{{', '.join(sorted(keys))}}}, which {binding.step} gives for each item: it is given "
                              f"every item's whole output, not only its `{field}`", "plan.gather-shape"))
    return out


def entered_as(name: str, text: str, earlier: Sequence[Earlier], taken: set[str]) -> Alias | None:
    """An earlier step's output the text hands to `name` the way agreements and forms say it: "the premium
    arrived at under C.2 shall be entered as the insurance fee", "the total found in section 3 is used as the
    deposit". The step is named by its label ("C.2", "section 3", "step 3") at the start of its name; the
    output by a word of its name (`premium_usd`); the input by its words (`insurance_fee`). None when not
    exactly one output fits."""
    wanted = set(_words(name.replace("_", " ")))
    found: dict[tuple[str, str], str] = {}
    for m in _ENTERED.finditer(text):
        if set(_words(m.group("input"))) != wanted:
            continue
        ref = m.group("ref").lower()
        said = set(_words(m.group("what")))
        for e in earlier:
            label = e.label.lower()
            if not (label.startswith(ref + " ") or label.startswith(ref + ".") or ref == f"step {e.number}"
                    or ref == str(e.number)):
                continue
            for field in e.fields:
                if field != name and field not in taken and set(_words(field.replace("_", " "))) & said:
                    found.setdefault((e.id, field), m.group(0))
    if len(found) != 1:
        return None
    (sid, field), said_text = next(iter(found.items()))
    return Alias(step=sid, field=field, said=said_text)


def shape_literals(step: StepSpec, about: Mapping[str, str], bindings: MutableMapping[str, InputBinding],
                   path: str) -> list[Diagnostic]:
    """A single literal given to an input its skill says is a list becomes a one-item list, warned."""
    out: list[Diagnostic] = []
    for name, binding in list(bindings.items()):
        said = about.get(name, "")
        if binding.source != "literal" or not said or kind_of(name, said) not in ("list", "dates", "records"):
            continue
        if isinstance(binding.value, (list, dict)) or binding.value is None or (
                isinstance(binding.value, str) and len(binding.value.split()) != 1):
            continue  # words ("all the step 1 answers") are no one value: `plan.literal_words` says so
        bindings[name] = binding.model_copy(update={"value": [binding.value]})
        out.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}` as a list "
                              f"({said.strip()[:40]}); the single value {json.dumps(binding.value)} read for it is given "
                              f"as a one-item list [{json.dumps(binding.value)}]: if more are meant, write "
                              f"`{name}: [...]` in the step", "plan.literal-shape"))
    return out


_rx.save()
