"""A person's approval said in text that no reader took: the step it guards waits for it, warned.

    - moving more than 40 crates in one go? the yard boss OKs it first. no answer in 20 min = load anyway
    If we end up singing more than 6 pieces, the director must sign off before anything gets printed.
    <aside> ⚠️ The skipper has to approve before we sail. </aside>

Readers that do not know a line warn "not read" and drop it. When the dropped text says a person
approves (`condition.approval_sentence`, or a person who "OKs it first" / "agrees to it first"), dropping
it would let the step run without the yes the author asked for: the worst misreading. So after every
reader ran (`spec._finish`), each such warning's text is read again here (`hold_unread_approvals`):

- the step it guards: the one the warning names ("step-5: bullet ... not read"), else the one step the
  words after "before" name by its title or skill ("before anything gets printed" -> `print-programmes`),
  else the one step any of its words name ("the laptop costs ..." -> "Order a laptop"), else the first
  step (nothing runs before the person says yes);
- its condition, as an approval's (`condition.approval_condition`, a question in front of the person:
  "over 30 knots? the master OKs it first", a scope said after it dropped: "in one go", "on the same
  day"): the step then waits only when it holds; a condition the planner cannot place makes it wait on
  every run, warned (`plan.dataflow`);
- its wait and what silence means (`condition.approval_timeout`; none said: wait with no limit).

The "not read" warning is replaced by one that says what was read and how to write it plainly.
"""

from __future__ import annotations

import re
from typing import Literal

from orchestrator.errors import Diagnostic
from orchestrator.policy import ApprovalPolicy
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.whole_doc import line_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# warnings that drop text: their lines may hold an approval no reader took
_UNREAD_CODES = frozenset({"spec.unread", "spec.unknown-label", "spec.unknown-section", "spec.unread-work",
                           "spec.unclassified", "spec.policy-unread", "spec.policy-partial", "spec.yaml"})
_UNREAD_WORDS = ("not read", "not understood", "ignored", "kept for review", "unread")

# a person who OKs it before the step goes on: "the on-call haematologist OKs it first", "agrees to it first"
_FIRST = _rx(r"(?i)(?<![\w-])(?:(?-i:OK)s?|okays?|approves?|signs?\s++(?:it\s++|this\s++)?off(?:\s++on\s++it)?|"
             r"agrees?(?:\s++to\s++(?:it|this|that))?|consents?(?:\s++to\s++(?:it|this|that))?)\s++"
             r"(?:it\s++|this\s++|them\s++)?(?:first|beforehand|in\s++advance)(?![\w-])")
# a question in front of the person: "wind over 30 knots? the master OKs it first"
_QUESTION = _rx(r"^\W*+(?P<cond>[^?.;]{3,120}+)\?\s++(?=\S)")
# the scope said after a count, meaning this run: "in one go", "on the same day", "at once", "per run"
_SCOPE = _rx(r"(?i)(?<!\s)\s++(?:in\s++(?:one|a\s++single)\s++(?:go|day|run|batch|trip|load)|on\s++(?:the\s++same|the|one|a\s++single)\s++"
             r"(?:day|night|run|trip)|at\s++(?:once|one\s++time)|per\s++run|this\s++time|today|tonight)\s*+$")
_BEFORE = _rx(r"(?i)(?<![\w-])before\s++(?P<what>[^.;,:()]{1,80}+)")
_TAG = _rx(r"</?[A-Za-z][^<>]{0,200}+>")
_LIST = _rx(r"^\s*+(?:[-*+]|\d{1,3}+[.)])\s")
_SENTENCE = _rx(r"(?<=[.!;])\s++(?=\S)(?!\d)")  # "radio ch. 3 before we plan": one sentence
_STEP_ID = _rx(r"^(?P<sid>step-[\w-]{1,40}+)[:\s(]")
_WORD = _rx(r"[A-Za-z]{3,}+")
# time given a person to answer: "Give her 3 hours", "She has 2 days to answer", "no reply within 1h"
_PERSON_TIME = _rx(r"(?i)(?<![\w-])(?:give|allow)\s++(?:her|him|them|the\s++\w++|\w++)\s++(?:an?\s++|\d)|(?<![\w-])(?:answer|reply|"
                   r"replied|respond|responds|response|hear\s++back)(?![\w-])")
# the name of an amount a step is given: `total`, `amount_eur`, `order_value`, `price`
_AMOUNT = _rx(r"(?i)(?:^|_)(?:total|amount|sum|value|cost|price|subtotal)(?:_|$)")
# where what is said before an approval's cue starts: after "that", a colon, a dash, a stop
_LEAD_IN = _rx(r"(?i)(?<![\w-])that\s++|[:;—–]\s*+|\.\s++")
_ARROW = _rx(r"(?:→|->|=>|⇒)")
_IF = _rx(r"(?i)(?<![\w-])(?:if|when|whenever|unless|where)(?![\w-])|\?")
_BRACKET = _rx(r"\([^()\n]{0,40}+\)")
_LEAD_IF = _rx(r"(?i)^\W*+(?:if|when|where|whenever)\s++(?P<c>(?:[^,;.]|(?<=\d)[,.](?=\d)){3,120}+),")

_IRREGULAR = {"sent": "send", "sold": "sell", "paid": "pay", "made": "make", "bought": "buy", "went": "go",
              "gone": "go", "done": "do", "written": "write", "wrote": "write", "built": "build", "told": "tell",
              "shown": "show", "kept": "keep", "left": "leave", "chosen": "choose", "given": "give", "run": "run"}
_NOT_NAMING = frozenset({"the", "and", "anything", "any", "everything", "something", "all", "gets", "get", "got",
                         "goes", "going", "been", "being", "are", "was", "were", "its", "this", "that", "them",
                         "they", "out", "off", "into", "onto", "with", "from", "for", "our", "your", "their",
                         "has", "have", "had", "will", "would", "can", "could", "should", "step", "steps", "one",
                         "ever", "start", "starts", "started", "starting", "go", "then", "first"})


# a person who approves before the work goes on: "the director approves on radio before we plan"
_APPROVES_BEFORE = _rx(r"(?i)(?<![\w-])(?:(?-i:OK)s|okays|approves|signs\s++off|gives\s++(?:the\s++)?(?:ok|go-?ahead))"
                       r"(?![\w-])(?:[^.;?!]|\.(?=\s?\d))(?:[^.;?!]|\.(?=\s?\d)){0,59}?(?<![\w-])before\s++(?:we|you|they|anyone|anything|the|it|i)(?![\w-])")


def approves_before(sentence: str) -> re.Match[str] | None:
    """The words of a person who approves before the work goes on ("approves by phone before we book")."""
    return _APPROVES_BEFORE.search(sentence)


def first_cue(sentence: str) -> bool:
    """Whether a sentence says a person OKs (approves, signs off, agrees to) it first, or before the
    work goes on ("the director approves on the radio before we plan")."""
    return _FIRST.search(sentence) is not None or _APPROVES_BEFORE.search(sentence) is not None


def condition_in_scope(text: str) -> str | None:
    """An approval's condition that reads once a scope said after it is dropped ("we would be picking
    more than 2 blocks on the same day" -> "we would be picking more than 2 blocks"), or one asked as a
    question in front of the person ("wind over 30 knots? the master OKs it first"); None otherwise."""
    from orchestrator.spec.condition import read_condition

    q = _QUESTION.match(text)
    said = q.group("cond") if q is not None else None
    if said is None:
        lead = _LEAD_IF.match(text)  # "if the total is over 5,000, ...": a number's separators are no clause's end
        said = lead.group("c") if lead is not None else None
    if said is None:
        return None
    tries = [said.strip(), _SCOPE.sub("", said.strip())]
    cue = _FIRST.search(said)
    if cue is not None:  # "if the total is over 5,000 Gary (accounts) OKs it first": up to the person's name
        words = _BRACKET.sub(" ", said[:cue.start()]).split()
        tries += [" ".join(words[:-drop]) for drop in range(1, min(6, len(words) - 1))]
    for text_ in tries:
        if text_ and read_condition(text_) is not None:
            return text_
    return None


def own_list_count(when: str, lists: list[str]) -> str | None:
    """An approval's condition that counts things ("picking more than 2 blocks": `block count > 2`) as the
    length of the one list the guarded step is given whose name holds them (`ready_blocks | length > 2`);
    None when it counts nothing or no list, or several, are so named."""
    from orchestrator.spec.condition import read_condition

    read = read_condition(when)
    if read is None or read.expression is not None or len(read.clauses) != 1 or read.negated:
        return None
    clause = read.clauses[0]
    if clause.kind != "compare" or clause.subject[-1:] != ("count",) or clause.other or clause.step is not None:
        return None
    if not isinstance(clause.value, int | float) or isinstance(clause.value, bool):
        return None
    said = {_stem(w) for w in clause.subject[:-1]}
    named = [n for n in lists if said and said <= _stems(n.replace("_", " "))]
    return f"{named[0]} | length {clause.op} {clause.value!r}" if len(named) == 1 else None


_IT_COUNT = _rx(r"(?i)^\W*+(?:(?:if|when|where)\s++)?+(?:it(?:'s|’s|\s++is|\s++comes\s++to)|there\s++are)\s++"
                r"(?P<op>more\s++than|over|above|at\s++least|fewer\s++than|less\s++than|under)\s++(?P<n>\d{1,6}+)"
                r"(?:\s++[A-Za-z]++)?+\W*+$")
_IT_OP = {"more": ">", "over": ">", "above": ">", "at": ">=", "fewer": "<", "less": "<", "under": "<"}


def it_count(when: str, lists: list[str]) -> str | None:
    """An approval's condition whose subject is the step's own batch ("if it's more than 5 books", "when
    there are over 20 rows"): the length of the one list the guarded step is given (`barcodes | length > 5`),
    not a count some earlier step gives of something else; None when it says more, or the step is given
    no list or several."""
    m = _IT_COUNT.match(when)
    if m is None or len(lists) != 1:
        return None
    return f"{lists[0]} | length {_IT_OP[m.group('op').split()[0].lower()]} {int(m.group('n'))}"


def person_wait(sentence: str) -> tuple[float, Literal["approve", "reject"], bool] | None:
    """The wait said for a person's answer after the approval's own sentence ("Give her 3 hours.", "She has
    2 days to answer"): (seconds, what silence means, whether that was said); a silence not said is a no,
    the run does not go on without the yes. None when the sentence gives no person time to answer."""
    from orchestrator.spec.condition import approval_timeout

    if _PERSON_TIME.search(sentence) is None:
        return None
    seconds, then = approval_timeout(sentence)
    if seconds is None:  # "Give me 10 min.": asked in the first person (`spec.h25_left33`)
        from orchestrator.spec.h25_left33 import asked_time

        seconds = asked_time(sentence)
    return (seconds, then or "reject", then is not None) if seconds is not None else None


def own_amount(when: str, names: list[str]) -> str | None:
    """An approval's condition that sets an amount against a thing no value is named for ("anything above
    5,000", "refunds over 300") as the one amount the guarded step is given (`total > 5000`); None when it
    is no such comparison, or the step is given no amount, or several."""
    from orchestrator.spec.condition import read_condition

    read = read_condition(when)
    if read is None or read.expression is not None or len(read.clauses) != 1 or read.negated:
        return None
    clause = read.clauses[0]
    if (clause.kind != "compare" or len(clause.subject) != 1 or clause.other or clause.step is not None
            or clause.op not in (">", ">=", "<", "<=") or not isinstance(clause.value, int | float)
            or isinstance(clause.value, bool)):
        return None
    amounts = [n for n in names if _AMOUNT.search(n)]
    return f"{amounts[0]} {clause.op} {clause.value!r}" if len(amounts) == 1 else None


def unplaced_approval(sid: str, name: str, when: str, why: str) -> str:
    """The warning for an approval whose condition names no value the planner can place."""
    return (f"{sid} ({name}): approval condition '{when.strip()[:100]}' is not read ({why.rstrip('.')}), so the "
            "approval is asked on every run, never on none; to say when, write `Approval: required if <field> > "
            "<value>` with the name of the value it compares")


def _stem(word: str) -> str:
    w = _IRREGULAR.get(word.lower(), word.lower())
    for suffix in ("ing", "ed", "es", "s", "e"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    return w[:-1] if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou" else w  # "shipped" -> "ship"


def _stems(text: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in _WORD.findall(text) if w.lower() not in _NOT_NAMING)


def _block(src: Source, line: int) -> tuple[str, int, int]:
    """The text of the block a warning names from `line` on: up to a blank line, the next list item or
    the next message of a chat export (at most 10 lines), its tags and a message's date and sender
    dropped; and the line the approval is on (the first with text)."""
    from orchestrator.spec.chat_export import message_text

    parts: list[str] = []
    first = last = line
    opening = src.line_text(line)
    tabs = len(opening) - len(opening.lstrip("\t"))  # a slide outline's bullet: with its own sub-bullets only
    for number in range(line, min(line + 10, len(src.lines) + 1)):
        raw = src.line_text(number)
        message = message_text(raw)  # "12/05/2025, 09:16 - Nkechi: ...": a message is a block of its own
        if message is not None and number > line:
            break
        raw = raw if message is None else message
        deeper = len(raw) - len(raw.lstrip("\t")) > tabs
        if not raw.strip() or (number > line and (_LIST.match(raw) or ((raw.startswith("\t") or tabs) and not deeper))):
            break
        last = number
        text = _TAG.sub(" ", raw).strip()
        if text and not parts:
            first = number
        if text:
            parts.append(text)
    return " ".join(" ".join(parts).split()), first, last


def _approval_sentence(text: str) -> str | None:
    from orchestrator.spec.condition import approval_sentence

    for sentence in _SENTENCE.split(text):
        if approval_sentence(sentence) or first_cue(sentence):
            return sentence
    return None


def _guarded(message: str, sentence: str, steps: list[StepSpec]) -> tuple[int, str]:
    """The index of the step an approval guards and how it was chosen (module docstring)."""
    m = _STEP_ID.match(message)
    for index, step in enumerate(steps):
        if m is not None and step.id == m.group("sid"):
            return index, "the step whose text it is in"
    before = _BEFORE.search(sentence)
    if before is not None:
        named = [i for i, s in enumerate(steps) if s.skill and s.skill.strip("`* ") in before.group("what")]
        if len(named) == 1:
            return named[0], f"the step whose skill its words '{before.group(0).strip()}' name"
        said = _stems(before.group("what"))
        hits = [i for i, s in enumerate(steps) if said & _stems(f"{s.name} {s.skill or ''}")]
        if len(hits) == 1:
            return hits[0], f"the step its words '{before.group(0).strip()}' name"
    said = _stems(sentence)
    hits = [i for i, s in enumerate(steps) if said & _stems(f"{s.name} {s.skill or ''}")]
    if len(hits) == 1:
        return hits[0], f"the one step its words name ({', '.join(sorted(said & _stems(steps[hits[0]].name + ' ' + (steps[hits[0]].skill or ''))))})"
    return 0, "the first step, as it names no step (nothing runs before the person says yes)"


def _before_cue(sentence: str) -> str | None:
    """"Our rule is that anything above 5,000 needs the lead to say yes": the words before the approval's
    cue, after a lead-in ("that", a colon), when they read as a condition ("anything above 5,000")."""
    from orchestrator.spec.condition import _APPROVE, read_condition
    from orchestrator.spec.whole_approval import said_cue

    cue = _APPROVE.search(sentence) or said_cue(sentence) or _FIRST.search(sentence) or _APPROVES_BEFORE.search(sentence)
    if cue is None:
        return None
    head = sentence[: cue.start()]
    start = max((m.end() for m in _LEAD_IN.finditer(head)), default=0)
    arrow = _ARROW.search(head, start)  # "Level 4+ → the director approves": what comes before the arrow
    said = " ".join(head[start:arrow.start() if arrow is not None else len(head)].split()).strip(" ,;:")
    if not said or len(said.split()) > 8 or _IF.search(said):
        return None
    found = read_condition(said)
    return said if found is not None and any(c.kind == "compare" and c.value is not None for c in found.clauses) else None


def _policy(text: str, sentence: str, src: Source) -> tuple[ApprovalPolicy, str | None]:
    """The approval said in `text` (its block) around `sentence`: its policy, and its condition or None."""
    from orchestrator.spec.approval_scope54 import scope_condition, scope_said
    from orchestrator.spec.approve39 import (
        compared,  # "If more kids signed up than the room has seats"
    )
    from orchestrator.spec.condition import approval_condition, approval_timeout

    when = approval_condition(sentence)[0] or condition_in_scope(sentence) or _before_cue(sentence)
    if when is None and (scope := scope_said(sentence)) is not None:  # "RED band only: ..." (`spec.approval_scope54`)
        when = scope_condition(scope)
    if when is None and (two := compared(_TAG.sub(" ", sentence).strip(), src.vocabulary)) is not None:
        when = two[0]  # a guess: the hold's warning says it at the line
    at = text.find(sentence)
    seconds, then = approval_timeout(text[at:] if at >= 0 else text)
    return ApprovalPolicy(timeout_s=seconds, on_timeout=then or "reject", when=when), when


def approval_in(text: str, src: Source) -> tuple[ApprovalPolicy, str, str | None] | None:
    """The approval a step's own comment block says (a script runbook's, `spec.script_runbook`): its policy, the
    sentence that asks for it and its condition; None when the block asks for no person's approval."""
    sentence = _approval_sentence(text)
    if sentence is None:
        return None
    policy, when = _policy(text, sentence, src)
    return policy, sentence, when


_FROM_LINE = 500  # characters: a sentence read from a line that starts inside it (`approval_in_run`)


def approval_in_run(texts: list[str], src: Source) -> tuple[int, tuple[ApprovalPolicy, str, str | None]] | None:
    """The approval a run of adjacent comment lines asks for (`approval_in`) and the index of the line its block
    starts at: the run read whole (block: all of it), else the sentence begun on an earlier line read from each later
    line (block: that line on; up to `_FROM_LINE` characters of it). Every other sentence of such a block was read
    with the run already: linear in the run's length, a run of thousands of lines included."""
    found = approval_in(" ".join(texts), src)
    if found is not None:
        return 0, found
    for k in range(1, len(texts)):
        if _SENTENCE.search(f"{texts[k - 1].rstrip()[-1:]} {texts[k].lstrip()[:1]}"):
            continue  # line k starts a sentence: read with the run
        head: list[str] = []
        size = 0
        for t in texts[k:]:
            head.append(t)
            size += len(t) + 1
            if size >= _FROM_LINE or _SENTENCE.search(t):
                break
        sentence = _approval_sentence(_SENTENCE.split(" ".join(head), maxsplit=1)[0])
        if sentence is not None:
            text = " ".join(texts[k:])
            policy, when = _policy(text, sentence, src)
            return k, (policy, sentence, when)
    return None


def hold_unread_approvals(steps: tuple[StepSpec, ...], src: Source) -> tuple[StepSpec, ...]:
    """`steps` with an approval on each step that dropped text says a person must give (module docstring)."""
    from orchestrator.spec.approval_over55 import flag_read_approvals

    flag_read_approvals(steps, src)  # an approval in a sentence read as a policy only: held too (`55`)
    if not steps or not src.warnings:
        return steps
    held = list(steps)
    keep: list[Diagnostic] = []
    done: set[int] = set()  # lines whose approval a reader took already: left alone
    for step in steps:
        done.update(n for r in step.readings if r.what == "approval" and (n := line_of(r.where)))
        done.update(n for n in [line_of(step.field_where.get("approval"))] if n)
    for warning in list(src.warnings):
        line = warning.line or 0
        unread = warning.code in _UNREAD_CODES and any(w in warning.message for w in _UNREAD_WORDS)
        text, first, last = _block(src, line) if unread and line not in done else ("", line, line)
        if any(n in done for n in range(first, last + 1)):  # an approval a reader took is in the block
            text = ""
        sentence = _approval_sentence(text) if text else None
        if sentence is None:
            keep.append(warning)
            continue
        index, how = _guarded(warning.message, sentence, held)
        from orchestrator.spec.approval_over55 import read_as_steps

        if how.startswith(("the first step, as it names no step", "the one step its words name")) and (
                own := read_as_steps(src, first, last, [s.id for s in held])) is not None:
            index, how = own, "the step its policy sentences were read as said of"  # a task's `#` comment (`55`)
        step = held[index]
        if step.approval is not None:  # the step waits for a person already: that approval stands
            keep.append(warning)
            continue
        policy, when = _policy(text, sentence, src)
        from orchestrator.spec.approval_over55 import (
            drop_person_waits,
            scoped_by_amount,
            with_person_wait,
        )

        # "anything over £900 Kev has to OK": the step's (or an earlier step's) price compared (`spec.approval_over55`)
        policy, when = scoped_by_amount(policy, when, sentence, step, held[:index], src, first)
        policy = with_person_wait(policy, sentence)  # "wait an hour for her": the approval's bound (`55`)
        if policy.timeout_s is not None:  # "wait 30 mins for him": the approval's bound, no retry (`55`)
            drop_person_waits(src, step.id, first, last)
        done.add(line)
        where = src.where(first)
        said = (f"only when {when}" if when else "on every run, as its condition is not read"
                if _IF.search(sentence) else "on every run")
        wait = (f"; it waits {policy.timeout_s:g}s, then {'approves' if policy.on_timeout == 'approve' else 'rejects'}"
                if policy.timeout_s is not None else "; it waits with no time limit")
        held[index] = step.model_copy(update={
            "approval": policy,
            "field_where": {**step.field_where, "approval": where},
            "readings": (*step.readings, Reading(what="approval", where=where, text=sentence[:120],
                                                 note=f"needs a person's approval {said}")),
        })
        src.warn(first, f"{step.id} ({step.name}): '{sentence[:80]}' is read as a person's approval of "
                        f"{step.id}, {how}: the step waits for it {said}{wait}; if that is not meant, write "
                        f"`- Approval: required if <field> > <value>; wait up to <time>, then reject` under the "
                        "step it guards", "spec.approval")
        keep.append(src.warnings.pop())
    src.warnings[:] = keep
    return tuple(held)


_rx.save()
