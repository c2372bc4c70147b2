"""A branch's condition said in words the comparison reader does not take whole, read from the part
that names a value.

    Only if the candidate is remote (`remote` is true).   `remote` is true: the aside names the value
    When the pilot is big enough (`n >= 30`).             n >= 30
    - remote → `ship-laptop`                               a one-word label: `remote is true`, a guess
    - **gold** → `vip-desk`                                the same, when `gold` is a value the steps give

    Run `book-desk` if not remote.                         runs only when not remote (its own skill, then if)
    If more than 30 rows come back, run `fit-model`.      the same, said first (the step's own skill)

`aside_condition`: a condition whose last part is an aside in brackets that holds a comparison of
a value written in backticks (or a comparison sign) is that aside: the words before it describe, the
aside names. `bare_label`: a branch label that is one name alone is the truth of that name; it is a
guess (`field_where["when_title"]`), so the planner drops it with a warning when it names no value the
steps give, instead of refusing the spec. `own_skill_condition`: a sentence that runs the step's
own skill (the first it names) with an if/when/unless clause before or after it, the clause on data (no
word of failure: "if it times out, run `x`" is a fallback), is the step's condition; a guess too.
"""

from __future__ import annotations

import re

from orchestrator.spec.condition import read_condition
from orchestrator.spec.condition_after import closed, failure_words
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the last bracketed aside of a text: "(`remote` is true)", "(n >= 30)"
_ASIDE = _rx(r"\(([^()]{1,120})\)\W*+$")
_NAMED = _rx(r"`[A-Za-z_][\w.]*+`|[<>≥≤≠=]|(?<![\w-])[a-z][a-z\d]*+_[a-z\d_]++(?![\w-])")
_ONE_NAME = _rx(r"^\W*+`?([A-Za-z_][\w-]{0,60}+)`?\W*+$")


def aside_condition(text: str) -> str | None:
    """The aside of `text` when it is the condition that names its value (module docstring); else None."""
    m = _ASIDE.search(text)
    if m is None or not _NAMED.search(m.group(1)):
        return None
    aside = m.group(1).strip()
    read = read_condition(aside)
    if read is None or (read.expression is None and not any(c.kind == "compare" for c in read.clauses)):
        return None
    return aside


def bare_label(label: str) -> str | None:
    """`remote`, `**gold**`: a label that is one name alone, as the condition that it is true; else None."""
    m = _ONE_NAME.match(label)
    if m is None or re.fullmatch(r"(?i)yes|no|true|false|ok|none|other|else|default", m.group(1)):
        return None
    return f"{m.group(1).replace('-', '_')} is true"


_FAILURE = _rx(r"(?i)(?<!\w)(?:fail\w*+|errors?|down|time[sd]?\s*+out|timeout|crash\w*+|unavailable|unreachable|"
               r"broken|breaks?|flak\w*+|slow|hangs?|rate.limit\w*+|chokes?|503|500|retr\w*+|still)(?!\w)")
_FILLER = _rx(r"(?i)^(?:(?:you|we|they|i|someone|anyone|one)\b.*+|(?:it\s++is\s++|it['’]s\s++)?(?:needed|necessary|"
               r"possible|ready|required|appropriate|applicable|wanted|desired|relevant|useful|in\s++doubt|unsure|"
               r"so|asked|told|allowed|there\s++is\s++time|time\s++allows))$")
_RUNS = r"(?:(?:we|you|they|it)\s++)?(?:run|runs|call|calls|use|uses|invoke|invokes|do|does|go\s++with|send\s++(?:it\s++)?to)"
_AFTER = _rx(rf"(?i)^[^\w`]*+(?:then\s++)?{_RUNS}?\s*+`(?P<skill>[\w-]++)`(?P<mid>[^`]{{0,80}}?)\s++(?:(?:only\s++)?"
             r"(?P<word>if|when|unless)\s++)(?P<cond>[^,;:]{1,120}?)\W*$")
_BEFORE = _rx(rf"(?i)^\W*+(?:only\s++)?(?P<word>if|when|unless)\s++(?P<cond>[^,;:]{{1,120}}?)\s*+[,:]\s*+"
              rf"(?:then\s++)?{_RUNS}\s++`(?P<skill>[\w-]++)`")


def own_skill_condition(sentence: str, own_skill: str | None) -> tuple[str, bool] | None:
    """(condition, negated) when the sentence runs `own_skill` only if/when/unless something on data
    (module docstring); None otherwise."""
    if not own_skill:
        return None
    m = _AFTER.match(sentence) or _BEFORE.match(sentence)
    if m is None or m.group("skill") != own_skill or _FAILURE.search(failure_words(m.group("cond"))):
        return None
    if "mid" in m.groupdict() and m.group("mid") and _FAILURE.search(m.group("mid")):
        return None
    text = closed(m.group("cond").strip().rstrip("."))  # "above `capacity`.": its closing backtick kept
    if _FILLER.match(text):
        return None  # "if needed", "when ready", "if you like": no condition on data
    single = _ONE_NAME.match(text)
    if single is not None:
        text = f"{single.group(1)} is true"
    elif (neg := re.match(r"(?i)^not\s++`?([A-Za-z_]\w*+)`?$", text)) is not None:
        text = f"{neg.group(1)} is false"
    read = read_condition(text)
    if read is None or (read.expression is None and not any(c.kind == "compare" for c in read.clauses)):
        return None
    return text, m.group("word").lower() == "unless"


def unread_own_condition(sentence: str, own_skill: str | None) -> str | None:
    """The if/when/unless clause on data after the step's own skill that `own_skill_condition` did not read
    ("`x` when the moon is full"), for a warning at its line; None when it read one, or there is none."""
    if not own_skill or own_skill_condition(sentence, own_skill) is not None:
        return None
    m = _AFTER.match(sentence)
    if m is None or m.group("skill") != own_skill:
        return None
    clause = m.group("cond").strip().rstrip(".")
    if _FAILURE.search(failure_words(clause)) or _FILLER.match(clause) or _FAILURE.search(m.group("mid") or ""):
        return None
    return f"{m.group('word')} {closed(clause)}"


def guessed_branch(step: StepSpec, label: str, when: str, src: Source) -> StepSpec:
    """The branch step with the guessed condition of its one-name label, shown and warned at its line."""
    line = int(step.where.rsplit(":", 1)[1])
    src.warn(line, f"{step.id} ({step.name.strip()[:60]}): the branch '{label}' is read as the condition `{when}`; "
                   f"if another value is meant, write the comparison in the label (`{label.strip(' *_`')} == VALUE`)",
             "spec.lead-condition")
    return step.model_copy(update={
        "when": when, "field_where": {**step.field_where, "when": step.where, "when_title": step.where},
        "readings": (*step.readings, Reading(what="when", where=step.where, text=label,
                                             note=f"the branch '{label}' runs only when {when} (a guess: one name)")),
    })


_rx.save()
