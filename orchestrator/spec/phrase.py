"""One sentence of recovery policy, read into a `PolicyStatement` with the grammar's tables.

    read_phrase("Retry 3 times, waiting 2s between tries")
        → retries=3, wait=fixed 2s
    read_phrase("exponential backoff, max wait 20s")
        → wait=exponential, cap 20s (the count is left to the planner, which says it assumed one)
    read_phrase("If the mirror is down use the backup mirror (`backup-mirror` ...)")
        → on_failure=use_skill backup-mirror, applies_to=transient
    read_phrase("This one is usually fast.")
        → nothing, and nothing to report

The rows of `orchestrator.spec.grammar` are tried in order; each takes the text it
read, so a later row cannot read the same words again. What is left is searched for
the grammar's policy words: a sentence that has one nobody read is reported
(`Phrase.problems`) with the words, never dropped. Parts that contradict each other
("retry 3 times ... never retry") are reported too, and the first one stated wins.
Reading is linear in the sentence's length (bounded patterns, one pass per row): at most
`MAX_SENTENCE` characters are read, and a run of three or more blanks is read as one blank.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from orchestrator.policy import ErrorClass, OnFailure, PolicyStatement, Wait
from orchestrator.spec import grammar as g
from orchestrator.spec.amount_go_on50 import plain as amount50
from orchestrator.spec.done_check50 import said_as_check
from orchestrator.spec.engine_time import negative_times
from orchestrator.spec.error_retry54 import widened54
from orchestrator.spec.grammar_families11 import reason_spans
from orchestrator.spec.grammar_families16 import failure_reason_spans
from orchestrator.spec.grammar_families17 import comma_reason_spans
from orchestrator.spec.grammar_families21 import colon_reason_spans
from orchestrator.spec.grammar_families24 import merged_values, whole_scoped
from orchestrator.spec.held_words44 import held
from orchestrator.spec.lead_in_branch30 import load_reason_spans
from orchestrator.spec.limit_then54 import plain as limit_then54
from orchestrator.spec.named_skills import bare, mark
from orchestrator.spec.normalize import normalize_spans
from orchestrator.spec.notation32 import cause_spans, plain
from orchestrator.spec.notation33 import plain as plain33
from orchestrator.spec.notes38 import approver_silence, asks_approver
from orchestrator.spec.notify_person import gives_up_telling, notice, person_to_tell, polled, told
from orchestrator.spec.per_item55 import plain as per_item55
from orchestrator.spec.phrase_checks import budget_without_repeat, geometric, lost_value
from orchestrator.spec.phrase_value import (
    durations as durations,  # read as phrase.durations (`spec.yaml_node`)
)
from orchestrator.spec.phrase_value import number, value_of
from orchestrator.spec.phrasing35 import plain as plain35
from orchestrator.spec.phrasing38 import plain as plain38
from orchestrator.spec.phrasing42 import plain as plain42
from orchestrator.spec.phrasing42 import whole_scope42
from orchestrator.spec.phrasing45 import plain as plain45
from orchestrator.spec.phrasing45 import whole_scope45
from orchestrator.spec.phrasing46 import plain as plain46
from orchestrator.spec.phrasing46 import whole_scope46
from orchestrator.spec.phrasing48 import plain as plain48
from orchestrator.spec.phrasing48 import whole_scope48
from orchestrator.spec.phrasing49 import plain as plain49
from orchestrator.spec.phrasing50 import plain as plain50
from orchestrator.spec.phrasing52 import plain as plain52
from orchestrator.spec.phrasing52 import whole_scope52
from orchestrator.spec.phrasing53 import plain as plain53
from orchestrator.spec.phrasing54 import plain as plain54
from orchestrator.spec.phrasing55 import plain as plain55
from orchestrator.spec.policy_notation24 import habit_reason_spans, typeset_spaces
from orchestrator.spec.policy_notation25 import whole_scope25
from orchestrator.spec.recovery53 import plain as recovery_plain53
from orchestrator.spec.recovery53 import whole_scope53
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.retry_scope import trailing_reason_spans, widened
from orchestrator.spec.self_correction40 import plain as plain40

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

MAX_SENTENCE = 2_000  # characters read of one sentence; a longer one is read in part and said so
_CLASSES = {c.value: c for c in ErrorClass}
_WORD = _rx(r"[\w'-]+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " ", "*": " "})
# "do not repeat it ... once.": a bare "once" beside a no-retry is the one run it says, not a retry
_RUN_ONCE = _rx(r"(?i)(?:just\s++|only\s++)?(?:once|one\s++time|a\s++single\s++time)")
_BLANK_RUN = _rx(r"\s{3,}")  # in the text as the rows read it (`*` and no-break spaces are blanks there)


def _blank_runs_as_one(text: str) -> str:
    """`text` with each run of three or more blanks (as the rows read it) written as one space:
    the rows read a run of blanks as one blank, and some read a long run again from each of its
    characters (`spec.grammar`'s `escalate` row); so they are never handed one."""
    spans = [m.span() for m in _BLANK_RUN.finditer(text.translate(_QUOTES))]
    if not spans:
        return text
    out: list[str] = []
    last = 0
    for start, end in spans:
        out += [text[last:start], " "]
        last = end
    out.append(text[last:])
    return "".join(out)
class Phrase(BaseModel):
    """What one sentence says, and what of it could not be read."""

    model_config = ConfigDict(frozen=True)

    statement: PolicyStatement = PolicyStatement()
    problems: tuple[str, ...] = ()  # parts not understood or contradicting each other
    signal: bool = False  # the sentence uses words of a policy (other than the ones IGNORE rows explain)
    retry_said: bool = False  # "retry" without a count
    regenerate_said: bool = False  # "regenerate" without a count
    unread: tuple[str, ...] = ()  # the policy words left over
    # another step's script to regenerate ("regenerate the step 2 script (1 attempt)"): (step, regenerations)
    feedback: tuple[str, int | None] | None = None

    @property
    def read(self) -> bool:
        """The sentence states something the plan can use."""
        if self.feedback is not None:
            return True
        return not self.statement.is_empty() and not (
            self.statement.applies_to is not None
            and self.statement.model_copy(update={"applies_to": None}).is_empty()
        )


class _Reading:
    """The parts found in one sentence, before they are put together."""

    def __init__(self, text: str, raw: str, where: list[int], ends: list[int] | None = None) -> None:
        self.text = text
        self.raw = raw
        self.where = where  # each character of `text` → where it starts in `raw`
        self.ends = where if ends is None else ends  # ... and where it ends
        self.taken = bytearray(len(text))
        self.seen: dict[str, list[tuple[Any, str]]] = {}
        self.problems: list[str] = []

    def written(self, start: int, end: int) -> str:
        """What the sentence says, as written, where the normalized text says `text[start:end]`."""
        if start >= end or not self.where:
            return ""
        a, b = self.where[start], self.ends[min(end, len(self.ends)) - 1] + 1
        while 0 < a < len(self.raw) and self.raw[a - 1].isalnum() and self.raw[a].isalnum():
            a -= 1  # a quote is whole words, never the tail of one
        while 0 < b < len(self.raw) and self.raw[b - 1].isalnum() and self.raw[b].isalnum():
            b += 1
        return self.raw[a:b]

    def free(self, start: int, end: int) -> bool:
        return not any(self.taken[start:end])

    def take(self, start: int, end: int) -> None:
        self.taken[start:end] = b"\x01" * (end - start)

    def add(self, slot: str, value: Any, said: str) -> None:
        self.seen.setdefault(slot, []).append((value, said.strip()))

    def first(self, slot: str) -> Any:
        found = self.seen.get(slot)
        return found[0][0] if found else None

    def has(self, slot: str) -> bool:
        return slot in self.seen

    def said(self, slot: str) -> str:
        found = self.seen.get(slot)
        return found[0][1] if found else ""


def read_phrase(text: str, names: Collection[str] = ()) -> Phrase:
    """Read one sentence (module docstring). `names` are the catalog's skill names
    (`Vocabulary.skills`): one written without backticks is read as a skill (`spec.named_skills`).
    A reading depends on the sentence and the names alone and is frozen, so a sentence that
    recurs (each step's "Retry 3 times") is read once."""
    return _read_phrase(text, frozenset(names))


@lru_cache(maxsize=4096)
def _read_phrase(text: str, known: frozenset[str]) -> Phrase:
    text = plain(_blank_runs_as_one(text))  # "retry x3", "@ 00:00:20", "backoff=2s*2" (`spec.notation32`)
    text = plain33(text)  # "activeDeadlineSeconds: 1800" is 1800 s (`spec.notation33`)
    text = plain35(text)  # "a 1-2-4-8 second ladder" is 1 s, 2 s, 4 s, 8 s (`spec.phrasing35`)
    text = plain38(text)  # "a quarter-minute" is 15 s (`spec.phrasing38`)
    text = plain40(text)  # "three times — no, twice" is twice (`spec.self_correction40`)
    text = plain42(text)  # "a full 2 minutes" is 2 minutes, "left empty (null)" null (`spec.phrasing42`)
    text = plain45(text)  # "a 10-second pause, then 40 seconds" is 10 seconds, then 40 (`spec.phrasing45`)
    text = plain46(text)  # "throws a wobbly" is "falls over", a failure of any class (`spec.phrasing46`)
    text = plain48(text)  # "2 1/2 minutes" is 2.5 minutes (`spec.phrasing48`)
    text = recovery_plain53(text)  # "10 s then 20 s then 40 s and so on" a backoff, a bare "throws" "fails" (`spec.recovery53`)
    text = plain49(text)  # "1 s, then 2, 4, 8 and so on" is a backoff from 1 s, x2 (`spec.phrasing49`)
    text = plain50(text)  # "30 sec, then a couple of minutes, then 5 min": 2 minutes (`spec.phrasing50`)
    text = plain52(text)  # "1 h 15 m" is 75 minutes, "doubled each time" doubling (`spec.phrasing52`)
    text = plain55(text)  # "w/ orders = []" is with orders = [], "15 sec each max" 15 sec max each (`spec.phrasing55`)
    text = plain54(text)  # "after 20 s and, if that fails too, after 40 s": a series (`spec.phrasing54`)
    text = plain53(text)  # "after ten seconds, then after thirty, then after a minute": 1 minute (`spec.phrasing53`)
    text = amount50(text)  # "just go £120 n carry on" is carrying on with 120 (`spec.amount_go_on50`)
    text = per_item55(text)  # "20s per ticket max" is 20 s per attempt (`spec.per_item55`)
    text = limit_then54(text)  # "- 90 seconds then fail it" is the attempt's time-out (`spec.limit_then54`)
    raw = text[:MAX_SENTENCE]
    norm, where, ends = normalize_spans(mark(raw, typeset_spaces(raw.translate(_QUOTES)), known), bare(known))
    r = _Reading(norm, raw, where, ends)
    ignored = bytearray(len(norm))
    for compiled in g.COMPILED_IGNORE.rows() if g.COMPILED_IGNORE.applies(norm) else ():
        for m in compiled.regex.finditer(norm):  # what a sentence may say without a policy: no row reads it
            ignored[m.start():m.end()] = b"\x01" * (m.end() - m.start())
    for start, end in negative_times(norm):  # "Whole run: -5 min": never read as 5 min
        r.problems.append(f"'{r.written(start, end).strip()}' is below zero: a time is above zero, so it is not read "
                          "(write it without the minus)")
        ignored[start:end] = b"\x01" * (end - start)
    r.taken = bytearray(ignored)
    classes: list[str] = []
    vaguely_said = False
    for table in g.COMPILED:
        if not table.applies(norm):
            continue
        for compiled in table.rows():
            row = compiled.row
            for m in compiled.regex.finditer(norm):
                if m.end() == m.start() or not r.free(m.start(), m.end()):
                    continue
                if compiled.needs is not None and not compiled.needs.search(norm):
                    continue
                if row.slot == "ambiguous":  # what to write, with the author's own time where it has one
                    vaguely_said = True  # a policy said too vaguely to read: the sentence states one
                    said = m.group("d1") if m.groupdict().get("d1") else "4h"  # normalised: "a day" is "1 day"
                    r.problems.append(f"'{r.written(m.start(), m.end()).strip()}': {str(row.value).replace('{time}', said)}")
                    r.take(m.start(), m.end())
                    continue
                value = value_of(row.slot, row, m)
                if row.slot == "escalate" and value and m.groupdict().get("msg"):
                    value = r.written(m.start("msg"), m.end("msg")).strip(" ,;:")  # who to tell, as written
                elif row.slot == "value_literal" and isinstance(value, str) and m.group("value")[:1] == '"':
                    value = r.written(m.start("value") + 1, m.end("value") - 1)  # a quoted text, as written
                if value is None:
                    continue
                said = r.written(m.start(), m.end())
                r.add(row.slot, value, said)
                for extra in row.also:
                    if extra.startswith("class:"):
                        classes.append(extra.split(":", 1)[1])
                    else:
                        r.add(extra, True, said)
                r.take(m.start(), m.end())
    for compiled in g.COMPILED_IMPLIED if any(ignored) and "longer" in norm else ():
        if r.has(compiled.row.slot):
            continue
        for m in compiled.regex.finditer(norm):  # over IGNORE's words, never over a policy row's
            if any(a & ~b & 1 for a, b in zip(r.taken[m.start():m.end()], ignored[m.start():m.end()], strict=True)):
                continue
            value = value_of(compiled.row.slot, compiled.row, m)
            if value is not None:
                r.add(compiled.row.slot, value, r.written(m.start(), m.end()))
                r.take(m.start(), m.end())
                ignored[m.start():m.end()] = b"\x00" * (m.end() - m.start())
                break
    read = bytes(a & ~b & 1 for a, b in zip(r.taken, ignored, strict=True))  # taken by a policy row
    accounted = bytearray(r.taken)
    policy_like = bool(r.seen) or any(ignored) or g.signals().search(norm) is not None
    reasons = bytearray(len(norm))
    for start, end in (*reason_spans(norm), *failure_reason_spans(norm), *comma_reason_spans(norm),
                       *trailing_reason_spans(norm), *colon_reason_spans(norm), *habit_reason_spans(norm),
                       *load_reason_spans(norm), *cause_spans(norm)) if policy_like else ():  # "the share is slow, so ...": why, not which failures
        reasons[start:end] = b"\x01" * (end - start)
    for compiled in g.COMPILED_CONTEXT if policy_like else ():
        for m in compiled.regex.finditer(norm):
            if m.end() == m.start() or any(read[m.start():m.end()]):
                continue
            if any(reasons[m.start():m.end()]):
                accounted[m.start():m.end()] = b"\x01" * (m.end() - m.start())
                continue
            classes.append(str(compiled.row.value))
            accounted[m.start():m.end()] = b"\x01" * (m.end() - m.start())
    for compiled in g.COMPILED_DOUBT if policy_like else ():
        if any(r.has(slot) for slot in compiled.row.unless):
            continue
        vague = compiled.regex.search(norm)
        if compiled.row.slot == "no_count":  # "retry with backoff": the retry was read, its count was not
            if vague is not None and r.has("retry_bare"):
                r.problems.append(f"'{r.written(vague.start(), vague.end()).strip()}': {compiled.row.value}")
            continue
        if vague is not None and not all(read[vague.start():vague.end()]) and not all(ignored[vague.start():vague.end()]):
            r.problems.append(f"'{r.written(vague.start(), vague.end()).strip()}': {compiled.row.value}")
            accounted[vague.start():vague.end()] = b"\x01" * (vague.end() - vague.start())
    left = "".join(ch if not accounted[i] else " " for i, ch in enumerate(norm))
    unread = tuple(dict.fromkeys(" ".join(r.written(m.start(), m.end()).split()) for m in g.signals().finditer(left)))
    statement, retry_said, regenerate_said = _assemble(r, classes)
    statement = widened(norm, statement)  # "if it still fails, ...": for every failure (`spec.retry_scope`)
    statement = widened54(norm, statement)  # "It can hang ..., and if it errors try twice more" (`spec.error_retry54`)
    statement = whole_scoped(norm, statement)  # "from first step to last, ... 90 min": the whole run's
    statement = whole_scope25(norm, statement)  # "everything together ... 25 minutes" (`spec.policy_notation25`)
    statement = whole_scope42(norm, statement)  # "every step included, ... three hours" (`spec.phrasing42`)
    statement = whole_scope45(norm, statement)  # "overall this run must wrap up inside 8 minutes" (`spec.phrasing45`)
    statement = whole_scope46(norm, statement)  # "the entire sequence ... after 2.5 hours" (`spec.phrasing46`)
    statement = whole_scope48(norm, statement)  # "Entire nightly batch is capped at 3 h" (`spec.phrasing48`)
    statement = whole_scope52(norm, statement)  # "top to bottom ... finished in 3 days" (`spec.phrasing52`)
    statement = whole_scope53(norm, statement)  # "from the first step starting to the last one finishing" (`spec.recovery53`)
    statement = budget_without_repeat(norm, statement, retry_said)
    unread = held(unread, statement, norm)  # "retry x3, wait 10s first ...": the wait was read (`spec.held_words44`)
    problems = list(r.problems)
    if policy_like and not r.has("escalate") and (tell := person_to_tell(left)) is not None \
            and not polled(r.raw, r.written(*tell)):  # "then call the conservator"; "ping the inbox every 2 min" a poll
        problems.append(notice(r.written(*tell), "the step's policy is read without it"))
    lost = lost_value(norm, statement)
    if lost is not None:
        problems.append(f"'{lost}' looks like the value to go on with, but it was not read; "
                        "the step goes on without an output (write 'continue with `{...}`')")
    if unread:
        problems.append("not understood: " + ", ".join(f"'{u}'" for u in unread))
    if len(text) > MAX_SENTENCE:
        problems.append(f"only the first {MAX_SENTENCE} characters were read")
    signal = bool(r.seen) or bool(unread) or vaguely_said  # policy words that no row read and no IGNORE row explained
    return Phrase(statement=statement, problems=tuple(problems), signal=signal, retry_said=retry_said,
                  regenerate_said=regenerate_said, unread=unread, feedback=r.first("feedback"))


def _conflict(r: _Reading, slot: str, what: str) -> None:
    values = r.seen.get(slot, [])
    distinct = list(dict.fromkeys(json.dumps(v, sort_keys=True, default=str) for v, _ in values))
    if len(distinct) > 1:
        r.problems.append(f"{what} stated twice ({', '.join(repr(s) for _, s in values)}); the first is used")


def _wait(r: _Reading) -> Wait | None:
    jitter: bool | None = False if r.has("jitter_off") else True if r.has("jitter_on") else None
    exp = {k: r.first(s) for k, s in (("start_s", "exp_start"), ("factor", "exp_factor"), ("cap_s", "exp_cap"))}
    if r.has("exp_range"):  # "exponential backoff 2s..64s": where it starts and where it stops
        start, cap = r.first("exp_range")
        exp["start_s"] = exp["start_s"] if exp["start_s"] is not None else start
        exp["cap_s"] = exp["cap_s"] if exp["cap_s"] is not None else cap
    exp_said = r.has("exponential") or any(v is not None for v in exp.values())
    if r.has("wait_seq"):
        seq = r.first("wait_seq")
        if r.has("series_open"):  # "3s, 6s, 12s ...": a backoff that goes on by its factor (or the series, said)
            return geometric(r, seq, exp["cap_s"], jitter)
        if r.has("wait_fixed") and (r.first("wait_fixed"),) != tuple(seq[:1]):
            r.problems.append(f"'{r.said('wait_fixed')}' and '{r.said('wait_seq')}' give different waits; "
                              "the series is used")
        return Wait(kind="sequence", seconds=tuple(seq), jitter=jitter)
    if r.has("wait_fixed"):
        _conflict(r, "wait_fixed", "the wait")
        if exp_said and r.has("exponential"):
            # "exponential backoff with a 2s delay": the delay is where the backoff starts
            return Wait(kind="exponential", start_s=exp["start_s"] or r.first("wait_fixed"), factor=exp["factor"],
                        cap_s=exp["cap_s"], jitter=jitter)
        if exp["cap_s"] is not None or exp["factor"] is not None:
            r.problems.append(f"'{r.said('wait_fixed')}' is a fixed wait, but "
                              f"'{r.said('exp_cap') or r.said('exp_factor')}' belongs to a backoff; the fixed wait is used")
        if r.has("wait_range"):  # "8-12 s apart": the plan's waits are no range (`spec.grammar_families13`)
            r.problems.append(f"'{r.said('wait_range')}' is a range of waits; read as its start, "
                              f"{r.first('wait_fixed'):g} s between tries (a plan's wait is one time): "
                              "write one wait, e.g. 'retry 3 times, 10 s apart'")
        return Wait(kind="fixed", seconds=(r.first("wait_fixed"),), jitter=jitter)
    if exp_said:
        if r.has("wait_none"):
            r.problems.append(f"'{r.said('wait_none')}' contradicts the backoff; the backoff is used")
        return Wait(kind="exponential", jitter=jitter, **exp)
    if r.has("wait_none"):
        return Wait(kind="none")
    if jitter is not None:
        return Wait(kind="exponential", jitter=jitter)
    return None


def _on_failure(r: _Reading) -> OnFailure | None:
    if r.has("use_step"):
        word = str(r.first("use_step"))
        n = int(word) if word.isdigit() else int(number(word) or 0)
        return OnFailure(kind="use_step", step=f"step-{n}")
    if r.has("use_skill"):
        if r.has("fail"):  # "run page-oncall and stop the run": neither a fallback nor a plain failure
            r.problems.append(f"'{r.said('use_skill')}' names a skill to run after a failure, but "
                              f"'{r.said('fail')}' stops the run; the skill is used as the fallback")
        return OnFailure(kind="use_skill", skill=str(r.first("use_skill")).strip("`"))
    value_said = next((s for s in ("value_pairs", "value_fields", "value_field", "value_nos", "value_literal", "value_blank",
                                   "value_empty")
                       if r.has(s)), None)
    if value_said and not r.has("continue") and not r.has("fail") and said_as_check(r.raw):
        # "its done when the text has gone (sent = true)": a check of success, never a fallback value; the check
        # is read (or warned) at its line by `spec.whole_success` (`spec.done_check50`)
        value_said = None
    if r.has("escalate") and polled(r.raw, str(r.first("escalate"))):  # "ping the inbox every 2 minutes": a poll
        del r.seen["escalate"]
    if r.has("escalate") and told(r.raw, str(r.first("escalate")), bool(value_said or r.has("continue"))):
        # "carry on with printed = 0 and ping me", "email Priya when it finishes": a message, no fallback
        kept = "the step carries on as written" if value_said or r.has("continue") else "no fallback is read from it"
        r.problems.append(notice(str(r.first("escalate")), kept))
        del r.seen["escalate"]
    if r.has("escalate") and gives_up_telling(r.raw, str(r.first("escalate"))):
        # "after that stop and email Dolores", "give up and email me": the step fails; the message is not sent
        r.problems.append(notice(str(r.first("escalate")), "the step fails, as the sentence says"))
        del r.seen["escalate"]
        return OnFailure(kind="fail")
    if r.has("escalate") and asks_approver(r.raw, str(r.first("escalate"))):  # "OK it first. message her on Teams"
        r.problems.append(notice(str(r.first("escalate")), "it is read as how the approval is asked, no fallback"))
        del r.seen["escalate"]
    if r.has("escalate"):
        if value_said or r.has("continue"):
            r.problems.append(f"'{r.said('escalate')}' and '{r.said(value_said or 'continue')}' both say what "
                              "follows a failure; the escalation is used")
        return OnFailure(kind="escalate", message=str(r.first("escalate")) or None)
    if value_said == "value_field":
        field, value = r.first("value_field")
        return OnFailure(kind="continue_with_value", field=field, value=value)
    if value_said in ("value_nos", "value_fields", "value_pairs"):  # every field the sentence names
        return OnFailure(kind="continue_with_value", value=merged_values([
            *r.seen.get("value_pairs", []), *r.seen.get("value_fields", []), *r.seen.get("value_nos", [])]))
    if value_said in ("value_literal", "value_blank"):
        return OnFailure(kind="continue_with_value", value=r.first(value_said))
    if value_said == "value_empty":  # "an empty list" is [], "empty docs" the contract's empty value
        value = r.first("value_empty")
        return OnFailure(kind="continue_with_value", value=None if value is True else value)
    if r.has("fail") and r.has("continue"):
        r.problems.append(f"'{r.said('fail')}' and '{r.said('continue')}' contradict each other; "
                          "the run fails")
        return OnFailure(kind="fail")
    if r.has("fail"):
        return OnFailure(kind="fail")
    if r.has("continue"):
        return OnFailure(kind="continue")
    return None


_FALLBACK_SLOTS = {"escalate": "escalate", "continue": "continue", "use_skill": "use_skill", "use_step": "use_step"}
_VALUE_SLOTS = ("value_pairs", "value_fields", "value_field", "value_nos", "value_literal", "value_blank", "value_empty")


def _assemble(r: _Reading, classes: list[str]) -> tuple[PolicyStatement, bool, bool]:
    fields: dict[str, Any] = {}
    no_retry = r.has("no_retry")
    attempts = r.first("attempts")
    retries = r.first("retries") if r.has("retries") or attempts is not None else r.first("retries_soft")
    _conflict(r, "retries", "the number of retries")
    _conflict(r, "attempts", "the number of attempts")
    if no_retry and ((retries or 0) > 0 or (attempts or 1) > 1):
        said = r.said("retries") or r.said("retries_soft") or r.said("attempts")
        # "never repeat it. once.": the single run, said again, agrees with it
        if not (retries == 1 and attempts is None and _RUN_ONCE.fullmatch((said or "").strip())):
            r.problems.append(f"'{r.said('no_retry')}' and '{said}' contradict each other; no retry is used")
        retries = attempts = None
    if retries is not None and attempts is not None and retries != attempts - 1:
        r.problems.append(f"'{r.said('retries')}' and '{r.said('attempts')}' give different counts; "
                          f"{retries} retries are used")
        attempts = None
    if no_retry or retries == 0 or attempts == 1:
        fields["no_retry"] = True
    elif retries is not None:
        fields["retries"] = min(int(retries), 1000)
    elif attempts is not None:
        fields["max_attempts"] = min(int(attempts), 1001)
    if fields.get("no_retry") and r.has("exp_cap") and not r.has("exponential") and not r.has("timeout"):
        r.seen["timeout"] = r.seen.pop("exp_cap")  # "no second tries; cap at 15 s": no backoff to cap, the attempt's time
    wait = _wait(r)
    if wait is not None and not (fields.get("no_retry") and wait.kind == "none"):
        fields["wait"] = wait
    if r.has("run_timeout") and r.first("run_timeout") == r.first("timeout"):  # "`timeout 40m`: the whole thing
        r.seen.pop("timeout")                                                  # dies after 40 minutes": one limit
    for slot, name in (("budget", "for_up_to_s"), ("timeout", "timeout_s"), ("run_timeout", "timeout_s")):
        if r.has(slot) and name not in fields:
            _conflict(r, slot, "the time")
            fields[name] = r.first(slot)
            if slot == "run_timeout":
                fields["whole_run"] = True
    regenerate_said = False
    if r.has("regenerate"):
        n = r.first("regenerate")
        if n is True:
            regenerate_said = True
        else:
            fields["regenerate"] = int(n)
    on_failure = _on_failure(r)
    if on_failure is not None and fields.get("whole_run") and on_failure.kind != "fail":
        slot = _FALLBACK_SLOTS.get(on_failure.kind) or next((v for v in _VALUE_SLOTS if r.has(v)), "escalate")
        r.problems.append(f"'{r.said(slot)}' after the whole run's limit is "
                          "not read: a run past its limit fails (the limit is read)")
        on_failure = None
    if on_failure is not None:
        fields["on_failure"] = on_failure
    if "emphasis" in classes:  # "under any circumstances" beside a no-retry: the step's own, said strongly
        emphasis_only = fields.get("no_retry") and on_failure is None
        classes = [c for c in classes if c != "emphasis"] if emphasis_only else [
            "any" if c == "emphasis" else c for c in classes]
    if "unusable" in classes:  # "dead or slow": every failure beside a fallback, transient (timeouts too) beside a retry
        classes = [] if on_failure is not None else ["transient"]
    if "availability" in classes:  # "unavailable", "flaky": no class beside a fallback, transient beside a retry
        classes = [c for c in classes if c != "availability"] if on_failure is not None else [
            "transient" if c == "availability" else c for c in classes]
    if "timeout" in classes and approver_silence(r.raw):  # "... OK it first. no answer = DONT send" (`notes38`)
        classes = [c for c in classes if c != "timeout"]
    if "timeout" in classes and "transient" in classes and "any" not in classes:
        classes = [c for c in classes if c != "timeout"]  # "on 429s and timeouts": transient covers both
    if classes and not fields.get("whole_run"):
        fields["applies_to"] = "any" if classes[0] == "any" else _CLASSES[classes[0]]
    retry_said = r.has("retry_bare") and "retries" not in fields and "max_attempts" not in fields and not no_retry
    try:
        statement = PolicyStatement(**fields)
    except ValidationError as exc:  # "Max total attempts: 0": said, not read, never an internal error
        for error in exc.errors():
            name = str(error["loc"][0]) if error["loc"] else ""
            r.problems.append(f"{name.replace('_', ' ')} {error.get('input')!r} is not read: "
                              f"{str(error['msg']).lower()}")
            fields.pop(name, None)
        statement = PolicyStatement(**fields)
    return statement, retry_said, regenerate_said


# a YAML key's words, put before its value so the value reads as the sentence it is
_KEY_WORDS = {"retry": "retry", "retries": "retry", "max_retries": "retries:", "attempts": "attempts:",
              "max_attempts": "max attempts:", "timeout": "timeout", "attempt_timeout": "timeout",
              "wait": "wait", "delay": "wait", "backoff": "backoff", "on_fail": "on failure,",
              "on_failure": "on failure,", "on_error": "on error,", "if_still_failing": "if it still fails,",
              "fallback": "on failure,", "else": "otherwise,", "otherwise": "otherwise,",
             "clock": "timeout", "time_limit": "timeout", "time_box": "timeout", "timebox": "timeout",
             "deadline": "timeout", "max_runtime": "timeout", "runtime_cap": "timeout", "stopwatch": "timeout"}


def read_policy_value(key: str, value: str) -> Phrase:
    """A YAML policy value as the sentence its key and value make: `retry: 3x, 2s apart` is read
    as "retry 3x, 2s apart", `retry: never` as no retry, `on_fail: page #payroll` as an
    escalation. A key not known is put before the value as written (`_` as a space)."""
    words = _KEY_WORDS.get(key.strip().lower(), key.strip().replace("_", " "))
    text = str(value).strip()
    if text.lower() in ("never", "no", "none", "off", "false", "0") and words in ("retry", "retries:"):
        return read_phrase(f"no retry ({key}: {text})")
    return read_phrase(f"{words} {text}")


_rx.save()
