"""The Error Recovery table's rows and the Convergence Criteria, read into policies.

A table row is a complete statement for its step and error class: a Recovery
cell that says nothing about retries means no retry, one that says nothing
about regeneration means none. The two fallback sources combine so that the
more specific wins: a Recovery cell that substitutes a value ("use empty docs")
beats a Fallback cell that only says "Continue" (DEFAULT already continues), and
"escalate" beats "FAIL workflow" (an escalated run has failed, and a person is
told). `Fallback(DEFAULT, value=None)` means "the output contract's empty value".

Cells are read with the policy grammar (`spec.phrase`). A Max Attempts column
gives the count of a Recovery cell that says "retry" without one, and is the
row's retry when the cell says nothing of retrying; when both
give a count and they disagree, the Recovery cell wins (a sentence says what
was meant, a column summarises it) and a warning says so. Other
columns (Owner, Notes, ...) are read too: what states a policy joins the row
(the row's own cells win, with a warning), an Owner names who an escalation is
for, and the rest is kept as notes. A row's failure text that names no class
but says "anything else" is the catch-all of its step.

A Convergence criterion that is not a limit, a per-step bound, a check or a
feedback bound is read as a policy sentence for every step ("No single step
should take more than 5 sec", "Whole run: 2 min max."), else reported.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, ValidationError

from orchestrator.policy import (
    ErrorClass,
    Fallback,
    FallbackAction,
    Limits,
    PolicyStatement,
    RecoveryRule,
    RetryPolicy,
)
from orchestrator.spec import grammar as g
from orchestrator.spec import policy_text as pt
from orchestrator.spec.effect import assumed_retries, fallback_of, retry_of
from orchestrator.spec.fields import step_id
from orchestrator.spec.model import ContractSpec, ConvergenceSpec, RecoveryRowSpec
from orchestrator.spec.phrase import Phrase, read_phrase
from orchestrator.spec.prose import Resolve, read_named, read_sentence
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.step_prose import read_step_list

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

if TYPE_CHECKING:
    from orchestrator.spec.structure import StepIndex

_BLANK = {"", "-", "—", "–", "n/a", "none"}
_EXPLICIT_CLASS = {
    "transient": ErrorClass.TRANSIENT,
    "timeout": ErrorClass.TIMEOUT,
    "invalid input": ErrorClass.INVALID_INPUT,
    "invalid_input": ErrorClass.INVALID_INPUT,
    "code error": ErrorClass.CODE_ERROR,
    "code_error": ErrorClass.CODE_ERROR,
    "unrecoverable": ErrorClass.UNRECOVERABLE,
    "permanent": ErrorClass.UNRECOVERABLE,
    "any": None,
}


class RowCells(BaseModel):
    """The cells of one Error Recovery row, by column meaning."""

    model_config = ConfigDict(frozen=True)

    failure: str = ""
    detection: str = ""
    recovery: str = ""
    fallback: str = ""
    error_class: str = ""
    max_attempts: str = ""
    extra: tuple[tuple[str, str], ...] = ()  # (column, cell) of the columns with no policy meaning of their own


class ConvergenceItem(BaseModel):
    """One Convergence Criteria bullet: under Success, Failure or neither."""

    model_config = ConfigDict(frozen=True)

    kind: str  # success | failure | limits
    text: str
    line: int


def _blank(text: str) -> bool:
    return text.strip().lower() in _BLANK


def combine_fallbacks(recovery: Fallback | None, column: Fallback | None) -> Fallback | None:
    """The fallback of a row from its Recovery cell and its Fallback cell (module docstring)."""
    if recovery is None or column is None:
        return column or recovery
    if recovery.action in (FallbackAction.DEFAULT, FallbackAction.SKILL) and (
        column.action is FallbackAction.CONTINUE
    ):
        return recovery
    if recovery.action is FallbackAction.ESCALATE and column.action is FallbackAction.FAIL:
        return recovery
    return column


def _error_class(step: str, cells: RowCells, src: Source, line: int) -> ErrorClass | str:
    explicit = cells.error_class.strip().lower()
    if explicit and explicit in _EXPLICIT_CLASS:
        return _EXPLICIT_CLASS[explicit] or "any"
    if explicit and not _blank(explicit):
        src.warn(line, f"error class '{cells.error_class.strip()}' not understood; "
                       "the failure text decides", "spec.unread")
    if pt.is_catch_all(cells.failure) or (not cells.failure.strip() and not cells.detection.strip()):
        return "any"  # a table with no failure column: each row is for any failure of its steps
    found = pt.classify(cells.failure) or pt.classify(cells.detection)
    if found is None:
        src.warn(line, f"{step}: failure '{cells.failure.strip()}' not classified; "
                       "the row applies to any error class", "spec.unclassified")
        return "any"
    return found


_NO_COUNT = g.NO_COUNT  # the grammar's `no_count` row


def _problems(phrase: Phrase, step: str, what: str, text: str, src: Source, line: int, skip: str = "") -> None:
    for problem in phrase.problems:
        if skip and problem.endswith(skip):
            continue
        src.warn(line, f"{step}: {what} '{text.strip()}': {problem}", "spec.policy-partial")


def _owner_of(cells: RowCells) -> str | None:
    return next((cell.strip() for column, cell in cells.extra if "owner" in column.lower() and cell.strip()), None)


def read_recovery_row(
    step: str, cells: RowCells, src: Source, line: int, *, every_step: bool = False, resolve: Resolve | None = None,
    who: str | None = None,
) -> RecoveryRowSpec:
    """One table row (its step already resolved) into a RecoveryRowSpec; `resolve` finds a
    step named as the fallback ("go to the no-data notice instead"); `who` names the steps
    in the warnings (a row for several steps is read, and reported, once)."""
    label = who or step
    on = _error_class(label, cells, src, line)
    timeout_s = pt.first_duration(cells.detection)
    if timeout_s is None and on in (ErrorClass.TIMEOUT, ErrorClass.TRANSIENT):
        timeout_s = pt.first_duration(cells.failure)
    recovery = cells.recovery.strip()
    phrase = read_named(recovery, resolve, src.vocabulary.skills)
    # a retry without its count is reported once, below: as assumed, or counted by the Max Attempts column
    _problems(phrase, label, "recovery", recovery, src, line, skip=_NO_COUNT)
    retry, assumed = retry_of(phrase.statement, retry_said=phrase.retry_said)
    feedback = pt.read_feedback(recovery, step)
    regenerate = None if feedback else phrase.statement.regenerate
    if regenerate is None and not feedback and phrase.regenerate_said:
        src.warn(line, f"'{recovery}' gives no regeneration count; 1 assumed", "spec.assumed")
        regenerate = 1
    rec_fallback = fallback_of(phrase.statement.on_failure)
    if rec_fallback is not None and "template" in recovery.lower() and rec_fallback.value is None \
            and rec_fallback.action is FallbackAction.DEFAULT:
        src.warn(line, f"'{recovery}' names no skill; read as the contract's empty value "
                       "(write run `skill-name` to run a skill instead)", "spec.assumed")
    col_phrase = read_phrase(f"on failure: {cells.fallback}", src.vocabulary.skills)  # a Fallback cell is what follows a failure
    col_fallback = None if _blank(cells.fallback) else fallback_of(col_phrase.statement.on_failure)
    if not _blank(cells.fallback) and col_fallback is None:
        src.warn(line, f"{label}: fallback '{cells.fallback.strip()}' not understood; "
                       "the step's default fallback applies", "spec.unread")
    if phrase.statement.timeout_s is not None and timeout_s is None:
        timeout_s = phrase.statement.timeout_s
    count_said = phrase.statement.retries is not None or phrase.statement.max_attempts is not None
    if not _blank(recovery):
        understood = retry or regenerate is not None or feedback or rec_fallback or phrase.statement.timeout_s
        if not understood and not re.search(r"\blog", recovery, re.I):
            src.warn(line, f"{label}: recovery '{recovery}' names no action; read as no retry "
                           "and no regeneration", "spec.unread")
        retry = retry or RetryPolicy(max_retries=0)
        regenerate = 0 if regenerate is None else regenerate
    feedback_to, feedback_attempts = feedback if feedback else (None, None)
    if not _blank(cells.max_attempts):
        n = pt.read_count(cells.max_attempts)
        if n is None or n < 1:
            src.warn(line, f"max attempts '{cells.max_attempts.strip()}' is not a positive count",
                     "spec.unread")
        elif (pt.mentions_retry(recovery) or phrase.retry_said) and retry is not None:
            if count_said and retry.max_retries != n - 1:
                # the sentence says what the author meant; a column is a summary of it
                src.warn(line, f"{label}: the Max Attempts column says {n} attempts ({n - 1} retries) but the "
                               f"Recovery cell '{recovery}' says {retry.max_retries} retries; the Recovery cell wins",
                         "policy-conflict")
            else:
                retry = retry.model_copy(update={"max_retries": n - 1})
            assumed = False
        elif feedback_to is not None:
            feedback_attempts = n
        elif regenerate:
            regenerate = n - 1
        else:  # the column is the row's retry: "| lookup fails | mark it unknown | 2 |"
            retry = RetryPolicy(max_retries=n - 1)
    if assumed and retry is not None:
        src.warn(line, f"'{recovery}' gives no retry count; {assumed_retries(retry)}", "spec.assumed")
    fallback = combine_fallbacks(rec_fallback, col_fallback)
    owner = _owner_of(cells)
    if fallback is not None and fallback.action is FallbackAction.ESCALATE and owner and not fallback.message:
        fallback = fallback.model_copy(update={"message": f"escalate to {owner}"})
    rule = RecoveryRule(
        on=on,  # type: ignore[arg-type]
        failure=cells.failure.strip(),
        retry=retry,
        regenerate=regenerate,
        fallback=fallback,
        where=src.where(line),
    )
    row = RecoveryRowSpec(
        step=step,
        rule=rule,
        detection=cells.detection.strip(),
        recovery=recovery,
        fallback_text=cells.fallback.strip(),
        feedback_to=feedback_to,
        feedback_attempts=feedback_attempts,
        timeout_s=timeout_s,
        every_step=every_step,
        where=src.where(line),
    )
    return _with_extra_columns(row, cells, src, line, label)


# a column whose header says what its cells are ("Retries", "Pause between tries", "Max time per
# try"): a cell that reads nothing alone ("1", "5 s") is read in the sentence its header makes
COLUMN_SENTENCES: tuple[tuple[str, str], ...] = (
    (r"pause|wait|delay|back-?\s*off|between|interval|sleep", "wait {cell} between tries"),
    (r"time\s*-?\s*out|time\s+(?:per|limit|cap|for)|max(?:imum)?\s+time|deadline|time\s+box", "timeout {cell}"),
    (r"retr|attempt|tries\b", "retries: {cell}"),
)  # fmt: skip


def column_phrase(column: str, cell: str) -> Phrase:
    """A cell of an extra column, read alone, else in the sentence its header makes (`COLUMN_SENTENCES`)."""
    phrase = read_phrase(cell)
    if phrase.read and not phrase.problems:
        return phrase
    sentence = next((sentence for header, sentence in COLUMN_SENTENCES if re.search(header, column, re.I)), None)
    if sentence is not None:  # the first header that matches says what the column is
        made = read_phrase(sentence.format(cell=cell.strip()))
        if made.read and not made.problems:
            return made
    return phrase


def _merged(phrases: list[tuple[str, str, Phrase]], src: Source, line: int, label: str) -> Phrase | None:
    """The statements of several columns of one row as one ("Retries: 1" and "wait 5 s between
    tries" are one retry policy); a field two columns set differently is warned, the first wins."""
    fields: dict[str, object] = {}
    for column, cell, phrase in phrases:
        for name in phrase.statement.model_dump(exclude_defaults=True):
            if name not in fields:
                fields[name] = getattr(phrase.statement, name)
            elif fields[name] != getattr(phrase.statement, name):
                src.warn(line, f"{label}: column '{column}' ('{cell.strip()}') disagrees with an earlier column "
                               f"on {name}; the earlier column wins", "policy-conflict")
    if not fields:
        return None
    return Phrase(statement=PolicyStatement(**fields), signal=True)  # type: ignore[arg-type]


def _with_extra_columns(row: RecoveryRowSpec, cells: RowCells, src: Source, line: int, label: str) -> RecoveryRowSpec:
    """Cells of other columns that state a policy join the row; the row's own cells win."""
    rule = row.rule
    updates: dict[str, object] = {}
    read: list[tuple[str, str, Phrase]] = []
    for column, cell in cells.extra:
        said_none = cell.strip().lower() == "none" and re.search(COLUMN_SENTENCES[-1][0], column, re.I)
        if (_blank(cell) and not said_none) or "owner" in column.lower():  # a Retries cell "none" says no retry
            continue
        phrase = column_phrase(column, cell)
        if phrase.read and any(re.search(h, column, re.I) for h, _ in COLUMN_SENTENCES):
            _problems(phrase, label, f"column '{column}'", cell, src, line)
            read.append((column, cell, phrase))
            continue
        if not phrase.read:
            if phrase.signal:
                src.warn(line, f"{label}: column '{column}': '{cell.strip()}' states a policy that was not "
                               "understood; not in the plan", "spec.policy-unread")
            continue
        _problems(phrase, label, f"column '{column}'", cell, src, line)
        row = _take(phrase.statement, row, rule, updates,
                    (src, line, f"{label}: column '{column}' ('{cell.strip()}') disagrees with"))
    merged = _merged(read, src, line, label)
    if merged is not None:
        row = _take(merged.statement, row, rule, updates, (src, line, f"{label}: the policy columns disagree with"))
    if updates:
        row = row.model_copy(update={"rule": rule.model_copy(update=updates)})
    return row


# --- Convergence Criteria -------------------------------------------------------------

_LIMIT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("max_attempts_per_step", r"attempts?\s+per\s+step"),
    ("max_total_attempts", r"total\s+attempts|attempts\s+in\s+total|max(?:imum)?\s+attempts"),
    ("max_regenerations_per_step", r"regenerations?\s+per\s+step"),
    ("max_regenerations_total", r"total\s+regenerations|regenerations\s+in\s+total|max(?:imum)?\s+regenerations"),
    ("max_llm_tokens", r"token\s+budget|llm\s+tokens|max(?:imum)?\s+tokens|tokens"),
    ("wall_time_s", r"wall[\s-]*(?:clock\s+)?time|time\s+budget|total\s+time"),
    ("per_server_concurrency", r"concurrency\s+per\s+server|per[\s-]server\s+concurrency"),
    ("per_skill_concurrency", r"concurrency\s+per\s+skill|per[\s-]skill\s+concurrency"),
    ("concurrency", r"concurrency|parallel\s+steps"),
)  # fmt: skip
# a limit's value written below zero ("Wall time: -5 min", "Max total attempts = −3")
_NEGATIVE = _rx(r"\A[\s:=]*+(?:is\s++|of\s++)?[-−]\s*+\d")
_STEP_WORD = _rx(r"(?i)\bstep[\s_-]*\d+\b")
_STEPS_LIST = _rx(r"(?i)\bsteps\s+\d+\s*(?:,|and|&|-|–|to)")
_CHECK = _rx(r"^`?(\w+)`?\s*\(\s*(step[\s_-]*\d+)\s*\)\s*(?:==?|is)\s*(.+)$", re.I)
_CHECK_DOTTED = _rx(r"^`?(step[\s_-]*\d+)[.\s]+(\w+)`?\s*(?:==?|is)\s*(.+)$", re.I)


_RETRY_CAP = _rx(r"\b(?:no\s+more\s+than|at\s+most|max(?:imum)?|up\s+to)\s+(\d+)\s+retr(?:y|ies)\s+"
                 r"(?:anywhere|per\s+step|for\s+any\s+step|in\s+any\s+step|on\s+any\s+step|each)\b", re.I)


def _retry_cap(text: str) -> tuple[str, float] | None:
    """"No more than 3 retries anywhere": an upper bound on every step, 4 attempts per step."""
    m = _RETRY_CAP.search(text)
    return ("max_attempts_per_step", float(int(m.group(1)) + 1)) if m else None


def read_limit(text: str, src: Source, line: int) -> tuple[str, float] | None:
    """`Max total attempts: 20`, `Wall time: 10 min`, `Token budget: 50000` → (Limits field, value)."""
    low = text.lower()
    for name, pattern in _LIMIT_PATTERNS:
        m = re.search(pattern, low)
        if not m:
            continue
        rest = low[m.end():]
        if _NEGATIVE.match(rest):  # "Wall time: -5 min": never read as 5 min
            src.warn(line, f"limit '{text.strip()}' is negative: a limit is above zero; ignored "
                     "(write a value above zero)", "spec.limit")
            return None
        if name == "wall_time_s":
            value = pt.first_duration(rest)
        else:
            num = re.search(r"(\d[\d_,]*)", rest)
            value = float(num.group(1).replace(",", "").replace("_", "")) if num else None
        if value is None:
            return None
        try:
            Limits.model_validate({name: value})
        except ValidationError:
            src.warn(line, f"limit '{text.strip()}' is out of range; ignored", "spec.limit")
            return None
        return name, value
    return None


def _json_value(text: str) -> object:
    raw = text.strip().strip("`")
    try:
        return json.loads(raw)
    except ValueError:
        return raw.strip("'\"")


# a sentence about every step even when it names one ("no single step, the QA included, ...")
_EVERY_STEP_SAID = _rx(r"(?i)\b(?:every|each|all|any|no)\s+(?:single\s+|other\s+)?(?:steps?|tasks?|stages?)\b")


def _named(text: str, index: StepIndex) -> str | None:
    """The one step a sentence names (`StepIndex.named_in`), or whose short name it writes as an
    acronym in capitals ("QA", "DB"), which `named_in` leaves out as too short to tell."""
    named = index.named_in(text)
    if named is not None:
        return named[0]
    short = {sid for name, sid in index.names.items()
             if len(name) <= 2 and name.isalpha() and re.search(rf"\b{re.escape(name.upper())}\b", text)}
    return short.pop() if len(short) == 1 else None


def _convergence_sentence(text: str, line: int, steps: list[str], step_ids: list[str] | None, src: Source,
                          index: StepIndex | None = None) -> None:
    """A criterion no other reading took: a policy for the steps it names, by number or by name
    ("QA shouldn't take longer than 5 secs per doc" is the QA step's), else every step; or a warning."""
    phrase = read_phrase(text, src.vocabulary.skills)
    if not phrase.read and not phrase.signal:
        src.warn(line, f"convergence criterion '{text}' is not read as a limit; kept as text", "spec.unread")
        return
    if not steps and index is not None and not _EVERY_STEP_SAID.search(text) and not phrase.statement.whole_run:
        named = _named(text, index)
        steps = [named] if named is not None else []
    known = tuple(s for s in steps if step_ids is None or s in step_ids)
    read_sentence(text, line, src, section="convergence", steps=known, who="convergence criteria")


def read_convergence(
    items: list[ConvergenceItem], n_steps: int, src: Source, step_ids: list[str] | None = None,
    index: StepIndex | None = None,
) -> tuple[ConvergenceSpec, tuple[ContractSpec, ...]]:
    """Bullets of the Convergence Criteria into bounds; unread bullets become warnings."""
    limits: dict[str, float] = {}
    limit_where: dict[str, str] = {}
    retries: dict[str, int] = {}
    timeouts: dict[str, float] = {}
    unrecoverable: dict[str, ErrorClass] = {}
    feedback: dict[str, tuple[str, int]] = {}
    where: dict[str, str] = {}
    checks: list[ContractSpec] = []
    retries_cap = False
    for item in items:
        text, line, at = item.text.strip(), item.line, src.where(item.line)
        low = text.lower()
        steps = [s for s in (step_id(m.group(0)) for m in _STEP_WORD.finditer(text)) if s]
        if not steps and _STEPS_LIST.search(text):  # "Individual lookups (steps 2, 4 and 8) get 30s each"
            steps = list(read_step_list(text, bare_digits=False).ids)
        cap = None if steps else _retry_cap(text)
        limit = None if steps else (cap or read_limit(text, src, line))
        check = _CHECK.match(text) or _CHECK_DOTTED.match(text)
        if limit is not None:
            limits[limit[0]] = limit[1]
            limit_where[limit[0]] = at
            retries_cap = cap is not None or (retries_cap and limit[0] != "max_attempts_per_step")
        elif check is not None:
            field, ref, value = (check.group(1), check.group(2), check.group(3)) if _CHECK.match(
                text) else (check.group(2), check.group(1), check.group(3))
            sid = step_id(ref) or ref
            checks.append(ContractSpec(producer=sid, consumer=None, where=at,
                                       validation=(text,),
                                       constraints={field: {"const": _json_value(value)}}))
        elif len(steps) >= 2 and re.search(r"regenerat|rewrite|repair", low):
            n = pt.count_in(low, r"attempts?|times|tries")
            if n is None or n < 1:
                src.warn(line, "feedback bound not stated; 2 attempts assumed", "spec.assumed")
                n = 2
            feedback[steps[0]] = (steps[1], n)
            where[f"{steps[0]}.feedback"] = at
        elif len(steps) == 1 and re.search(r"unrecoverable|non-retryable|escalat|can't|cannot", low):
            rest = re.sub(r"\(?\bunrecoverable\b\)?|non-retryable", "", low)
            unrecoverable[steps[0]] = pt.classify(rest) or ErrorClass.UNRECOVERABLE
            where[f"{steps[0]}.unrecoverable"] = at
        elif len(steps) == 1 and re.search(r"timeout|timed out|>\s*\d", low) and pt.first_duration(low):
            timeouts[steps[0]] = pt.first_duration(low) or 0.0
            where[f"{steps[0]}.timeout"] = at
        elif len(steps) == 1 and pt.mentions_retry(low) and pt.count_in(low, r"retries|retry|times"):
            retries[steps[0]] = pt.count_in(low, r"retries|retry|times") or 0
            where[f"{steps[0]}.retries"] = at
        elif item.kind == "success" and (m := re.search(r"\ball\s+(\d+)\s+steps?\b", low)):
            if int(m.group(1)) != n_steps:
                src.warn(line, f"says {m.group(1)} steps but the spec has {n_steps}", "spec.count")
        elif item.kind == "success" and re.search(r"\ball\s+steps?\b", low):
            continue
        else:
            _convergence_sentence(text, line, steps, step_ids, src, index)
    values = {k: (v if k == "wall_time_s" else int(v)) for k, v in limits.items()}
    spec = ConvergenceSpec(
        success=tuple(i.text for i in items if i.kind == "success"),
        failure=tuple(i.text for i in items if i.kind != "success"),
        limits=Limits.model_validate(values),
        limit_where=limit_where,
        step_retries=retries,
        step_timeouts_s=timeouts,
        step_unrecoverable=unrecoverable,
        feedback=feedback,
        where=where,
        retries_cap=retries_cap,
    )
    return spec, tuple(checks)


def _take(statement: PolicyStatement, row: RecoveryRowSpec, rule: RecoveryRule, updates: dict[str, object],
          conflict: tuple[Source, int, str]) -> RecoveryRowSpec:
    """A column's reading put on the row: its retry and fallback where the row's cell states none
    (or only "no retry" with no Recovery cell), a warning (`conflict`: where, and who disagrees)
    where they differ; its timeout
    where the row has none. Returns the row (its rule's changes are gathered in `updates`)."""
    retry, _ = retry_of(statement)
    fallback = fallback_of(statement.on_failure)
    for name, value, current in (("retry", retry, rule.retry), ("fallback", fallback, rule.fallback)):
        if value is None:
            continue
        if current is None or (current == RetryPolicy(max_retries=0) and not row.recovery):
            updates[name] = value
        elif current != value:
            src, line, who = conflict
            src.warn(line, f"{who} the row's {name}; the row's own cell wins", "policy-conflict")
    if statement.timeout_s is not None and row.timeout_s is None:
        row = row.model_copy(update={"timeout_s": statement.timeout_s})
    return row


_rx.save()
