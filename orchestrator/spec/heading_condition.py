"""A step's condition, or its other branch, said after a dash in its heading.

    ## ③a Standard crates — only when ② says within_spec      runs only when step ②'s `within_spec` is true
    ## ③b Climate crates — if ② is out of spec instead         the other branch of ③a (the nearest condition)
    ### 4. Ship by air – only if weight_kg < 30                 runs only when weight_kg < 30
    ### Step 5 - otherwise                                      the other branch of the nearest condition
    ## Restock — unless step 2 says in_stock                    runs only when step 2's `in_stock` is false

`spec.lead_condition` reads a condition that opens a title or sits in its brackets; this reads the tail
after an em/en dash or a spaced hyphen. A tail that opens with "only if", "only when", "runs only
if/when" or "unless" is a condition; one that opens with a bare "if"/"when" is one only when it names
an earlier step saying something or compares ("when the tests pass" is a wait, not a condition, and
is left). A tail whose if-clause ends in "instead", or that is "otherwise"/"else"/"if not" alone (or
with "branch"/"path"/"case"), makes the step the other branch of the nearest earlier step with a
condition. "Otherwise known as ...", "only the fragile ones", "else we forget" are not read.

An earlier step is named as a step reference (`step_ref`): a circled number (① ❶ ➀) or a number, with
or without "step"/"#", is the earlier step whose title opens with that mark (③a, ③b open with ③), else
the step of that number; a label ("A", "C1") given by the caller (`spec.grid_condition`: a grid's row
keys). The value after a verb of saying ("says", "shows", "reports", "is", "=") is read by `step_condition`:
a bare field name (`within_spec`, one word) is that output being true ("no X"/"not X" false), a
comparison in words is that output compared. Every reading is a guess at the author's field, warned at
the heading's line (`spec.heading-condition`) with what to write; a tail that looks like a condition and
is not read is warned too (the step then always runs).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.heading-condition"

_CIRCLED = {**{chr(0x2460 + i): i + 1 for i in range(20)}, **{chr(0x2776 + i): i + 1 for i in range(10)},
            **{chr(0x2780 + i): i + 1 for i in range(10)}, **{chr(0x278A + i): i + 1 for i in range(10)}}
_MARKS = "".join(_CIRCLED)
# the tail after a dash in a title: "Standard crates — only when ② says within_spec"
_TAIL = _rx(r"(?<![ \t])[ \t]*+(?:[—–]|(?<=[ \t])-{1,2}+(?=[ \t]))[ \t]*+(?P<t>[^—–\n]{2,200}+)$")
# a condition opening the tail: "only when", "runs only if", "unless", a bare "if"/"when"
_OPEN = _rx(r"(?i)^(?:(?:and|but)[ \t]++)?(?P<only>(?:runs?[ \t]++)?only[ \t]++|just[ \t]++)?+"
            r"(?P<w>if|when|unless)[ \t]++(?P<c>[^\n]{2,200}+)$")
# the other branch said alone: "otherwise", "else:", "if not", "otherwise branch"
_ELSE = _rx(r"(?i)^(?:otherwise|else|if[ \t]++not|or[ \t]++else)(?:[ \t]*+[:.)!]?+[ \t]*+$|[ \t]++(?:branch|path|"
            r"case|route)\b)")
_INSTEAD = _rx(r"(?i)(?<![ \t])[,]?+[ \t]++instead[ \t.!]*+$")
# a step named, then a verb of saying: "② says", "step 2 shows", "A =", "the meter reports"
_SAYS = _rx(r"(?i)(?<![ \t])[ \t]*+(?:(?<=[ \t])(?:says|said|shows|showed|reports|reported|returns|returned|gives|gave|"
            r"comes[ \t]++back|came[ \t]++back|is|was)(?=[ \t])|==?+|:)[ \t]*+")
_NAME = _rx(r"^`?+(?P<n>[a-z][a-z0-9]*+(?:_[a-z0-9]++)*+)`?+$")
_NOT = _rx(r"(?i)^(?:no|not)[ \t]++`?+(?P<n>[a-z][a-z0-9]*+(?:_[a-z0-9]++)*+)`?+$")
_NUMBER_REF = _rx(r"(?i)^(?:step[ \t]*+|#[ \t]*+)?(?P<n>\d{1,3}+)$")
_COMPARES = _rx(r"(?i)[<>≥≤≠=]|(?<![\w-])(?:over|above|under|below|more[ \t]++than|less[ \t]++than|fewer[ \t]++than|"
                r"at[ \t]++least|at[ \t]++most|exceeds?)(?![\w-])")


_CMP_FIRST = _rx(r"(?i)^(?P<cmp>more[ \t]++than|over|above|at[ \t]++least|under|below|less[ \t]++than|fewer[ \t]++than|"
                 r"at[ \t]++most)[ \t]++(?P<n>\d[\d,]*+(?:\.\d++)?+)[ \t]++(?P<f>[a-z][a-z0-9_]*+)$")


def tail_of(text: str) -> str | None:
    """The tail after the last dash of a title or cell ("Standard crates — only when ..." -> "only when ...")."""
    m = _TAIL.search(text)
    return m.group("t") if m is not None else None


def circled(text: str) -> int | None:
    """The number of a circled mark (① is 1), or None."""
    return _CIRCLED.get(text)


def _opens(step: StepSpec, n: int) -> bool:
    """Whether the step's title opens with the mark of `n` (① / 1 / 1. / 1a), not of another number."""
    name = step.name.strip()
    if name[:1] in _CIRCLED:
        return _CIRCLED[name[0]] == n
    m = re.match(r"(?i)(?:step[ \t]*+)?(\d{1,3}+)(?![\d.]\d)", name)
    return m is not None and int(m.group(1)) == n


def step_ref(said: str, earlier: Sequence[StepSpec], labels: dict[str, str] | None = None) -> str | None:
    """The earlier step `said` names (module docstring), or None."""
    said = said.strip(" \t`*_\"'’.,()")
    said = re.sub(r"(?i)^(?:the[ \t]++)?(?:step|cue|row)[ \t]++(?=\S)", "", said) if len(said) < 40 else said
    if labels and said in labels and any(s.id == labels[said] for s in earlier):
        return labels[said]
    n = _CIRCLED.get(said) if len(said) == 1 else None
    if n is None and (m := _NUMBER_REF.match(said)) is not None:
        n = int(m.group("n"))
    if n is not None:
        opening = [s.id for s in earlier if _opens(s, n)]
        if len(opening) == 1:
            return opening[0]
        by_number = [s.id for s in earlier if s.number == n]
        return by_number[0] if len(by_number) == 1 and not opening else None
    low = said.lower()
    named = [s.id for s in earlier if low and (low == s.name.strip().lower() or (s.skill and low == s.skill.strip("`").lower()))]
    return named[0] if len(named) == 1 else None


def _numbered(sid: str) -> str | None:
    tail = sid.removeprefix("step-")
    return f"Step {tail}" if tail.isdigit() and sid.startswith("step-") else None


def step_condition(body: str, named: Callable[[str], str | None]) -> tuple[str, str] | None:
    """(the condition as `Step N reported ...`, the step's id) when `body` names an earlier step saying a value."""
    for verb in _SAYS.finditer(body):
        if verb.start() == 0 or len(body[:verb.start()]) > 40:
            continue
        sid = named(body[:verb.start()])
        if sid is None:
            continue
        step = _numbered(sid)
        rest = body[verb.end():].strip(" \t.;!")
        if step is None or not rest:
            return None
        if (m := _NAME.match(rest)) is not None and ("_" in rest or "`" in rest or verb.group(0).strip() in ("=", "==", "is", "was", ":")
                                                      or len(rest.split()) == 1):
            return f"{step} reported {m.group('n')} is true", sid
        if (m := _NOT.match(rest)) is not None:
            return f"{step} reported {m.group('n')} is false", sid
        if (m := _CMP_FIRST.match(rest)) is not None:  # "more than 900 grams": the unit word is the field
            rest = f"{m.group('f').lower()} is {' '.join(m.group('cmp').split())} {m.group('n')}"
        said = f"{step} reported {rest}"
        read = read_condition(said)
        if read is not None and read.expression is None and read.clauses and all(
                c.kind in ("compare", "empty", "filled") and c.subject and c.step == sid for c in read.clauses) and (
                _COMPARES.search(rest) or any(c.kind != "compare" for c in read.clauses)):
            return said, sid
        return None
    return None


def plain_condition(body: str) -> str | None:
    """`body` when it reads as a comparison of a named value (`weight_kg < 30`, "the total is over 500")."""
    if not _COMPARES.search(body):
        return None
    read = read_condition(body)
    if read is None or (read.expression is not None and not re.search(r"[<>≥≤≠=]", body)):
        return None
    if read.clauses and any(c.kind != "compare" or not c.subject for c in read.clauses):
        return None
    return body


class Said:
    """What a tail (or a grid cell) says of when its step runs: a condition, the other branch, or unread."""

    def __init__(self, kind: str, text: str, when: str | None = None, negated: bool = False) -> None:
        self.kind = kind  # "when", "otherwise", "unread"
        self.text = text
        self.when = when
        self.negated = negated


def clause_said(tail: str, named: Callable[[str], str | None], *, else_alone: bool = True) -> Said | None:
    """What a tail says of when its step runs (module docstring), or None when it says nothing of it."""
    tail = tail.strip(" \t*_")
    if else_alone and _ELSE.match(tail):
        return Said("otherwise", tail)
    m = _OPEN.match(tail)
    if m is None:
        return None
    body = m.group("c").strip().rstrip(".!")
    if (instead := _INSTEAD.search(body)) is not None and m.group("w").lower() != "unless":
        return Said("otherwise", tail, body[:instead.start()])
    negated = m.group("w").lower() == "unless"
    strong = bool(m.group("only")) or negated
    if (said := step_condition(body, named)) is not None:
        return Said("when", tail, said[0], negated)
    if (plain := plain_condition(body)) is not None:
        return Said("when", tail, plain, negated)
    return Said("unread", tail) if strong else None


def _negate(when: str) -> str:
    if when.endswith(" is true"):
        return when.removesuffix(" is true") + " is false"
    if when.endswith(" is false"):
        return when.removesuffix(" is false") + " is true"
    return f"unless {when}"


def apply_said(step: StepSpec, said: Said, latest: StepSpec | None, src: Source, line: int, where_said: str,
               code: str = CODE) -> StepSpec:
    """The step with what `said` says of when it runs, warned at `line` (module docstring)."""
    who = f"{step.id} ({step.name.strip()[:60]})"
    where = src.where(line)
    if said.kind == "unread":
        src.warn(line, f"{who}: {where_said} '{said.text[:80]}' looks like a condition but is not read, so the step "
                       "always runs; to say so plainly write `- When: NAME == VALUE` (a named value)",
                 "spec.condition-not-read")
        return step.model_copy(update={"field_where": {**step.field_where, "when_unread": where}})
    if said.kind == "otherwise":
        if latest is None:
            src.warn(line, f"{who}: {where_said} '{said.text[:80]}' says it is the other branch of a condition, but "
                           "no step before it has one, so the step always runs", "spec.condition-not-read")
            return step
        src.warn(line, f"{who}: {where_said} '{said.text[:80]}' is read as the other branch of {latest.id} "
                       f"({latest.when}): it runs exactly when that condition is false; to say so plainly write "
                       f"`Otherwise (of {latest.id.replace('-', ' ').title()}):`", code)
        reading = Reading(what="otherwise", where=where, text=said.text[:160],
                          note=f"runs exactly when the condition of {latest.id} was false ({where_said})")
        return step.model_copy(update={"otherwise_where": where, "otherwise_of": latest.id,
                                       "field_where": {**step.field_where, "when": where},
                                       "readings": (*step.readings, reading)})
    when = str(said.when)
    if said.negated:
        when = _negate(when)
    src.warn(line, f"{who}: {where_said} '{said.text[:80]}' is read as its condition: it runs only when {when} "
                   "(the field named is a guess from the words; if the step gives no such field the condition is "
                   f"dropped with a warning); to say so plainly write `- When: {when}`", code)
    reading = Reading(what="when", where=where, text=said.text[:160], note=f"runs only when {when} ({where_said})")
    return step.model_copy(update={"when": when, "readings": (*step.readings, reading),
                                   "field_where": {**step.field_where, "when": where, "when_title": where}})


def read_heading_conditions(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each whose heading's tail after a dash says when it runs, read so (module docstring)."""
    out: list[StepSpec] = []
    latest: StepSpec | None = None
    for step in steps:
        line = step.where.rpartition(":")[2]
        if (step.form == "heading" and line.isdigit() and not (step.when or step.otherwise_where or step.otherwise_of
                                                                or step.routes or step.approval)
                and (m := _TAIL.search(step.name)) is not None):
            earlier = list(out)

            def named(ref: str, earlier: list[StepSpec] = earlier) -> str | None:
                return step_ref(ref, earlier)

            said = clause_said(m.group("t"), named)
            if said is not None:
                step = apply_said(step, said, latest, src, int(line), "its heading's tail")
        if step.when:
            latest = step
        out.append(step)
    return out


_rx.save()
