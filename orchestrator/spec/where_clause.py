"""A step's condition said as a controlled document says it: "Where ...", "In the event that ...", the
comparison often spelled out again in brackets, then the step's own skill.

    Where two or more rooms are booked (room count of 2 or more), run order-lunch ...   room count >= 2
    In the event that the total is over 500, call `ask-finance` ...                     total > 500
    Wherever the score is below 40 (score < 40), send it to `flag-pupil`                 score < 40
    Where the van is late (the courier says so), run chase-van                          not read: no comparison

The clause before the comma is the condition; a bracket after it that reads as a comparison
(`spec.condition.read_condition`) is taken before the words, which are often no comparison at all
("one or more samples are positive (positive count greater than zero)"). It is a condition only when
the words after the comma run the step's own skill, and never when the clause is about something
failing ("In the event that the portal is down, resubmit ...": a retry, the policy reader's). The
reading is a guess: `spec.step` shows it in the plan and warns at its line, as it does the other
conditions said in passing (`spec.branch_condition.own_skill_condition`).
"""

from __future__ import annotations

from orchestrator.spec.condition import read_condition
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WHERE = _rx(
    r"(?i)^[^\w(]{0,6}+(?:where(?:ver)?|in\s++the\s++event\s++that|in\s++(?:any\s++)?cases?\s++where|in\s++case)"
    r"\s++(?P<cond>[^,;:()]{1,160}+)(?:\((?P<aside>[^()]{1,120}+)\)\s*+)?,\s*+(?P<rest>.*+)$")
# a skill's name unmarked after a verb of doing: "run draft-advisory", "call the log-visit skill"
_RUN_NAME = _rx(r"(?i)(?<![\w-])(?:run|runs|call|calls|use|uses|start|starts|execute|invoke|trigger|do)\s++(?:the\s++)?"
                r"[`*_]{0,2}+([a-z0-9]++(?:-[a-z0-9]++)++)")
_FAILURE = _rx(r"(?i)(?<![\w-])(?:fail\w*+|errors?|down|time[sd]?\s*+out|timeout|crash\w*+|unavailable|unreachable|"
               r"offline|broken|stuck|hangs?|not\s++(?:finished|respond\w*+|available|reachable))(?![\w-])")


def _compares(text: str, *, words: bool = False) -> bool:
    """`text` reads as a comparison; said in `words` (not in brackets), "the van is late" (an equality of
    two words, no value named) is none: only an order, a number or a true/false, or a name written as one."""
    read = read_condition(text) if text else None
    if read is None:
        return False
    if read.expression is not None:
        return True
    for clause in read.clauses:
        if clause.kind != "compare":
            continue
        named = len(clause.subject) == 1 and ("_" in clause.subject[0] or "`" in text)
        if not words or named or clause.op not in ("==", "!=") or isinstance(clause.value, bool | int | float):
            return True
    return False


def _named(rest: str) -> str:
    """The skill the words after the clause run, unmarked ("run draft-advisory"); "" when none."""
    m = _RUN_NAME.search(rest)
    return m.group(1) if m else ""


def _runs(rest: str, skill: str) -> bool:
    """The words after the clause name `skill` (bare, in backticks or in bold)."""
    if not skill:
        return False
    low, name = rest.lower(), skill.lower()
    at = low.find(name)
    while at >= 0:
        before = low[at - 1] if at else " "
        after = low[at + len(name)] if at + len(name) < len(low) else " "
        if not (before.isalnum() or before in "-_") and not (after.isalnum() or after in "-_"):
            return True
        at = low.find(name, at + 1)
    return False


def where_condition(sentence: str, own_skill: str | None) -> tuple[str, bool] | None:
    """(the condition, False) when `sentence` opens with a where-clause on data and then runs `own_skill`
    (module docstring); None otherwise."""
    m = _WHERE.match(sentence.strip()) if len(sentence) <= 600 else None
    if m is None or not _runs(m.group("rest"), own_skill or _named(m.group("rest"))):
        return None
    cond, aside = m.group("cond").strip(), (m.group("aside") or "").strip()
    if _FAILURE.search(cond) or _FAILURE.search(aside):
        return None
    if _compares(aside):
        return aside, False
    if _compares(cond, words=True):
        return cond, False
    return None


def where_unread(sentence: str, own_skill: str | None) -> str | None:
    """The where-clause that opens `sentence` and runs `own_skill` but holds no comparison `where_condition`
    reads, for a warning at its line; None when there is none or it was read."""
    if len(sentence) > 600 or where_condition(sentence, own_skill) is not None:
        return None
    m = _WHERE.match(sentence.strip())
    if m is None or not _runs(m.group("rest"), own_skill or _named(m.group("rest"))) or _FAILURE.search(m.group("cond")):
        return None
    return sentence.strip()[:m.start("rest")].rstrip(" ,")


_rx.save()
