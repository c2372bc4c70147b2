"""A step's condition said in its title or first words, for every form of step.

    ## ② Score ≥ 70 → a human             runs only when score >= 70
    ## ③ Everything below 70 → nurture    the otherwise-branch of ②: its condition's complement
    - Only when the total is over 500: ...  runs only when total > 500
    ### If band is high — escalate          runs only when band == high
    ### Otherwise → archive / The rest: ... the otherwise-branch of the nearest conditional step
    ## major notes (only if bucket says breaking_count > 0)   runs only when breaking_count > 0 (its aside)
    ## minor notes (else — no breaking changes)               the otherwise-branch (its aside)

The title's head (what comes before an arrow, a colon or a dash) is read: one opening with if, when,
only if/when, unless is a condition in words (`spec.condition`); one with no such word is a condition
only when it holds a comparison sign or word (≥ ≤ ≠ < > =, below, above, under, over, at least, at most,
more/less than, or more, or less, exceeds) and reads as a comparison of a named value ("Score ≥ 70").
A head opening with "everything", "anything", "all", "the rest", "everyone" and a comparison without a
subject ("Everything below 70") borrows the subject of the nearest conditional step before it: when it
is exactly that condition's complement, the step is its otherwise-branch; else it is a condition of its
own. "Otherwise", "else", "the rest", "everything else" alone make the otherwise-branch.

Every title read so is a reading of the step and a warning at its line (the guess is shown); a title
that looks like a condition and is not read is a warning too: the step then always runs (but a title with no
if/when whose number is a value the step gives its skill, "bin anything under 30 s" for `min_secs=30`,
says what the step does with it: no condition, no warning). A comparison
alone (no if/when) is marked `field_where["when_title"]`: when it names no value the steps give
("Check over 9000 files"), the planner drops it with a warning instead of refusing the spec.

`read_leads` then reads the branches written as pseudocode around the steps (`spec.branch_pseudocode`),
a YAML step's comment saying it starts beside the others (`spec.branch_parallel.comment_roots`), and
the step right after conditional steps that says it runs after whichever ran (`spec.branch_join`).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from orchestrator.hints import Hint, HintAction
from orchestrator.spec.branch_join import join_after_conditions
from orchestrator.spec.branch_parallel import comment_roots
from orchestrator.spec.branch_pseudocode import pseudocode_branches
from orchestrator.spec.condition import Clause, read_condition
from orchestrator.spec.condition_after import skill_first_lead
from orchestrator.spec.condition_unhappened import other_branch, unhappened
from orchestrator.spec.markup37_bpmn import bpmn_flows
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "Step 3:" before a title (numbering and markers, "②", "3.", "[ ]", emoji, are skipped before it)
_MARKS = _rx(r"(?i)^(?:step|stage|phase)\s++\w+\s*+[:.)—–-]\s*+")
# where the head of a title ends: an arrow, a colon, a dash between words
# (each starts only where its run of blanks starts: linear on long runs)
_HEAD_END = _rx(r"(?<!\s)(?:\s*+(?:→|->|=>|⇒|:(?=\s|$)|—|–)|\s++-(?=\s))")
_IF = _rx(r"(?i)^(?:only\s++)?(?:if|when|whenever|in\s++case)\s++|^unless\s++")
# "if NOT worse", "if not flagged": a bare flag said false, read as `unless` the flag
_NOT_BARE = _rx(r"(?i)^not[ \t]++(?=[a-z_][\w-]{0,60}+[ \t]*+$)")
_ALL = _rx(r"(?i)^(?:everything|anything|everyone|anyone|all(?:\s++others?)?|any\s++other|the\s++rest|"
           r"whatever(?:\s++is)?|those|others?)(?:\s++(?:else|scored|scoring|with\s++a\s++\w+|that\s++is|"
           r"that\s++are|which\s++is|left))?\s*+")
# "all the texts are written", "both are back", "everything is done": the work before has finished
_ALL_DONE = _rx(r"(?i)^(?:all|both|each|every|everything|everyone)(?:\s++(?:of\s++)?(?:the|those|these|them|our|its))?+"
                r"(?:\s++[\w-]++){0,3}?\s++(?:are|is|have\s++been|has\s++been|were)\s++(?:all\s++)?(?:written|done|"
                r"finished|complete|completed|back|in|ready|through|sent|made|built|ran|run|over)\W*+$")
_OTHERWISE = _rx(r"(?i)^(?:otherwise|else|or\s++else|the\s++rest|everything\s++else|anything\s++else|"
                 r"everyone\s++else|all\s++others?|any\s++other\s++case|in\s++all\s++other\s++cases)\W*$")
_COMPARES = _rx(r"(?i)[<>≥≤≠=]|(?<!\w)(?:below|above|under|over|at\s++least|at\s++most|more\s++than|"
                r"less\s++than|fewer\s++than|or\s++more|or\s++less|or\s++higher|or\s++lower|exceeds?)(?!\w)")
_COMPLEMENT = {">=": "<", "<": ">=", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}


class Lead(BaseModel):
    """What a title says of when its step runs: a condition, or the otherwise-branch."""

    model_config = ConfigDict(frozen=True)

    kind: str  # "when", "otherwise", "unread" (looks like a condition, not read)
    head: str  # the title's head as written
    condition: str | None = None  # "when": the condition's words
    negated: bool = False  # "unless ..."
    bare: bool = False  # no if/when: a comparison alone ("Score ≥ 70"), dropped if it names no value the steps give
    clause: Clause | None = None  # "otherwise" with a comparison of its own ("below 70"): op and value


def _head(title: str) -> str:
    text = title.strip()
    start = next((i for i, c in enumerate(text) if c.isalpha() and not c.isnumeric()), len(text))
    text = _MARKS.sub("", text[start:], count=1)
    end = _HEAD_END.search(text)
    return (text[: end.start()] if end else text).strip().rstrip(".!?").strip()


# "major notes (only if bucket says breaking_count > 0)", "minor notes (else — no breaking changes)"
_ASIDE_IF = _rx(r"(?i)\(\s*+(?:only\s++|run\s++only\s++|runs\s++only\s++)?(if|when|unless)\s++([^()]{1,120}+)\)")
_ASIDE_ELSE = _rx(r"(?i)\(\s*+(?:otherwise|else|if\s++not)(?!\w)[^()]{0,80}+\)")
_SAYS = _rx(r"(?i)^(?:the\s++)?[\w-]++\s++(?:says|reports|returns|gives|finds)\s++(?=\S)")


def _aside_lead(title: str) -> Lead | None:
    """A title whose aside says when the step runs: the aside's condition, or the otherwise-branch."""
    if (m := _ASIDE_ELSE.search(title)) is not None:
        return Lead(kind="otherwise", head=m.group(0))
    if (m := _ASIDE_IF.search(title)) is None:
        return None
    body = _SAYS.sub("", m.group(2).strip().rstrip(".")) if _COMPARES.search(m.group(2)) else m.group(2).strip()
    if read_condition(body) is None:
        return Lead(kind="unread", head=m.group(0))
    return Lead(kind="when", head=m.group(0), condition=body, negated=m.group(1).lower() == "unless", bare=True)


def lead_of(title: str) -> Lead | None:
    """What `title` says of when its step runs (module docstring); None when it says nothing of it."""
    if (aside := _aside_lead(title)) is not None:
        return aside
    head = _head(title)
    if not head:
        return None
    if _OTHERWISE.match(head):
        return Lead(kind="otherwise", head=head)
    if (first := skill_first_lead(head)) is not None:  # "`flag-audit` if the total is over 500"
        body, negated = first
        if read_condition(body) is None:
            return Lead(kind="unread", head=head)
        return Lead(kind="when", head=head, condition=body, negated=negated)
    if m := _IF.match(head):
        body = head[m.end():]
        if _ALL_DONE.match(body):  # "When all the texts are written": a wait for the work before, no condition
            return None
        read = read_condition(body)
        negated = m.group(0).lower().startswith("unless")
        if read is None and (nots := _NOT_BARE.match(body)) is not None and not negated \
                and read_condition(body[nots.end():]) is not None:  # "if NOT worse ->": unless worse
            return Lead(kind="when", head=head, condition=body[nots.end():], negated=True)
        if read is None:
            return Lead(kind="unread", head=head)
        return Lead(kind="when", head=head, condition=body, negated=negated)
    if not _COMPARES.search(head) or not re.search(r"[<>≥≤≠=\d]", head):
        return None  # "Hand over to ops": a comparison word, but nothing compared
    if (m := _ALL.match(head)) and m.end():
        read = read_condition("lead_value " + head[m.end():])  # "below 70": the subject is the earlier condition's
        clause = read.clauses[0] if read is not None and len(read.clauses) == 1 else None
        if clause is not None and clause.kind == "compare" and clause.subject == ("lead_value",):
            return Lead(kind="otherwise", head=head, clause=clause)
        return Lead(kind="unread", head=head)
    read = read_condition(head)
    if read is None or (read.expression is not None and not re.search(r"[<>≥≤≠=]", head)):
        return Lead(kind="unread", head=head)
    if read.clauses and any(c.kind != "compare" or not c.subject for c in read.clauses):
        return Lead(kind="unread", head=head)
    return Lead(kind="when", head=head, condition=head, bare=True)


def _line(where: str) -> int:
    tail = where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def _literal(value: object) -> str:
    return repr(value) if isinstance(value, int | float) and not isinstance(value, bool) else f"'{value}'"


def _single(step: StepSpec) -> Clause | None:
    """The one comparison of a step's condition in words, when it has exactly one."""
    read = read_condition(step.when) if step.when else None
    if read is None or read.expression is not None or read.negated or len(read.clauses) != 1:
        return None
    clause = read.clauses[0]
    return clause if clause.kind == "compare" and clause.subject else None


def unread(step: StepSpec, where: str) -> StepSpec:
    """The step marked as having a condition said and not read (warned by the caller): an Otherwise after it
    is then warned that both run, not refused (`plan.dataflow`)."""
    return step.model_copy(update={"field_where": {**step.field_where, "when_unread": where}})


def read_leads(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each whose title says when it runs (module docstring) with that condition or as the
    otherwise-branch; every title read or left unread so is a warning at its line."""
    from orchestrator.spec.lead_in_branch30 import (
        lead_in,  # it reads `Lead`s: asked late, no import cycle
    )

    out: list[StepSpec] = []
    latest: StepSpec | None = None  # the nearest earlier step with a condition of its own
    routed = {t for s in steps for t in (*s.routes.values(), *([s.route_default] if s.route_default else []))}
    for step in steps:
        said = step.when or step.otherwise_where or step.routes or step.id in routed  # "Everything else": a route's
        lead = None if said else lead_in(step, src, lead_of(step.name))  # "**Big refunds** (amount over 100):"
        if lead is not None:
            step = _with_lead(step, lead, latest, src)
        if step.when:
            latest = step
        out.append(step)
    out = bpmn_flows(out, src)  # a process model's sequence flows and gateways (`spec.markup37_bpmn`)
    out = comment_roots(pseudocode_branches(out, src), src)  # a YAML step's "# no deps, goes in parallel"  # `\If{...}` / `\Else` / `\EndIf`, `if ... then` / `else` / `end if`
    return join_after_conditions(out, src)  # "Welcome — either way, ...": after whichever branch ran


_NUMBER = _rx(r"(?<![\w.])\d++(?:\.\d++)?+(?![\w.])")


def _own_value(step: StepSpec, head: str) -> bool:
    """Whether a title with no if/when compares with a number the step itself gives its skill ("bin anything
    under 30 s" for `track-dedupe min_secs=30`): it says what the step does with that value, no condition."""
    if _IF.match(head):
        return False
    given = {float(v) for v in step.input_values.values() if isinstance(v, int | float) and not isinstance(v, bool)}
    given |= {float(v) for v in step.input_values.values() if isinstance(v, str) and _NUMBER.fullmatch(v.strip())}
    return any(float(m.group(0)) in given for m in _NUMBER.finditer(head))


def _with_lead(step: StepSpec, lead: Lead, latest: StepSpec | None, src: Source) -> StepSpec:
    line, who = _line(step.where), f"{step.id} ({step.name.strip()[:60]})"
    gone = unhappened(_IF.sub("", lead.head)) if lead.kind in ("unread", "when") else None
    if gone is not None and (gone[2] or lead.kind == "unread"):
        return other_branch(step, gone, lead.head, latest, src, line, who)  # "If step 2 didn't run": its other branch
    if lead.kind == "unread" and _own_value(step, lead.head):
        return step  # "bin anything under 30 s" with `min_secs=30`: what the step does with the value it gives
    if lead.kind == "unread":
        src.warn(line, f"{who}: its title '{lead.head[:80]}' looks like a condition but is not read, so the step "
                       "always runs: write it as a comparison of a named value (`- When: NAME >= NUMBER`)",
                 "spec.condition-not-read", Hint(action=HintAction.INTERPRET))
        return unread(step, step.where)
    if lead.kind == "when":
        condition = f"unless {lead.condition}" if lead.negated else str(lead.condition)
        update = {"when": condition, **({"when_title": step.where} if lead.bare else {}),
                  **({"when_or_otherwise": step.where} if gone is not None else {})}  # "If none was found"
        runs = condition if lead.negated else f"only when {condition}"  # "it runs unless worse", not "only when unless"
        return _take(step, src, line, update, f"runs {runs} (its title)",
                     f"{who}: its title is read as its condition: it runs {runs}; if the title "
                     "only names the step, reword it")
    partner = _single(latest) if latest is not None else None
    if latest is None or (lead.clause is not None and partner is None):
        src.warn(line, f"{who}: its title '{lead.head[:80]}' reads as the other branch of a condition, but no step "
                       "before it has one it can be the complement of, so the step always runs",
                 "spec.condition-not-read", Hint(action=HintAction.INTERPRET))
        return step
    if lead.clause is None or (partner is not None and _COMPLEMENT[partner.op] == lead.clause.op
                               and partner.value == lead.clause.value):
        return _take(step, src, line, {"otherwise_where": step.where, "otherwise_of": latest.id},
                     f"runs exactly when the condition of {latest.id} was false (its title)",
                     f"{who}: its title is read as the other branch of {latest.id} ({latest.when}): it runs "
                     "exactly when that condition is false")
    assert partner is not None
    condition = f"{' '.join(partner.subject)} {lead.clause.op} {_literal(lead.clause.value)}"
    return _take(step, src, line, {"when": condition}, f"runs only when {condition} (its title, with the value "
                                                        f"of {latest.id}'s condition)",
                 f"{who}: its title is read as its condition {condition} (the value {latest.id}'s condition "
                 f"compares); it is not the complement of `{latest.when}`, so both or neither may run")


def _take(step: StepSpec, src: Source, line: int, update: dict[str, str], note: str, message: str) -> StepSpec:
    src.warn(line, message, "spec.lead-condition")
    reading = Reading(what="when", where=step.where, text=" ".join(step.name.split())[:160], note=note)
    marks: dict[str, str] = {"when": step.where}
    marks.update({k: update.pop(k) for k in ("when_title", "when_or_otherwise") if k in update})
    return step.model_copy(update={**update, "field_where": {**step.field_where, **marks},
                                   "readings": (*step.readings, reading)})


_rx.save()


# a condition said as the other case of the one before: "the gate didn't pass", "the check was not met", "(else)"
_NOT_PASSED = _rx(r"(?i)(?<![\w-])(?:did(?:n['’]t|\s++not)\s++(?:pass|hold|succeed|clear)|(?:was|is)(?:n['’]t|\s++not)\s++"
                  r"(?:met|passed|true|the\s++case)|otherwise|else|if\s++not|the\s++other\s++case)(?![\w-])")


def complement_said(text: str) -> str | None:
    """The words of a condition no comparison reads that make it the other case of the condition before
    ("accuracy came in under the bar (i.e. the gate didn't pass)"), or None."""
    m = _NOT_PASSED.search(text)
    return m.group(0) if m else None
