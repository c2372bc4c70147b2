"""A step's condition, or its other branch, said in the author's own label and words, naming an earlier step.

    only when → Extent & spine says more than 320 pages      runs only when step 2's `pages` > 320
    Go if → the Proof check shows under 5 typos              runs only when the proof step's `typos` < 5
    if read-metar shows any precip (precip is anything       runs only when read-metar's `precip` != "none" (the
      but "none") -> plan-full-deice                          aside names the value)
    only when → the offset one didn't go, i.e. 320 pp or under   the other branch of the step named "offset"
    no precip -> plan-frost-only instead                      the other branch of the step whose condition said
                                                              "precip"
    only when → the total is over 500                        runs only when total > 500 (a label, a comparison)

A line of a step's text that opens with a condition label ("only when", "only if", "runs when", "go if",
"when", "if", "condition") and an arrow or a colon gives its value up to the line's end; a step's text that
opens with "if"/"when" and a clause ending at an arrow or a colon gives that clause. The value is read:
an earlier step named (by its heading title without its aside, its number, its skill, or words all in one
earlier step's name: "the offset one") before a verb of saying ("says", "shows", "reports", "gives",
"comes back with") and a comparison in words ("more than 320 pages": the unit word is taken as the field,
`pages`; "any precip (precip is anything but "none")": the aside's comparison) is that step's output
compared; an earlier step said not to have gone ("didn't go", "didn't run", "wasn't picked", and what
`spec.condition_unhappened` reads) makes the step its other branch, the words after "i.e." checked
against that step's condition; "no X" alone makes it the other branch of the latest step whose condition
said X. Every reading is a guess at the field's name or the branch: warned at its line with what to write,
and a condition whose field no step gives is dropped by the planner with a warning (`field_where
["when_title"]`). Values read no way are left to `spec.condition_opening`, which warns them.
`read_only_when` runs after `spec.lead_condition.read_leads`, before `read_openings`, one step at a time
(state kept as the steps go: the conditional steps so far, at most `_KEEP`).
"""

from __future__ import annotations

import re

from orchestrator.spec.condition import read_condition
from orchestrator.spec.condition_opening import opening
from orchestrator.spec.condition_unhappened import unhappened
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.structure import StepIndex

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.only-when"

# a condition label and its arrow or colon at a line's opening, its value up to the line's end
_LABEL = _rx(r"(?i)^[ \t>*_+•-]*+(?:only[ \t]++(?:when|if)|runs?[ \t]++(?:only[ \t]++)?(?:when|if)|"
             r"(?:go|do[ \t]++it|do[ \t]++this)[ \t]++(?:when|if)|when|if|condition|provided)[*_]*+[ \t]*+"
             r"(?:→|->|=>|:)[ \t]*+(?P<v>[^\n]{2,300}+)")
# an opening if-clause up to an arrow or a colon
_OPEN_IF = _rx(r"(?i)^(?:only[ \t]++)?(?:if|when)[ \t]++(?P<c>(?:[^→:=\n-]|[=-](?!>)){2,200}+)(?:→|->|=>|:)")
# "no precip -> ...", "no rain: ...": the other branch of the step whose condition said those words
_NO = _rx(r"(?i)^no[ \t]++(?P<x>[a-z][\w-]*+(?:[ \t]++[a-z][\w-]*+)?+)[ \t]*+(?:→|->|=>|:|$|,?[ \t]++instead\b)")
# a verb of an earlier step saying something
_SAYS = _rx(r"(?i)(?<![ \t])[ \t]++(?:says|said|shows|showed|reports|reported|gives|gave|returns|returned|finds|found|"
            r"reads|counts|comes[ \t]++back[ \t]++with|came[ \t]++back[ \t]++with)[ \t]++")
_CMP = r"more[ \t]++than|over|above|at[ \t]++least|under|below|less[ \t]++than|fewer[ \t]++than|at[ \t]++most|exactly"
_NUM = r"\d[\d,]*+(?:\.\d++)?+"
_FIELD = r"[a-z][\w-]*+(?:[ \t]++(?!or\b)[a-z][\w-]*+){0,2}+"
# "more than 320 pages", "under 5 typos"
_WORDS_CMP = _rx(rf"(?i)^(?:any[ \t]++)?(?P<cmp>{_CMP})[ \t]++(?P<n>{_NUM})[ \t]++(?P<f>{_FIELD})[ \t]*+$")
# "320 pages or more", "5 typos or under"
_N_OR = _rx(rf"(?i)^(?P<n>{_NUM})[ \t]++(?P<f>{_FIELD})[ \t]++or[ \t]++(?P<dir>more|over|above|higher|less|under|"
            r"below|fewer|lower)[ \t]*+$")
_N_OR_BARE = _rx(rf"(?i)^(?P<n>{_NUM})[ \t]*+[a-z]*+[ \t]++or[ \t]++(?P<dir>more|over|above|higher|less|under|"
                 r"below|fewer|lower)\b")
_ASIDE = _rx(r"\((?:i\.?e\.?,?[ \t]++)?(?P<a>[^()\n]{2,200}+)\)")
_BUT = _rx(r"(?i)(?<![ \t])[ \t]++is[ \t]++(?:anything[ \t]++(?:but|other[ \t]++than|except)|other[ \t]++than)[ \t]++")
# the words after the negation that restate it: ", i.e. 320 pp or under", "(that is, ...)"
_RESTATE = _rx(r"(?i)(?:,[ \t]*+|(?<![ \t])[ \t]++[—–-][ \t]*+|(?<![ \t])[ \t]*+\()?+(?<!\w)(?:i\.?e\.?|that[ \t]++is|meaning|so)[,:]?+[ \t]++")
# an earlier step said not to have gone, in words `unhappened` does not take
_NOT_GONE = _rx(r"(?i)(?<![ \t])[ \t]++(?:did(?:n['’]t|[ \t]++not)|never|won['’]t)[ \t]++(?:go|get[ \t]++(?:picked|chosen|going))"
                r"|(?<![ \t])[ \t]++(?:was|were)(?:n['’]t|[ \t]++not)[ \t]++(?:picked|chosen|the[ \t]++one)")
_FILLER = frozenset({"the", "one", "step", "stage", "bit", "a", "that", "this", "job"})
_DOWN = {"less": "<=", "under": "<=", "below": "<=", "fewer": "<=", "lower": "<=",
         "more": ">=", "over": ">=", "above": ">=", "higher": ">="}
_OTHER_OP = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "==": "!=", "!=": "=="}
_KEEP = 16  # conditional steps kept for "no X"


def _words(text: str) -> set[str]:
    return set(re.sub(r"[^a-z0-9]+", " ", text.lower()).split()) - _FILLER


class _Earlier:
    """The steps before the one being read, to find the one words name (grown as the steps go)."""

    def __init__(self, steps: list[StepSpec]) -> None:
        self.index = StepIndex(steps)
        self.seen: list[StepSpec] = []
        self.ids: set[str] = set()

    def named(self, ref: str) -> str | None:
        ref = ref.strip(" \t`*_\"'’.,")
        bare = re.sub(r"(?<!\s)\s*+\([^()]*+\)", "", ref)
        for said in (ref, bare, re.sub(r"(?i)^(?:the|step)\s++", "", bare)):
            sid = self.index.resolve(said) if said else None
            if sid in self.ids:
                return sid
        words = _words(bare)
        if not words or len(words) > 5:
            return None
        near = [s.id for s in self.seen if words <= _words(re.sub(r"\([^()]*+\)", " ", s.name))
                or (s.skill and words <= _words(s.skill))]
        return near[0] if len(near) == 1 else None


def _compared(rest: str) -> str | None:
    """The comparison after the verb, as `field op value` words `read_condition` takes, or None."""
    rest = rest.strip(" \t.;")
    if (m := _ASIDE.search(rest)) is not None:
        aside = _BUT.sub(" is not ", m.group("a").strip())
        if (read := read_condition(aside)) is not None and read.expression is None and read.clauses \
                and all(c.kind == "compare" and c.subject for c in read.clauses):
            return aside
    if (m := _WORDS_CMP.match(rest)) is not None:
        return f"{'_'.join(m.group('f').lower().split())} is {' '.join(m.group('cmp').split())} {m.group('n')}"
    if (m := _N_OR.match(rest)) is not None:
        return f"{'_'.join(m.group('f').lower().split())} is {m.group('n')} or {m.group('dir')}"
    return None


def _step_said(value: str, earlier: _Earlier) -> tuple[str, str] | None:
    """(the condition as `Step N reported ...`, the step's id) when `value` names an earlier step saying a comparison."""
    for verb in _SAYS.finditer(value):
        sid = earlier.named(value[:verb.start()])
        if sid is None:
            continue
        said = _compared(value[verb.end():])
        if said is None:
            return None
        when = f"Step {sid.removeprefix('step-')} reported {said}" if sid.removeprefix("step-").isdigit() else said
        return (when, sid) if read_condition(when) is not None else None
    return None


def _gone(value: str, earlier: _Earlier) -> tuple[str | None, str, str] | None:
    """(the step named as not gone, or None for the nearest one with a condition; the words; the restatement)."""
    cut = _RESTATE.search(value)
    head, restated = (value[:cut.start()], value[cut.end():].rstrip(" )")) if cut else (value, "")
    found = unhappened(head)
    if found is not None and found[2]:
        ref = found[0]
    elif (m := _NOT_GONE.search(head)) is not None:
        ref = head[:m.start()]
    else:
        return None
    sid = earlier.named(ref) if ref else None
    return sid, head.strip(), restated.strip()


def _disagrees(restated: str, partner: StepSpec | None) -> str | None:
    """Why the restatement is not the other branch of `partner`'s condition (None when it is, or is not read)."""
    read = read_condition(partner.when) if partner is not None and partner.when else None
    m = _N_OR_BARE.match(restated)
    if read is None or m is None or len(read.clauses) != 1 or read.clauses[0].kind != "compare":
        return None
    clause = read.clauses[0]
    value = float(m.group("n").replace(",", ""))
    if _OTHER_OP.get(clause.op or "") == _DOWN[m.group("dir").lower()] and value == clause.value:
        return None
    return f"'{restated}' is not the other side of {partner.id}'s condition ({partner.when})"  # type: ignore[union-attr]


def _values(step: StepSpec, src: Source) -> list[tuple[int, str]]:
    """(line, value) of each labelled condition line of the step's texts, then the opening if-clause."""
    out: list[tuple[int, str]] = []
    for text in step.texts[:8]:
        for n in range(text.line, min(text.line + 40, len(src.lines)) + 1):
            line = src.lines[n - 1]
            if not line.strip():
                break
            if (m := _LABEL.match(line)) is not None:
                out.append((n, m.group("v").strip()))
    first, words = (step.texts[0].line, opening(step.description)) if step.texts else (0, "")
    at = step.where.rpartition(":")[2]
    if step.form != "heading" and at.isdigit() and (not step.texts or step.texts[0].line == int(at)):
        first, words = int(at), opening(src.line_text(int(at)))  # a list item: its line, its name's words too
    if first and (m := _OPEN_IF.match(words)) is not None and _leads_to_own(step, words[m.end():]):
        out.append((first, m.group("c").strip()))
    elif first and (m := _NO.match(words)) is not None:
        out.append((first, m.group(0).strip(" \t→:,-=>")))
    return out


_TARGET = _rx(r"^[ \t`*]*+(?P<s>[a-z][a-z0-9]*+(?:-[a-z0-9]++)++)")


def _leads_to_own(step: StepSpec, after: str) -> bool:
    """False when the if-clause leads to a skill other than the step's own ("-> plan-full-deice" opening the span
    of a step that runs `check-glycol`): the clause is another step's, not this one's."""
    m = _TARGET.match(after)
    own = {x.strip("`").lower() for x in (step.skill or "", *(x.text for x in step.mentions[:1]),
                                          "-".join(step.name.split())) if x}
    return m is None or not own or m.group("s").lower() in own


def read_only_when(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each whose labelled condition or opening if-clause names an earlier step read (module docstring)."""
    earlier = _Earlier(steps)
    conditional: list[StepSpec] = []
    out: list[StepSpec] = []
    read: set[int] = set()  # lines read here: the step reader's "cannot be read" there is withdrawn
    for step in steps:
        if not (step.otherwise_where or step.otherwise_of or step.routes or step.approval) and (
                not step.when or _stepless(step.when)):
            was = step
            step = _read(step, src, earlier, conditional, only_steps=bool(step.when))
            if step is not was:
                read.update(int(w.rpartition(":")[2]) for w in (was.where, step.field_where["when"],
                                                               was.field_where.get("when_unread", ""))
                            if w.rpartition(":")[2].isdigit())
                step = step.model_copy(update={"field_where": {
                    k: v for k, v in step.field_where.items() if k != "when_unread"}})
        if step.when:
            conditional = [*conditional[-_KEEP + 1:], step]
        earlier.seen.append(step)
        earlier.ids.add(step.id)
        out.append(step)
    if read:
        src.warnings[:] = [w for w in src.warnings if not (w.code in ("spec.when", "spec.condition-not-read")
                                                           and w.line in read and ("cannot be read" in w.message
                                                                or "which is not read" in w.message))]
    return out


def _stepless(when: str) -> bool:
    """A condition another reader took in words that name no step ("take-soundings shows any shoal" as `shoal`
    filled): a reading here that names the step and its value is the closer one."""
    read = read_condition(when)
    return read is not None and read.expression is None and all(c.step is None for c in read.clauses)


def _read(step: StepSpec, src: Source, earlier: _Earlier, conditional: list[StepSpec], *,
          only_steps: bool = False) -> StepSpec:
    who = f"{step.id} ({step.name.strip()[:60]})"
    for line, value in _values(step, src):
        if only_steps and (_step_said(value, earlier) is None or step.field_where.get("when") != src.where(line)):
            continue  # another reader's condition is replaced only by a closer reading of the same line
        if (said := _step_said(value, earlier)) is not None:
            when, sid = said
            src.warn(line, f"{who}: '{value[:80]}' is read as its condition: it runs only when {when} ({sid}'s "
                           "output, the field named by the words after the comparison: a guess; if no step gives it, "
                           f"the condition is dropped); to say so plainly write `- When: {when}`", CODE)
            return _when(step, when, value, src.where(line))
        if (m := _NO.match(value)) is not None:
            words = _words(m.group("x"))
            said_no = next((s for s in reversed(conditional) if words and words <= _words(
                " ".join([s.when or "", *(r.text for r in s.readings[-3:])]))), None)
            if said_no is not None:
                return _otherwise(step, said_no, value, f"'{value[:60]}' says the opposite of {said_no.id}'s "
                                  f"condition ({said_no.when})", src, line, who)
            continue
        if (gone := _gone(value, earlier)) is not None:
            gone_id, head, restated = gone
            partner = next((s for s in reversed(conditional) if s.id == gone_id), None) if gone_id else \
                (conditional[-1] if conditional else None)
            if partner is None:
                continue  # named no conditional step: `spec.condition_opening` / `condition_unhappened` say so
            why = f"'{head[:60]}' names {partner.id} as not having run"
            if restated and (odd := _disagrees(restated, partner)) is not None:
                why += f"; but {odd}: check which is meant"
            elif restated:
                why += f" ('{restated[:40]}' taken as saying the same)"
            return _otherwise(step, partner, value, why, src, line, who)
        if (read := read_condition(value)) is not None and read.expression is None and read.clauses and \
                all(c.kind == "compare" and c.subject for c in read.clauses) and _LABEL.match(
                    src.lines[line - 1]) is not None:
            src.warn(line, f"{who}: '{value[:80]}' after its condition label is read as its condition: it runs only "
                           f"when {value}; to say so plainly write `- When: {value}`", CODE)
            return _when(step, value, value, src.where(line))
    return step


def _when(step: StepSpec, when: str, value: str, where: str) -> StepSpec:
    reading = Reading(what="when", where=where, text=" ".join(value.split())[:160],
                      note=f"runs only when {when} (its condition said in its own words)")
    return step.model_copy(update={"when": when, "readings": (*step.readings, reading),
                                   "field_where": {**step.field_where, "when": where, "when_title": where}})


def _otherwise(step: StepSpec, partner: StepSpec, value: str, why: str, src: Source, line: int, who: str) -> StepSpec:
    src.warn(line, f"{who}: {why}: read as the other branch of {partner.id} ({partner.when}): it runs exactly when "
                   f"that condition is false; to say so plainly write `Otherwise (of "
                   f"{partner.id.replace('-', ' ').title()}):`", CODE)
    where = src.where(line)
    reading = Reading(what="otherwise", where=where, text=" ".join(value.split())[:160],
                      note=f"runs exactly when the condition of {partner.id} was false ('{value[:60]}')")
    return step.model_copy(update={"otherwise_where": where, "otherwise_of": partner.id,
                                   "field_where": {**step.field_where, "when": where},
                                   "readings": (*step.readings, reading)})


_rx.save()
