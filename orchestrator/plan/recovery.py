"""A step's recovery policy and the run's limits, merged from every place that states them.

The places, most specific first:

    bullet      a labelled bullet (`- Retries:`, `- Timeout:`, `- On error:`) or a YAML step key
    step text   a sentence of the step's own section ("Give it 60 seconds.")
    table       the Error Recovery table's rows and bullets that name the step, then
                its catch-alls written for every step ("anything not listed below")
    convergence the Convergence Criteria's per-step bounds ("(3 retries)", ">10 sec")
    workflow    the YAML form's workflow keys and the workflow-wide sentences
                ("If a step still fails after its retries, stop the whole workflow.")

Per step, each field takes the first place that states it:

    retry          bullet > step text > the table's transient row (transient, else timeout,
                   else a catch-all: the step's own before one for every step) >
                   workflow > none. A place that states only a count ("Max Attempts 4",
                   "- Retries: 3") gives the count, and the first later place that states
                   waits gives the waits. A Convergence count ("(3 retries)") always sets
                   the number of retries; the waits stay.
    attempt_timeout bullet > step text > Convergence (">10 sec") > a timeout row's
                   detection ("No response after 5s") or a table sentence > workflow
                   ("No single step should take more than 5 sec") > the skill's
                   `skillweave.timeout` > none
    regenerations  step text > the code-error row (else a catch-all row) > 0
    fallback       `- On error:` > step text > the step's catch-all row > the fallback
                   every row of the step agrees on > a table sentence > the catch-alls for
                   every step > workflow > FAIL
    on_error       `- On error:` > "continue" when the fallback is CONTINUE > "fail"
    feedback       a row's "regenerate step N" > Convergence ("Step 4 ... Step 3 regeneration
                   (2 attempts max)"); its bound from Convergence, else the row, else 2
    rules          per error class, one rule merged from the sentences and rows that name
                   the class, most specific first: a catch-all never hides a specific row
    non_retryable  Convergence ("can't import module (unrecoverable)")

When two places state a field differently, the plan keeps the first and a warning
says which one won. A sentence's statement becomes policy through
`spec.effect`. Each decision is recorded with its provenance under
`policy.<field>`: the spec line, "llm" for a sentence the model read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import Diagnostic
from orchestrator.kinds import BoundSkill
from orchestrator.plan.carry_ref31 import (
    carry_sentence,
    outweighs,
    unread_carries,
    with_said_fields,
)
from orchestrator.plan.continue_from29 import assumed_output, unread_fields
from orchestrator.plan.location import from_default, from_spec, warning_at
from orchestrator.plan.model import Provenance, StepPolicy
from orchestrator.plan.outage_fallback import note as outage_note
from orchestrator.plan.outage_fallback import pictured_failure
from orchestrator.policy import (
    ErrorClass,
    Fallback,
    FallbackAction,
    FeedbackPolicy,
    Limits,
    RecoveryRule,
    RetryPolicy,
)
from orchestrator.spec.effect import Effect, assumed_retries, effect_of
from orchestrator.spec.model import RecoveryRowSpec, SentenceReading, StepSpec, WorkflowSpec
from orchestrator.spec.phrase import read_phrase

DEFAULT_FEEDBACK_ATTEMPTS = 2
CONFLICT_CODE = "policy-conflict"


class PolicyDraft(BaseModel):
    model_config = ConfigDict(frozen=True)

    policy: StepPolicy
    provenance: dict[str, Provenance]
    warnings: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class _Said:
    """One place's statement about a step: its effect and where it was written."""

    effect: Effect
    place: str  # bullet | step text | table | convergence | workflow
    prov: Provenance
    text: str  # what the warnings quote
    count_only: bool = False  # a retry count without waits ("max attempts: 4", "retry twice")
    budget_only: bool = False  # a time for all the tries and nothing else ("gets 2 minutes in total for its tries")


def _row_note(row: RecoveryRowSpec) -> str:
    return f"Error Recovery row: {row.rule.failure or row.recovery}".strip()


def _reading_prov(r: SentenceReading, label: str) -> Provenance:
    if r.source == "llm":
        return Provenance(source="llm", where=r.where, note=f"{label}, read by {r.model or 'the model'}: '{r.text}'")
    return from_spec(r.where, f"{label}: '{r.text}'")


def _place(r: SentenceReading, step: StepSpec) -> str:
    if r.section in ("step", "success") and step.id in r.steps:
        return "step text"
    if r.section == "convergence" and not r.steps:
        return "workflow"
    return "table" if r.steps and r.specific else "workflow"


def _said_of(r: SentenceReading, place: str) -> _Said:
    label = {"step text": "step text", "table": "Error Recovery", "workflow": "workflow-wide"}[place]
    if r.section == "convergence":
        label = "Convergence Criteria"
    s = r.statement
    count_only = s.wait is None and s.for_up_to_s is None and not s.no_retry
    budget_only = (s.for_up_to_s is not None and s.wait is None and s.retries is None and s.max_attempts is None
                   and not s.no_retry)
    return _Said(effect_of(r.statement), place, _reading_prov(r, label), r.text, count_only, budget_only)


@dataclass(frozen=True)
class _Index:
    """A spec's sentences and recovery rows by the step they name, built once per spec (the plan asks for every
    step's): the sentences that name no step, read once (workflow-wide for every step); linear in the spec."""

    spec: WorkflowSpec
    general: list[tuple[int, _Said]]
    named: dict[str, list[tuple[int, SentenceReading]]]
    rows: dict[str, list[RecoveryRowSpec]]


_LAST: list[_Index] = []  # the last spec's index: a plan is drafted step by step for one spec


def _index(spec: WorkflowSpec) -> _Index:
    if _LAST and _LAST[0].spec is spec:
        return _LAST[0]
    general: list[tuple[int, _Said]] = []
    named: dict[str, list[tuple[int, SentenceReading]]] = {}
    for i, r in enumerate(spec.readings):
        if not r.steps:
            general.append((i, _said_of(r, "workflow")))
        for sid in dict.fromkeys(r.steps):
            named.setdefault(sid, []).append((i, r))
    rows: dict[str, list[RecoveryRowSpec]] = {}
    for row in spec.recovery:
        rows.setdefault(row.step, []).append(row)
    _LAST[:] = [_Index(spec, general, named, rows)]
    return _LAST[0]


def _said(spec: WorkflowSpec, step: StepSpec) -> list[_Said]:
    """Every sentence that applies to `step`, most specific place first."""
    order = {"step text": 0, "table": 1, "workflow": 3}
    index = _index(spec)
    found: list[tuple[int, int, _Said]] = [(order["workflow"], i, s) for i, s in index.general]
    for i, r in index.named.get(step.id, ()):
        place = _place(r, step)
        found.append((order[place], i, _said_of(r, place)))
    return [s for _, _, s in sorted(found, key=lambda t: (t[0], t[1]))]


def _rows_on(rows: list[RecoveryRowSpec], *classes: ErrorClass | str) -> list[RecoveryRowSpec]:
    """Rows of those classes, class by class, the step's own rows before those for every step."""
    return [r for klass in classes for every in (False, True) for r in rows
            if r.rule.on == klass and r.every_step == every]


@dataclass(frozen=True)
class _Cand:
    """A value one place states for a field. A quiet one (a catch-all, a workflow-wide
    default) is meant to be overridden: losing is no conflict."""

    value: object
    prov: Provenance
    text: str
    quiet: bool = False
    count_only: bool = False  # a retry that states its count and no waits


class _Merge:
    """Collects the candidates for each field and the warnings about the losers."""

    def __init__(self, step: StepSpec, path: str) -> None:
        self.step = step
        self.path = path
        self.warnings: list[Diagnostic] = []

    def conflict(self, field: str, winner: _Cand, loser: _Cand) -> None:
        self.warnings.append(warning_at(
            loser.prov.where or winner.prov.where, self.path,
            f"{self.step.id}: {field} '{loser.text}' ({loser.prov.where or loser.prov.note}) disagrees with "
            f"'{winner.text}' ({winner.prov.where or winner.prov.note}); '{winner.text}' wins", CONFLICT_CODE))

    def pick(self, field: str, candidates: list[_Cand]) -> _Cand | None:
        """The first candidate; each later one that states something else is a warning naming the winner."""
        if not candidates:
            return None
        winner = candidates[0]
        for other in candidates[1:]:
            if other.value != winner.value and not other.quiet:
                self.conflict(field, winner, other)
        return winner


def _retry(step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec], said: list[_Said],
           merge: _Merge) -> tuple[RetryPolicy, Provenance]:
    conv = spec.convergence
    candidates: list[_Cand] = []
    if step.retry is not None:
        where = step.field_where.get("retries", step.where)
        # a bare count (`retry: 3`) takes the waits the step's words give (a comment beside it, `key_comments27`)
        candidates.append(_Cand(step.retry, from_spec(where, "step retry"), "retry",
                                count_only=step.retry == RetryPolicy(max_retries=step.retry.max_retries)))
    elif step.retries is not None:
        where = step.field_where.get("retries", step.where)
        candidates.append(_Cand(RetryPolicy(max_retries=step.retries), from_spec(where, "Retries bullet"), "Retries",
                                count_only=True))
    candidates += [_Cand(s.effect.retry, s.prov, s.text, count_only=s.count_only) for s in said
                   if s.place == "step text" and s.effect.on is None and s.effect.retry is not None]
    for row in _rows_on(rows, ErrorClass.TRANSIENT, ErrorClass.TIMEOUT, "any"):
        retry = row.rule.retry
        # a timeout row that only says "no retry" leaves the step's retry to the other rows
        if retry is not None and (retry.max_retries > 0 or (row.rule.on == "any" and not row.every_step)):
            candidates.append(_Cand(retry, from_spec(row.where, _row_note(row)), row.recovery or row.rule.failure,
                                    quiet=row.every_step))
    candidates += [_Cand(s.effect.retry, s.prov, s.text, quiet=s.place == "workflow") for s in said
                   if s.place in ("table", "workflow") and s.effect.on is None and s.effect.retry is not None]
    if spec.retry is not None:
        candidates.append(_Cand(spec.retry, from_spec(spec.retry_where or spec.path, "workflow retry"),
                                "workflow retry", quiet=True))
    budgets = [c for c in candidates if c.text in {s.text for s in said if s.budget_only}]
    if budgets and len(budgets) < len(candidates):  # a time for all the tries bounds the retry another place states
        candidates = [c for c in candidates if c not in budgets]
    chosen = _pick_retry(merge, candidates)
    if chosen is not None and budgets and budgets[0] not in candidates:
        budget = budgets[0].value
        assert isinstance(chosen.value, RetryPolicy) and isinstance(budget, RetryPolicy)
        if chosen.value.budget_s is None and budget.budget_s is not None:
            note = f"{chosen.prov.note}; within the time budget of {budgets[0].prov.where or budgets[0].prov.note}"
            chosen = _Cand(chosen.value.model_copy(update={"budget_s": budget.budget_s}),
                           chosen.prov.model_copy(update={"note": note}), chosen.text)
    count = conv.step_retries.get(step.id)
    count_where = conv.where.get(f"{step.id}.retries")
    if count is not None:
        if chosen is None:
            return RetryPolicy(max_retries=count), from_spec(count_where, "Convergence Criteria retry limit")
        policy, prov = chosen.value, chosen.prov
        assert isinstance(policy, RetryPolicy)
        if policy.max_retries != count:
            merge.conflict("retry count", _Cand(count, from_spec(count_where, "Convergence Criteria"),
                                                 f"{count} retries"), _Cand(policy.max_retries, prov, chosen.text))
            note = f"{prov.note}; {count} retries per Convergence Criteria ({count_where})"
            return policy.model_copy(update={"max_retries": count}), prov.model_copy(update={"note": note})
        return policy, prov.model_copy(update={"note": f"{prov.note}; agrees with {count_where}"})
    if chosen is not None:
        assert isinstance(chosen.value, RetryPolicy)
        return chosen.value, chosen.prov
    return RetryPolicy(), from_default("no retries")


def _pick_retry(merge: _Merge, candidates: list[_Cand]) -> _Cand | None:
    """The first candidate; when it states only a count ("Max Attempts 4", "- Retries: 3"), with
    the waits of the first later one that states them ("retry 3 times, waiting 2s between
    tries"). A later count that differs is a warning; waits alone never conflict with a count."""
    if not candidates or not candidates[0].count_only:
        return merge.pick("retry", candidates)
    first = candidates[0]
    assert isinstance(first.value, RetryPolicy)
    count = first.value.max_retries
    for other in candidates[1:]:
        assert isinstance(other.value, RetryPolicy)
        if other.value.max_retries != count and not other.quiet:
            merge.conflict("retry count", first, other)
    timed = next((c for c in candidates[1:] if not c.count_only), None)
    if timed is None or not isinstance(timed.value, RetryPolicy) or timed.value.max_retries == 0:
        return first
    value = timed.value.model_copy(update={"max_retries": count})
    if value == first.value:
        return first
    note = f"{first.prov.note}; the waits from {timed.prov.where or timed.prov.note}"
    return _Cand(value, first.prov.model_copy(update={"note": note}), first.text)


def _timeout(step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec], skill: BoundSkill | None,
             said: list[_Said], merge: _Merge) -> tuple[float | None, Provenance]:
    conv = spec.convergence
    candidates: list[_Cand] = []
    if step.timeout_s is not None:
        candidates.append(_Cand(step.timeout_s, from_spec(step.field_where.get("timeout", step.where),
                                                          "Timeout bullet"), "Timeout"))
    candidates += [_Cand(s.effect.attempt_timeout_s, s.prov, s.text) for s in said
                   if s.place == "step text" and s.effect.attempt_timeout_s is not None]
    if step.id in conv.step_timeouts_s:
        candidates.append(_Cand(conv.step_timeouts_s[step.id], from_spec(conv.where.get(f"{step.id}.timeout"),
                                                                          "Convergence Criteria timeout"),
                                "Convergence Criteria"))
    timed = [r for r in _rows_on(rows, ErrorClass.TIMEOUT, ErrorClass.TRANSIENT, "any") if r.timeout_s]
    timed += [r for r in rows if r.timeout_s and r not in timed]
    if timed:
        # a detection cell says when a failure is noticed: it yields to any stated timeout
        candidates.append(_Cand(timed[0].timeout_s, from_spec(timed[0].where, f"{_row_note(timed[0])} (detection)"),
                                timed[0].detection or timed[0].rule.failure, quiet=True))
    candidates += [_Cand(s.effect.attempt_timeout_s, s.prov, s.text, quiet=s.place == "workflow") for s in said
                   if s.place in ("table", "workflow") and s.effect.attempt_timeout_s is not None]
    chosen = merge.pick("timeout", candidates)
    if chosen is not None:
        assert isinstance(chosen.value, float | int)
        return float(chosen.value), chosen.prov
    if skill is not None and skill.timeout_s is not None:
        return skill.timeout_s, Provenance(source="skill", where=f"{skill.path}/SKILL.md", note="skillweave.timeout")
    return None, from_default("no attempt timeout; the run's wall time bounds the step")


def _regenerations(rows: list[RecoveryRowSpec], said: list[_Said], merge: _Merge) -> tuple[int, Provenance]:
    candidates = [_Cand(s.effect.regenerations, s.prov, s.text) for s in said
                  if s.place == "step text" and s.effect.regenerations is not None
                  and s.effect.on in (None, ErrorClass.CODE_ERROR)]
    row = next((r for r in _rows_on(rows, ErrorClass.CODE_ERROR, "any") if r.rule.regenerate), None)
    if row is not None and row.rule.regenerate is not None:
        candidates.append(_Cand(row.rule.regenerate, from_spec(row.where, _row_note(row)), row.recovery,
                                quiet=row.every_step))
    chosen = merge.pick("regeneration", candidates)
    if chosen is not None:
        assert isinstance(chosen.value, int)
        return chosen.value, chosen.prov
    return 0, from_default("no regeneration")


def _fallback(step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec], said: list[_Said],
              merge: _Merge, outputs: tuple[str, ...] = ()) -> tuple[Fallback, Provenance]:
    candidates: list[_Cand] = []
    if step.on_error is not None:
        action = FallbackAction.CONTINUE if step.on_error == "continue" else FallbackAction.FAIL
        candidates.append(_Cand(Fallback(action=action), from_spec(step.field_where.get("on_error", step.where),
                                                                   f"on_error: {step.on_error}"),
                                f"on error: {step.on_error}"))
    carried = {id(s): f for s in said if s.place == "step text" and s.effect.on is None
               and (f := carry_sentence(s.text, s.prov.where)) and outweighs(f, s.effect.fallback)}
    candidates += [_Cand(carried.get(id(s), s.effect.fallback), s.prov, s.text) for s in said
                   if s.place == "step text" and s.effect.on is None
                   and (s.effect.fallback is not None or id(s) in carried)]
    read_at = {s.prov.where for s in said if s.place == "step text"}
    for where, text, carrying in [u for u in unread_carries(spec.unread, step.id) if u[0] not in read_at][:1]:
        candidates.append(_Cand(carrying, from_spec(where, f"step text: '{text}', a value carried from earlier data"),
                                text))
    own_any = next((r for r in _rows_on(rows, "any") if r.rule.fallback is not None and not r.every_step), None)
    if own_any is not None:
        candidates.append(_Cand(own_any.rule.fallback, from_spec(own_any.where, _row_note(own_any)),
                                own_any.fallback_text or own_any.recovery))
    stated = [r for r in rows if r.rule.fallback is not None and not r.every_step]
    distinct = {r.rule.fallback.model_dump_json() for r in stated if r.rule.fallback is not None}
    if stated and len(distinct) == 1 and stated[0].rule.fallback is not None and own_any is None:
        lines = ", ".join(r.where.rpartition(":")[2] for r in stated)
        candidates.append(_Cand(stated[0].rule.fallback,
                                from_spec(stated[0].where, f"every Error Recovery row agrees (lines {lines})"),
                                stated[0].fallback_text or stated[0].recovery, quiet=True))
    candidates += [_Cand(s.effect.fallback, s.prov, s.text) for s in said
                   if s.place == "table" and s.effect.on is None and s.effect.fallback is not None]
    every_any = next((r for r in _rows_on(rows, "any") if r.rule.fallback is not None and r.every_step), None)
    if every_any is not None:
        candidates.append(_Cand(every_any.rule.fallback, from_spec(every_any.where, _row_note(every_any)),
                                every_any.fallback_text or every_any.recovery, quiet=True))
    candidates += [_Cand(s.effect.fallback, s.prov, s.text, quiet=True) for s in said
                   if s.place == "workflow" and s.effect.on in (None, "any") and s.effect.fallback is not None]
    if spec.fallback is not None:
        candidates.append(_Cand(spec.fallback, from_spec(spec.path, "workflow fallback"), "workflow fallback",
                                quiet=True))
    if not candidates:  # "if the feed is down, go on with 0.92" and nothing else: for every failure
        pictured = [(s, f) for s in said if s.place == "step text" and (f := pictured_failure(s.text, s.effect))]
        if len(pictured) == 1:
            s, fallback = pictured[0]
            candidates.append(_Cand(fallback, from_spec(s.prov.where, outage_note(s.text)), s.text))
    if not candidates and outputs:  # "then just assume 6.50 a head and that its open" (`plan.continue_from29`)
        assumed = [(s, v) for s in said if s.place == "step text" and (v := assumed_output(s.text, outputs))]
        if len(assumed) == 1:
            s, value = assumed[0]
            candidates.append(_Cand(Fallback(action=FallbackAction.DEFAULT, value=value), from_spec(
                s.prov.where, f"the value to assume, read by the step's outputs: {value}"), s.text))
    if outputs:  # "don't hold it up: assume 256 pp and a 15 mm spine and keep going": the going on has its value
        candidates = [_with_assumed(c, outputs) for c in candidates]
    chosen = merge.pick("fallback", candidates)
    if chosen is not None:
        assert isinstance(chosen.value, Fallback)
        lost_parts = unread_fields(chosen.text, chosen.value.value, outputs)  # "to_withdraw = all the candidates' barcodes"
        carrying = with_said_fields(chosen.value, [(lost.partition(" = ")[0], lost.partition(" = ")[2])
                                                   for lost in lost_parts], chosen.prov.where)  # `plan.carry_ref31`
        for lost in lost_parts:
            if any(c.field == lost.partition(" = ")[0] for c in carrying.carry):
                continue
            merge.warnings.append(warning_at(
                chosen.prov.where, merge.path,
                f"{step.id}: the value to go on with sets '{lost}', earlier data a value to go on with cannot hold; "
                f"`{lost.partition(' =')[0]}` is left at its empty value when the step fails: write the value itself, "
                "or make it a step of its own", "policy-value"))
        return carrying, chosen.prov
    return Fallback(), from_default("fail the run")


def _rule_of(s: _Said) -> RecoveryRule:
    e = s.effect
    return RecoveryRule(on=e.on, failure=s.text, retry=e.retry, regenerate=e.regenerations,  # type: ignore[arg-type]
                        fallback=e.fallback, where=s.prov.where)


def _merged(ranked: list[tuple[int, RecoveryRule]], step: StepSpec, merge: _Merge) -> RecoveryRule:
    """One rule from several for the same class, field by field, the first stating a field
    winning; a catch-all for every step (rank 2) or a workflow-wide one (3) loses quietly."""
    rules = [r for _, r in ranked]
    quiet = {id(r) for rank, r in ranked if rank >= 2}
    first = rules[0]
    fields: dict[str, object] = {}
    for name in ("retry", "regenerate", "fallback"):
        stated = [r for r in rules if getattr(r, name) is not None]
        if not stated:
            continue
        fields[name] = getattr(stated[0], name)
        for other in stated[1:]:
            if getattr(other, name) != fields[name] and id(other) not in quiet:
                merge.warnings.append(warning_at(
                    other.where, merge.path,
                    f"{step.id}: for {first.on} failures, '{other.failure}' ({other.where}) disagrees with "
                    f"'{stated[0].failure}' ({stated[0].where}) about the {name}; '{stated[0].failure}' wins",
                    CONFLICT_CODE))
    return first.model_copy(update=fields)


def _rules(rows: list[RecoveryRowSpec], said: list[_Said], step: StepSpec, merge: _Merge) -> tuple[RecoveryRule, ...]:
    """One rule per class, most specific first (module docstring)."""
    ranked: list[tuple[int, RecoveryRule]] = []
    for s in said:
        if s.effect.on is not None and s.place == "step text":
            ranked.append((0, _rule_of(s)))
    for row in rows:
        ranked.append((2 if row.every_step else 1, row.rule))
    for s in said:
        if s.effect.on is not None and s.place != "step text":
            ranked.append((1 if s.place == "table" else 3, _rule_of(s)))
    ranked.sort(key=lambda t: t[0])
    by_class: dict[str, list[tuple[int, RecoveryRule]]] = {}
    for rank, rule in ranked:
        by_class.setdefault(str(rule.on), []).append((rank, rule))
    merged = [_merged(group, step, merge) if len(group) > 1 else group[0][1] for group in by_class.values()]
    specific = [r for r in merged if r.on != "any"]
    return (*specific, *(r for r in merged if r.on == "any"))


def _said_feedback(step: StepSpec, said: list[_Said]) -> tuple[FeedbackPolicy | None, Provenance | None]:
    """A sentence of the step's text that regenerates another step's script ("regenerate the
    step 2 script (1 attempt) and check again"): N regenerations are N + 1 runs of it in all."""
    for s in said:
        if s.place != "step text":
            continue
        found = read_phrase(s.text).feedback
        if found is None or found[0] == step.id:
            continue
        target, count = found
        runs = (count if count is not None else 1) + 1
        note = f"{s.prov.note or 'step text'}; {runs - 1} regeneration(s) of {target}'s script, {runs} runs in all"
        return FeedbackPolicy(target_step=target, max_attempts=runs), s.prov.model_copy(update={"note": note})
    return None, None


def _feedback(step: StepSpec, spec: WorkflowSpec, rows: list[RecoveryRowSpec],
              said: list[_Said] | None = None) -> tuple[FeedbackPolicy | None, Provenance | None]:
    conv = spec.convergence
    row = next((r for r in rows if r.feedback_to), None)
    stated = conv.feedback.get(step.id)
    conv_where = conv.where.get(f"{step.id}.feedback")
    if row is None and stated is None:
        return _said_feedback(step, said or [])
    target = row.feedback_to if row is not None and row.feedback_to else (stated[0] if stated else "")
    notes: list[str] = []
    where = row.where if row is not None else conv_where
    if row is not None:
        notes.append(_row_note(row))
    if stated is not None:
        attempts, note = stated[1], f"bound from Convergence Criteria ({conv_where})"
    elif row is not None and row.feedback_attempts:
        attempts, note = row.feedback_attempts, "bound from the row"
    else:
        attempts, note = DEFAULT_FEEDBACK_ATTEMPTS, f"default bound {DEFAULT_FEEDBACK_ATTEMPTS}"
    notes.append(note)
    return FeedbackPolicy(target_step=str(target), max_attempts=max(1, attempts)), from_spec(where, "; ".join(notes))


def _assumptions(step: StepSpec, said: list[_Said], retry: RetryPolicy, merge: _Merge) -> None:
    for s in said:
        if s.effect.retry_assumed and s.effect.retry == retry and s.place != "workflow":
            merge.warnings.append(warning_at(s.prov.where, merge.path,
                                             f"{step.id}: '{s.text}' gives no retry count; "
                                             f"{assumed_retries(retry)}", "spec.assumed"))


def _with_step_skills(fallback: Fallback, skills_of_steps: Mapping[str, BoundSkill], step: StepSpec,
                      merge: _Merge, where: str | None) -> Fallback:
    """A fallback to another step runs that step's skill with this step's input."""
    if fallback.action is not FallbackAction.SKILL or fallback.step is None or fallback.skill:
        return fallback
    if fallback.step == step.id:  # a row for every step that sends failures to one of them
        merge.warnings.append(warning_at(where, merge.path, f"{step.id}: the fallback names {step.id} itself; "
                                                            "the run fails instead", "policy-fallback-step"))
        return Fallback(action=FallbackAction.FAIL)
    target = skills_of_steps.get(fallback.step)
    if target is None:
        merge.warnings.append(warning_at(where, merge.path, f"{step.id}: the fallback names {fallback.step}, "
                                                            "which has no skill in the plan; the run fails instead",
                                         "policy-fallback-step"))
        return Fallback(action=FallbackAction.FAIL)
    return fallback.model_copy(update={"skill": target.name})


def _with_assumed(cand: _Cand, outputs: tuple[str, ...]) -> _Cand:
    """A plain going on whose own sentence says what to assume, each part naming an output
    (`plan.continue_from29`), goes on with that value."""
    fallback = cand.value
    if not isinstance(fallback, Fallback) or fallback.action is not FallbackAction.CONTINUE or fallback.value is not None:
        return cand
    value = assumed_output(cand.text, outputs)
    if value is None:
        return cand
    note = f"{cand.prov.note}; the value to assume, read by the step's outputs: {value}"
    return _Cand(Fallback(action=FallbackAction.DEFAULT, value=value), cand.prov.model_copy(update={"note": note}),
                 cand.text, cand.quiet)


def _whole_value(fallback: Fallback, schema: Mapping[str, object] | None) -> Fallback:
    """A value for some of an object output's fields ("mark the category as 'unknown'") is the
    output with those fields, the others at their contract's empty value."""
    if fallback.action is not FallbackAction.DEFAULT or not isinstance(fallback.value, dict) or not schema:
        return fallback
    from orchestrator.contracts import empty_value

    empty = empty_value(dict(schema))
    if not isinstance(empty, dict) or set(empty) <= set(fallback.value):
        return fallback
    return fallback.model_copy(update={"value": {**empty, **fallback.value}})


def step_policy(
    step: StepSpec, spec: WorkflowSpec, skill: BoundSkill | None,
    skills_of_steps: Mapping[str, BoundSkill] | None = None, output_schema: Mapping[str, object] | None = None,
) -> PolicyDraft:
    """The step's merged policy, the provenance of each field, and the conflicts (module docstring).
    A value fallback for some fields of an object output is completed from `output_schema`."""
    rows = list(_index(spec).rows.get(step.id, ()))
    said = _said(spec, step)
    merge = _Merge(step, spec.path)
    prov: dict[str, Provenance] = {}
    retry, prov["policy.retry"] = _retry(step, spec, rows, said, merge)
    _assumptions(step, said, retry, merge)
    timeout, prov["policy.attempt_timeout_s"] = _timeout(step, spec, rows, skill, said, merge)
    regenerations, prov["policy.regenerations"] = _regenerations(rows, said, merge)
    props = output_schema.get("properties") if output_schema else None
    names = tuple(props) if isinstance(props, Mapping) else ()
    fallback, prov["policy.fallback"] = _fallback(step, spec, rows, said, merge, names)
    others = skills_of_steps or {}
    fallback = _with_step_skills(fallback, others, step, merge, prov["policy.fallback"].where)
    whole = _whole_value(fallback, output_schema)
    if whole != fallback:
        prov["policy.fallback"] = prov["policy.fallback"].model_copy(update={
            "note": f"{prov['policy.fallback'].note}; the output's other fields at their empty value"})
        said_fields = set(fallback.value) if isinstance(fallback.value, dict) else set()
        filled = [k for k in (whole.value if isinstance(whole.value, dict) else {}) if k not in said_fields]
        merge.warnings.append(warning_at(
            prov["policy.fallback"].where, merge.path,
            f"{step.id}: the value to go on with says only {', '.join(sorted(said_fields))}; the output's other "
            f"field(s) {', '.join(filled)} are set to their empty value (null, [], '' or 0 as the contract says): "
            "name them in the value to give them another", "policy-value-completed"))
        fallback = whole
    if step.on_error is not None:
        on_error = step.on_error
        prov["policy.on_error"] = from_spec(step.field_where.get("on_error", step.where), f"on_error: {step.on_error}")
    else:
        on_error = "continue" if fallback.action is FallbackAction.CONTINUE else "fail"
        prov["policy.on_error"] = prov["policy.fallback"] if on_error == "continue" else from_default("fail")
    feedback, feedback_prov = _feedback(step, spec, rows, said)
    if feedback_prov is not None:
        prov["policy.feedback"] = feedback_prov
    if step.approval is not None:
        prov["policy.approval"] = from_spec(step.field_where.get("approval", step.where), "Approval bullet")
    if step.compensation is not None:
        prov["policy.compensation"] = from_spec(step.field_where.get("compensation", step.where), "Compensation bullet")
    for s in said:  # every sentence that applies to the step, read by the grammar or the model
        line = (s.prov.where or "").rpartition(":")[2]
        key = f"sentence:{line}"
        n = 2
        while key in prov:
            key, n = f"sentence:{line}#{n}", n + 1
        prov[key] = s.prov
    rules = _rules(rows, said, step, merge)
    rules = tuple(r if r.fallback is None else r.model_copy(update={
        "fallback": _whole_value(_with_step_skills(r.fallback, others, step, merge, r.where), output_schema)})
        for r in rules)
    if rules:
        where = rows[0].where if rows else rules[0].where
        row_lines = {r.where for r in rows}
        what = "Error Recovery row(s)" if all(r.where in row_lines for r in rules) else "recovery rule(s)"
        prov["policy.rules"] = from_spec(where, f"{len(rules)} {what}")
    non_retryable: tuple[ErrorClass, ...] = ()
    if step.id in spec.convergence.step_unrecoverable:
        non_retryable = (spec.convergence.step_unrecoverable[step.id],)
        prov["policy.non_retryable"] = from_spec(spec.convergence.where.get(f"{step.id}.unrecoverable"),
                                                 "Convergence Criteria")
    policy = StepPolicy(
        retry=retry,
        attempt_timeout_s=timeout,
        regenerations=regenerations,
        fallback=fallback,
        on_error=on_error,
        feedback=feedback,
        approval=step.approval,
        compensation=step.compensation,
        rules=rules,
        non_retryable=non_retryable,
    )
    return PolicyDraft(policy=policy, provenance=prov, warnings=tuple(dict.fromkeys(merge.warnings)))


def plan_limits(spec: WorkflowSpec, policies: Mapping[str, StepPolicy] | None = None,
                retry_where: Mapping[str, str | None] | None = None) -> tuple[Limits, dict[str, Provenance]]:
    """The run's limits: the Convergence Criteria, the YAML `timeout:`, a "whole run" sentence, else defaults.

    With the steps' `policies` (and the line of each one's retry, `where`): a per-step bound
    left at its default grows to what a step's stated policy needs ("retry every 5 min for
    up to an hour" is 13 attempts), and a bound written as retries ("No more than 3 retries
    anywhere") leaves room for the regenerations the steps plan. `retry_where`: the line of
    each step's retry, cited when a default grows."""
    conv = spec.convergence
    limits = conv.limits
    prov: dict[str, Provenance] = {}
    for name in Limits.model_fields:
        where = conv.limit_where.get(name)
        prov[name] = from_spec(where, "stated limit") if where else from_default("global default")
    if spec.timeout_s is not None and "wall_time_s" not in conv.limit_where:
        limits = limits.model_copy(update={"wall_time_s": spec.timeout_s})
        prov["wall_time_s"] = from_spec(spec.path, "workflow timeout")
    whole = next((r for r in spec.readings if r.statement.whole_run and r.statement.timeout_s), None)
    if whole is not None and whole.statement.timeout_s is not None and prov["wall_time_s"].source == "default":
        limits = limits.model_copy(update={"wall_time_s": whole.statement.timeout_s})
        prov["wall_time_s"] = _reading_prov(whole, "whole run")
    if policies:
        limits = _fitted(limits, prov, spec, policies, retry_where or {})
        limits = _wall_fitted(limits, prov, policies)
    return limits, prov


def _wall_fitted(limits: Limits, prov: dict[str, Provenance], policies: Mapping[str, StepPolicy]) -> Limits:
    """A wall time nobody wrote grows to hold every stated attempt timeout once, one after the other.

    The default wall time is a guard against a run that never ends, not a choice of the author's:
    "allow it up to 2h" on a step must not be refused for a 1 h limit the spec never states. The
    sum bounds every dependency chain, so the check of the chains' timeouts against the wall time
    (plan/checks.py) holds; a chain that only retries past it is still warned about there."""
    if prov["wall_time_s"].source != "default":
        return limits
    stated = {sid: p.attempt_timeout_s for sid, p in policies.items() if p.attempt_timeout_s}
    need = sum(stated.values())
    if need <= limits.wall_time_s:
        return limits
    longest = max(stated, key=lambda sid: stated[sid])
    prov["wall_time_s"] = from_default(f"global default {limits.wall_time_s:g}s raised to {need:g}s, the steps' "
                                       f"stated attempt timeouts one after the other ({longest}: {stated[longest]:g}s)")
    return limits.model_copy(update={"wall_time_s": need})


def _fitted(limits: Limits, prov: dict[str, Provenance], spec: WorkflowSpec, policies: Mapping[str, StepPolicy],
            where: Mapping[str, str | None]) -> Limits:
    """The per-step bounds fitted to the steps' stated policies (`plan_limits`)."""
    worst = {sid: (max([p.retry.max_retries, *(r.retry.max_retries for r in p.rules if r.retry)]),
                   max([p.regenerations, *(r.regenerate or 0 for r in p.rules)])) for sid, p in policies.items()}
    attempts = max(worst.items(), key=lambda kv: 1 + kv[1][0] + kv[1][1])
    regens = max(worst.items(), key=lambda kv: kv[1][1])
    if spec.convergence.retries_cap and prov["max_attempts_per_step"].source == "spec":
        extra = regens[1][1]
        if extra:
            limits = limits.model_copy(update={"max_attempts_per_step": limits.max_attempts_per_step + extra})
            prov["max_attempts_per_step"] = prov["max_attempts_per_step"].model_copy(update={
                "note": f"stated as {limits.max_attempts_per_step - extra - 1} retries; + 1 attempt and up to "
                        f"{extra} regenerations ({regens[0]})"})
    need = 1 + attempts[1][0] + attempts[1][1]
    if prov["max_attempts_per_step"].source == "default" and need > limits.max_attempts_per_step:
        limits = limits.model_copy(update={"max_attempts_per_step": need})
        policy = policies[attempts[0]]
        at = next((r.where for r in policy.rules if r.retry and r.retry.max_retries == attempts[1][0]),
                  where.get(attempts[0]))
        prov["max_attempts_per_step"] = from_spec(at, f"global default raised to {need} for {attempts[0]}'s "
                                                      "stated policy")
    if prov["max_regenerations_per_step"].source == "default" and regens[1][1] > limits.max_regenerations_per_step:
        limits = limits.model_copy(update={"max_regenerations_per_step": regens[1][1]})
        prov["max_regenerations_per_step"] = from_spec(where.get(regens[0]), f"global default raised to "
                                                       f"{regens[1][1]} for {regens[0]}'s stated policy")
    return limits
