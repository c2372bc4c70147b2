"""Warnings that would misdescribe what was read, put right.

A warning that is wrong makes a reader distrust the right ones. This module reads three ways of
writing whose warnings used to say less (or other) than the plan does:

- a success sentence that says two things, one read as a comparison of two values ("counted = how
  many the sheet had") and one read by another reader as its own check ("the card comes back
  printed" → `printed == true`): the comparison's warning must not call the other part "not
  checked" (`read_elsewhere`: another warning at the same line quotes that part as read);
- the sentence after a success check that says what failing it means ("If those two aren't true
  it's not done", "If any of that isn't so, the run failed", "Otherwise it doesn't count", "Anything else is a
  failure"): it adds
  nothing to check; it is what the check already means, and it is said so (`restates_check`), not
  warned as unread;
- a line another reader read (a process model's user task read as a step's approval): the older
  warning that the line "states a step's policy but names no step" is dropped (`drop_unplaced`).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.success"

# "If those two aren't true", "if any of that isn't so", "if either fails", "Otherwise"
_IF_NOT = _rx(r"(?i)^\s*+(?:(?:and\s+|but\s+)?if\s+(?:those|these|both|either|any|all|they|that|this|the\s+above|"
              r"(?:any|either|one|all|both|none)\s+of\s+(?:those|these|that|them|this|the\s+above))(?:\s+(?:two|three|"
              r"things|checks|conditions))?\s+(?:(?:is|are|was|were)\s*+n['’]t|(?:is|are|was|were)\s+not|"
              r"(?:do|does|did)\s*+n['’]t\s+hold|(?:do|does|did)\s+not\s+hold|fails?|(?:is|are)\s+false|"
              r"(?:is|are)\s+missing)|otherwise|(?:and\s+|but\s+)?(?:anything|everything)\s+else|any\s+other\s+"
              r"(?:result|outcome|answer|value|status|reply))(?![\w-])")
# "... it's not done", "the run failed", "it doesn't count", "not finished"
_NOT_DONE = _rx(r"(?i)(?:(?:it['’]?s|it\s+is|the\s+(?:run|job|workflow)\s+is|we['’]re|we\s+are)\s+not\s+(?:done|finished|"
                r"complete|a\s+success)|(?:it|the\s+(?:run|job|workflow))\s+(?:has\s+)?failed|(?:does|did)\s*+n['’]t\s+"
                r"count|(?:does|did)\s+not\s+count|(?:counts?|treat\s+it)\s+as\s+(?:a\s+)?fail(?:ed|ure)|"
                r"(?:is|means|=)\s+(?:a\s+)?fail(?:ed|ure))(?![\w-])")


def restates_check(sentence: str) -> bool:
    """Whether `sentence` only says what failing the success check said before it means ("If those
    two aren't true it's not done, I don't care what the log says")."""
    return _IF_NOT.search(sentence) is not None and _NOT_DONE.search(sentence) is not None


def success_before(src: Source, line: int) -> bool:
    """Whether a success check was read (or warned) at a line before `line`, within the four before it."""
    return any(w.code == CODE and w.line is not None and line - 4 <= w.line < line for w in src.warnings)


def say_restated(sentence: str, line: int, src: Source) -> None:
    """Say at its line that the sentence is read as the meaning of the success check before it."""
    src.warn(line, f"'{sentence[:60]}' is read as what the run's success check before it already means (the run "
                   "fails when the check does not hold): nothing more to check", CODE)


def _quotes(message: str) -> list[str]:
    """The texts in single quotes at the start of each "'...' is read as" of a warning."""
    out: list[str] = []
    start = message.find("'")
    while start >= 0:
        end = message.find("' is read as", start + 1)
        if end < 0:
            break
        out.append(message[start + 1:end])
        start = message.find("'", end + len("' is read as"))
    return out


def read_elsewhere(clause: str, line: int, src: Source, besides: str = "") -> bool:
    """Whether another warning at `line` (not `besides`) quotes a part of `clause` as read ("'run-of-show
    card comes back printed' is read as the run's success check `printed == true`")."""
    said = " ".join(clause.split()).lower()
    for w in src.warnings:
        if w.line != line or w.message == besides or "not checked" in w.message:
            continue
        for quote in _quotes(w.message):
            quote = " ".join(quote.replace("…", " ").split()).lower()
            if len(quote) >= 8 and quote in said:
                return True
    return False


def drop_unplaced(src: Source, line: int) -> None:
    """Drop the warning that `line` "states a step's policy but names no step": the line was read."""
    src.warnings[:] = [w for w in src.warnings
                       if not (w.line == line and w.code == "spec.placed" and "names no step" in w.message)]


_rx.save()
