"""A workflow input the author names in their own words, kept under that name when a step's skill reads
it under a shorter or abbreviated one.

    I run it with the Saturday date (`pickup_date`) ...      -> workflow input `pickup_date`
    + check the road outlook for pickup_date with road-weather  (road-weather reads `date`)
                                                             -> date <- input pickup_date (no input `date`)

A name the document gives an input (an intro's "(`pickup_date`)", a block of fields to fill in) is the
name the person who runs it types. When a step's text names that input and its skill reads a name
that is part of it (`date` in `pickup_date`, `site` in `site_name`) or the same words shortened
(`nom_psi` for `nominal_psi`, `qty` is not: words must start alike; `slab_len_m` for `length_m`: its last words,
each the same or cut to three letters or more), and nothing before the step
gives that name, the input keeps the author's name and is marked `for skill input <name>`
(`plan.renamed_input` binds it). One candidate only: two fields that both fit leave it as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from orchestrator.plan.declared_words44 import said_words, words_say
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

MARK = "for skill input "
_SPLIT = _rx(r"[_\s-]++")
_WORD = _rx(r"[a-z0-9]++")


def _words(name: str) -> list[str]:
    return [w for w in _SPLIT.split(name.lower()) if w]


def stands_for(own: str, field: str) -> bool:
    """Whether the author's input name `own` is the skill's `field` said longer or shortened (module docstring)."""
    a, b = _words(own), _words(field)
    if not a or not b or a == b:
        return False
    if len(b) < len(a) and (a[-len(b):] == b or a[:len(b)] == b):  # `pickup_date` for `date`
        return all(len(w) >= 3 for w in b)
    if len(b) < len(a) and any(len(y) >= 3 for y in b) and all(  # `slab_len_m` for `length_m`: its end, cut short
            x == y or (len(x) >= 3 and x.isalpha() and y.startswith(x)) for x, y in zip(a[-len(b):], b, strict=True)):
        return True
    if len(a) == len(b):  # `nom_psi` for `nominal_psi`: each word the start of the other's
        return all(x.startswith(y) or y.startswith(x) for x, y in zip(a, b, strict=True)) and all(
            len(x) >= 3 or x == y for x, y in zip(a, b, strict=True))
    return False


_LABEL = _rx(r"[a-z0-9]++|#|№")
_NUMBER_WORDS = frozenset({"no", "num", "number", "nr", "nbr", "id"})


def _label_words(label: str) -> list[str]:
    return _LABEL.findall(label.lower())


def abbreviates(label: str, name: str) -> bool:
    """Whether a form's label says `name` shortened word by word: "PRESS" for `pressures`, "NOM PSI" for
    `nominal_psi`, "EP#" for `episode_no` (`#` for a number word); the same words are no abbreviation."""
    said, words = _label_words(label), _words(name)
    if len(said) != len(words) or said == words:
        return False
    return all(s == w or (s in ("#", "№") and w in _NUMBER_WORDS) or (len(s) >= 2 and s.isalpha() and w.startswith(s))
               for s, w in zip(said, words, strict=True))


def label_name(label: str, name: str) -> str | None:
    """The author's own name for `name` when the label shortens two words or more of it, each to three
    letters or more ("NOM PSI" -> `nom_psi` for `nominal_psi`); a label of one word ("PRESS") or with a
    sign ("EP#") names no input of its own: None."""
    said = _label_words(label)
    if len(said) < 2 or not abbreviates(label, name) or not all(w.isalnum() and len(w) >= 3 for w in said):
        return None
    return "_".join(said)


def _named(text: str, name: str) -> bool:
    """Whether `text` names `name` as its words in a row (`pickup_date`, "pickup date", "pickup-date")."""
    words, said = _words(name), _WORD.findall(text.lower())
    n = len(words)
    return any(said[i:i + n] == words for i in range(len(said) - n + 1))


def described_as(own: InputSpec, field: str) -> bool:
    """Whether an input named in the text's own words is the skill's `field` said so: its words ("wound length"
    for `len_cm`) hold the field's words, and its name opens with the field's first word shortened
    (`len` for `length`, three letters or more): `len_cm` for `length`, not `size_cm`."""
    own_words, words = _words(own.name), _words(field)
    said = _WORD.findall(own.description.lower())
    return bool(own_words and words) and len(own_words[0]) >= 3 and own_words[0] != words[0] and \
        words[0].startswith(own_words[0]) and all(w in said for w in words)


def keep_names(said: Sequence[InputSpec], steps: Sequence[tuple[str, str, Collection[str]]],
               made_before: Callable[[str, str], bool]) -> tuple[list[InputSpec], dict[str, str]]:
    """`said` with each input the steps' texts name for a skill field of another name marked for it, and
    {field: the author's input name}. `steps` are (step id, its text, the names its skill reads)."""
    names = {i.name for i in said}
    marks: dict[str, str] = {}
    for own in said:
        if MARK in own.description:
            continue
        fits: set[str] = set()
        words = said_words(own.description)
        for step_id, text, reads in steps:
            if own.name in reads:
                continue
            named = _named(text, own.name)
            fits |= {f for f in reads if f not in names and not made_before(step_id, f) and (
                (named and stands_for(own.name, f)) or (_named(text, f) and described_as(own, f)))}
        if not fits and words is not None:  # "bodyweight in kg (bw_kg)" for `weight_kg` (`plan.declared_words44`)
            fits = {f for step_id, text, reads in steps if own.name not in reads and (_named(text, own.name) or any(
                        _named(text, g) for g in reads if words_say(g, words)))  # a step that names it or the field
                    for f in reads if f not in names and not made_before(step_id, f) and words_say(f, words)}
        if len(fits) == 1 and (field := next(iter(fits))) not in marks:
            marks[field] = own.name
    if not marks:
        return list(said), {}
    by_own = {own: field for field, own in marks.items()}
    out = [i.model_copy(update={"description": f"{i.description}; {MARK}{by_own[i.name]}".lstrip("; ")})
           if i.name in by_own else i for i in said]
    return out, marks


_rx.save()
