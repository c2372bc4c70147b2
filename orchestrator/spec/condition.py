"""Conditions as people write them, read into clauses the planner compiles.

    confidence < 0.7                         a comparison, as an expression already is
    Step 4 reported valid = true             a field of a named step's output
    amount is over 1000                      comparison words: over, above, exceeds, more than,
    only if the total exceeds 1,000 EUR      under, below, less than, at least, at most, is,
    the category is billing or technical     is not, equals; numbers with thousands separators
    the warehouse gave back no rows          and a unit; "no X", "X is empty": X is empty
    merge counted 3 or more errors           a count of a plural noun: `error_count >= 3`
    prod only                                a value alone: the one field that can hold it

A condition is either a Jinja2 expression (kept as written: `not steps['step-1'].output.
docs_found`, `confidence < 0.7`) or, when it is not one, clauses in words joined by "and"
/ "or". A clause names its subject by a backticked name or by its last words ("the report
date" is `report_date` or `date`, the longest the planner can place); the planner
(`plan.conditions`) finds what each name is (a workflow input, an earlier step's output,
the `For each` item's field) and compiles the sandboxed expression, shown in the plan.

This module also finds conditions in prose: a sentence that says a step "only runs if",
"runs only when", "is skipped when" or "unless" (`condition_sentence`); the `Otherwise:`
that makes a step run exactly when the condition of the step before it was false
(`otherwise_sentence`); and the condition and timeout of an approval ("required if amount
> 1000; wait up to 24h, then reject", "prod only", `approval_sentence` for "finance has
to approve it").
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from orchestrator.policy import ApprovalPolicy
from orchestrator.spec.fields import NUMBER, STEP_WORD, step_id
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

Op = Literal["==", "!=", "<", "<=", ">", ">="]


class Clause(BaseModel):
    """One comparison in words. kind: compare (subject op value), empty / filled (the
    subject has no value or an empty one / has one), value (a value alone: "prod only")."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["compare", "empty", "filled", "value"]
    subject: tuple[str, ...] = ()  # the words naming it, last word last ("report", "date")
    step: str | None = None  # "Step 4 reported ...": the step whose output it is
    op: Op = "=="
    value: Any = None
    guess: str = ""  # how a reading that is a guess was made ("4 or worse" as >= 4), warned by the planner
    other: tuple[str, ...] = ()  # "is more than the venue capacity": the words naming the value compared with


class ReadCondition(BaseModel):
    """A condition as read: a Jinja2 expression, or clauses in words joined by `joins`."""

    model_config = ConfigDict(frozen=True)

    text: str
    expression: str | None = None
    clauses: tuple[Clause, ...] = ()
    joins: tuple[Literal["and", "or"], ...] = ()  # between clause i and i+1
    negated: bool = False  # "unless ...", "skipped when ..."


_LEAD = _rx(
    r"(?i)^\W*(?:(?:this|the)\s+(?:step|stage|one)\s+)?(?:(?:is\s+)?(?:only\s+)?(?:runs?|run|executed|executes|"
    r"happens|applies|required|needed)\s+)?(?:only\s+)?(?:if|when|where|provided(?:\s+that)?|as\s+long\s+as)\s+")
_STEP_SAID = _rx(
    rf"(?i)\b{STEP_WORD}\s+({NUMBER})(?:['’]s)?\s*(?:(?:has\s+|have\s+)?(?:reported|returned|returns|reports|says|"
    r"said|gave(?:\s+back)?|gives(?:\s+back)?|output|outputs|produced|found|set|came\s+back\s+with)\b)?(?:\s+that)?")
# "the headcount from 1", "the total from step 3": the step whose output the subject is
_FROM_STEP = _rx(rf"(?i)(?<!\s)\s++from\s++(?:{STEP_WORD}\s++)?(\d{{1,4}}+)(?![\w.,])")
_PLAIN_WORD = _rx(r"`?[A-Za-z_][\w-]*+`?")
# (pattern, operator), longest phrases first: the leftmost match wins, then the longest
_OPS: tuple[tuple[str, Op], ...] = (
    (r"is\s+(?:greater|more|higher|bigger|larger)\s+than\s+or\s+equal\s+to|is\s+at\s+least|at\s+least|"
     r"(?:meets|equals|matches|reaches)\s+or\s+(?:exceeds|passes|goes\s+over|tops)|"
     r"(?:is\s+)?equal\s+to\s+or\s+(?:greater|more|higher|larger|above|over)(?:\s+than)?|"
     r"(?:is\s+)?at\s+or\s+(?:above|over)|>=|≥|=>", ">="),
    (r"is\s+(?:less|lower|smaller|fewer)\s+than\s+or\s+equal\s+to|is\s+at\s+most|at\s+most|no\s+more\s+than|"
     r"(?:is\s+)?at\s+or\s+(?:below|under)|<=|≤|=<", "<="),
    (r"(?:is|are)\s+(?:greater|more|higher|bigger|larger)\s+than|(?:is|are)\s+over|(?:is|are)\s+above|exceeds?|"
     r"(?:greater|more|higher|bigger|larger)\s+than|goes\s+over|over|above|>", ">"),
    (r"(?:is|are)\s+(?:less|lower|smaller|fewer)\s+than|(?:is|are)\s+under|(?:is|are)\s+below|"
     r"(?:less|lower|smaller|fewer)\s+than|under|below|<", "<"),
    (r"(?:is|are|was|were)\s+not(?:\s+equal\s+to)?|isn['’]t|aren['’]t|does\s+not\s+equal|doesn['’]t\s+equal|"
     r"not\s+equal\s+to|!=|≠|<>", "!="),
    (r"(?:is|are)\s+equal\s+to|equals?|==|=|(?:is|are|was|were)(?:\s+set\s+to)?", "=="),
)
_OP = _rx("|".join(f"(?P<o{i}>(?<![\\w<>=!])(?:{p})(?![\\w<>=]))" for i, (p, _) in enumerate(_OPS)), re.I)
_EMPTY = _rx(r"(?i)^(?:.*?\b(?:there\s+(?:are|were|is|was)\s+|gave\s+back\s+|gives\s+back\s+|returned\s+|"
             r"returns\s+|found\s+|has\s+|have\s+|had\s+)?)?\bno\s+(?:more\s+)?`?([A-Za-z_][\w-]*)`?")
_EMPTY_WORD = _rx(r"(?i)^(?P<subj>.+?)\s+(?:is|are)\s+(?P<not>not\s+|non-?)?(?:empty|missing|blank|unset)\s*$")
_FILLED_WORD = _rx(r"(?i)^(?P<subj>.+?)\s+(?:is|are)\s+(?:set|present|given|there|available)\s*$")
_ANY = _rx(r"(?i)^(?:.*?\b(?:there\s+(?:are|were|is|was)\s+|found\s+|has\s+|have\s+|had\s+|gave\s+back\s+|"
           r"returned\s+|reported\s+)?)?\b(?:any|some|at\s+least\s+one)\s+(?P<rest>[`A-Za-z_][\w\s`-]*?)\s*"
           r"(?:\b(?:at\s+all|left|in\s+\w+|for\s+\w+|today|yesterday)\b.*)?$")
_VALUE_ONLY = _rx(r"(?i)^\W*(?:only\s+(?:for|in|on|with)\s+(?P<a>[\w.-]+)|(?:for\s+|in\s+|on\s+)?"
                  r"(?P<b>[\w.-]+)\s+only)\W*$")
# "3 or more errors", "fewer than 3 errors", "at least 2 warnings": a count of the plural noun
_COUNTED = _rx(r"(?i)^(?:.*?\s)?(?:(?P<n>\d+)\s+or\s+(?P<a>more|fewer|less)|"
               r"(?P<b>fewer\s+than|less\s+than|more\s+than|over|under|at\s+least|at\s+most)\s+(?P<m>\d{1,3}(?:,\d{3})++|\d++))"
               r"\s+(?P<noun>(?:[A-Za-z_][\w-]*+\s++){0,2}+[A-Za-z_]\w*+)\s*$")
_OR_BOUND = _rx(r"(?i)^(?P<subj>.+?)\s+(?:is|are|was|were)\s+(?P<n>[-+]?[\d,.]+)\s+or\s+"
                r"(?P<dir>less|fewer|lower|below|under|more|greater|higher|above|over)\s*$")
# a plural after a number that is money or a unit, never things counted ("over 800 dollars", "under 20 pounds")
_NO_COUNT_NOUNS = frozenset({"dollar", "euro", "pound", "buck", "quid", "cent", "penny", "pennie", "franc", "yen",
                             "rupee", "percent", "kilo", "gram", "kilogram", "tonne", "ton", "litre", "liter", "mile",
                             "kilometre", "kilometer", "metre", "meter"})
_COUNTED_OPS: dict[str, Op] = {"fewer than": "<", "less than": "<", "more than": ">", "over": ">", "under": "<",
                               "at least": ">=", "at most": "<="}
_ARTICLES = {"the", "a", "an", "its", "their", "this", "that", "it", "value", "of", "field", "output"}
_AND_UP = _rx(r"(?<![\w.])(\d{1,9}+(?:\.\d{1,9}+)?+)\s*+\+(?![\w+])")  # "4+", "level 3 +"
_NUM = _rx(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_UNIT = _rx(r"(?i)^\s*(?:%|percent|eur|usd|gbp|chf|€|\$|£|euros?|dollars?|items?|rows?|[a-z]{3})?\W*$")


_NUMBER_WORDS = {w: n for n, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                             "nine", "ten", "eleven", "twelve"))}
# "nothing failed" / "none bounced": the one word (an output) holds no value, an empty list or 0;
# "anything failed" / "any bounced": it holds one (`Clause` empty / filled)
_NONE_DID = _rx(r"(?i)^(?:nothing|none|no\s*one|nobody)\s+(?:at\s+all\s+)?(?:has\s+|have\s+|had\s+)?(?!(?:is|are|was|were|be|of|more|left|else)$)(?P<w>[a-z_]\w*)$")
_SOME_DID = _rx(r"(?i)^(?:anything|anyone|anybody|something|any)\s+(?:at\s+all\s+)?(?:has\s+|have\s+|had\s+)?"
                r"(?!(?:is|are|was|were|be|of|more|left|else)$)(?P<w>[a-z_]\w*)$")


def _value(text: str) -> tuple[bool, Any]:
    """A literal: a number (thousands separators and a unit allowed), a quoted text,
    true/false/yes/no, null, or one bare word; (False, None) when it is none of those."""
    t = text.strip().rstrip(".,;:!)").strip()
    if not t:
        return False, None
    from orchestrator.spec.condition_said import said_number  # "€250k", "1,000 EUR", "5 %", "20 kg"

    said, number = said_number(t)
    if said:
        return True, number
    t = re.sub(r"^[€$£]\s*", "", t)
    quoted = re.fullmatch(r"[`'\"“‘](.*?)[`'\"”’]", t)
    if quoted:
        return True, quoted.group(1)
    m = _NUM.match(t)
    if m and _UNIT.match(t[m.end():]):
        number = m.group(0).replace(",", "")
        return True, float(number) if "." in number else int(number)
    low = t.lower()
    if low in ("true", "yes"):
        return True, True
    if low in ("false", "no"):
        return True, False
    if low in ("null", "none", "nothing"):
        return True, None
    if low in _NUMBER_WORDS:  # "more than zero", "fewer than three"
        return True, _NUMBER_WORDS[low]
    if re.fullmatch(r"[\w.-]+", t):
        return True, t
    return False, None


def _subject(text: str) -> tuple[str, ...]:
    ticked = re.findall(r"`([A-Za-z_][\w.-]*)`", text)
    if ticked:
        return (ticked[-1],)
    text = re.sub(r"(?<=[A-Za-z])['’]s(?![\w-])", "", text)  # "the quote's (over 800)": the quote (is)
    words = [w for w in re.findall(r"[A-Za-z_][\w-]*", text)]
    tail: list[str] = []
    for w in reversed(words):
        if w.lower() in _ARTICLES:
            break
        tail.insert(0, w)
        if len(tail) == 3:
            break
    return tuple(tail)


def _counted(m: re.Match[str], step: str | None) -> Clause | None:
    """A count of things: "3 or more errors", "at least 1 affected order" (one thing, said in the singular,
    a word of three letters or more: "over 10 mg" is no count); None when it is not one."""
    *lead, last = m.group("noun").split()
    number = int((m.group("n") or m.group("m")).replace(",", ""))
    if last.lower().endswith("ies"):
        last = last[:-3] + "y"
    elif last.lower().endswith("s") and not last.lower().endswith("ss"):
        last = last[:-1]
    elif number != 1 or len(last) < 3:
        return None
    if last.lower() in _NO_COUNT_NOUNS:
        return None  # "the quote is over 800 dollars": money or a unit, no count of things
    word = " ".join((m.group("a") or m.group("b")).lower().split())
    op: Op = _COUNTED_OPS[word] if m.group("b") else (">=" if word == "more" else "<=")
    return Clause(kind="compare", subject=(*lead, last, "count"), step=step, op=op, value=number)


def _clause(text: str, previous: Clause | None) -> Clause | None:
    step: str | None = None
    text = _AND_UP.sub(r"\1 or more", text)  # "Level 4+": 4 or more
    said = _FROM_STEP.search(text) or _STEP_SAID.search(text)
    if said is not None:
        step = step_id(f"step {said.group(1)}")
        text = (text[: said.start()] + " " + text[said.end():]).strip()
    text = text.strip().rstrip(".").strip()
    if (m := _NONE_DID.match(text)) or (m := _SOME_DID.match(text)):
        kind: Literal["empty", "filled"] = "empty" if m.re is _NONE_DID else "filled"
        return Clause(kind=kind, subject=(m.group("w").lower(),), step=step)
    from orchestrator.spec.steps34c import (  # "Match left something unmatched"
        left_something,
        without_scope,
    )

    if (cut := without_scope(text)) is not None and _COUNTED.match(cut):  # "more than 3 mails in it"
        text = cut

    if (left := left_something(text)) is not None:
        return Clause(kind=left[0], subject=(left[1],), step=step)
    if m := _EMPTY_WORD.match(text):
        subject = _subject(m.group("subj"))
        return Clause(kind="filled" if m.group("not") else "empty", subject=subject, step=step) if subject else None
    if m := _FILLED_WORD.match(text):
        subject = _subject(m.group("subj"))
        return Clause(kind="filled", subject=subject, step=step) if subject else None
    if m := _EMPTY.match(text):
        return Clause(kind="empty", subject=(m.group(1),), step=step)
    from orchestrator.spec.approval_count import (
        count_of_kind,  # "two or more sites are positive": their count >= 2
    )
    from orchestrator.spec.condition_any import (
        any_of_kind,  # "any swap is a high-alert drug": a count of them
    )

    if (counted := count_of_kind(text)) is not None:
        return Clause(kind="compare", subject=counted[0], step=step, op=counted[1],  # type: ignore[arg-type]
                      value=counted[2], guess=counted[3])
    if (of_kind := any_of_kind(text)) is not None:
        return Clause(kind="compare", subject=of_kind[0], step=step, op=">", value=0, guess=of_kind[1])
    if (m := _ANY.match(text)) and (subject := _subject(m.group("rest"))):
        return Clause(kind="filled", subject=subject, step=step)
    from orchestrator.spec.condition_said import (
        said_bound,  # "top_grade is 4 or worse", "late_count of 3 or more"
    )

    if (bound := said_bound(text)) is not None:
        return Clause(kind="compare", subject=bound[0], step=step, op=bound[1], value=bound[2],  # type: ignore[arg-type]
                      guess=bound[3])
    if (m := _OR_BOUND.match(text)) and (subject := _subject(m.group("subj"))):  # "the score is 50 or less"
        ok, value = _value(m.group("n"))
        if ok:
            up = m.group("dir").lower() in ("more", "greater", "higher", "above")
            return Clause(kind="compare", subject=subject, step=step, op=">=" if up else "<=", value=value)
    if (m := _COUNTED.match(text)) and (counted_clause := _counted(m, step)) is not None:
        return counted_clause  # "merge counted 3 or more errors": the errors' count
    if m := _VALUE_ONLY.match(text):
        ok, value = _value(m.group("a") or m.group("b") or "")
        if ok and isinstance(value, str):
            return Clause(kind="value", value=value, step=step)
    op = _OP.search(text)
    if op is not None:
        index = next(i for i in range(len(_OPS)) if op.group(f"o{i}"))
        subject = _subject(text[: op.start()])
        ok, value = _value(text[op.end():])
        if not ok and subject and _OPS[index][1] in ("<", "<=", ">", ">=") and (
                other := _other(text[op.end():])):  # "headcount is more than the venue capacity"
            return Clause(kind="compare", subject=subject, step=step, op=_OPS[index][1], other=other)
        if not ok or (not subject and previous is None):
            return None
        if not subject and previous is not None:
            return previous.model_copy(update={"op": _OPS[index][1], "value": value})
        return Clause(kind="compare", subject=subject, step=step, op=_OPS[index][1], value=value)
    ok, value = _value(text)
    if ok and previous is not None and previous.kind == "compare":  # "is billing or technical"
        return previous.model_copy(update={"value": value})
    if ok and isinstance(value, str) and re.fullmatch(r"[A-Za-z_][\w-]*", value) and step is not None:
        return Clause(kind="filled", subject=(value,), step=step)  # "Step 2 found problems"
    if step is not None and (m := re.fullmatch(r"(?i)(?:it|they|that)\s+`?([A-Za-z_][\w-]*)`?", text)):
        return Clause(kind="filled", subject=(m.group(1),), step=step)  # "step 3 says it `fits`"
    return None


def _other(text: str) -> tuple[str, ...]:
    """The words naming the value a field is compared with ("the venue capacity", "`max_load`"):
    at most four plain words, the last ones the name (`_subject`); () when the text says more."""
    words = text.strip().rstrip(".,;:!)").split()
    if not words or len(words) > 4 or not all(_PLAIN_WORD.fullmatch(w) for w in words):
        return ()
    return _subject(" ".join(words))


# the two halves of one ">=" said in words ("meets or exceeds", "is equal to or greater than")
_BOTH_OP = _rx(r"(?i)(?<![\w-])(?:meets|equals|matches|reaches|equal\s++to)$")
_BOTH_OP_TAIL = _rx(r"(?i)(?:exceeds|passes|goes\s++over|tops|greater|more|higher|larger|above|over)(?![\w-])")


def _split(text: str) -> tuple[list[str], list[Literal["and", "or"]]]:
    parts: list[str] = []
    joins: list[Literal["and", "or"]] = []
    last = 0
    for m in re.finditer(r"(?i)(?<!\s)\s+(and|or)\s+|,\s*(and|or)\s+", text):
        if text[: m.start()].count("'") % 2 or text[: m.start()].count('"') % 2:
            continue
        if re.search(r"\d(?:[kKmM%]|\s?+(?:%|[a-z]{1,12}+))?$", text[: m.start()]) and re.match(
                r"(?i)(?:more|fewer|less|worse|better|greater|higher|lower|above|below|over|under|up|down|bigger|"
                r"larger|smaller)\b", text[m.end():]):
            continue  # "3 or more errors": one count, not two clauses
        if text[: m.start()].lower().endswith(" at") and re.match(r"(?i)(?:above|over|below|under)\b", text[m.end():]):
            continue  # "at or above 70": one comparison
        if _BOTH_OP.search(text[: m.start()]) and _BOTH_OP_TAIL.match(text[m.end():]):
            continue  # "meets or exceeds the threshold", "equal to or greater than 3": one comparison
        parts.append(text[last:m.start()])
        word = (m.group(1) or m.group(2)).lower()
        joins.append("and" if word == "and" else "or")
        last = m.end()
    parts.append(text[last:])
    return parts, joins


def is_expression(text: str) -> bool:
    """True when `text` parses as a Jinja2 expression whose filters and tests exist; nothing
    is compiled or computed (`'x' * 4000000000` is not built here)."""
    from jinja2 import TemplateError

    from orchestrator.templating import parse_expression, shared_environment

    try:
        parse_expression(shared_environment(), text)  # parsed only: compiling would fold constants
    except TemplateError:
        return False
    except Exception:  # a malformed literal the compiler chokes on is not an expression
        return False
    return True


def strip_code(text: str) -> str:
    t = text.strip().strip("`").strip()
    m = re.fullmatch(r"(?:\{\{|\$\{)\s*+(.*?)(?:(?<!\s)\s+)?\}\}?", t, re.S)
    return m.group(1) if m else t


def read_condition(text: str) -> ReadCondition | None:
    """`text` as an expression or clauses in words (module docstring); None when it is neither."""
    from orchestrator.spec.js_ops50 import js_operators  # `a === 'x' && !b`: a == 'x' and not b

    raw = js_operators(strip_code(text))
    if not raw:
        return None
    lead = _LEAD.match(raw)
    body = raw[lead.end():] if lead else raw
    negated = False
    if m := re.match(r"(?i)^\W*unless\s+", body):
        body, negated = body[m.end():], True
    body = body.strip().rstrip(".").strip()
    if is_expression(body) and not _looks_worded(body):
        return ReadCondition(text=text.strip(), expression=body, negated=negated)
    from orchestrator.spec.change_base40 import (
        without_base,  # "moved more than 25% vs its base": 25%
    )
    from orchestrator.spec.gate_count import (
        said_count,  # "more than three puddles": more than 3
    )
    from orchestrator.spec.spoken43 import (
        spoken_amounts,  # "over eight hundred dollars": over 800 dollars
    )

    parts, joins = _split(said_count(without_base(spoken_amounts(body))))
    clauses: list[Clause] = []
    for part in parts:
        found = _clause(part, clauses[-1] if clauses else None)
        if found is None:
            return None
        clauses.append(found)
    return ReadCondition(text=text.strip(), clauses=tuple(clauses), joins=tuple(joins), negated=negated)


def _looks_worded(text: str) -> bool:
    """An expression that Jinja2 accepts but people wrote in words: `valid = true` is not
    Jinja2 anyway; `category is billing` would be a test named billing."""
    from jinja2 import nodes

    from orchestrator.templating import parse_expression, shared_environment

    try:
        tree = parse_expression(shared_environment(), text)
    except Exception:
        return True
    known = {"defined", "undefined", "none", "true", "false", "number", "string", "mapping", "sequence",
             "boolean", "integer", "float", "even", "odd", "divisibleby", "in", "eq", "ne", "lt", "le", "gt",
             "ge", "sameas", "iterable", "callable", "lower", "upper", "filter", "test", "escaped"}
    return any(node.name not in known for node in tree.find_all(nodes.Test))


# -- conditions in prose ------------------------------------------------------------

_ONLY = _rx(
    r"(?i)^\W*(?:(?:this|the)\s+(?:step|stage|one)\s+|it\s+)?(?:(?:is\s+)?only\s+(?:runs?|run|executed|executes|"
    r"happens|applies)\s+|(?:runs?|run|executes?|happens|applies)\s+only\s+|only\s+)(?:if|when)\s+(?P<cond>.+)$")
_SKIP = _rx(r"(?i)^\W*(?:(?:this|the)\s+(?:step|stage|one)\s+is\s+|it\s+is\s+)?(?:skip(?:ped)?(?:\s+(?:it|this"
            r"(?:\s+step)?))?|don['’]t\s+run(?:\s+(?:it|this))?)\s+(?:if|when)\s+(?P<cond>.+)$")
_UNLESS = _rx(r"(?i)^\W*(?:(?:this|the)\s+(?:step|stage|one)\s+)?(?:runs?\s+)?unless\s+(?P<cond>.+)$")


def _cut(cond: str) -> str:
    """The condition of a sentence, without what follows a colon or a ", then"."""
    from orchestrator.spec.condition_after import (
        cut_at_skill,  # ", run `trim-list`": the step's own words
    )

    cond = cut_at_skill(cond)
    return re.split(r":\s|;\s|,\s*(?:then|and\s+then)\b|(?<!\s)\s+—\s+|(?<!\s)\s+-\s+", cond, maxsplit=1)[0].strip().rstrip(".")


def condition_sentence(sentence: str) -> tuple[str, bool] | None:
    """A sentence that makes its step conditional: (the condition, negated); None otherwise.
    "This one only runs if confidence < 0.7.", "Only when Step four reported valid = true",
    "Skip it when the list is empty", "Runs unless dry_run is true"; emphasis marks ("'''Only''' if") taken off."""
    from orchestrator.spec.condition_opening import plain

    sentence = plain(sentence)
    if m := _ONLY.match(sentence):
        return _cut(m.group("cond")), False
    if m := _SKIP.match(sentence) or _UNLESS.match(sentence):
        return _cut(m.group("cond")), True
    from orchestrator.spec.condition_words import bare_condition  # "Runs if total > 100."

    bare = bare_condition(sentence)
    return (bare, False) if bare is not None else None


_OTHERWISE = _rx(r"(?i)^\W*(?:otherwise|else|if\s+not)\b\s*(?:\((?P<paren>[^()]*)\))?\s*[:,—-]?\s*(?P<rest>.*)$")


def otherwise_sentence(sentence: str) -> tuple[str | None, str] | None:
    """"otherwise (valid is false): roll back", "Else: notify the team", "If not, ...":
    (the condition in parentheses, the rest); None when it does not open so."""
    m = _OTHERWISE.match(sentence)
    if m is None:
        return None
    paren = (m.group("paren") or "").strip() or None
    return paren, m.group("rest").strip()


_OTHERWISE_OF = _rx(r"(?i)^\s*+(?:of|to|for|from)?\s*+(?P<step>(?:step|stage)\s*[-\w]+|step-\w+)"
                    r"(?:['’]s\s+condition)?\s*(?:[:,—-]\s*(?P<rest>.*))?$")


def otherwise_of(text: str) -> tuple[str, str] | None:
    """"of Step 4", "Step 4's condition", "of step two: roll back" (an Otherwise's parentheses or
    what follows the word): (the step's id, the rest); None when it names no step."""
    m = _OTHERWISE_OF.match(text)
    sid = step_id(m.group("step")) if m else None
    if m is None or sid is None:
        return None
    return sid, (m.group("rest") or "").strip()


# -- approvals ----------------------------------------------------------------------

_APPROVAL_IF = _rx(r"(?i)\b(?:(?:is\s+)?(?:only\s+)?(?:required|needed)\s+)?(?:only\s+)?(?:if|when|for)\s+"
                   r"(?P<cond>(?:[^;.]|\.(?=\d))+)")  # not the point of "2.5k"
_APPROVAL_ONLY = _rx(r"(?i)^\W*(?P<cond>(?:only\s+(?:for|in|on)\s+)?[\w.-]+\s*(?:only)?)\s*+(?:[.;]|--?\s|[—–]\s|$)")
_APPROVE = _rx(
    r"(?i)\b(?:has|have|must|needs?|need)\s+to\s+(?:approve|sign\s+off)|\bmust\s+(?:approve|sign\s+off)|"
    # "Marguerite must agree before the crew is booked", "the head teacher has to consent first"
    r"\b(?:must|(?:has|have|needs?)\s+to)\s+(?:agree|consent)(?=\s+(?:to\s+(?:it|this|that)\s+)?(?:before|first)\b)|"
    # "the family must OK it first", "the owner has to okay this" (round 47)
    r"\b(?:must|(?:has|have|needs?)\s+to)\s+(?:OK|okay)\s+(?:it|this|that|them)\b|"
    r"\b(?:needs?|requires?)\s+(?:an?\s+)?(?:person['’]s\s+|human\s+|manual\s+)?(?:approval|sign-?off)|"
    r"\bwait(?:s)?\s+for\s+(?:an?\s+)?(?:approval|sign-?off)|\bsigns?\s+(?:it\s+)?off\b(?!\s*+(?:with\s++|as\s++|:\s*+)?+[\"“'])|"
    # ("sign it off "Gaz Locks 24/7"": the closing words a message ends with, no approval: round 50)
    # "it waits for the duty pharmacist to approve", "hold until the producer OKs it"
    r"\b(?:waits?|holds?|pauses?)\s+(?:for|until)\s+(?:the\s+|an?\s+|our\s+)?[\w-]{1,30}(?:\s+[\w-]{1,30}){0,3}?\s+"
    r"(?:to\s+)?(?:approves?|signs?\s+off|says?\s+yes|OKs?|okays?|gives?\s+(?:the\s+|their\s+)?(?:ok|go-?ahead))\b|"
    r"\b(?:needs?|requires?)\s+[\w\s]{1,40}?\s+to\s+(?:say\s+yes|approve|sign\s+off|give\s+(?:the\s+|their\s+)?ok)\b|"
    # "once the lead has OK'd it", "has given the go-ahead", "needs a thumbs-up from a maintainer"
    r"\b(?:has|have|had)\s+(?:OK['’]?d|OK['’]?ed|okayed|okay['’]?d|approved|green-?lit|signed\s+off|"
    r"given\s+(?:it\s+|them\s+)?(?:the\s+|their\s+|a\s+|his\s+|her\s+)?(?:ok|okay|go-?ahead|thumbs[- ]up|nod|green\s+light|👍))|"
    r"\b(?:needs?|requires?|waits?\s+for|gets?)\s+(?:an?\s+|the\s+)?(?:👍|thumbs[- ]up|ok|okay|go-?ahead|green\s+light|nod|"
    r"sign-?off|approval)\s+(?:from|by)\b|"
    # "a person looks at it and says yes or no"
    r"\b(?:looks?\s+(?:at|over)|reviews?|checks?|eyeballs?|reads?)\b[^.]{0,100}?\band\s+(?:says|gives|decides)\s+"
    r"(?:yes\s+or\s+no|yes\s*/\s*no|go\s+or\s+no-?go|(?:the\s+)?(?:ok|go-?ahead))")
_WAIT = _rx(r"(?i)\b(?:wait(?:s|ing)?\s+(?:up\s+to|for\s+up\s+to|at\s+most|for)|within|after|timeout|"
            r"hold(?:s|ing)?\s+(?:it|this|that|them)\s+(?:for\s+up\s+to|up\s+to|for\s+at\s+most|for)|"
            r"(?:no|without\s+(?:an?\s+)?)\s*(?:answer|reply|response|decision|sign-?off)\s+(?:in|within|after|for)|"
            r"(?:nobody|no\s+one|no-one)\s+(?:answers|replies|responds|approves|decides|signs\s+off)\s+(?:in|for)|"
            r"(?:has\s+)?(?:looked|answered|decided|approved)\s+(?:at\s+it\s+)?within)\s+(?P<d>[^,;.)]+)")
_ON_TIMEOUT = _rx(r"(?i)(?:\b(?:then|treat(?:ed)?\s+(?:it\s+)?as|counts?\s+as|is|means?)\s+|=\s*)(?:an?\s+)?(?:automatically\s+|auto-?)?"
                  r"(?P<w>reject(?:ed)?|approve(?:d)?|no\b|yes\b)")


# what silence means, said in other words: "assume it's fine and go ahead anyway", "the release is cancelled"
_SILENCE_YES = re.compile(r"(?i)\bassume\s+(?:it['’]?s|it\s+is|that['’]?s|they['’]?re)\s+(?:fine|ok(?:ay)?|good|approved|a\s+yes)\b|"
                         r"\b(?:go(?:es)?\s+ahead|proceed|carry\s+on|continue|serve|ship|send|publish|release|run)\w*\s+"
                         r"(?:it\s+|them\s+)?anyway\b|\bauto-?approv\w*|\bsilence\s+(?:means|is)\s+(?:yes|consent|approval)\b|"
                         # "if he doesn't answer by then just go ahead with the sheet"
                         r"\b(?:doesn['’]?t|does\s+not|don['’]?t|do\s+not|didn['’]?t|nobody|no\s+one)\s+(?:answer|reply|respond|"
                         r"answers|replies|responds)\b[^.;]{0,40}?(?<!not\s)(?<!n't\s)(?<!n’t\s)(?<!never\s)\b(?:go\s+ahead|proceed|carry\s+on)\b")
_SILENCE_NO = re.compile(r"(?i)\b(?:is|are|gets?|get|will\s+be)\s+(?:cancell?ed|called\s+off|dropped|aborted|binned|"
                        r"skipped|stopped)\b|\bsilence\s+(?:means|is)\s+(?:no|a\s+no|refusal)\b")


# what follows "if" in an approval sentence that is its wait, not its condition
_NOT_A_CONDITION_BODY = (r"\s*(?:nobody|no\s+one|no-one|none\s+of\s+them|they\s+(?:don|do\s+not|haven|have\s+not)|"
                         r"there['’]?s\s+no\s+(?:answer|reply)|it\s+(?:isn|is\s+not|hasn|has\s+not)\w*\s+(?:been\s+)?"
                         r"(?:approved|answered|looked|checked|seen))\b")
_NOT_A_CONDITION = re.compile("(?i)" + _NOT_A_CONDITION_BODY)


class ApprovalReading(BaseModel):
    model_config = ConfigDict(frozen=True)

    condition: str | None = None
    timeout_s: float | None = None
    on_timeout: Literal["approve", "reject"] | None = None


# a value named in words and then, in brackets, as code: "the top figure (reply.top)", "its total (order.total_usd)":
# the field the code names (round 49); brackets holding no `x.field` ("a drug (heparin, insulin)") are left alone
_CODE_REF = _rx(r"(?i)(?<![\w-])(?:(?:the|its|their|his|her)\s++)?(?:(?!(?:if|when|once|unless|and|or|but|where)\b)"
                r"[a-z][\w-]{0,30}+\s++){1,3}?\((?:[a-z_]\w{0,40}+\.)++(?P<field>[a-z_]\w{0,40}+)\)")


def approval_condition(text: str) -> tuple[str | None, str]:
    """An `Approval:` value split into (its condition, the rest): "required if amount >
    1000; wait up to 24h, then reject" -> ("amount > 1000", "required; wait up to 24h,
    then reject"); "prod only. The release manager signs off" -> ("prod only", ...)."""
    text = _CODE_REF.sub(lambda c: c.group("field"), text)  # "the top figure (reply.top)": the field `top`
    m = _APPROVAL_IF.search(text)
    from orchestrator.spec.approval_over55 import (
        pronoun_scope,  # "wait 30 mins for him": a person (`55`)
    )

    while m is not None and (_NOT_A_CONDITION.match(m.group("cond")) or pronoun_scope(m.group("cond"))):
        m = _APPROVAL_IF.search(text, m.end())  # "if nobody answers within 4h": the wait
    from orchestrator.spec.whole_approval import _before_person

    if m is not None and (cue := _APPROVE.search(m.group("cond"))) is not None and cue.start() > 0:
        head = _before_person(text)  # "if total_usd > 10000 Carla signs off first, no answer = no": up to Carla
        if head is not None:
            return head, (text[: m.start()] + " " + text[m.start("cond") + cue.start():]).strip(" ;,.") or "required"
    if m is not None and " (" in m.group("cond") and read_condition(bare := m.group("cond").split(" (")[0].strip()):
        # "if any swap is a high-alert drug (heparin, insulin, ...)": the examples in brackets are no part of it
        cut = text.find(")", m.start("cond") + len(bare))
        return bare, (text[: m.start()] + " " + text[cut + 1 if cut >= 0 else m.end():]).strip(" ;,.") or "required"
    if m is not None and ", " in m.group("cond"):  # "when the total is over 10,000, the lead has OK'd it"
        from orchestrator.spec.approval_condition24 import (
            or_continued,  # ", OR the fee is over 25,000"
        )

        head = or_continued(m.group("cond")) or m.group("cond").split(", ", 1)[0].strip()
        if read_condition(head) is not None:
            return head, (text[: m.start()] + text[m.start("cond") + len(head):]).strip(" ;,.") or "required"
    if m is not None and read_condition(m.group("cond").strip()) is not None:
        rest = (text[: m.start()] + text[m.end():]).strip(" ;,.")
        return m.group("cond").strip(), rest or "required"
    m = _APPROVAL_ONLY.match(text)
    if m is not None and re.search(r"(?i)\bonly\b", m.group("cond")):
        found = read_condition(m.group("cond").strip())
        if found is not None and any(c.kind == "value" for c in found.clauses):
            return m.group("cond").strip(), (text[m.end():].strip() or "required")
    from orchestrator.spec.approval_ask50 import (
        condition_before_ask,  # "if the quote's over £150 text me first b4 ..."
    )
    from orchestrator.spec.approval_hold import (
        condition_in_scope,  # "... 2 blocks on the same day, X must agree"
    )
    from orchestrator.spec.approval_lead import (
        condition_before_cue,  # "load % over 95 -> the lead signs off"
    )
    from orchestrator.spec.whole_approval import (
        said_condition,  # "Where the subtotal exceeds ...,", "Orders over $150:"
    )

    return said_condition(text) or condition_before_cue(text) or condition_in_scope(text) or condition_before_ask(text), text


def _silence_means(after: str) -> Literal["approve", "reject"] | None:
    """What a person's silence means, said in words after the wait ("just go ahead with it", "it's a no")."""
    from orchestrator.spec.whole_approval import said_no

    if _SILENCE_YES.search(after):
        return "approve"
    if _SILENCE_NO.search(after) or said_no(after):
        return "reject"
    from orchestrator.spec.approval_ok import (
        silence_means,  # "book it anyway", "don't post - hold it"
    )

    return silence_means(after)


def approval_timeout(text: str) -> tuple[float | None, Literal["approve", "reject"] | None]:
    """"wait up to 24h, then reject", "If nobody has looked at it within 6 hours, treat it as
    rejected": (seconds, what then); (None, None) when it says no wait; what then is None when
    the text does not say."""
    from orchestrator.spec.approval_condition24 import wait_glossed  # "one business day (8 hours)"
    from orchestrator.spec.policy_text import first_duration
    from orchestrator.spec.whole_approval import (
        said_wait,  # "Leads get 4 hours", "within forty-eight (48) hours", "1h or it's a no"
    )

    text = wait_glossed(text)

    m = _WAIT.search(text)
    seconds = first_duration(m.group("d")) if m is not None else None
    if m is None or seconds is None:
        from orchestrator.spec.approval_lead import (
            wait_said,  # "Wait 30 min max; no answer = file anyway"
        )
        from orchestrator.spec.approval_scope54 import wait_bound
        from orchestrator.spec.approval_sign import (
            role_wait,  # "Wait max 30 min for the inspector; no inspector ..."
        )

        got = said_wait(text)
        if got[0] is None and (for_role := role_wait(text))[0] is not None:
            return for_role[0], for_role[1] or "reject"  # a wait for the inspector: no one, no go
        other = wait_said(text) if got[1] is None else (None, None)
        found = other if other[0] is not None and (got[0] is None or other[1] is not None) else got
        if found[0] is None and (bound := wait_bound(text)) is not None:  # "wait max 4 hrs" (`spec.approval_scope54`)
            return bound, _silence_means(text)
        return (found[0], found[1] or _silence_means(text)) if found[0] is not None else found
    then = _ON_TIMEOUT.search(text[m.end():]) or _ON_TIMEOUT.search(text)
    if then is None:
        held = m.group(0).lower().startswith("hold")  # "hold it for up to 4 hours": the hold is the wait, no refusal
        return seconds, _silence_means(text[m.end() if held else m.start():])
    return seconds, "approve" if then.group("w").lower().startswith(("approve", "yes")) else "reject"


def without_approval_wait(sentence: str) -> str:
    """The sentence without its "if nobody answers within 24 hours ..." clause: what is left
    may state the approval's condition."""
    m = re.search(r"(?i)\b(?:if|when|unless|once)\s+(?=" + _NOT_A_CONDITION_BODY + ")", sentence)
    return sentence[: m.start()] if m else sentence


_CLAUSE_STOP = _rx(r"[.;!?](?=\s)|⚠\S*")  # not the point of "10.5"


def approval_rest(sentence: str) -> str:
    """What a sentence says beside its approval: "when the total is over 10,000, the lead has OK'd
    it (no answer within 4h = no) When `send` mails them" -> "When `send` mails them" (lines of a
    scenario run together); "" when it says nothing else."""
    from orchestrator.spec.approval_sign import sign_cue
    from orchestrator.spec.steps34c import (
        see_cue,  # "Lena wants to see the batch ...; ... said yes ..."
    )
    from orchestrator.spec.whole_approval import said_cue, said_no

    m = _APPROVE.search(sentence) or said_cue(sentence) or sign_cue(sentence) or see_cue(sentence)
    if m is None:
        return sentence
    start, end = m.start(), m.end()
    # the approval's clause starts after the last stop before it ("`bump` with `x`. ⚠️ Major bumps need
    # a 👍 from ..." keeps what the step does), or at the condition said in that clause
    clause = max((s.end() for s in _CLAUSE_STOP.finditer(sentence, 0, start)), default=0)
    cond = _APPROVAL_IF.search(sentence, clause, start)
    start = cond.start() if cond is not None else clause
    wait = _WAIT.search(sentence, end)
    if wait is not None and wait.start() - end <= 80:
        end = wait.end()
    close = re.match(r"[^()]{0,60}\)", sentence[end:]) if "(" in sentence[start:end] else None
    end += close.end() if close else 0
    tail = re.match(r"[^.;]*?(?=\s+(?:When|Given|Then|And|But)\s|\s+#|[.;]|$)", sentence[end:])
    said = tail.group(0) if tail else ""
    if tail and (_ON_TIMEOUT.search(said) or _SILENCE_YES.search(said) or _SILENCE_NO.search(said) or said_no(said)):
        end += tail.end()  # what silence means, said after the wait
    rest = f"{sentence[:start]} {sentence[end:]}".strip(" ,;.")
    return rest if len(re.findall(r"[A-Za-z`]\w*", rest)) > 2 else ""
_GO_AHEAD = _rx(r"(?i)\b(?:assume\s+(?:it['’]?s\s+|it\s+is\s+|that\s+it['’]?s\s+)?(?:fine|ok|okay|good|approved|a\s+yes)|"
                r"(?:go|serve|ship|send|proceed|carry\s+on|continue|release|publish)\s+(?:ahead\s+)?anyway|"
                r"go\s+ahead|silence\s+(?:is|means)\s+(?:a\s+)?yes)\b")
_CALL_OFF = _rx(r"(?i)\b(?:cancel\w*|abort\w*|call\s+(?:it|the\s+\w+)\s+off|drop\s+it|bin\s+it|stop|"
                r"don['’]?t\s+(?:serve|ship|send|go\s+ahead)|silence\s+(?:is|means)\s+(?:a\s+)?no)\b")


def gate_outcome(text: str) -> Literal["approve", "reject"] | None:
    """What happens when nobody answers a gate, said in words: "assume it's fine and go ahead
    anyway" approves, "call it off" rejects; None when it says neither or both."""
    yes, no = _GO_AHEAD.search(text) is not None, _CALL_OFF.search(text) is not None
    return "approve" if yes and not no else "reject" if no and not yes else None


# a comment or a to-do of the author's: "// TODO: ...", "<!-- ... -->", "%% ... %%", "FIXME ..."
_ASIDE_LINE = _rx(r"(?i)^\W{0,4}+(?:TODO|FIXME|XXX)\b|^\s*+(?://|<!--|%%)")


def approval_sentence(sentence: str) -> bool:
    """True when a sentence of a step's prose says the step needs a person's approval
    ("Before anything is sent, finance has to approve it.")."""
    from orchestrator.spec.approval_ask50 import asks_first  # "text me first b4 u book anyone"
    from orchestrator.spec.approval_hold import first_cue  # "the skipper OKs it first"
    from orchestrator.spec.approval_lead import gives_time  # "give the skipper 30 min to OK it"
    from orchestrator.spec.notes38 import ok_verb  # "Dr Okoye has to ok it first"
    from orchestrator.spec.whole_approval import said_approval  # the words of other documents

    if _ASIDE_LINE.match(sentence):  # "// TODO: add the check once HSE signs it off": a note, no instruction
        return False
    from orchestrator.spec.until_state46 import without_state_until

    if (kept := without_state_until(sentence)) != sentence:  # "hard-coded until the board signs off 2028"
        return approval_sentence(kept)
    from orchestrator.spec.approval_sign import (
        sign_cue,  # "inspection by a certifying inspector before ..."
    )
    from orchestrator.spec.outline39 import (
        sent_for_sign_off,  # "the brief goes to the CFO for sign-off"
    )
    from orchestrator.spec.sheet_flow32 import (
        held_till_yes,  # "nothing goes to X till the PRO says yes"
    )
    from orchestrator.spec.steps34c import (
        wants_to_see,  # "Lena wants to see the batch ...; ... said yes ..."
    )

    return (_APPROVE.search(sentence) is not None or said_approval(sentence) or gives_time(sentence)
            or first_cue(sentence) or sign_cue(sentence) is not None or held_till_yes(sentence)
            or wants_to_see(sentence) or ok_verb(sentence) or sent_for_sign_off(sentence) or asks_first(sentence))


def read_approval_text(value: str, src: Source, line: int) -> ApprovalPolicy | None:
    """An `Approval:` value: its condition ("required if amount > 1000", "prod only"), then
    the policy (`policy_text.read_approval`), and a wait said in words ("wait up to 24h,
    then reject") when that gave none."""
    from orchestrator.spec import policy_text as pt

    condition, rest = approval_condition(value)
    from orchestrator.spec.notify_person import notice, told_at_approval

    if (told := told_at_approval(rest)) is not None:  # "..., page the RPh supervisor": no page is sent
        src.warn(line, notice(told, "the approval is read as written"), "spec.unread")
    said = (approval_sentence(rest) or approval_timeout(rest)[0] is not None) and not re.search(r"(?i)\b(?:required|timeout|within|after)\b", rest)
    policy = pt.read_approval(f"required; {rest}" if said else rest, src, line)  # "a maintainer has to 👍 this"
    if policy is None:
        return None
    if policy.timeout_s is None:
        seconds, then = approval_timeout(rest)
        if seconds is None and (bare := _BARE_WAIT.search(rest)) is not None:  # "10 min, then reject"
            seconds, then = pt.first_duration(bare.group("d")), (
                "approve" if bare.group("w").lower().startswith(("approve", "yes", "go")) else "reject")
        if seconds is not None:
            policy = policy.model_copy(update={"timeout_s": seconds, "on_timeout": then or "reject"})
    elif policy.on_timeout == "reject" and approval_timeout(rest)[1] == "approve":  # "..., post it anyway"
        policy = policy.model_copy(update={"on_timeout": "approve"})
    from orchestrator.spec.silence_words30 import silence_skips

    if policy.on_timeout == "reject" and silence_skips(rest):  # "no answer = don't post, carry on" (`silence_words30`)
        policy = policy.model_copy(update={"on_timeout": "skip"})
    if condition is None and approval_sentence(value):
        from orchestrator.spec.approval_ok import (
            value_condition,  # "RED means a callout, so Bev OKs it"
        )

        if (by_value := value_condition(value)) is not None:
            condition = by_value[0]
            src.warn(line, by_value[1], "spec.approval-condition")
    if condition is not None:
        policy = policy.model_copy(update={"when": condition})
    elif (said_if := _APPROVAL_SOMETIMES.search(without_approval_wait(rest))) is not None:  # "needed only when the patient is a child"
        src.warn(line, f"the approval's condition '{rest[said_if.start():].strip()[:80]}' is not read: the step waits for "
                       "the approval on every run, never on none; to say when, write `Approval: required if <field> > "
                       "<value>`", "spec.approval-condition")
    return policy


# a time and what then, said bare in an approval: "15 min, then reject", "10 min max then reject", "1h -> approve"
_BARE_WAIT = _rx(r"(?i)(?<![\w.])(?P<d>\d{1,4}+(?:\.\d{1,3}+)?+\s*+(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|"
                 r"days?|d))(?![\w])\s*+(?:max(?:imum)?+\s*+)?+[,;]?\s*+(?:then|else|or|->|→|=>)\s*+(?:it['’]s\s++an?\s++)?+"
                 r"(?P<w>reject\w*+|approve\w*+|no|yes|go|decline\w*+|skip\w*+)(?![\w-])")
# an approval said to be needed only sometimes ("needed only when ...", "yes if ...", "only if ...")
_APPROVAL_SOMETIMES = _rx(r"(?i)\b(?:only\s++(?:if|when)|(?:yes|needed|required|necessary)\s++(?:only\s++)?+(?:if|when)|unless)\b")


_rx.save()
