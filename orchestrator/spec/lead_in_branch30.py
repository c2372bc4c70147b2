"""A branch written as a bold lead-in with its condition in brackets: a pull request's, a macro's, a wiki's.

    2. **Big refunds** (order `amount` over 100): `fraud-score` ...   runs only when amount > 100
    3. **Everything else** (amount 100 or less): `quick-refund` ...   the other branch of step 2
    - **Angry customers** (sentiment < -0.5): `escalate-ticket` ...   runs only when sentiment < -0.5
    * **Sev 1** (`priority` above 3) — `page-oncall`                  runs only when priority > 3
    - **Important** (read this first): `backup-db` ...                no: emphasis, nothing compared
    - **Slow one** (takes over 10 minutes): `reindex` ...             no: a duration is no condition

A list item whose name is its bold lead-in (`**Label**`, `__Label__`) keeps the words after the label
in its text; when that text opens with an aside in brackets, the aside is said of the label: which case
the item is. An aside with a comparison (a sign, or a word such as over, under, at least, or less, and
a number) that `spec.condition.read_condition` reads as one comparison of a named value (not a
duration: "over 10 minutes") is the step's condition (a `spec.lead_condition.Lead`, bare: the planner
drops it with a warning when it names no value the steps give). A label that is an otherwise word
("Everything else", "Otherwise", "The rest") keeps the aside's comparison: the step is the other branch
of the nearest conditional step before it when the two compare the same value in opposite directions,
else a condition of its own (`spec.lead_condition.read_leads` decides and warns). A label opening with
"if" that reads as no comparison ("**If using frozen** (`frozen_share` over 0.5):") takes the aside's.
The bold label must be written on the step's own line (one line looked at per step).

The step that runs after whichever branch ran often takes one field from either branch by their
numbers: "`decision` ← the `verdict` from step 2 or 3", "score of steps 4/5", "`total` out of step 2
or step 3". `field_of_steps` and `assigned_of_steps` read it into alternatives (the same field, each
step by its number) for `spec.either_input`, so the planner binds it from whichever ran
(`plan.join_sources`), not from the last number alone.

A policy sentence often opens with the failure the author has seen, said as a habit with when it
happens, then a dash, colon or semicolon: "Orders DB times out under load — give it up to 3 retries",
"the scanner hangs at peak times; retry twice", "the warehouse is slow on mondays -> retry it twice". That opening says why (`load_reason_spans`, read beside
`spec.policy_notation24.habit_reason_spans`), not that the retries are for timeouts only; "if it times
out under load — retry" keeps its class.
"""

from __future__ import annotations

import re

from orchestrator.spec.condition import read_condition
from orchestrator.spec.either_input import Alternative
from orchestrator.spec.lead_condition import _COMPARES, Lead
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the aside that opens the item's text after its label: "(order `amount` over 100):", "(sentiment < -0.5) —"
_ASIDE = _rx(r"^\(\s*+(?P<body>[^()\n]{1,120}+)\)\s*+(?::|—|–|->|→|-(?=\s)|,|$)")
# a number with a unit of time: a duration, said of how long the step takes
_DURATION = _rx(r"(?i)\d\s*+(?:ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?)(?![\w-])")


def _bold_label(step: StepSpec, src: Source) -> bool:
    """Whether the step's own line writes its name as a bold lead-in."""
    tail = step.where.rpartition(":")[2]
    if not tail.isdigit():
        return False
    line = src.line_text(int(tail))
    name = step.name.strip()
    return bool(name) and (f"**{name}**" in line or f"__{name}__" in line)


def aside_compare(text: str) -> tuple[str, Lead | None] | None:
    """The aside opening `text` when it compares a named value: (its words, the comparison read as a Lead
    of kind "when", bare); None when the text opens with no such aside (module docstring)."""
    m = _ASIDE.match(text.lstrip())
    if m is None:
        return None
    body = " ".join(m.group("body").split())
    if not _COMPARES.search(body) or not re.search(r"\d", body) or _DURATION.search(body):
        return None
    read = read_condition(body)
    if read is None or read.negated or len(read.clauses) + (read.expression is not None) != 1:
        return None
    if read.clauses and (read.clauses[0].kind != "compare" or not read.clauses[0].subject):
        return None
    return body, Lead(kind="when", head=f"({body})", condition=body, bare=True)


def lead_in(step: StepSpec, src: Source, named: Lead | None) -> Lead | None:
    """What a bold lead-in's aside says of when `step` runs, given what its name alone says (`named`):
    the name's reading when the aside adds nothing (module docstring)."""
    if named is not None and (named.kind == "when" or (named.kind == "otherwise" and named.clause is not None)):
        return named
    if not step.description.startswith("(") or not _bold_label(step, src):
        return named
    said = aside_compare(step.description)
    if said is None:
        return named
    body, lead = said
    if named is None or named.kind == "unread":  # "**If using frozen** (`frozen_share` over 0.5):" the aside says it
        return lead
    read = read_condition(body)
    clause = read.clauses[0] if read is not None and read.clauses else None
    if clause is None:
        return named
    return Lead(kind="otherwise", head=f"{step.name.strip()} ({body})", clause=clause)


# "the `verdict` from step 2 or 3", "score of steps 4/5", "total out of step 2 or step 3 (whichever ran)"
_OF_STEPS = (r"(?:the\s++)?`?(?P<field>[A-Za-z_]\w{0,40}+)`?\s++(?:from|of|out\s++of)\s++(?:the\s++)?"
             r"(?:[Ss]teps?|[Ss]tages?|#)\s*+(?P<list>\d{1,3}+(?:\s*+(?:/|,|or|and)\s*+(?:(?:[Ss]teps?|[Ss]tages?|#)\s*+)?"
             r"\d{1,3}+){1,4}+)(?![\w/])")
_FIELD_OF = _rx(rf"^{_OF_STEPS}(?:\s*+\(?(?:whichever|which\s++ever)[^()]{{0,40}}+\)?)?+\s*+$")
# "`decision` ← the `verdict` from step 2 or 3", "score = score of steps 4/5": an input given so
_ASSIGNED_OF = _rx(rf"(?<![\w`])`?(?P<name>[A-Za-z_]\w{{0,40}}+)`?[ \t]*+(?:=|:=|←|<-)[ \t]*+{_OF_STEPS}")


def _of(m: re.Match[str]) -> tuple[Alternative, ...] | None:
    numbers = list(dict.fromkeys(re.findall(r"\d+", m.group("list"))))
    if len(numbers) < 2:
        return None
    return tuple(Alternative(words=m.group("field"), step=f"step {n}") for n in numbers)


def field_of_steps(value: str) -> tuple[Alternative, ...] | None:
    """"the `verdict` from step 2 or 3": the field from each numbered step, in order; None when the value
    is not one field of two or more numbered steps (module docstring)."""
    m = _FIELD_OF.match(" ".join(value.split()).rstrip(" .,;"))
    return None if m is None else _of(m)


def assigned_of_steps(text: str) -> list[tuple[str, tuple[Alternative, ...], str]]:
    """Each "`name` ← the `field` from step 2 or 3" in `text`: (name, its alternatives, the words read)."""
    out = []
    for m in _ASSIGNED_OF.finditer(text):
        if (said := _of(m)) is not None:
            out.append((m.group("name"), said, m.group(0)))
    return out


# "Orders DB times out under load —", "the scanner hangs at peak times;": a failure seen, and when, then a break
_LOAD_REASON = _rx(r"(?i)(?:^|(?<=[.!?][ \t]))[^:;.!?—–]{0,120}?(?<![\w-])(?:times?\s++out|hangs|stalls|freezes|chokes|falls\s++over|"
                   r"drops\s++out|flakes(?:\s++out)?+|errors(?:\s++out)?+|crashes|goes\s++down|gets\s++slow|is\s++slow|"
                   r"runs\s++slow|is\s++flaky)\s++"
                   r"(?:under\s++(?:heavy\s++|high\s++|peak\s++)?load|at\s++peak(?:\s++times?)?+|at\s++night|"
                   r"in\s++the\s++(?:mornings?|evenings?)|during\s++[\w-]{1,30}+|at\s++month[\s-]end|on\s++busy\s++days|"
                   r"on\s++(?:mon|tues|wednes|thurs|fri|satur|sun)days|on\s++weekends)"
                   r"(?![\w-])[^:;.!?—–]{0,40}?(?:\s*+[:;—–→]|\s++-\s|\s++-{1,2}>|\s++=>)")
_IF = _rx(r"(?i)(?<![\w-])(?:if|when|whenever|unless|should|in\s++case|on\s++(?:error|failure|timeout))(?![\w-])")


def load_reason_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` opens with a failure seen and when it happens, up to a dash, colon or semicolon
    ("Orders DB times out under load — give it 3 retries"): the reason, not the failures the policy
    is kept to (module docstring). An opening with if/when keeps its class."""
    m = _LOAD_REASON.search(text)  # the text's opening, or a later sentence's (a comment's "...). warehouse is slow")
    if m is None or _IF.search(m.group(0)) is not None:
        return []
    return [m.span()]


_rx.save()
