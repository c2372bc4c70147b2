"""An approval scoped by an amount, and a person's wait that is no retry (round 55).

    anything over £900 Kev has to OK first (WhatsApp him), wait 30 mins for him
    for jobs over $1,200 the owner signs off; give her an hour
    if it's more than 500 the manager must approve - wait up to 2 hours for her answer

- `over_said(sentence)`: the amount an approval's sentence scopes it by ("anything over £900", "for jobs over
  $1,200", "if it's more than 500", "orders above €50", "anything of 2k or more") as (operator, amount, the words
  read); None when it says none. A number with a unit that is no money ("boats over 12 m", "over 30 mins") is none.
- `amount_field(refs)`: of a step's inputs bound to an earlier step's output or the run's input (`input_refs`), the
  one whose name carries a price, total, amount, cost, fee, ... (`q.price`); None when there is none or more than
  one (the reader warns: ambiguous, asked on every run).
- `person_wait(text)`: a wait said of a person's answer ("wait 30 mins for him", "wait an hour for her reply",
  "waiting 2 hours on the owner's OK"): the approval's bound, never the step's retry.
- `pronoun_scope(cond)`: an approval's "for ..." that names a person ("for him", "for them to answer"): no
  condition of the step.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:
    from orchestrator.policy import ApprovalPolicy
    from orchestrator.spec.model import StepSpec
    from orchestrator.spec.source import Source

_rx = Patterns(__name__)

_NUM = r"(?:[£$€]\s*+)?(?P<n>\d{1,9}+(?:,\d{3}+){0,3}+(?:\.\d{1,2}+)?+)(?:\s*+(?P<k>k|grand)\b)?"
# "anything over £900", "for jobs over $1,200", "if it's more than 500", "orders above €50", "where it exceeds 2k"
_OVER = _rx(r"(?i)(?:^|[\s(,;:#-])(?:anything|any\s++\w++|everything|(?:for|on)\s++(?:\w++\s++)?\w++|[A-Za-z]{1,20}s|"
            r"(?:if|when|where|once)\s++(?:it|the\s++\w++|that)(?:['’]s|\s++is|\s++comes\s++to|\s++goes)?)\s++"
            r"(?P<op>over|above|more\s++than|greater\s++than|exceeds|exceeding|in\s++excess\s++of|>)\s*+" + _NUM
            + r"(?P<after>\s*+[a-z]{1,12}+)?")
# "anything of £2,000 or more", "£500 and up"
_OR_MORE = _rx(r"(?i)(?:^|[\s(,;:#-])(?:anything|any\s++\w++|(?:for|on)\s++(?:\w++\s++)?\w++|[A-Za-z]{1,20}s)\s++(?:of|at)\s++"
               + _NUM + r"\s++(?:or|and)\s++(?:more|over|above|up(?:wards)?)\b")
_MONEY_AFTER = frozenset({"pounds", "quid", "dollars", "euros", "bucks", "gbp", "usd", "eur", "pound", "dollar",
                          "euro", "total", "spend", "quote", "job", "jobs", "kev", "the", "and", "or", "then",
                          "needs", "need", "must", "has", "have", "goes", "go", "gets", "get"})
_MONEY_WORDS = frozenset({"price", "total", "amount", "cost", "fee", "fees", "quote", "sum", "charge", "bill",
                          "subtotal", "spend", "invoice", "value", "gross", "net", "pounds", "dollars", "euros",
                          "gbp", "usd", "eur", "due", "owed", "payable"})
# "wait 30 mins for him", "wait an hour for her reply", "waiting 2 hours on the owner's OK", "wait a day for an answer"
_PERSON_WAIT = _rx(r"(?i)\bwait(?:s|ing)?+\s++(?:up\s++to\s++|max\.?\s++|at\s++most\s++)?(?P<d>(?:\d{1,6}+(?:\.\d{1,3}+)?+"
                   r"|an?|one|half\s++an?)\s*+[a-z]{1,8}+)\s++(?:for|on)\s++(?:him|her|them|me|us|you|their|his|"
                   r"(?:an?|the|(?:the\s++)?+\w{1,20}+['’]s)\s++(?:answer|reply|response|ok|go-ahead|sign-?off|yes)\b|"
                   r"(?-i:[A-Z][a-z]{1,20}+)\b)")
_PRONOUN = _rx(r"(?i)^\s*+(?:him|her|them|me|us|you)\b")


def _amount(m: re.Match[str]) -> float:
    n = float(m.group("n").replace(",", ""))
    return n * 1000 if m.group("k") else n


def over_said(sentence: str) -> tuple[str, float, str] | None:
    """(operator, amount, words) of an amount an approval is scoped by (module docstring); None when none."""
    for m in _OVER.finditer(sentence):
        after = (m.group("after") or "").strip().lower()
        currency = bool(re.search(r"[£$€]", m.group(0)))
        if after and not currency and not m.group("k") and after not in _MONEY_AFTER:
            continue  # "boats over 12 m", "over 30 mins": a length, a time
        end = m.end("k") if m.group("k") else m.end("n")
        return ">", _amount(m), " ".join(sentence[m.start():end].split()).strip("(,;:#- ")
    more = _OR_MORE.search(sentence)
    if more is not None:
        return ">=", _amount(more), " ".join(more.group(0).split()).strip("(,;:#- ")
    return None


def _money(name: str) -> bool:
    return any(w in _MONEY_WORDS for w in re.split(r"[_\W]+", name.lower()) if w)


def amount_field(refs: Mapping[str, str]) -> str | None:
    """The one reference among `refs` (input name -> reference) whose name says an amount of money; None else."""
    found = {ref for name, ref in refs.items() if _money(name) or _money(ref.rsplit(".", 1)[-1])}
    return next(iter(found)) if len(found) == 1 else None


def money_fields(refs: Mapping[str, str]) -> list[str]:
    """Every reference among `refs` whose name says an amount of money (for the warning that says them)."""
    return sorted({ref for name, ref in refs.items() if _money(name) or _money(ref.rsplit(".", 1)[-1])})


def over_condition(sentence: str, refs: Mapping[str, str]) -> tuple[str | None, str] | None:
    """(the condition, the words read) for an approval scoped by an amount: `q.price > 900`; (None, words) when the
    amount is said but no one field carries it; None when no amount is said."""
    said = over_said(sentence)
    if said is None:
        return None
    op, amount, words = said
    field = amount_field(refs)
    return (f"{field} {op} {amount:g}" if field is not None else None), words


def person_wait(text: str) -> str | None:
    """The words of a wait said of a person's answer ("wait 30 mins for him"); None when there is none."""
    m = _PERSON_WAIT.search(text)
    return m.group(0) if m is not None else None


def pronoun_scope(cond: str) -> bool:
    """Whether an approval's "for ..." names a person ("for him # no reply ..."), no condition."""
    return _PRONOUN.match(cond) is not None



def source_refs(fields: object) -> dict[str, str]:
    """A step's input fields (`FieldSpec`s) bound to an earlier step's output, to the reference a condition names
    them by (`steps.q.output.price` -> `q.price`)."""
    refs: dict[str, str] = {}
    for f in fields if isinstance(fields, tuple | list) else ():
        got = re.fullmatch(r"steps\.([\w-]{1,80})\.output\.([\w.]{1,80})", str(getattr(f, "source", None) or ""))
        if got is not None:
            refs[str(getattr(f, "name", ""))] = f"{got.group(1)}.{got.group(2)}"
    return refs


def scoped_by_amount(policy: ApprovalPolicy, when: str | None, sentence: str, step: StepSpec,
                     earlier: list[StepSpec], src: Source, line: int) -> tuple[ApprovalPolicy, str | None]:
    """The approval `policy` of `step` with its condition an amount said in `sentence` compared with the money
    field of its inputs (else of an earlier step's inputs), and that condition; as it was when no amount is said
    or another reading named its field already; the amount said but no one field carrying it: warned, no condition
    (the approval is asked on every run)."""
    if when is not None and over_said(when) is None:
        return policy, when  # a condition read another way, with no amount of its own ("total > 500")
    refs = source_refs(step.inputs)
    if not money_fields(refs):
        refs = {k: v for s in earlier for k, v in source_refs(s.inputs).items()}
    over = over_condition(sentence, refs)
    if over is None:
        return policy, when
    cond, words = over
    if cond is None and when is not None and not refs:
        # "anything above 5,000" read already and no step's bindings known yet: the planner finds its field (holdout2 17)
        return policy, when
    if cond is None:
        fields = money_fields(refs)
        src.warn(line, f"{step.id}: the approval's '{words}' names no one value to compare: "
                       + (f"{', '.join(fields)} each carry an amount" if fields else "no input of the step or an "
                          "earlier step's names a price, total or amount")
                       + "; so the approval is asked on every run; write `Approval: required if <field> > <value>`",
                 "spec.approval-condition")
        return policy.model_copy(update={"when": None}), None
    return policy.model_copy(update={"when": cond}), cond


def drop_person_waits(src: Source, sid: str, first: int, last: int) -> None:
    """Take from the sentences read as `sid`'s policies on lines `first`..`last` (an approval's block) a wait said
    of the person ("wait 30 mins for him"): the approval's bound, no retry; a sentence saying nothing else is
    dropped, one saying a retry count or more keeps the rest."""
    from orchestrator.spec.whole_doc import line_of

    kept = []
    for r in src.readings:
        n = line_of(r.where) or 0
        s = r.statement
        if (first <= n <= last and (sid in r.steps or not r.steps) and s.wait is not None and s.retries is None
                and s.max_attempts is None and person_wait(r.text) is not None):
            s = s.model_copy(update={"wait": None})
            if s.model_copy(update={"applies_to": None}).is_empty():  # "if it's over 500 ...": no failure's rule
                continue
            r = r.model_copy(update={"statement": s})
        kept.append(r)
    src.readings[:] = kept


def read_as_steps(src: Source, first: int, last: int, sids: list[str]) -> int | None:
    """The index in `sids` of the one step the sentences read on lines `first`..`last` were read as said of (a
    task's own `#` comment under it); None when they name none or more than one."""
    from orchestrator.spec.whole_doc import line_of

    named = {sid for r in src.readings if first <= (line_of(r.where) or 0) <= last for sid in r.steps}
    return sids.index(next(iter(named))) if len(named) == 1 and next(iter(named)) in sids else None


def with_person_wait(policy: ApprovalPolicy, text: str) -> ApprovalPolicy:
    """`policy` bounded by a wait said of the person in `text` ("wait an hour for her") when no other reading
    bounded it; as it was otherwise."""
    from orchestrator.spec.approval_scope54 import _seconds

    m = _PERSON_WAIT.search(text)
    seconds = _seconds(m.group("d")) if m is not None else None
    return policy if policy.timeout_s is not None or seconds is None else policy.model_copy(
        update={"timeout_s": seconds})


def flag_read_approvals(steps: tuple[StepSpec, ...], src: Source) -> None:
    """Warn each sentence of a step's own text read as a policy ("if it's more than 500 the boss has to sign off,
    wait 2 hours for him" -> a 7200 s wait) that asks a person's approval the step has none of: the approval is not
    read (`approval_hold.hold_unread_approvals` then holds the step for it, warned)."""
    from orchestrator.spec.approval_hold import _approval_sentence
    from orchestrator.spec.whole_doc import line_of

    bare = {s.id for s in steps if s.approval is None and not any(r.what == "approval" for r in s.readings)}
    for r in src.readings:
        if r.section == "step" and len(r.steps) == 1 and r.steps[0] in bare and (n := line_of(r.where)) and \
                _approval_sentence(r.text) is not None:
            src.warn(n, f"{r.steps[0]}: '{r.text[:80]}' asks a person's approval, not read with its policy",
                     "spec.policy-partial")
            bare.discard(r.steps[0])


_rx.save()
