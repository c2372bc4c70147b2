"""Steps said in words to start together, where the readers of step text (`spec.step`,
`spec.steps_together`, `spec.branch_parallel`, `spec.parallel_said24`) do not look or do not know the words.

    # (2) credit check - doesn't need (1), fire it at the same time.    a job's comment: no wait for (1)
    # check the forecast at the same time as intake, no need to queue    starts with the step named intake
    Q1 and Q2 ... GO.  (both at once on curtain down, neither waits on the other)    Q2 starts with Q1
    start the stock at the same time as the dough                       starts with the dough step
    runs at the same time every day                                     no: a schedule, not a start
    Q1 and Q2 must never go at once                                     no: a negation

Three ways of writing, each a reading and a warning at its line:

- in a step's own text, "doesn't need (1)", "needs nothing from step 1", "independent of #1" names
  the step it does not wait for; when that is the step just before it, the step waits only for the
  steps whose outputs it reads (`StepSpec.unordered_where`). A step of a script runbook or crontab
  (`form == "recipe"`, whose text no step reader reads for order) saying "fire it at the same time",
  "kick it off right away" (`branch_parallel.parallel_start`) is read the same way;
- in a step's own text, "at the same time as X", "alongside X", "together with X", X an earlier
  step's name or skill, or after "at the same time as" with no article a word of its skill
  (`intake` for `permit-intake`; "alongside the orders" speaks of things) that names one step
  only: the step starts with X (`StepSpec.starts_with`, it waits for what X waits for);
- a line anywhere naming two or more steps by their labels ("Q1 and Q2", "steps 1 and 2", "(1) and
  (2)") that says they go "at once", "together", "at the same time", "side by side", or that
  "neither waits on the other": each later one starts with the first.

A step that already says what it waits for (or was read as starting beside another) is left alone;
a sentence of tries ("retry both at once"), of a schedule ("at the same time every night") or a
negation ("never at the same time", "not together") is no start.
"""

from __future__ import annotations

import re

from orchestrator.spec.branch_parallel import parallel_start
from orchestrator.spec.cue_notes import cue_labels, skill_of
from orchestrator.spec.legal_prose29 import beside_clause
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.start_together import ends_after, starts_with

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_REF = r"(?:\(\s*+(?P<p>\d{1,3}+)\s*+\)|#\s*+(?P<h>\d{1,3}+)(?!\w)|(?:step|job|item|task|stage|card|line)\s*+#?\s*+(?P<s>\d{1,3}+)(?!\w))"
# "doesn't need (1)", "needs nothing from step 1", "independent of #1", "not dependent on job 1"
_NO_NEED = _rx(r"(?i)(?<!\w)(?:(?:does\s*+n['’]?t|does\s++not|do\s++not|don['’]t|won['’]t|will\s++not)\s++need\s++"
               r"(?:anything\s++(?:from|of)\s++|the\s++output\s++of\s++)?|needs?\s++nothing\s++(?:from|of)\s++|"
               r"independent\s++of\s++|not\s++(?:dependent|waiting)\s++on\s++)" + _REF)
# "at the same time as intake", "alongside the dough", "together with stock-count", "with the dough step"
_BESIDE_NAME = _rx(r"(?i)(?<!\w)(?:(?:at\s++)?the\s++same\s++time\s++as|alongside|together\s++with|in\s++parallel\s++with|"
                   r"concurrently\s++with|side\s++by\s++side\s++with)\s++(?P<art>the\s++|step\s++|job\s++)?[`'\"]?"
                   r"(?P<name>[A-Za-z][\w-]{1,40}+)[`'\"]?(?P<kind>\s++(?:step|job|task|stage|cue|item)(?!\w))?")
# two steps said to go together: "at once", "neither waits on the other", "at the same time"
_MUTUAL = _rx(r"(?i)(?<!\w)(?:(?:both\s++)?at\s++once|(?:at\s++)?the\s++same\s++time|together|side\s++by\s++side|"
              r"in\s++parallel|concurrently|simultaneously|neither\s++(?:one\s++)?waits?\s++(?:on|for)\s++the\s++other|"
              r"(?:do(?:n['’]t|\s++not)|never)\s++wait\s++(?:on|for)\s++each\s++other)(?!\w)")
# a negation of starting together, tries, or a schedule: no start
_NOT = _rx(r"(?i)(?<!\w)(?:never\s++(?:at\s++once|together|at\s++the\s++same|in\s++parallel|run|go|start)|not\s++(?:[a-z]++\s++){0,2}?(?:at\s++once|"
           r"together|at\s++the\s++same|in\s++parallel|concurrently|simultaneously)|must\s*+n['’]t|cannot|can['’]t|retr(?:y|ies|ied)|attempts?|tries|"
           r"one\s++by\s++one|one\s++after\s++(?:the\s++)?other|in\s++turn|every\s++(?:night|day|morning|week|hour|"
           r"evening|monday|weekday)|each\s++(?:night|day|morning|week|hour)|daily|nightly|weekly|hourly)(?!\w)")
_LABELS = _rx(r"(?<![\w(])(?:(?P<lab>[A-Z]{1,2}[0-9]{1,2}+|[A-Z])(?![\w'])|\((?P<par>\d{1,3}+)\)|(?i:steps?|jobs?|cues?)\s++"
              r"(?P<num>\d{1,3}+)(?!\w)|(?<=and\s)(?P<bare>\d{1,3}+)(?!\w))")
_SENTENCE = _rx(r"[^.;!?\n]++(?:[.;!?](?!\w)|$)")
_STOP = frozenset(("the", "this", "that", "it", "them", "one", "step", "other", "others", "rest", "same", "run",
                   "usual", "before", "last", "first", "previous", "each", "every"))


def _line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def _free(step: StepSpec) -> bool:
    return not step.depends_on and step.depends_where is None and step.starts_with is None and (
        step.unordered_where is None) and not step.when and step.otherwise_where is None


def _number(m: re.Match[str]) -> int:
    return int(m.group("p") or m.group("h") or m.group("s"))


def _named(word: str, earlier: list[StepSpec], whole: bool) -> StepSpec | None:
    """The one earlier step `word` names: its name, its skill, or (not `whole`) a part of its skill's
    name ("intake" for `permit-intake`)."""
    low = word.lower().strip("`'\"")
    if low in _STOP:
        return None
    hits = [s for s in earlier if low in (s.name.lower(), skill_of(s).lower(), s.id) or (not whole and (
        low in skill_of(s).lower().split("-") or low in s.name.lower().split()))]
    return hits[0] if len(hits) == 1 else None


def _beside(sentence: str, index: int, steps: list[StepSpec]) -> StepSpec | None:
    """The earlier step `sentence` says this one starts beside, by its number or its name."""
    said = starts_with(sentence)  # "alongside step 1", "same time as #1" (`spec.start_together`)
    if said is not None:
        n = int(said.rpartition("-")[2])
        return steps[n - 1] if 1 <= n <= index else None
    beside = _BESIDE_NAME.search(sentence)
    if beside is None or ends_after(sentence, beside.end()):
        return None
    # "alongside the orders" are things; "at the same time as intake" (no article) and "the dough step" name a
    # step by a word of its skill
    whole = not beside.group("kind") and bool(beside.group("art") or not beside.group(0).lower().startswith(("at", "the")))
    return _named(beside.group("name"), steps[:index], whole)


def _mark(step: StepSpec, line: int, sentence: str, note: str, src: Source, first: str | None = None) -> StepSpec:
    where = src.where(line)
    src.warn(line, f"{step.id} ({step.name[:50]}): '{sentence[:80]}' read as: {note}", "spec.parallel")
    update: dict[str, object] = {"unordered_where": where,
                                 "readings": (*step.readings, Reading(what="depends_on", where=where,
                                                                      text=sentence[:160], note=note))}
    if first is not None:
        update["starts_with"] = first
    return step.model_copy(update=update)


def _own(step: StepSpec, index: int, steps: list[StepSpec], src: Source) -> StepSpec:
    """The step, with a start its own text says read (the first two ways of the module docstring)."""
    texts = [(t.text, t.line) for t in step.texts] + [(step.name, _line(step))]
    for text, line in texts:
        if (other := beside_clause(text, steps[:index], lambda s: src.line_text(_line(s)))) is not None:
            return _mark(step, line, " ".join(text.split()), f"starts together with {other.id} (the clause number "
                         f"that labels it): waits for what {other.id} waits for, not for the step before it", src,
                         first=other.id)  # "Concurrently with C.2" (`spec.legal_prose29`)
        for m in _SENTENCE.finditer(text):
            sentence = " ".join(m.group(0).split())
            if not sentence or len(sentence) > 400 or _NOT.search(sentence):
                continue
            need = _NO_NEED.search(sentence)
            if need is not None:
                if _number(need) == index:  # "(2) ... doesn't need (1)": the step just before
                    return _mark(step, line, sentence, f"does not wait for {steps[index - 1].id} (only for the steps "
                                                       "whose outputs it reads): the text says it does not need it", src)
                continue
            other = _beside(sentence, index, steps)
            if other is not None:
                return _mark(step, line, sentence, f"starts together with {other.id}: waits for what {other.id} waits "
                                                   "for (and the steps whose outputs it reads), not for the step before "
                                                   "it", src, first=other.id)
            if step.form == "recipe" and parallel_start(sentence):
                return _mark(step, line, sentence, f"does not wait for {steps[index - 1].id} (only for the steps whose "
                                                   "outputs it reads): the text says it starts at the same time", src)
    return step


def _noted(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, those a line names by label as going together started with the first named."""
    labels = cue_labels(steps, src)
    order = [s.id for s in steps]
    by_id = {s.id: s for s in steps}
    for number, raw in enumerate(src.lines, start=1):
        if not _MUTUAL.search(raw) or _NOT.search(raw) or len(raw) > 400:
            continue
        named: list[str] = []
        for m in _LABELS.finditer(raw):
            said = m.group("lab") or ""
            n = m.group("par") or m.group("num") or m.group("bare")
            sid = labels.get(said) if said else (f"step-{n}" if n and f"step-{n}" in by_id else None)
            if sid is not None and sid not in named:
                named.append(sid)
        if len(named) < 2:
            continue
        named.sort(key=order.index)
        for sid in named[1:]:
            if _free(by_id[sid]):
                by_id[sid] = _mark(by_id[sid], number, " ".join(raw.split()), f"starts together with {named[0]}: "
                                   f"waits for what {named[0]} waits for, not for the step before it", src,
                                   first=named[0])
    return [by_id[s.id] for s in steps]


def read_starts(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the starts together of the module docstring read."""
    if len(steps) < 2 or len({s.id for s in steps}) != len(steps):
        return steps
    out = list(steps)
    for index in range(1, len(out)):
        if _free(out[index]):
            out[index] = _own(out[index], index, out, src)
    return _noted(out, src)


_rx.save()
