"""An approval's condition that compares two steps' outputs said in words, and an output a skill says
it reworks (so a later step's copy of it is not the workflow input's).

    If more kids signed up than the room has seats, Priya must approve   -> kids > seats  (each side's
                                                                             count: `kids | length` for a list)
    When fewer volunteers turn up than the rota has shifts, the lead signs off -> volunteers < shifts
    If the order total exceeds the budget left, finance approves first   -> order_total > budget_left

`compared` reads "if/when (there are) more|fewer <X ...> than <Y> has/have/holds/can take <Z>", "more|fewer
<X> than <Z>" and "<X> exceeds|is more than|is greater than|outnumbers <Z>": each side must name exactly one
output of the skills (`vocabulary`) by its words joined with `_` (one to three words in a row, the
side's own words only); no name, or two, on either side is no reading (the approval then waits on
every run, warned, as before). "more"/"fewer" count: a side whose value is a list is compared by its
length, so the expression is written to hold for either (`(kids if kids is number else kids | length)`). The planner places each name on the nearest earlier step that outputs it,
and an approval whose names it cannot place waits on every run, warned (`plan.dataflow`). The caller
says the reading at its line (a guess).

`reworked` says whether the words a skill gives an output ("`ward` (upper-cased)", "(normalised)")
mean it changes the value it read under that name: such an output is no copy of the workflow input
(`plan.echo`), so a later step that depends on the step takes the step's value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:
    from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_W = r"[A-Za-z][\w-]{0,30}+"
# "If more kids signed up than the room has seats,": the two sides of a count compared
_MORE = _rx(r"(?i)^\W{0,8}+(?:if|when|whenever|should)\s++(?:there\s++(?:are|were|is)\s++)?(?P<op>more|fewer|less)\s++"
            r"(?P<left>" + _W + r"(?:\s++" + _W + r"){0,5}?)\s++than\s++(?:there\s++(?:are|were)\s++)?"
            r"(?P<right>" + _W + r"(?:\s++" + _W + r"){0,5}?)(?=\s*+(?:[,;:—–]|-\s|$))")
# "If the order total exceeds the budget left,": a value said to exceed another
_EXCEEDS = _rx(r"(?i)^\W{0,8}+(?:if|when|whenever|should)\s++(?P<left>" + _W + r"(?:\s++" + _W + r"){0,4}?)\s++"
               r"(?P<op>exceeds?|exceeded|outnumbers?|(?:is|are|was|were|goes|comes\s++in)\s++(?:more|greater|higher|bigger|larger)\s++than)\s++"
               r"(?P<right>" + _W + r"(?:\s++" + _W + r"){0,5}?)(?=\s*+(?:[,;:—–]|-\s|$))")
# what a side says that names no value: articles, the owner's verb ("the room has seats"), a verb of arriving
_FILLER = frozenset({"the", "a", "an", "our", "its", "their", "this", "that", "of", "in", "on", "at", "for", "we",
                     "has", "have", "had", "holds", "hold", "can", "take", "takes", "fit", "fits", "seat", "there",
                     "are", "were", "is", "was", "be", "been", "available", "any", "all"})
# the owner's verb on a side: "than the room has seats", "than the van can take crates"
_OWNER = _rx(r"(?i)(?<![\w-])(?:has|have|holds?|can\s++(?:take|hold|seat|fit)|fits?)\s++")
_OPS = {"more": ">", "fewer": "<", "less": "<"}

# what a skill says of an output it changes: "(upper-cased)", "(normalised, trimmed)", "(rounded to 2 dp)"
_REWORKED = _rx(r"(?i)(?<![\w-])(?:upper[\s-]?cased|lower[\s-]?cased|title[\s-]?cased|capitali[sz]ed|"
                r"normali[sz]ed|canonical(?:i[sz]ed)?|trimmed|stripped|cleaned|tidied|formatted|reformatted|rounded|"
                r"padded|slugified|deduplicated|de-duplicated|sorted|converted|resolved|expanded)(?![\w-])")


def reworked(about: str) -> bool:
    """Whether the words a skill gives an output say it changes the value (module docstring)."""
    return bool(about) and _REWORKED.search(about) is not None


def _named(words: str, outputs: frozenset[str]) -> str | None:
    """The one output the side's words name (one to three words in a row joined with `_`), or None."""
    said = [w.lower().replace("-", "_") for w in words.split()]
    found: set[str] = set()
    for size in (3, 2, 1):
        for at in range(len(said) - size + 1):
            run = said[at:at + size]
            if run[0] in _FILLER or run[-1] in _FILLER:
                continue
            if (name := "_".join(run)) in outputs:
                found.add(name)
        if found:
            break  # "order total" names `order_total` before `total`
    return next(iter(found)) if len(found) == 1 else None


def _count(name: str) -> str:
    return f"({name} if {name} is number else {name} | length)"


def compared(sentence: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """The condition of "If more kids signed up than the room has seats, ..." (module docstring):
    (the expression, the words it was read from), or None."""
    if not vocabulary:
        return None
    outputs = frozenset(n for skill in vocabulary.skills for n in vocabulary.outputs_of(skill) or ())
    if not outputs:
        return None
    more = _MORE.match(sentence)
    m = more or _EXCEEDS.match(sentence)
    if m is None:
        return None
    owner = _OWNER.search(m.group("right"))  # "than the room has seats": the seats, not the room
    right_words = m.group("right")[owner.end():] if owner is not None else m.group("right")
    left, right = _named(m.group("left"), outputs), _named(right_words, outputs)
    if left is None or right is None or left == right:
        return None
    if more is not None:
        return f"{_count(left)} {_OPS[m.group('op').lower()]} {_count(right)}", m.group(0).strip()
    return f"{left} > {right}", m.group(0).strip()


_rx.save()
