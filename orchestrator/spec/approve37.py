"""An approval's condition said in words whose value is named elsewhere: a yes/no output said as "there's a
<thing>", and a value said by the words the document glossed it with.

    If 1 says there's a controlled drug on the list, the pharmacist approves first
        -> has_controlled == true      (one skill outputs `has_controlled`; "controlled" is a word of
                                        the thing said to be there)
    When the scan finds there are any expired badges, security signs off   -> any_expired == true
    ... off the route and the sea state (max_wave_m) from 1b ...
    If the forecast sea is over 3.0 m the Master signs it off first
        -> "max_wave_m is over 3.0 m"  (the document glossed "sea state" as `max_wave_m`, an output of
                                        an earlier step; "sea" is the one glossed word the subject ends on)

`said_there` reads the first: "if/when <thing> says/shows/finds/reports there's/there is/there are
(a/an/any/some) <words>", the one output among the skills' named `has_<w>`, `any_<w>`, `<w>_found`,
`contains_<w>` or `is_<w>` for a word of <words>; no such output, or two, is no reading (the approval then
stays on every run, warned). It is a guess, so the caller says it at the line.
`gates_glossed` reads the second: in an approval's condition, a subject "the <words> is/are ..." that
names no value is written as the name the document glossed it with ("the sea state (max_wave_m)"),
when the subject's last word is a word of exactly one glossed phrase, and that name is an output of an
earlier step. The glosses are read once per document (cached on its text).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:
    from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_THERE = _rx(r"(?i)^\W{0,8}+(?:if|when|whenever|should)\s++(?:the\s++|our\s++|its\s++)?(?P<thing>[\w-]{1,30}+"
             r"(?:\s++[\w-]{1,30}+){0,3}?)\s++(?:says|shows|finds|reports|flags|lists|comes\s++back\s++with)\s++"
             r"(?:that\s++)?(?:there['’]s|there\s++is|there\s++are|there\s++were|there\s++was)\s++"
             r"(?:an?\s++|any\s++|some\s++|one\s++or\s++more\s++)?(?P<words>[a-z][\w-]{1,30}+(?:\s++[a-z][\w-]{1,30}+){0,3}+)")
_FLAG_FORMS = ("has_{}", "any_{}", "{}_found", "contains_{}", "is_{}", "has_{}s", "any_{}s")
_NOT_A_THING = frozenset({"on", "in", "the", "list", "of", "for", "with", "that", "which", "item", "items", "thing",
                          "things", "one", "ones", "some", "any", "more"})

# "the sea state (max_wave_m)", "peak load (`load_pct`)": a phrase glossed with a value's name
_GLOSS = _rx(r"(?i)(?P<words>[a-z][a-z-]{1,30}+(?:\s++[a-z][a-z-]{1,30}+){0,2}+)\s*+\(`?+(?P<name>[a-z][a-z0-9]*+"
             r"(?:_[a-z0-9]++)++)`?+\)")
# "the forecast sea is over 3.0 m": the subject of a comparison in an approval's condition
_SUBJECT = _rx(r"(?i)\bthe\s++(?P<subject>[a-z][a-z-]{1,30}+(?:\s++[a-z][a-z-]{1,30}+){0,2}?)\s++(?=(?:is|are|was|"
               r"exceeds?|goes|comes\s++in)\b)")
_GLOSS_FILLER = frozenset({"the", "a", "an", "and", "or", "of", "from", "to", "with", "plus", "its", "our", "their"})


def said_there(sentence: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """The condition of "If 1 says there's a controlled drug ..." (module docstring): (the expression,
    the words it was read from), or None."""
    m = _THERE.match(sentence)
    if m is None or not vocabulary:
        return None
    words = [w.lower() for w in m.group("words").split() if w.lower() not in _NOT_A_THING and len(w) >= 3]
    forms = {form.format(w) for w in words for form in _FLAG_FORMS}
    found = {name for skill in sorted(vocabulary.skills) for name in vocabulary.outputs_of(skill) or ()
             if name.lower() in forms}
    if len(found) != 1:
        return None
    name = next(iter(found))
    return f"{name} == true", m.group(0).strip()


@functools.lru_cache(maxsize=8)
def _glosses(text: str) -> dict[str, frozenset[str]]:
    """Each word of a glossed phrase in the document -> the names it was glossed with."""
    out: dict[str, set[str]] = {}
    for m in _GLOSS.finditer(text):
        for word in m.group("words").lower().split():
            if word not in _GLOSS_FILLER and len(word) >= 3:
                out.setdefault(word, set()).add(m.group("name"))
    return {w: frozenset(names) for w, names in out.items()}


def gates_glossed(spec: WorkflowSpec, fields: Mapping[str, Iterable[str]]) -> WorkflowSpec:
    """The spec with each approval condition's subjects said by a glossed phrase written as the name it
    was glossed with (module docstring); `fields` maps step ids to the names their outputs give. The
    same spec when none changes."""
    if "(" not in spec.text or not any(s.approval is not None and s.approval.when for s in spec.steps):
        return spec
    glosses = _glosses(spec.text)
    if not glosses:
        return spec
    steps = list(spec.steps)
    changed = False
    for index, step in enumerate(steps):
        gate = step.approval
        if gate is None or not gate.when:
            continue
        earlier = {f for s in steps[:index] for f in fields.get(s.id) or ()}

        def named(m: re.Match[str], earlier: set[str] = earlier) -> str:
            subject = m.group("subject").lower().split()
            if "_".join(subject) in earlier or subject[-1] in earlier:
                return m.group(0)  # "the total is over": a value of that name
            names = glosses.get(subject[-1], frozenset()) & earlier
            return f"{next(iter(names))} " if len(names) == 1 else m.group(0)

        said = _SUBJECT.sub(named, gate.when)
        if said != gate.when:
            steps[index] = step.model_copy(update={"approval": gate.model_copy(update={"when": said})})
            changed = True
    return spec.model_copy(update={"steps": tuple(steps)}) if changed else spec


_rx.save()
