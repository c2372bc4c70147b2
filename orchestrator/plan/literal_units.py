"""Literal values an author writes with their units, as keyed pairs, or as the document's own constants.

    FLOOR   := 0.12                  (Makefile, shell, .env: a constant in capitals)   -> floor: 0.12
    CHANNEL := \\#pricing-alerts                                                        -> channel: "#pricing-alerts"
    ... keeping anyone above 80% (threshold $=0.8$, pre-registered)                    -> threshold: 0.8
    rake the survivors to the population margins ug $=0.7$, pg $=0.3$                 -> margins: {ug: 0.7, pg: 0.3}
    drafts the letter ... at the standard rate of $385/hr                              -> rate: "$385/hr"
    with the product and 100 L/ha water                                                 100 is `water_l_ha`'s, not `product`'s

A step's skill may read a name that nothing gives: no workflow input, no earlier output, no value
written as the name. Read before the rule that gives a lone input "the one other value the text names":

- a constant of the document: a line `NAME := value` / `NAME = value` / `NAME ::= value` (not `?=`, a
  default the run may replace) whose NAME, in capitals, is the input's name; a trailing `# comment` is
  not the value, and `\\#` is a `#`;
- the input's name, then `=` (or `$=` in LaTeX) and one number, in the step's text, not after "if",
  "when", "unless" in the same clause (that is a condition);
- the input's words, then two or more `label = number` pairs ("ug = 0.7, pg = 0.3"): a mapping, for
  an input whose schema takes an object (or says no type);
- an amount with a currency and a "per" unit (`$385/hr`, `€12 per kg`, `40 GBP/day`) within six words
  after a word of the input's name: the amount as written, a text.

Each is the step's literal, warned at the step's line with the plain way to write it. A number said
with units that end another name the skill reads ("100 L/ha water", `water_l_ha`), or nearer to that
name's word, or keyed by a label of its own ("ug = 0.7"), is that one's, not this name's:
`number_owner` tells `plan.literal_said` so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.number_noun55 import noun_owner
from orchestrator.plan.rate_at46 import rate_at
from orchestrator.plan.said_value import bind_literal
from orchestrator.spec.model import StepSpec
from orchestrator.spec.need_block30 import labelled_value
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CONSTANT = _rx(r"(?m)^[ \t]*+(?:export[ \t]++)?(?P<name>[A-Z][A-Z0-9_]{0,40}+)[ \t]*+(?<![?+!])(?:::=|:=|=)"
                r"[ \t]*+(?P<value>[^\n]{1,200}+)$")
_MAKE_COMMENT = _rx(r"(?<!\\)[ \t]#[^\n]*+$|^#[^\n]*+$")
_NUMBER = _rx(r"^-?\d++(?:\.\d++)?+$")
_MATH = _rx(r"\$\s*+=\s*+(-?\d++(?:\.\d++)?+)\s*+\$")
_KEYED_NUMBER = _rx(r"(?i)(?<![\w-])(?P<key>[a-z][a-z0-9_]{0,40}+(?:[ \t][a-z][a-z0-9_]{0,40}+){0,3}+)\s*+[=:]\s*+(?P<n>-?\d++(?:\.\d++)?+)(?![\w.%]|:\d)")
_PAIRS = _rx(r"(?P<pairs>[A-Za-z][\w]{0,20}+\s*+=\s*+-?\d++(?:\.\d++)?+"
             r"(?:\s*+(?:,|;|\band\b)\s*+[A-Za-z][\w]{0,20}+\s*+=\s*+-?\d++(?:\.\d++)?+)++)")
_PAIR = _rx(r"(?P<k>[A-Za-z][\w]{0,20}+)\s*+=\s*+(?P<v>-?\d++(?:\.\d++)?+)")
_RATE = _rx(r"(?i)(?:[$€£]\s?+\d++(?:[.,]\d++)?+|(?<![\d.])\d++(?:\.\d++)?+\s?+(?:usd|eur|gbp|dollars|euros|pounds))"
            r"\s*+(?:/|\bper\s++|\ban?\s++)(?:hr|hour|h|day|week|month|year|kg|km|mile|unit|item|page|word|night|head)\b")
_WORD = _rx(r"[A-Za-z][A-Za-z'-]*+")
_CLAUSE = _rx(r"[.!?;]\s++|\n[ \t]*+\n")
_PLAIN = frozenset({"and", "the", "of", "at", "to", "is", "by", "for", "per", "a", "an", "was", "are", "be", "set",
                    "use", "get", "put", "now", "but", "or", "nor", "all", "any", "max", "min", "top", "cap", "out",
                    "off", "on", "in", "up", "so", "it", "its", "as", "from", "with", "say", "try", "run", "due"})
_CONDITION = frozenset({"if", "when", "unless", "while", "whenever"})


def _words(name: str) -> list[str]:
    return [w for w in name.lower().split("_") if w]


def _tex(text: str) -> str:
    """`$=0.8$` (LaTeX math) as `= 0.8`."""
    return _MATH.sub(r"= \1", text)


def _number(raw: str) -> object:
    """A number as written; one with a leading zero ('007', '03') is a code, kept as its text (json refuses it)."""
    digits = raw.lstrip("-")
    if len(digits) > 1 and digits[0] == "0" and digits[1] != ".":
        return raw
    return json.loads(raw)


def _scalar(raw: str) -> object:
    raw = raw.strip().strip("'\"")
    raw = raw.replace("\\#", "#")
    if _NUMBER.match(raw):
        return _number(raw)
    return raw


def constant_said(name: str, document: str) -> tuple[object, str] | None:
    """(value, the line) for `name` given as a constant in capitals (module docstring), or None; two
    different values said so are none."""
    found: dict[str, tuple[object, str]] = {}
    for m in _CONSTANT.finditer(document):
        if m.group("name").lower() != name.lower():
            continue
        value = _MAKE_COMMENT.sub("", m.group("value")).strip()
        if not value or "$(" in value or "${" in value or "`" in value:
            continue  # a value made by the shell or another variable: not a literal
        found.setdefault(value, (_scalar(value), m.group(0).strip()))
    return next(iter(found.values())) if len(found) == 1 else None


def keyed_number(name: str, text: str) -> tuple[object, str] | None:
    """(number, words) for "name = 0.8" in `text` (module docstring), or None."""
    words = " ".join(_words(name))
    for clause in _CLAUSE.split(_tex(text)):
        for m in _KEYED_NUMBER.finditer(clause):
            key = " ".join(m.group("key").lower().replace("_", " ").split())
            if key != words and not key.endswith(" " + words):
                continue
            before = {w.lower() for w in _WORD.findall(clause[:m.start("n")])}
            if before & _CONDITION:
                continue
            return _number(m.group("n")), m.group(0)
    return None


def keyed_mapping(name: str, text: str) -> tuple[dict[str, object], str] | None:
    """({label: number}, words) for the name's words followed by two or more `label = number` pairs."""
    words = _words(name)
    for clause in _CLAUSE.split(_tex(text)):
        tokens = [(m.start(), m.group(0).lower()) for m in _WORD.finditer(clause)]
        for m in _PAIRS.finditer(clause):
            near = [w for at, w in tokens if at < m.start()][-4:]
            if not any(w in words or w.rstrip("s") in words for w in near):
                continue
            pairs = {p.group("k"): _number(p.group("v")) for p in _PAIR.finditer(m.group("pairs"))}
            if len(pairs) >= 2:
                return pairs, m.group(0)
    return None


def rate_said(name: str, text: str) -> tuple[str, str] | None:
    """(the amount as written, words) for a currency amount per unit after a word of `name`."""
    words = {w for w in _words(name) if len(w) >= 3}
    if not words:
        return None
    for clause in _CLAUSE.split(text):
        for m in _RATE.finditer(clause):
            before = list(_WORD.finditer(clause, 0, m.start()))[-6:]
            said = [w for w in before if w.group(0).lower() in words or w.group(0).lower().rstrip("s") in words]
            if said:
                return m.group(0), " ".join(clause[said[-1].start():m.end()].split())
    return None


def number_owner(lower: Sequence[str], at: int, name: str, others: Iterable[str]) -> str:
    """Whose the number at `lower[at]` is, of `name` and `others` (names a skill reads): the one whose last
    words are the units said after it ("100 L/ha water": `water_l_ha`), else the one whose word is
    nearest; "" when a short label of its own keys it ("ug 0.7"); `name` when no other's word is near."""
    others = [o for o in others if o != name]
    after = list(lower[at + 1:at + 4])
    own = _words(name)[1:]
    if own and after[:len(own)] == own:
        return name
    for other in others:
        tail = _words(other)[1:]
        if tail and after[:len(tail)] == tail:
            return other
    noun = noun_owner(lower, at, [name, *others])  # "3 ovens": `ovens`'s, not `flour_kg`'s (`plan.number_noun55`)
    if noun is not None:
        return noun
    label = lower[at - 1] if at >= 1 else ""
    if label.isalpha() and len(label) <= 3 and label not in _words(name) and label not in _PLAIN:
        return ""

    def distance(n: str) -> int:
        ws = {w for w in _words(n) if len(w) >= 3}
        hits = [abs(i - at) for i, t in enumerate(lower) if t in ws or t.rstrip("s") in ws
                or ("-" in t and all(p in ws for p in t.split("-") if p))]  # "crash-free": `crash_free_pct`'s
        return min(hits) if hits else 10 ** 6

    mine = distance(name)
    nearer = [o for o in others if distance(o) < mine]
    return nearer[0] if nearer else name


def takes_object(schema: Mapping[str, Any], name: str) -> bool:
    """Whether the skill's input `name` may be an object (its schema says no type, or an object's)."""
    props = schema.get("properties")
    said = props.get(name) if isinstance(props, Mapping) else None
    kind = said.get("type") if isinstance(said, Mapping) else None
    kinds = kind if isinstance(kind, list) else [kind]
    return kind is None or "object" in kinds


def bind_unit_literals(step: StepSpec, names: Iterable[str], schema: Mapping[str, Any], text: str, document: str,
                       bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                       path: str) -> list[Diagnostic]:
    """Bind each of `names` (inputs nothing gives) to a value said for it with units, keyed, or as a
    constant of the document (module docstring), warned."""
    found: list[Diagnostic] = []
    for name in names:
        if name in bindings:
            continue
        said: tuple[object, str] | None = constant_said(name, document)
        how = "the document sets it as a constant"
        if said is None:
            said, how = keyed_number(name, text), "the text gives it with '='"
        if said is None and takes_object(schema, name):
            said, how = keyed_mapping(name, text), "the text gives it as labelled numbers"
        if said is None:
            said, how = rate_said(name, text), "the text says an amount per unit beside its name"
        if said is None:  # "vat-check on net_p at 0.2" for `vat_rate` (`plan.rate_at46`)
            said, how = rate_at(name, text), "the text says the rate after 'at'"
        if said is None:  # "Venue: Riverside 3G" in a plan sheet's header, "venue ..." in the step (`spec.need_block30`)
            said, how = labelled_value(name, text, document), "the sheet's header gives it as a label and the step names it"
        if said is None:
            continue
        value, words = said
        found.append(bind_literal(step, path, name, value, f"the text says '{words}'",
                                  f"{how} ('{words}'): read as its value {value!r} for this step", bindings,
                                  provenance))
    return found


_rx.save()
