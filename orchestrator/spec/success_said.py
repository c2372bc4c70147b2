"""Parts of the run's success check said in words `spec.success_words` has no form for.

`spec.success_words` reads "the receipt has a receipt number" and "the letter is sent" onto the
steps' outputs. People also say:

- the check itself in brackets after their words: "the tenants have been told (notified comes back
  true)": the bracket is read (`success_halves.read_half`) on the step whose output it names;
- an amount left over: "less than 5 kg is left unallocated", "fewer than 3 seats stay unsold",
  "no more than 2 litres remaining": the one output whose name has the unit (when one says it) and a
  word of what is left (`leftover`, `remaining`, `unsold`...), compared with the number;
- a thing said to be out: "the notice is out", "the minutes have gone out", "the order is in":
  the one yes/no output of the step the thing names whose name says it went (`issued`, `sent`,
  `published`, `posted`, `submitted`...) is true;
- a field by its own name after "with": "the label is printed with a label_id on it": that output
  is not empty.

A part is read on the outputs the skills declare; every such reading is a guess, said at its line
by the caller (`spec.success_words`) with what to write. A part read as nothing is left to the caller,
which warns it as not checked.
"""

from __future__ import annotations

import re

from orchestrator.spec.model import StepSpec
from orchestrator.spec.phrase_value import number
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.success_halves import read_half
from orchestrator.spec.whole_success import _skill, outputs_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_BRACKET = _rx(r"\((?P<said>[^()]{3,80}+)\)")
_WITH = _rx(r"(?i)(?<!\s)\s++with\s++(?=(?:a|an|the|its|their)\s)")
_BOUND = _rx(r"(?i)^(?P<op>less\s+than|fewer\s+than|under|below|no\s+more\s+than|at\s+most|not\s+more\s+than|more\s+than|"
             r"over|above|at\s+least|no\s+fewer\s+than|no\s+less\s+than)\s++(?P<n>\d{1,9}+(?:\.\d{1,6}+)?|[a-z]{3,9}+)\s*+"
             r"(?P<rest>[\w%' -]{1,80}+)$")
_OPS = {"less than": "<", "fewer than": "<", "under": "<", "below": "<", "no more than": "<=", "at most": "<=",
        "not more than": "<=", "more than": ">", "over": ">", "above": ">", "at least": ">=", "no fewer than": ">=",
        "no less than": ">="}
_OUT = _rx(r"(?i)^(?:the\s++|a\s++|an\s++|its\s++|our\s++|their\s++)?(?P<thing>[\w' -]{1,40}?)\s++(?:is|are|was|were|has\s++(?:been|gone)|"
           r"have\s++(?:been|gone)|gets?|got|goes|went)\s++(?P<state>out|in|sent|issued|published|posted|released|delivered|"
           r"filed|submitted|live|up|away|done|off)$")
_NAMED = _rx(r"(?i)^(?:a|an|the|its|their)\s++`?(?P<field>[a-z][a-z0-9]{0,30}+(?:_[a-z0-9]{1,30}+){1,5}+)`?"
             r"(?:\s++(?:on|in|attached|set|filled\s+in|written\s+on)(?:\s++(?:it|them|there|the\s+[\w-]{1,30}+))?)?$")
# words of what is left over, said and in outputs' names
_LEFT = frozenset({"left", "leftover", "leftovers", "remaining", "remain", "remains", "remainder", "spare", "surplus",
                   "unallocated", "unassigned", "unused", "unsold", "unplaced", "unsorted", "unmatched", "undelivered",
                   "outstanding", "unfilled", "unspent", "over"})
# outputs whose name says the thing went out
_WENT = frozenset({"issued", "sent", "published", "posted", "released", "delivered", "filed", "submitted", "done",
                   "dispatched", "shipped", "live", "out"})
_FILLER = frozenset({"is", "are", "was", "were", "be", "been", "still", "the", "a", "an", "of", "it", "them", "in", "on",
                     "gets", "get", "stays", "stay", "remains", "and", "to", "that", "which"})


def _words(text: str) -> list[str]:
    return [w for w in text.lower().replace("-", " ").replace("'", " ").split() if w]


def _owners(field: str, steps: list[StepSpec], src: Source) -> list[int]:
    return [i for i, s in enumerate(steps) if field in outputs_of(s, src.vocabulary)]


def _named_step(thing: str, steps: list[StepSpec], src: Source) -> int | None:
    """The one step the thing's words name (a word of its name or of its skill's), or None."""
    said = {w for w in _words(thing) if w not in _FILLER and len(w) > 2}
    hits = set()
    for i, step in enumerate(steps):
        skill = _skill(step, src.vocabulary) or ""
        own = set(_words(f"{step.name} {skill}".replace("_", " ").replace("`", " ")))
        if said & own:
            hits.add(i)
    return hits.pop() if len(hits) == 1 else None


def _bracket(part: str, steps: list[StepSpec], src: Source) -> tuple[int, str] | None:
    m = _BRACKET.search(part)
    if m is None:
        return None
    for i in reversed(range(len(steps))):  # the last step whose output it names
        half = read_half(m.group("said"), outputs_of(steps[i], src.vocabulary))
        if half is not None:
            return i, half.written
    return None


def _bound(part: str, steps: list[StepSpec], src: Source) -> tuple[int, str] | None:
    m = _BOUND.match(part)
    if m is None:
        return None
    n = number(m.group("n").lower())
    if n is None:
        return None
    words = [w for w in _words(m.group("rest")) if w not in _FILLER]
    left = {w for w in words if w in _LEFT or (w.startswith("un") and len(w) > 5)}
    if not left:
        return None
    unit = words[0] if words and words[0] not in left else ""
    units = {unit, unit.rstrip("s"), unit + "s"} - {""}
    found: list[tuple[int, str]] = []
    for i, step in enumerate(steps):
        for name in sorted(outputs_of(step, src.vocabulary)):
            parts = set(name.lower().split("_"))
            if parts & (_LEFT | left) and (not units or parts & units):
                found.append((i, name))
    fields = {f for _, f in found}
    if len(fields) != 1:
        return None
    at, field = found[-1]
    shown = int(n) if n == int(n) else n
    return at, f"{field} {_OPS[' '.join(m.group('op').lower().split())]} {shown}"


def _went(part: str, steps: list[StepSpec], src: Source) -> tuple[int, str] | None:
    m = _OUT.match(part)
    if m is None:
        return None
    at = _named_step(m.group("thing"), steps, src)
    if at is None:
        return None
    went = [n for n in outputs_of(steps[at], src.vocabulary) if n.lower() in _WENT]
    return (at, f"{went[0]} == true") if len(went) == 1 else None


def _named(part: str, steps: list[StepSpec], src: Source, near: int | None) -> tuple[int, str] | None:
    m = _NAMED.match(part)
    if m is None:
        return None
    owners = _owners(m.group("field"), steps, src)
    if not owners:
        return None
    at = near if near in owners else owners[-1]
    return at, f"{m.group('field')} is not empty"


def _sets(step: StepSpec, field: str) -> bool:
    """Whether the step's own text gives the field a value ("carry on with logged = false"): a check on
    it would break the value the step goes on with, so it is left to the caller, which warns it. Also as
    a policy reader wrote it back ("continue with `{"logged": false}`", `spec.carry_with50`)."""
    said = re.compile(rf"(?i)(?<![\w-]){re.escape(field)}(?![\w-])[\"'`]?+\s*+(?:=|:|set\s+to|to|as)?\s*+"
                      r"(?:true|false|yes|no|null|none|-?\d)")
    return any(said.search(t.text) for t in step.texts)


def said_checks(part: str, steps: list[StepSpec], src: Source) -> list[tuple[int, str]] | None:
    """(step index, check as written) for each piece of one part of the clause (module docstring);
    None when a piece of it is read as nothing, or names a field its step's text sets a value of."""
    read = _said_checks(part, steps, src)
    if read is None or any(_sets(steps[at], written.split()[0]) for at, written in read):
        return None
    return read


def _said_checks(part: str, steps: list[StepSpec], src: Source) -> list[tuple[int, str]] | None:
    """(step index, check as written) for each piece of one part of the clause (module docstring);
    None when a piece of it is read as nothing."""
    part = part.strip().rstrip(".").strip()
    found = _bracket(f"({part})", steps, src) if "(" not in part else _bracket(part, steps, src)
    if found is not None:
        return [found]
    out: list[tuple[int, str]] = []
    for piece in _WITH.split(part):
        piece = piece.strip()
        near = out[-1][0] if out else None
        read = _bound(piece, steps, src) or _went(piece, steps, src) or _named(piece, steps, src, near)
        if read is None:
            return None
        out.append(read)
    return out or None


def said_here(part: str) -> bool:
    """Whether a part looks like one this module reads, before the steps are known."""
    part = part.strip().rstrip(".").strip()
    if _BRACKET.search(part):
        return True
    pieces = [p.strip() for p in _WITH.split(part)]
    return any(_BOUND.match(p) or _OUT.match(p) or _NAMED.match(p) for p in pieces)


_rx.save()
