"""A spec's prose, sentence by sentence: each one read as a policy, a check, or reported.

    sentences(text, line)            split a paragraph into sentences, each with its line
    read_sentence(...)               one sentence through the grammar (`phrase`): a
                                     `SentenceReading` in `src.readings`, or a warning
                                     with its line (and an `UnreadSentence` for `--interpret`)
    read_step_texts(steps, src, resolve)
                                     every `StepSpec.texts` entry of every step (what
                                     the structure readers left); success criteria
                                     become output checks (`ContractSpec`)
    read_named(text, resolve)        the grammar's reading, a step named by its name as
                                     a fallback ("go to the no-data notice instead")

What counts: a sentence the grammar reads becomes part of the plan, with its line.
A sentence that uses policy words but is not (fully) read is a warning with its
line saying what was not understood, and an `UnreadSentence` that `plan
--interpret` may have the model read (a model's reading replaces a partial one). A plain description ("It gives back
`rows`") is neither: it carries no policy. Bullets are stricter than prose: an
unlabelled or unknown-label bullet that states no policy is reported as not read
(as read only in part, when the structure reader took a dependency from it). A
steps table's extra cell is reported only when it states a policy that is not
read (its column is reported once). A step's Success line: plain comparisons
become checks on its output, other criteria are reported. Each text is read
once: the structure reader hands over only what it did not take.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from orchestrator.hints import Hint, HintAction
from orchestrator.spec.failure_question43 import join_question_texts, join_questions
from orchestrator.spec.grammar import NO_COUNT
from orchestrator.spec.model import (
    ContractSpec,
    SentenceReading,
    SpecText,
    StepSpec,
    UnreadSentence,
)
from orchestrator.spec.news_tell40 import news_only
from orchestrator.spec.phrase import Phrase, read_phrase
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.success import (
    check_schema,
    compared_names,
    compares,
    read_criteria,
    success_claimed,
    success_clause,
    then_clauses,
)

_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "approx.", "cf.", "no.", "min.", "max.", "sec.", "secs.", "mins.",
                  "hrs.", "incl.", "resp.", "esp.")
_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_END = _rx(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(`\[*_]*[A-Z0-9`])|(?<=[.!?])\s*\n+|\n\s*\n")
_SIZE_WORDS = ("maxItems", "maxLength", "maxProperties", "minItems", "minLength", "minProperties")
_EMPTINESS = {"array": ("maxItems", "minItems"), "string": ("maxLength", "minLength"),
              "object": ("maxProperties", "minProperties")}
# a failure mode or a success criterion is a description unless it names a recovery
_RECOVERY_WORDS = _rx(r"retr|again|attempt|fall\s*+-?\s*+back|escalat|continu|carry\s+on|skip|regenerat|rewrite|"
                      r"repair|\bpage\b|paging|alert|notify|default|instead|ignore|abort|give\s+up|never|"
                      r"\bwait|back-?\s*off|time-?\s*out|timed\s+out|\bfail\s+the\s+(?:run|workflow)", re.I)
# a fallback to a step named by its name: "go to the no-data notice instead", "fall back to the Publish step"
_TO_NAMED = _rx(r"(?i)\b(?P<verb>go\s+to|jump\s+to|fall\s*-?\s*back\s+(?:to|on)|fail\s*over\s+to|switch\s+to|"
                r"hand\s+(?:it\s+)?(?:over\s+)?to|send\s+(?:it\s+)?to|route\s+(?:it\s+)?to|pass\s+(?:it\s+)?to|"
                r"run|use|try)\s+(?P<name>(?:the\s+)?[\w`*'’-]+(?:\s+[\w`*'’-]+){0,4}?)"
                r"(?=\s+instead\b|\s*[.;,:)!]|\s*$)")
Resolve = Callable[[str], str | None]  # a step's name, number or id -> its id (`structure.StepIndex.resolve`)
_BLANK_CELLS = frozenset({"", "-", "–", "—", "n/a", "na", "none", "tbd", "?"})
# a column header that lists kinds of policy ("Retry / timeout", "Retries & timeouts"): it says what a
# cell may hold, not what it says, so the cell is read alone ("90s timeout" has no retry in it)
_POLICY_WORD = r"(?:retr(?:y|ies)|time-?\s*outs?|attempts?|tries|limits?|backoff|fallbacks?|on\s+(?:failure|error)|sla|waits?|delays?|pauses?)"
_KINDS_HEADER = _rx(rf"(?i)^\s*{_POLICY_WORD}(?:\s*(?:/|&|\+|,|\band\b|\bor\b)\s*{_POLICY_WORD})+\s*$")
UNREAD_CODE = "spec.policy-unread"
PARTIAL_CODE = "spec.policy-partial"


def sentences(text: str, line: int) -> list[tuple[str, int]]:
    """The sentences of `text`, which starts at `line`, each with the line it starts on; a short
    failure question and the sentence answering it are one ("Scanner down? Use `x`.",
    `spec.failure_question43`)."""
    out: list[tuple[str, int]] = []
    start = 0
    for m in _END.finditer(text):
        chunk = text[start:m.start()]
        low = chunk.rstrip().lower()
        if any(low.endswith(a) for a in _ABBREVIATIONS):
            continue
        _add(out, text, start, m.start(), line)
        start = m.end()
    _add(out, text, start, len(text), line)
    return join_questions(out)


def _add(out: list[tuple[str, int]], text: str, start: int, end: int, line: int) -> None:
    chunk = text[start:end]
    stripped = chunk.strip()
    if not stripped:
        return
    lead = len(chunk) - len(chunk.lstrip())
    out.append((" ".join(stripped.split()), line + text[: start + lead].count("\n")))


def _quote(text: str, limit: int = 80) -> str:
    t = " ".join(text.split())
    return t if len(t) <= limit else t[: limit - 1].rstrip() + "…"


def record(
    phrase: Phrase, text: str, line: int, src: Source, *, section: str, steps: tuple[str, ...], who: str,
    step_name: str = "", specific: bool = True, note: str = "",
) -> SentenceReading | None:
    """Put what `phrase` read of `text` into `src`: a reading, its warnings, or an unread sentence."""
    reading: SentenceReading | None = None
    if phrase.read:
        reading = SentenceReading(text=text, where=src.where(line), section=section, steps=steps,
                                  statement=phrase.statement, specific=specific, note=note)
        src.readings.append(reading)
        for problem in phrase.problems:
            if problem.endswith(NO_COUNT) and phrase.statement.wait is not None:
                continue  # the plan says what it assumes, with the figures (`spec.effect.assumed_retries`)
            src.warn(line, f"{who}: in '{_quote(text)}', {problem}", PARTIAL_CODE)
        if phrase.problems:  # read in part: the model may read it whole (`plan --interpret`)
            src.unread.append(UnreadSentence(text=text, where=src.where(line), section=section, steps=steps,
                                             step_name=step_name, problem="; ".join(phrase.problems)))
    elif phrase.signal or phrase.problems:
        problem = "; ".join(phrase.problems) or "no policy read"
        src.warn(line, f"{who}: '{_quote(text)}' states a policy that was not understood ({problem}); "
                       "it is not in the plan", UNREAD_CODE, Hint(action=HintAction.INTERPRET))
        src.unread.append(UnreadSentence(text=text, where=src.where(line), section=section, steps=steps,
                                         step_name=step_name, problem=problem))
    return reading


def whole_run_sentence(text: str, line: int, src: Source, note: str) -> bool:
    """A remark outside any step that limits the whole run ("the whole thing must be done within an
    hour"): recorded as a workflow sentence (the run's wall time); False when it states no such limit."""
    said = " ".join(text.split())
    phrase = read_phrase(said, src.vocabulary.skills)
    if not (phrase.read and phrase.statement.whole_run):
        return False
    record(phrase, said, line, src, section="workflow", steps=(), who="workflow", specific=False, note=note)
    return True


def read_named(text: str, resolve: Resolve | None, names: Collection[str] = ()) -> Phrase:
    """`read_phrase(text, names)`; when it reads no fallback and the text sends the failure to a step
    by its name ("go to the no-data notice instead"), the reading with that step's number. `names`
    are the catalog's skills (`src.vocabulary.skills`): one named without backticks is a skill."""
    phrase = read_phrase(text, names)
    if resolve is None or phrase.statement.on_failure is not None or not phrase.signal:
        return phrase
    for m in _TO_NAMED.finditer(text):
        sid = resolve(m.group("name").strip("`*"))
        number = sid.rpartition("-")[2] if sid and re.fullmatch(r"step-\d+", sid) else None
        if number is None:
            continue
        named = read_phrase(f"{text[:m.start('name')]}step {number}{text[m.end('name'):]}", names)
        if named.statement.on_failure is not None and named.statement.on_failure.kind == "use_step":
            return named
    return phrase


def read_sentence(
    text: str, line: int, src: Source, *, section: str, steps: tuple[str, ...], who: str, step_name: str = "",
    specific: bool = True, note: str = "",
) -> SentenceReading | None:
    """Read one sentence into `src` (module docstring); the reading, or None."""
    return record(read_phrase(text, src.vocabulary.skills), text, line, src, section=section, steps=steps, who=who,
                  step_name=step_name, specific=specific, note=note)


def policy_header(header: str) -> bool:
    """A column header that lists kinds of policy ("Retry / timeout", "Retries & waits")."""
    return _KINDS_HEADER.match(header) is not None


def _bullet(step: StepSpec, item: SpecText, src: Source, resolve: Resolve | None) -> None:
    """An unknown-label or unlabelled bullet, or a steps table's cell: a policy, or reported."""
    if item.kind == "cell" and item.text.strip().lower() in _BLANK_CELLS:
        return
    text = f"{item.label}: {item.text}" if item.label else item.text
    if item.kind == "cell" and item.label:
        heads, parts = re.split(r"(?:(?<!\s)\s+)?/\s*+", item.label), re.split(r"(?<!\s)\s+/\s++|(?<=\S)/(?=\S)", item.text)
        if 1 < len(heads) == len(parts) and all(heads) and all(p.strip() for p in parts):
            text = "; ".join(f"{h}: {p.strip()}" for h, p in zip(heads, parts, strict=True))  # "3 / 10s"
        elif policy_header(item.label):  # "90s timeout" under "Retry / timeout": no retry in it
            kinds = [k for k in re.split(r"(?:(?<!\s)\s+)?(?:/|&|\+|,|\band\b|\bor\b)\s*+", item.label) if k]
            tried = [item.text, *(f"{kind}: {item.text}" for kind in kinds)]
            text = next((t for t in tried if (p := read_named(t, resolve, src.vocabulary.skills)).read
                         and not p.problems), text)
    phrase = read_named(text, resolve, src.vocabulary.skills)
    if phrase.read or phrase.signal:
        record(phrase, text, item.line, src, section="step", steps=(step.id,), who=step.id, step_name=step.name)
        return
    if item.kind == "cell":
        return  # a cell without policy is a note; its column was reported once (`step_forms`)
    if item.label:
        src.warn(item.line, f"{step.id}: label '{item.label}' not understood; kept for review", "spec.unknown-label")
    elif item.partly:
        src.warn(item.line, f"{step.id}: bullet '{_quote(item.text, 60)}' read only for the step it depends on; "
                            "the rest is not read", "spec.unread")
    else:
        src.warn(item.line, f"{step.id}: bullet '{_quote(item.text, 60)}' not read", "spec.unread")


def worded_checks(step: StepSpec, clause: str, line: int, src: Source) -> dict[str, dict[str, Any]] | None:
    """The checks a step's success criterion says in words, every part read against the step's outputs
    (`spec.success_halves`), warned at the line as a guess; None when a part reads as nothing."""
    from orchestrator.spec.success_halves import read_halves
    from orchestrator.spec.whole_success import outputs_of

    known = outputs_of(step, src.vocabulary)
    halves, left = read_halves(clause, known) if known else ([], [])
    if not halves or left:
        return None
    written = " and ".join(h.written for h in halves)
    src.warn(line, f"{step.id}: success criterion '{_quote(clause)}' is read from words as `{written}` (a guess): "
                   f"check the plan, or write `- Success criteria: {written}`", "spec.success")
    return {h.field: dict(h.keywords) for h in halves}


def _success(step: StepSpec, item: SpecText, src: Source) -> ContractSpec | None:
    if re.match(r"(?i)\s*(?:todo|tbd|fixme|\.\.\.|…)\b", item.text):
        return None  # a template's placeholder, to be written
    checks, rest = read_criteria(item.text)
    for clause in rest:
        phrase = read_phrase(clause, src.vocabulary.skills) if _RECOVERY_WORDS.search(clause) else None
        if phrase is not None and phrase.read:
            record(phrase, clause, item.line, src, section="success", steps=(step.id,), who=step.id,
                   step_name=step.name)
            continue
        named = compared_names(clause)
        if named is not None:  # "accuracy >= min_accuracy": a name where a value goes (an input never declared)
            op = named[1] if named[1] in (">=", "<=", ">", "<", "≥", "≤") else "=="
            src.warn(item.line, f"{step.id}: success criterion '{_quote(clause)}' compares `{named[0]}` with "
                                f"`{named[2]}`, a name, not a value written in the spec, so it is not checked: write "
                                f"the value (`{named[0]} {op} VALUE`, a name in quotes if it is the value), or compare "
                                f"them in a `- When:` of the step after, which reads earlier outputs and workflow "
                                f"inputs (declare `{named[2]}` under `## Inputs` if the run is given it)", "spec.success")
            continue
        halves = worded_checks(step, clause, item.line, src)  # "sent returns true and at least 12 singers got it"
        if halves is not None:
            checks.update(halves)
            continue
        src.warn(item.line, f"{step.id}: success criterion '{_quote(clause)}' is not a comparison on an output "
                            "field (`valid is true`, `confidence >= 0.7`); not checked", "spec.success")
    if not checks:
        return None
    types = {f.name: f.type for f in step.outputs}
    for field, keywords in checks.items():  # "empty" for a field of known type: that type's keyword only
        kept = _EMPTINESS.get(types.get(field) or "")
        if kept is not None:
            for word in _SIZE_WORDS:
                if word in keywords and word not in kept:
                    del keywords[word]
    return ContractSpec(producer=step.id, consumer=None, where=src.where(item.line), validation=(item.text,),
                        constraints={"": check_schema(checks)})


def _recovery(phrase: Phrase) -> bool:
    s = phrase.statement
    stated = (s.retries, s.max_attempts, s.wait, s.on_failure, s.regenerate)
    return s.no_retry or (phrase.read and any(v is not None for v in stated))


_WAIT_WORD = _rx(r"(?i)wait(?:s|ing|ed)?+")


def read_step_texts(steps: tuple[StepSpec, ...], src: Source, resolve: Resolve | None = None) -> tuple[ContractSpec, ...]:
    """Every text of every step (module docstring); the success checks found. `resolve`
    finds a step by its name, for a fallback to a step."""
    checks: list[ContractSpec] = []
    for step in steps:
        texts = join_question_texts(step.texts)  # "Scanner down?" + "Use `x`.": one sentence (`spec.failure_question43`)
        if not texts and step.description and step.form == "yaml":  # its description is the step's prose
            line = int(step.where.rpartition(":")[2] or 1) if step.where.rpartition(":")[2].isdigit() else 1
            texts = (SpecText(text=step.description, line=line),)
        for item in texts:
            if item.kind == "success":
                found = _success(step, item, src)
                if found is not None:
                    checks.append(found)
            elif item.kind in ("bullet", "cell"):
                _bullet(step, item, src, resolve)
            else:
                cut = [(item.text, item.line)] if item.kind == "sentence" else sentences(item.text, item.line)
                for text, line in cut:
                    if item.kind == "failure_mode" and not _RECOVERY_WORDS.search(text):
                        continue  # a failure mode describes what can go wrong
                    phrase = read_named(text, resolve, src.vocabulary.skills)
                    if item.kind == "failure_mode" and not _recovery(phrase):
                        continue  # a failure mode describes what can go wrong; only a recovery in it counts
                    if phrase.read and news_only(phrase.statement, text):  # "the printer is fixed, tell Ana"
                        src.warn(line, f"{step.id}: '{_quote(text)}' says to tell someone but names no failure, so it "
                                       "is not read as what happens when the step fails (write 'if it fails, tell "
                                       "...')", "spec.unread")
                        continue
                    claimed = None if phrase.read else success_claimed(text)
                    if claimed is not None and not read_criteria(claimed)[0]:  # a check in words only: said so
                        src.warn(line, f"{step.id}: success check '{_quote(claimed)}' is not a comparison on an output "
                                       "field (`valid is true`, `confidence >= 0.7`); not checked", "spec.success")
                        continue
                    one = None if phrase.read else success_clause(text) or claimed
                    said = [one] if one is not None and (compares(one) or claimed) else []
                    for clause in said or then_clauses(text):  # "It's ready when ...", "Then x equals ...": checks
                        found = _success(step, SpecText(text=clause, line=line, kind="success"), src)
                        if found is not None:
                            checks.append(found)
                    if said:
                        continue
                    if not phrase.read and phrase.unread and all(_WAIT_WORD.fullmatch(u) for u in phrase.unread) and any(
                            r.what in ("depends_on", "join") and r.where == src.where(line) for r in step.readings):
                        continue  # "has to wait for step 2": the wait is the dependency the step reader took
                    record(phrase, text, line, src, section="step", steps=(step.id,), who=step.id,
                           step_name=step.name)
    return tuple(checks)


_rx.save()
