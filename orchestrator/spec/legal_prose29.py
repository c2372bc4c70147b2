"""Rows of the policy grammar (`spec.grammar`) for recovery said in a legal or formal register.

Contracts, schedules, service-level agreements and standard operating procedures say what happens
when a step fails in "shall" prose. Joined to the grammar's tables through `spec.grammar_families8`,
so the grammar's own module does not grow. The ways of writing, in words that are not the blind set's:

- a fallback said as what the party "shall instead apply / employ / have recourse to": "the Provider
  shall instead employ `manual-dispatch`", "shall in lieu thereof apply `paper-ledger`": that skill
  (beside a failure or "instead", so "the Tenant shall apply `sealant`" alone is no fallback);
- retries counted as further occasions: "may re-attempt it up to 4 further times", "may resubmit the
  return on not more than 2 additional occasions": that many retries ("four (4)" is read as 4 by
  `spec.normalize`);
- the first wait of a backoff said with a participle: "waiting 5 seconds before the first re-attempt
  and doubling that interval each time thereafter": where the backoff starts (its factor and its cap,
  "but never more than 60 seconds", are the grammar's own rows);
- a number written twice, in words then in digits, wrapped over a line ("up to four\n(4) further
  times"): the "(4)" opening the next line is the same sentence going on, not an outline item
  (`doubled_numeral`, read by `spec.outline`);
- a step done "once only" / "on one occasion only" / "one time only" ("shall be raised once only"),
  or "shall not be re-issued / re-submitted by automatic means": no retry ("once only per day" is a
  frequency, not a policy; "the tenant shall not re-attempt entry" gives no count, so no retries).

A step whose text says it runs "concurrently with C.2" (and "without awaiting its outcome"), C.2 the clause
number that labels an earlier step, starts together with that step (`beside_clause`, read by
`spec.start_together24`); "shall not be run concurrently with C.2" is no start. A step whose text opens a
sentence with "Following C.2 and C.4" / "Upon completion of C.3" waits for the steps those clause numbers
label (`read_clause_order`, every number must label one earlier step, else nothing is read; "Clauses 4.3 to
4.5" is each step from the one 4.3 labels to the one 4.5 labels).

In a success check ("deemed complete when an invoice reference has been issued and the invoice total
exceeds zero", read by `spec.success_checks23`): "has been" before a state is read as the state alone
(`done_aux`), "exceeds" / "is in excess of" a number is above it, and a name said without the unit its
output's name ends with ("the invoice total" for `invoice_total_usd`, `UNIT_TAILS`) names that output.

Every pattern is linear (bounded repeats, no nested quantifiers over overlapping classes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from orchestrator.spec.fields import NUMBER_WORDS
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MODAL = r"(?:shall|will|must|may|is\s+to|are\s+to)"
_INSTEAD = r"(?:instead|in\s+lieu(?:\s+thereof)?|in\s+(?:its|their)\s+(?:place|stead)|alternatively|thereupon)"
_APPLY = (r"(?:apply|employ|use|invoke|engage|run|resort\s+to|have\s+recourse\s+to|rely\s+(?:up)?on|proceed\s+(?:by|with|under)|"
          r"fall\s+back\s+(?:up)?on)")
_FAILED = (r"(?<!\w)(?:fail\w*|error\w*|unsuccessful|not\s+(?:respond|succeed|complete)\w*|unavailable|unreachable|"
           r"instead|in\s+lieu|in\s+(?:its|their)\s+(?:place|stead)|alternatively|substitut\w*)")
_AGAIN = (r"(?:re-?attempt|re-?try|retry|re-?run|re-?submit|re-?send|re-?issue|re-?execute|re-?perform|re-?process|repeat)")
_ONCE = r"(?:once\s+only|only\s+once|on\s+(?:one|a\s+single)\s+occasion(?:\s+only)?|one\s+time\s+only|a\s+single\s+time\s+only)"

EARLY: tuple[Row, ...] = (
    # "the Provider shall instead employ `manual-dispatch`", "shall in lieu thereof apply `paper-ledger`": the fallback
    Row("use_skill", r"(?<!\w)" + _MODAL + r"\s+(?:" + _INSTEAD + r"\s+)?" + _APPLY + r"\s+(?:the\s+)?{NAME}", needs=_FAILED),
    # "may re-attempt it up to 4 further times", "on not more than 2 additional occasions": that many retries
    Row("retries", r"(?<!\w)" + _AGAIN + r"\w{0,4}+\s+(?:(?:it|them|this|that|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?)\s+)?"
        r"(?:on\s+)?(?:up\s+to|not\s+more\s+than|no\s+more\s+than|a\s+maximum\s+of|at\s+most)\s+{N}\s+(?:further|additional|"
        r"more|subsequent|successive)\s+(?:times|occasions)\b"),
    # "waiting 5 seconds before the first re-attempt and doubling that interval": where the backoff starts
    Row("exp_start", r"(?<!\w)(?:waiting|pausing|sleeping|allowing|holding\s+off|leaving)\s+(?:for\s+)?(?:a\s+period\s+of\s+)?{D}\s+"
        r"(?:before|prior\s+to)\s+the\s+first\s+(?:re-?attempt|retry|re-?try|re-?submission|resubmission|attempt|re-?run|"
        r"repetition)\b(?=[^.;]{0,60}?(?<!\w)(?:doubl|tripl|quadrupl))"),
    # "shall be raised once only", "may be invoked on one occasion only": no retry (not "once only per day")
    Row("no_retry", r"(?<!\w)" + _MODAL + r"\s+(?:be\s+)?(?:[a-z-]{2,20}+\s+)?" + _ONCE + r"(?!\s+(?:per|a|an|each|every|in|daily)\b)"),
    # "shall not be re-issued by automatic means", "is not to be resubmitted under any circumstances": no retry
    Row("no_retry", r"(?<!\w)(?:shall|will|must|may|is|are)\s+not\s+(?:to\s+)?(?:be\s+)?" + _AGAIN + r"\w{0,4}+\b",
        needs=r"automatic|any\s+circumstances|any\s+event|whatever|no\s+matter|fail\w*|error\w*"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|instead|lieu|stead|alternativ|recourse|resort|shall|will|must|may|further|additional|occasion|successive|"
             r"waiting|pausing|allowing|once|one\s+time|single",
}

_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
_LAST_WORD = _rx(r"(?i)(?<![\w-])([a-z]{3,9}+)[ \t]*+$")
_PAREN_DIGITS = _rx(r"^\((\d{1,3}+)\)$")


def doubled_numeral(before: str, label: str) -> bool:
    """Whether an outline label `label` ("(4)") opening a line is the digits of the number word that
    ends the line before it (`before`, "... up to four"): the legal way of writing a number twice."""
    digits, word = _PAREN_DIGITS.match(label.strip()), _LAST_WORD.search(before)
    if digits is None or word is None:
        return False
    said = word.group(1).lower()
    return int(digits.group(1)) == NUMBER_WORDS.get(said, _TENS.get(said, -1))


# the words a name ends with that say its unit, not what it is: "the invoice total" is `invoice_total_usd`
UNIT_TAILS = frozenset({"usd", "eur", "gbp", "cad", "aud", "chf", "jpy", "pct", "percent", "s", "ms", "sec", "secs",
                        "min", "mins", "kg", "km", "cm", "mm"})
_DONE_AUX = _rx(r"(?i)^\W{0,3}+(?:has|have|had|shall\s++have|will\s++have)\s++(?:now\s++|duly\s++)?been\s++")


def done_aux(tail: str) -> str:
    """What follows an output's name in a success check without "has been" ("an invoice reference has
    been issued": "issued"), so the words of its state are read as when written bare."""
    return _DONE_AUX.sub("", tail, count=1)


# "Concurrently with C.2 and without awaiting its outcome", "simultaneously with clause 4.1": a step started
# beside the one the clause number labels
_WITH_CLAUSE = _rx(r"(?i)(?<![\w-])(?:concurrently|simultaneously|contemporaneously|in\s++parallel|at\s++the\s++same\s++time)"
                   r"\s++with\s++(?:clause\s++|section\s++|paragraph\s++|item\s++|§\s*+)?"
                   r"(?P<ref>(?-i:[A-Z])\.?\d{1,3}+(?:\.\d{1,3}+){0,3}+|\d{1,3}+(?:\.\d{1,3}+){1,3}+)(?![\w-]|\.\d)")
_NEGATED = _rx(r"(?i)(?<![\w-])(?:not|never|n['’]t)\s++(?:be\s++)?(?:\w++\s++)?(?:concurrently|simultaneously|"
               r"contemporaneously|in\s++parallel|at\s++the\s++same\s++time)(?![\w-])")
_LABEL = _rx(r"^\W{0,3}+(?:clause\s++|section\s++|§\s*+)?(?P<label>[A-Za-z]?\.?\d{1,3}+(?:\.\d{1,3}+){0,3}+)[.):]?(?:\s|$)")


def clause_label(text: str) -> str | None:
    """The clause number a step's heading or first line opens with ("C.2 Insurance." -> "c.2"), else None."""
    m = _LABEL.match(text)
    return m.group("label").lower().rstrip(".") if m is not None else None


def beside_clause(sentence: str, earlier: Sequence[StepSpec], line_of: Callable[[StepSpec], str]) -> StepSpec | None:
    """The one earlier step a sentence says this one runs concurrently with, by the clause number that
    labels it ("Concurrently with C.2 and without awaiting its outcome"), else None. `line_of` gives a
    step's first line (its label is read from it, or from its name)."""
    m = _WITH_CLAUSE.search(sentence)
    if m is None or _NEGATED.search(sentence):
        return None
    ref = m.group("ref").lower()
    hits = [s for s in earlier if ref in (clause_label(s.name), clause_label(line_of(s)))]
    return hits[0] if len(hits) == 1 else None


_REF = r"(?:(?-i:[A-Z])\.?\d{1,3}+(?:\.\d{1,3}+){0,3}+|\d{1,3}+(?:\.\d{1,3}+){1,3}+)"
# "Following C.2 and C.4 the Lender shall ...", "Upon completion of clause 3.1, ...": the clauses the step waits for
_AFTER_CLAUSES = _rx(r"(?i)^\W{0,3}+(?:following|after|upon\s++(?:the\s++)?completion\s++of|on\s++(?:the\s++)?completion\s++of|"
                     r"subsequent\s++to|further\s++to)\s++(?:clauses?\s++|sections?\s++|paragraphs?\s++)?"
                     r"(?P<refs>" + _REF + r"(?:\s*+(?:,|and|&)\s*+(?:and\s++)?(?:clause\s++)?" + _REF + r"){0,5}+)"
                     r"(?![\w-]|\.\d)")
_ONE_REF = _rx(_REF)
_RANGE_END = _rx(r"(?i)\s*+(?:to|through|until|-|–)\s*+(?:clauses?\s++|sections?\s++)?(?P<ref>" + _REF + r")(?![\w-]|\.\d)")


def read_clause_order(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each whose own text opens a sentence with "Following C.2 and C.4" (clause numbers that
    label earlier steps, every one of them) made to wait for those steps, read and warned at the line.
    A step that already says what it waits for is left alone."""
    if len(steps) < 2:
        return steps
    out = list(steps)
    for index in range(1, len(out)):
        step = out[index]
        if step.depends_on or step.depends_where is not None or step.starts_with is not None:
            continue
        for text in step.texts:
            m = _AFTER_CLAUSES.match(text.text)
            if m is None:
                continue
            found: list[StepSpec] = []
            for ref in _ONE_REF.findall(m.group("refs")):
                hits = [s for s in out[:index] if ref.lower() in (clause_label(s.name), clause_label(
                    src.line_text(_first_line(s))))]
                if len(hits) != 1:
                    found = []
                    break
                found.append(hits[0])
            if found and (upto := _RANGE_END.match(text.text, m.end())) is not None:  # "Clauses 4.3 to 4.5": each between
                last = [s for s in out[:index] if upto.group("ref").lower() in (clause_label(s.name), clause_label(
                    src.line_text(_first_line(s))))]
                a, b = out.index(found[-1]), out.index(last[0]) if len(last) == 1 else -1
                found = [*found[:-1], *out[a:b + 1]] if a <= b else []
            if not found:
                continue
            ids = tuple(dict.fromkeys(s.id for s in found))
            where, said = src.where(text.line), " ".join(text.text.split())
            note = f"depends on {', '.join(ids)} (the clause numbers that label them)"
            src.warn(text.line, f"{step.id} ({step.name[:50]}): '{said[:80]}' read as: {note}", "spec.parallel")
            out[index] = step.model_copy(update={
                "depends_on": ids, "depends_where": where, "readings": (*step.readings, Reading(what="depends_on", where=where, text=said[:160],
                                                                         note=note))})
            break
    return out


def _first_line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


_rx.save()
