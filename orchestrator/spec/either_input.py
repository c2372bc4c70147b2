"""An input that comes from one of several steps, each giving it under its own name.

After two branches, the step that runs after whichever ran often takes a value that each
branch calls differently. People write it as:

    ... with service, severity and the page id or ticket id as `ref`       (a sentence)
    `ref` = page_id (if paged) or ticket_id                                (an assignment)
    ref: whichever of page_id / ticket_id exists                           (a label)
    `ref` from whichever of PAGING / TICKETING ran                          (one name, its steps)
    - ref: page_id or ticket_id                                            (a labelled bullet)
    - Input: ref (page-oncall's page_id, or open-ticket's ticket_id)       (an Input line)

Each is read into an `EitherInput`: the input's name, and its alternatives in the order
written, each the words given for the value ("page id", "page_id") and the step named
beside them when one is ("page-oncall's page_id", "page_id from step 3", "step-3.page_id").
An aside in parentheses ("(if paged)") and "whichever of", "either", "... exists", "...
ran" are not part of a value. Every alternative is at most four words, so a sentence that
merely has an "or" in it is no reading; values are parted by "or", " / " or " | " (a path,
`a/b`, is one value), and a `name:` inside a sentence must go on with "whichever of" or
"either".

What each alternative is (which step's which field) is decided by the planner against the
outputs of the steps before (`plan.join_sources`); a reading none of whose values is found
there, and that names no step, is no such input. `deliberate` marks one written as an
assignment, a label or on an Input line (a sentence's "... as `x`" is not).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MAX_WORDS = 4  # the words of one alternative
_MAX_CHARS = 400  # a value longer than this is a text, not a few values (and costs nothing to refuse)
_LOOK_BACK = 240  # characters before "as `x`" that may hold its values (a long text stays linear)
_NAME = r"[A-Za-z_]\w*"
# a step written beside a value: "step 3", a hyphenated name (a skill's), a capitalised one (a step's)
_STEP = r"(?:[Ss]teps?|[Ss]tage|[Pp]hase|[Tt]ask)[\s_-]*\w+|[A-Za-z][\w]*-[\w-]+|[A-Z][\w]*|\d{1,3}[a-z]"  # "3a": a grid's line

_WHICHEVER = _rx(r"(?i)^\s*(?:(?:whichever|any|one)\s+of\s+(?:the\s+)?|either\s+)")
# (each starts only where its run of blanks or separators starts, possessively: linear on long runs)
_THAT_RAN = _rx(r"(?i)(?<![\s,;(—–-])[\s,;(—–-]*+\b(?:whichever\s++(?:one\s++)?(?:ran|exists|is\s++(?:there|set|present))|"
                r"(?:exists?|ran|is\s++(?:there|set|present))|(?:if|when)\s++(?:it\s++|one\s++)?(?:ran|exists))"
                r"\s*+(?:\)\s*+)?$")
_OR = _rx(r"(?i)(?<![\s,]),?\s++or\s++(?:else\s++)?|(?<!\s)\s++/\s++|(?<!\s)\s++\|\s++")  # a path (`a/b`) is one value
_ASIDE = _rx(r"(?<!\s)\s*+\(([^()]*+)\)")
_ARTICLE = _rx(r"(?i)^(?:the|a|an|its|their|that|this)\s+")
_POSSESSIVE = _rx(rf"^(?:`(?P<ticked>[\w-]+)`|(?P<step>{_STEP}))['’]s\s+(?P<words>.+)$")
_FROM_STEP = _rx(rf"^(?P<words>.+?)\s+(?:[Ff]rom|[Oo]f|[Oo]ut\s+of)\s+(?:the\s+)?(?:`(?P<ticked>[\w-]+)`|(?P<step>{_STEP}))$")
_DOTTED = _rx(rf"^(?:steps\.(?P<id>[\w-]+)\.output|(?P<step>(?:step[\s_-]*)?\d+|[\w-]+))\.(?P<words>{_NAME})$")
_STEP_ASIDE = _rx(r"(?i)^(?:from\s+|of\s+)?(?:the\s+)?`?(?P<step>(?:steps?|stage|phase|task)[\s_-]*\w+|[\w-]*-[\w-]+)`?$")
_QUOTED = _rx(r"[\"“”]")
_VALUE = _rx(r"^[A-Za-z_][\w'’ -]*$")
# `ref` = a or b; ref ← a or b; ref: whichever of a / b exists (up to the end of the clause)
_ASSIGNED = _rx(rf"(?:^|(?<=[\s(;,.]))`?(?P<name>{_NAME})`?\s*(?P<sign>=|:=|←|<-|:)\s*(?P<value>[^.;\n]+)")
# a or b as `ref`: the words before "as", back to the clause's start
_AS = _rx(rf"\bas\s+`?(?P<name>{_NAME})`?")
_CLAUSE_START = _rx(r"(?i)[,;:(]|\s(?:and|with|plus|using|passing|giving|takes?|gets?|needs?)\s")
_CUT = _rx(r",(?!\s*or\b)")  # where an assigned value ends: a comma that starts no alternative
# `eta_days` from whichever of RESERVING / BACKORDERING we came through: one name, given by each step
_FROM_STEPS = _rx(rf"(?<![\w`])`?(?P<name>{_NAME})`?\s++(?:comes\s++)?(?:from|of|out\s++of)\s++"
                  r"(?:whichever|either|any|one)\s++(?:one\s++)?(?:of\s++)?(?:the\s++)?(?P<steps>[^.;,\n|()]{1,160})")
_RAN_TAIL = _rx(r"(?i)^(?:(?:that|which)\s++)?(?:(?:we|it|you|they|the\s++\w+)\s++)?"
                r"(?:came|comes|come|went|goes|got)\s++(?:through|via|from|out\s++of)\b.*+$"
                r"|^(?:(?:that|which)\s++)?(?:ran|runs|run|finished|was\s++taken|is\s++taken|succeeded)\b.*+$")


class Alternative(BaseModel):
    """One value of the several an input may come from."""

    model_config = ConfigDict(frozen=True)

    words: str  # as written, without articles and backticks: "page id", "ticket_id"
    step: str | None = None  # the step written with it, as written ("page-oncall", "step 3"); None: unsaid


class EitherInput(BaseModel):
    """An input read as "one of these values, whichever exists"."""

    model_config = ConfigDict(frozen=True)

    name: str
    alternatives: tuple[Alternative, ...]
    where: str  # file:line of the text read
    text: str  # the text read, trimmed to one line
    deliberate: bool = False  # an assignment, a label or an Input line (module docstring)


def _alternative(part: str) -> Alternative | None:
    """One alternative: its words and the step written beside them; None when it reads as none."""
    step: str | None = None
    for aside in _ASIDE.findall(part):
        said = _STEP_ASIDE.match(aside.strip())
        if said is not None and step is None:
            step = said.group("step")
    part = " ".join(_ASIDE.sub(" ", part).split()).strip(" \t\"'“”.,;:")
    part = _ARTICLE.sub("", part)
    for pattern in (_POSSESSIVE, _FROM_STEP):
        m = pattern.match(part)
        if m is not None:
            step, part = m.group("ticked") or m.group("step"), _ARTICLE.sub("", m.group("words").strip())
            break
    else:
        m = _DOTTED.match(part.strip("`"))
        if m is not None:
            step, part = m.group("id") or m.group("step"), m.group("words")
    part = " ".join(part.replace("`", " ").split())
    if not part or not _VALUE.match(part) or len(part.split()) > _MAX_WORDS:
        return None
    return Alternative(words=part, step=step)


def alternatives(value: str) -> tuple[Alternative, ...] | None:
    """"page_id (if paged) or ticket_id", "whichever of page_id / ticket_id exists",
    "page-oncall's page_id, or open-ticket's ticket_id": the alternatives, in order; None
    unless there are two or more and each reads as one value."""
    if len(value) > _MAX_CHARS:
        return None
    text = " ".join(value.split())
    if _QUOTED.search(text):
        return None  # "503 or timeout": a text, not values of steps
    text = _THAT_RAN.sub("", _WHICHEVER.sub("", text)).strip()
    from orchestrator.spec.lead_in_branch30 import field_of_steps  # imports this module: asked late

    if (same := field_of_steps(text)) is not None:  # "the `verdict` from step 2 or 3": one field of each step
        return same
    parts = [p for p in _OR.split(text) if p.strip()]
    if len(parts) < 2 or not _OR.search(text):
        return None
    found = [_alternative(p) for p in parts]
    if any(a is None for a in found):
        return None
    return tuple(a for a in found if a is not None)


def _steps_of(text: str) -> list[str] | None:
    """"RESERVING / BACKORDERING we came through", "step 3 or step 4 (whichever ran)": the steps,
    each written as a step (a number, a hyphenated or capitalised name); None when one is not."""
    parts = [p.strip(" `") for p in _OR.split(text.strip()) if p.strip()]
    if len(parts) < 2:
        return None
    out = []
    for i, part in enumerate(parts):
        m = re.match(rf"(?:{_STEP})", part)
        if m is None:
            return None
        rest = part[m.end():].strip(" `")
        if rest and not (i == len(parts) - 1 and _RAN_TAIL.match(rest)):
            return None
        out.append(m.group(0))
    return out


def _trim(text: str) -> str:
    one = " ".join(text.split())
    return one if len(one) <= 160 else one[:159] + "…"


# a grid row's continuation: its empty cells ("label | | | line" is "label line", `spec.form_fills32`)
_EMPTY_CELLS = _rx(r"(?<![ \t|])[ \t]*+\|(?:[ \t]*+\|)++[ \t]*+")  # (starts only where its run starts: linear)
_RULE = _rx(r"(?<![ \t=+-])[ \t]*+[-=+]{6,}+[ \t]*+")


def read_text(text: str, where: str) -> list[EitherInput]:
    """The readings of a sentence or paragraph: assignments and labels first, then "... as `x`"."""
    found: dict[str, EitherInput] = {}
    text = _RULE.sub(". ", _EMPTY_CELLS.sub(" ", text)) if "|" in text else text  # a grid's rule ends a value
    for m in _ASSIGNED.finditer(text):
        value = _CUT.split(m.group("value"), maxsplit=1)[0]
        if m.group("sign") == ":" and not _WHICHEVER.match(value):
            continue  # "each row: "503 or timeout"": a label in a sentence says "whichever of" or "either"
        said = alternatives(value)
        if said is not None:
            found.setdefault(m.group("name"), EitherInput(name=m.group("name"), alternatives=said, where=where,
                                                          text=_trim(f"{m.group(0)[: m.start('value') - m.start()]}{value}"),
                                                          deliberate=True))
    from orchestrator.spec.lead_in_branch30 import assigned_of_steps

    for name, said, words in assigned_of_steps(text):  # "`decision` ← the `verdict` from step 2 or 3"
        found.setdefault(name, EitherInput(name=name, alternatives=said, where=where, text=_trim(words),
                                           deliberate=True))
    for m in _FROM_STEPS.finditer(text):
        steps = _steps_of(m.group("steps"))
        if steps is not None:
            found.setdefault(m.group("name"), EitherInput(
                name=m.group("name"), alternatives=tuple(Alternative(words=m.group("name"), step=s) for s in steps),
                where=where, text=_trim(m.group(0)), deliberate=True))
    from orchestrator.spec.sql_script32 import renamed_join

    for reading in renamed_join(text, where):  # "whatever 3 or 4 handed back, as `sends` (both call it `messages`)"
        found.setdefault(reading.name, reading)
    for m in _AS.finditer(text):
        before = text[max(0, m.start() - _LOOK_BACK): m.start()]
        starts = [d.end() for d in _CLAUSE_START.finditer(before)]
        clause = before[starts[-1]:] if starts else before
        said = alternatives(clause)
        if said is not None:
            found.setdefault(m.group("name"), EitherInput(name=m.group("name"), alternatives=said, where=where,
                                                          text=_trim(f"{clause.strip()} {m.group(0)}")))
    return list(found.values())


def either_inputs(step: StepSpec) -> list[EitherInput]:
    """Every input of `step` its text says comes from one of several values (module docstring):
    its Input line's fields (`ref (a's x, or b's y)`, `ref = x or y`), its labelled bullets
    (`- ref: whichever of x / y exists`), then its sentences. The first reading of a name wins."""
    found: dict[str, EitherInput] = {}
    path = step.where.rsplit(":", 1)[0] if ":" in step.where else step.where
    for f in step.inputs:
        said = alternatives(f.description) if f.description and not f.source else None
        if said is not None:
            found.setdefault(f.name, EitherInput(name=f.name, alternatives=said, where=f.where,
                                                 text=_trim(f"{f.name} ({f.description})"), deliberate=True))
    for t in step.texts:
        where = f"{path}:{t.line}"
        if t.label and re.fullmatch(_NAME, t.label.strip("` ")):
            said = alternatives(t.text)
            if said is not None:
                name = t.label.strip("` ")
                found.setdefault(name, EitherInput(name=name, alternatives=said, where=where,
                                                   text=_trim(f"{t.label}: {t.text}"), deliberate=True))
                continue
        for reading in read_text(t.text, where):
            found.setdefault(reading.name, reading)
    if not step.texts and step.description:
        for reading in read_text(step.description, step.where):
            found.setdefault(reading.name, reading)
    return list(found.values())


_rx.save()
