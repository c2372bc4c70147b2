"""A condition said as what an earlier piece of work left or found: "Match left something unmatched".

    only when Match left something unmatched        `unmatched` has a value (a list not empty)
    if the sweep turned up anything vulnerable      `vulnerable` has a value
    unless triage found nothing urgent              `urgent` is empty (negated by "unless" as ever)

People name the earlier work by its title ("Match", "the sweep", "triage") and what it gave by one
word after "something" / "anything" / "nothing"; that word is the output (or the start of its name:
`unmatched`, `unmatched_count`) the planner places as it places any subject (`plan.conditions`).
The verb is one of having produced ("left", "found", "turned up", "returned", "flagged", "reported",
"came back with", "gave back", "produced", "raised", "spotted"); the words before it (the work's
title) are at most four. "Something to do", "anything else", "nothing at all" name no output and are
not read here.

Also here: a person who "wants to see" the work, when the same sentence says what their yes is
("Lena wants to see the batch herself if there are more than 3 mails in it; if she hasn't said yes
within 24 hours, don't send"), asks an approval (`condition.approval_sentence`); and a count's clause
read without the place the things are counted in ("more than 3 mails in it").

And an approvals table: a section titled "Approvals" whose table has a Step column and a When or
No reply column gives each row's step its approval (`approvals_table`).

And a step whose paragraph opens with "otherwise" ("**Mark week clean** – otherwise (nothing
unmatched), `mark-clean` with the matched count") is the other branch of the step before it, as a
bullet or an `Otherwise:` line saying so already is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from orchestrator.policy import ApprovalPolicy
from orchestrator.spec.blocks import Table
from orchestrator.spec.condition import otherwise_sentence
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LEFT = _rx(r"(?i)^(?P<who>(?:[\w`'’-]++\s++){0,4}?)(?:has\s++|have\s++|had\s++)?"
            r"(?:left|found|finds|turned\s++up|turns\s++up|returned|returns|flagged|flags|reported|reports|"
            r"came\s++back\s++with|comes\s++back\s++with|gave\s++back|gives\s++back|produced|raised|spotted)"
            r"\s++(?P<some>something|anything|nothing)\s++`?(?P<w>[A-Za-z_]\w*+)`?$")
# words after "something" that name no output: "something to fix", "anything else", "nothing at all"
_NO_NAME = frozenset({"to", "at", "else", "more", "new", "of", "in", "on", "for", "that", "which", "we", "you",
                      "i", "it", "they", "worth", "like", "from", "with", "and", "or", "but", "is", "was"})


def left_something(text: str) -> tuple[Literal["empty", "filled"], str] | None:
    """("filled", word) for "X left something WORD", ("empty", word) for "X found nothing WORD"; None
    when the text is not said so."""
    m = _LEFT.match(text.strip())
    if m is None or m.group("w").lower() in _NO_NAME:
        return None
    return ("empty" if m.group("some").lower() == "nothing" else "filled"), m.group("w").lower()


# a person who wants to see the work (first), and, in the same sentence, what it is for them to say yes
_SEE = _rx(r"(?i)\b(?:wants?|would\s++like|needs?)\s++to\s++(?:see|look\s++(?:at|over)|check|review|eyeball|"
           r"go\s++(?:over|through))\b")
_YES = _rx(r"(?i)\b(?:said|say|says|given|give|gives)\s++(?:yes|ok|okay|the\s++ok|the\s++go-?ahead|the\s++nod)\b|"
           r"\bok['’]?d\b|\bsigned\s++off\b|\bapproved\b")
# "more than 3 mails in it": the place the things are counted in, after the count's noun
_SCOPE = _rx(r"(?<!\s)\s++(?:in|on)\s++(?:it|them|there|the\s++[A-Za-z_]\w*+)\s*+$")


def wants_to_see(sentence: str) -> bool:
    """True when a person "wants to see" (look over, check, review) the work and the same sentence says
    what their yes is ("Lena wants to see the batch herself if there are more than 3 mails in it; if she
    hasn't said yes within 24 hours, don't send"): an approval, as "has to approve it" is."""
    return see_cue(sentence) is not None


def see_cue(sentence: str) -> re.Match[str] | None:
    """The words "wants to see" of `wants_to_see`, where the approval's clause is (`condition.approval_rest`)."""
    see = _SEE.search(sentence)
    return see if see is not None and _YES.search(sentence, see.end()) is not None else None


def without_scope(text: str) -> str | None:
    """The clause without the place its things are counted in ("more than 3 mails in it" -> "more than
    3 mails"); None when it ends in no such place."""
    m = _SCOPE.search(text)
    return text[: m.start()] if m is not None and m.start() > 0 else None


def opens_otherwise(sentence: str, block_index: int, values: Mapping[str, Any]) -> bool:
    """True when a paragraph's first sentence, in the step's first block, opens with "Otherwise" /
    "Else" / "If not" and the case in brackets ("**Mark week clean** – otherwise (nothing unmatched),
    `mark-clean` ...") and the step has no condition or Otherwise yet: the step is the other branch, as
    a bullet saying so is (a bare "Otherwise, ..." is left to the readers of its form)."""
    return block_index == 0 and "when" not in values and "otherwise_where" not in values \
        and (found := otherwise_sentence(sentence)) is not None and found[0] is not None


# an approvals section's title, and its table's columns: the step, and what the approval is
_TABLE_TITLE = _rx(r"(?i)^\W*(?:the\s++)?(?:approvals?|sign[\s-]?offs?|approvers|gates|human\s++gates|"
                   r"who\s++approves)\b")
_STEP_COL = _rx(r"(?i)^\W*(?:step|stage|task|#|no\.?)\W*$")
_WHEN_COL = _rx(r"(?i)^\W*(?:when|only\s++(?:if|when)|condition|if)\W*$")
_WAIT_COL = _rx(r"(?i)^\W*(?:no\s++(?:reply|answer|response|decision)|timeout|wait|silence|if\s++no\s++(?:reply|"
                r"answer))\W*$")
_STEP_CELL = _rx(r"(?i)^\W*(?:step\s*+|#)?(?P<n>\d{1,3}+)\W*$")
_ALWAYS = _rx(r"(?i)^\W*(?:always|every\s++(?:time|run)|each\s++run|[-–—]|)\W*$")
_ONLY_IF = _rx(r"(?i)^\W*(?:only\s++)?(?:if|when|where)\s++")


def approvals_table(title: str, blocks: tuple[object, ...], steps: list[StepSpec],
                    src: Source) -> list[StepSpec] | None:
    """The steps with the approvals a section titled "Approvals" ("Sign-offs", "Gates") gives in a
    table with a Step column and a When or No reply column ("| 4 | duty manager | only if #3 severity
    is 8 | after 15 min, page anyway |"): each row's step asks a person's approval, only when its When
    says (`#3` is step 3), waiting what its No reply says, each a reading and a warning at its row.
    None when the section is no such table (it is then reported as any unknown section is)."""
    from orchestrator.spec.condition import approval_timeout, read_condition
    from orchestrator.spec.fields import spell_step_refs

    tables = [b for b in blocks if isinstance(b, Table)]
    if not _TABLE_TITLE.match(title) or len(tables) != 1:
        return None
    table = tables[0]
    cols = [c.strip() for c in table.header]
    at = next((i for i, c in enumerate(cols) if _STEP_COL.match(c)), None)
    when_at = next((i for i, c in enumerate(cols) if _WHEN_COL.match(c)), None)
    wait_at = next((i for i, c in enumerate(cols) if _WAIT_COL.match(c)), None)
    if at is None or (when_at is None and wait_at is None):
        return None
    by_number = {s.number: i for i, s in enumerate(steps) if s.number is not None}
    out = list(steps)
    for line, cells in table.rows:
        m = _STEP_CELL.match(cells[at]) if at < len(cells) else None
        index = by_number.get(int(m.group("n"))) if m is not None else None
        if index is None:
            src.warn(line, f"approvals table: row '{' | '.join(cells)[:80]}' names no step by its number; not read",
                     "spec.unread")
            continue
        step = out[index]
        said = cells[when_at].strip() if when_at is not None and when_at < len(cells) else ""
        when = None if _ALWAYS.match(said) else spell_step_refs(_ONLY_IF.sub("", said)).strip(" .")
        if when is not None and read_condition(when) is None:
            src.warn(line, f"{step.id}: the approval's condition '{said}' cannot be read: the approval is asked on "
                           f"every run; write `Approval: required if ...` on the step", "spec.approval-condition")
            when = None
        wait = cells[wait_at].strip() if wait_at is not None and wait_at < len(cells) else ""
        seconds, then = None, None
        for said_wait in ((wait, f"no reply {wait}", f"no reply after {wait}") if wait and not _ALWAYS.match(wait)
                          else ()):  # "after 15 min, page anyway", "30 min, then approve"
            seconds, then = approval_timeout(said_wait)
            if seconds is not None:
                break
        policy = ApprovalPolicy(timeout_s=seconds, on_timeout=then or "reject", when=when)
        note = ("needs a person's approval" + (f" only when {when}" if when else "")
                + (f"; waits {seconds:g}s, then {then or 'reject'}s" if seconds is not None else ""))
        out[index] = step.model_copy(update={
            "approval": policy, "field_where": {**step.field_where, "approval": src.where(line)},
            "readings": (*step.readings, Reading(what="approval", where=src.where(line),
                                                 text=" | ".join(cells)[:160], note=note))})
        src.warn(line, f"{step.id}: the approvals table's row read as its approval: {note}; check the plan, or "
                       "write `Approval: ...` on the step", "spec.reading")
    return out


_rx.save()
