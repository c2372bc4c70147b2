"""The other branch said at the opening of a step's own text, and a step whose text opens with a
condition no reader took.

    12/05, 09:12 - Ann: 3) if not, `lock-rooms` ...      the other branch of the nearest step before it with a condition
    - Failing that, `call-caterer` ...                     the same ("else", "otherwise", "if it isn't", "if that's not
    [10:02] Bo: Step 4: and if it's under, `file-it`       the case", "when that fails", "if it's under/over" against that
                                                           step's comparison in the other direction)
    3. If the cabin is cold, `light-stove`                 no reader took the condition: warned, the step runs every time

The opening is the text after any list marker, timestamp, speaker name ("Name (Org): ") and step
number ("3)", "Step 3:", a lettered item's "b)"), whatever shape the document has, with emphasis marks ('''x''', **x**, __x__,
*x*) taken off (`plain`, asked by `spec.condition.condition_sentence` too: "'''Only''' if ..."). An
otherwise read so is the step's `otherwise_where`/`otherwise_of` and a warning at its line; one with
no condition before it to be the other branch of is a warning that both run. `read_openings` runs
after every other reader of a step's condition (`spec.lead_condition.read_leads`), so what they read
stands; a step still without a condition whose opening is an if-clause or an otherwise word is
warned at its line: it runs on every run. A clause about the step before failing ("if it errors",
"if that's slow") is its recovery policy, not a condition, and is left to the policy reader.
"""

from __future__ import annotations

from orchestrator.hints import Hint, HintAction
from orchestrator.spec.condition import read_condition
from orchestrator.spec.condition_question import question_condition
from orchestrator.spec.condition_unhappened import other_branch, unhappened
from orchestrator.spec.grammar_families23 import FAILURE_IDIOMS
from orchestrator.spec.grammar_families24 import FAILURE_IDIOMS as FAILURE_IDIOMS24
from orchestrator.spec.lead_condition import lead_of, unread
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.nobody53 import nobody_opening, says_some
from orchestrator.spec.phrasing35 import recovery_opening
from orchestrator.spec.phrasing38 import failure_question
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.salon38 import negated_label
from orchestrator.spec.source import Source
from orchestrator.spec.state_said54 import State, state_condition

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# emphasis marks hugging a word: '''Only''', ''if'', **only**, __if__, *only*
_EMPHASIS = _rx(r"'{2,3}+(?=[^\W_])|(?<=[^\W_])'{2,3}+|(?<![\w*])\*{1,3}+(?=[^\W_])|(?<=[^\W_])\*{1,3}+(?![\w*])"
                r"|(?<![\w_])__(?=[^\W_])|(?<=[^\W_])__(?![\w_])")
# what opens a text before its words: markers, numbers, dates, times, brackets, emoji
_MARKS = _rx(r"^[\W\d_]*+")
_TIME = _rx(r"\d:\d\d")
# a speaker's name before a colon (a chat line, a transcript); at most a few words and an aside
_SPEAKER = _rx(r"^[^\W\d_][^:\n]{0,60}+:\s++")
_STEP_WORD = _rx(r"(?i)^(?:step|stage|phase)\s*+[\w-]{1,6}+\s*+[:.)—–-]?\s*+")
_NUMBERED = _rx(r"^\(?[\dA-Za-z]{1,3}+[.)]\s")
_LETTER = _rx(r"^\(?[A-Za-z]\)[ \t]++|^[a-z]\.[ \t]++")  # "b) ", "(c) ", "d. " (not "A. Smith")
# "If no block is ready, then instead x ...": an unread condition whose step stands in for the one before
_INSTEAD = _rx(r"(?i)(?<![\s,;:—–-])[,;:—–-]?+\s*+(?:then\s++)?instead\b")
_NEGATION = _rx(r"(?i)\b(?:no|not|none|never|nothing|nobody|neither)\b|n['’]t\b")
# words `_FAILURE` counts that say no failure of the step's own
_NOT_FAILURES = frozenset({"needed", "necessary", "ready", "possible", "you", "we", "i"})


def plain(text: str) -> str:
    """`text` without the emphasis marks around its words (module docstring)."""
    return _EMPHASIS.sub("", text) if ("'" in text or "*" in text or "__" in text) else text


def opening(text: str) -> str:
    """The words `text` opens with after its marker, timestamp, speaker and step number (module docstring)."""
    t = plain(text.lstrip()[:400])
    marks = _MARKS.match(t)
    cut = marks.end() if marks else 0
    prefix, rest = t[:cut], t[cut:]
    if (speaker := _SPEAKER.match(rest)) is not None:
        after = rest[speaker.end():]
        # a speaker after a time ("09:12 - Ann: ..."), or one before a step's number ("Ann: 3) ...")
        if _TIME.search(prefix) or _NUMBERED.match(after) or _STEP_WORD.match(after):
            rest = after
    if (step := _STEP_WORD.match(rest)) is not None:
        rest = rest[step.end():]
    if (letter := _LETTER.match(rest)) is not None:  # "b) if ...": a lettered item's letter
        rest = rest[letter.end():]
    marks = _MARKS.match(rest)
    return rest[marks.end():] if marks else rest


_JOIN = r"(?:(?:and|but|so|or)\s++)?"
_END = r"(?=\s*+(?:[,:;—–→]|->|=>|-\s|then\b|$))"
# the other branch said as words of its own
_OTHER = _rx(
    rf"(?i)^{_JOIN}(?P<w>if\s++not|otherwise|else|or\s++else|failing\s++that|when\s++that\s++fails|"
    r"if\s++(?:it|that|this|so)(?:['’]s\s++not|\s++is\s++not|\s++isn['’]t|\s++was\s++not|\s++wasn['’]t|"
    r"\s++does\s++not|\s++doesn['’]t|\s++did\s++not|\s++didn['’]t)(?:\s++(?:the\s++case|so|true|hold|apply))?|"
    rf"if\s++that['’]s\s++not\s++the\s++case|in\s++the\s++other\s++case|if\s++the\s++answer\s++is\s++no){_END}"
    # "failing that `x`": a step of its own, not the fallback of the step before (`spec.otherwise_opening`)
    rf"|^{_JOIN}failing\s++that(?=\s*+`)")
# "and if it's under", "if it is more than that": the other direction of the comparison before
_OTHER_WAY = _rx(
    rf"(?i)^{_JOIN}if\s++(?:it|that|they|this)(?:['’]s|['’]re|\s++is|\s++are)\s++(?P<dir>under|below|less|lower|"
    r"fewer|smaller|over|above|more|higher|bigger|greater)(?:\s++than)?(?:\s++that|\s++(?P<n>\d++(?:\.\d++)?))?"
    rf"{_END}")
_DOWN = frozenset({"under", "below", "less", "lower", "fewer", "smaller"})
# an if-clause at the opening; one about the step before failing is its recovery, not a condition
_IF = _rx(rf"(?i)^{_JOIN}(?:only\s++)?(?:if|unless|in\s++case|only\s++when)\s++(?P<c>[^,;:→]{{0,160}}+)")
_FAILURE = _rx(r"(?i)(?<!\w)(?:" + FAILURE_IDIOMS + "|" + FAILURE_IDIOMS24 + r"|fail\w*+|errors?|erroring|down|time[sd]?\s*+out|timeout|crash\w*+|unavailable|"
               r"unreachable|broken|breaks?|flak\w*+|slow|hangs?|rate.limit\w*+|taking|takes|stuck|retr\w*+|dead|offline|"
               r"unresponsive|outage|responding|"
               r"needed|necessary|ready|possible|you|we|i)(?!\w)")


_OTHER_MARK = _rx(r"\s*+(?:[,:;—–→]|->|=>|-\s|then\b)?\s*+")


def otherwise_lead(text: str) -> int | None:
    """Where the words after an otherwise said at the very start of `text` begin ("if it isn't → `x`"), or None."""
    m = _OTHER.match(text.lstrip())
    if m is None:
        return None
    start = len(text) - len(text.lstrip()) + m.end()
    mark = _OTHER_MARK.match(text, start)
    return mark.end() if mark else start


def _stands_in(condition: str, words: str, end: int) -> bool:
    """"If no block is ready, then instead x ...": a negated condition, no failure, and "instead" after it."""
    said = {w.lower() for w in _FAILURE.findall(condition)}
    return (_INSTEAD.match(words, end) is not None and _NEGATION.search(condition) is not None
            and said <= _NOT_FAILURES)


def _single(step: StepSpec) -> tuple[str, object] | None:
    """(op, value) of the one comparison of the step's condition, when it has exactly one."""
    read = read_condition(step.when) if step.when else None
    if read is None or read.expression is not None or read.negated or len(read.clauses) != 1:
        return None
    clause = read.clauses[0]
    return (clause.op, clause.value) if clause.kind == "compare" and clause.subject and clause.op else None


def _stated(step: StepSpec, state: State, latest: StepSpec | None, src: Source, line: int, who: str) -> StepSpec:
    """The step with the state its opening says as its condition, or as the other branch of the step before
    whose condition is that state (`spec.state_said54`)."""
    where = src.where(line)
    if state.negated and latest is not None and latest.when == f"{state.field} == true":
        src.warn(line, f"{who}: '{state.said[:80]}' at the opening of its text says `{state.field}` is not so, read "
                       f"as the other branch of {latest.id} ({latest.when}): it runs exactly when that condition is "
                       f"false; to say so plainly write `Otherwise (of {latest.id.replace('-', ' ').title()}):`",
                 "spec.lead-condition")
        reading = Reading(what="otherwise", where=where, text=state.said[:160],
                          note=f"runs exactly when the condition of {latest.id} was false ('{state.said[:60]}')")
        return step.model_copy(update={"otherwise_where": where, "otherwise_of": latest.id,
                                       "field_where": {**step.field_where, "when": where},
                                       "readings": (*step.readings, reading)})
    when = f"{state.field} == {'false' if state.negated else 'true'}"
    src.warn(line, f"{who}: its text opens with '{state.said[:80]}', read as its condition `{when}` (`{state.field}` a "
                   f"yes/no value a step before gives): it runs only then; to say so plainly write `- When: {when}`",
             "spec.lead-condition")
    reading = Reading(what="when", where=where, text=state.said[:160], note=f"runs only when {when} (the opening of its text)")
    return step.model_copy(update={"when": when, "readings": (*step.readings, reading),
                                   "field_where": {**step.field_where, "when": where, "when_title": where}})


def _line(step: StepSpec) -> int:
    head = " ".join(step.description.split())[:30]
    for text in step.texts:
        if head and " ".join(text.text.split()).startswith(head):
            return text.line
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def read_openings(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each whose own text opens with an otherwise as the other branch of the nearest step
    before it with a condition; every step left with an opening if-clause or otherwise warned (module
    docstring). State is kept as the steps go: no walk back."""
    out: list[StepSpec] = []
    latest: StepSpec | None = None
    routed = {t for s in steps for t in (*s.routes.values(), *([s.route_default] if s.route_default else []))}
    for step in steps:
        said = bool(step.when or step.otherwise_where or step.otherwise_of or step.routes or step.id in routed)
        text = step.description or (step.name if step.form != "heading" else "")
        if not said and text.strip() and lead_of(step.name) is None:  # a title read or warned by `read_leads`
            step = _read(step, opening(text), latest, src)
        if step.when:
            latest = step
        out.append(step)
    return out


def _read(step: StepSpec, words: str, latest: StepSpec | None, src: Source) -> StepSpec:
    line, who = _line(step), f"{step.id} ({step.name.strip()[:60]})"
    other = _OTHER.match(words)
    way = None if other else _OTHER_WAY.match(words)
    if (other is None and way is None and (asked := question_condition(words)) is not None and step.approval is None
            and not failure_question(words)):  # "Broken lookup? Route it through `x`": the failure answered
        return _asked(step, asked, latest, src, line, who)
    if other is None and way is None and step.approval is None and latest is not None and (
            label := negated_label(words, latest.when) or negated_label(f"{step.name.strip()}:", latest.when)
    ) is not None:  # "NOT MATTED ->" after "MATTED?"; "3. Not frozen: x", its label the step's title
        return _asked(step, (label[0], True, label[1]), latest, src, line, who)
    if other is None and way is None:
        # "if the tree IS protected it goes to `x`" (`spec.state_said54`): where no reader before took the opening
        state = state_condition(words) if step.approval is None else None
        m = _IF.match(words)
        if m is not None and latest is not None and step.approval is None and _stands_in(m.group("c"), words, m.end()):
            return other_branch(step, (None, m.group("c"), True), words[:m.end()].strip(), latest, src, line, who)
        none = nobody_opening(words) if step.approval is None else None
        if none is not None and not (latest is not None and latest.when and says_some(latest.when, none[1])):
            src.warn(line, f"{who}: its text opens with '{none[0][:80]}', which is not read: no step before it runs "
                           f"only when some are {none[1]} (`{none[1]} > 0`), so it is no other branch and the step runs "
                           f"on every run; write `- When: {none[1]} == 0` or `Otherwise:`", "spec.condition-not-read",
                     Hint(action=HintAction.INTERPRET))
            return step
        if none is not None and latest is not None:
            said, field = none  # "when nobody is missing:" after "only if ... missing > 0" (`spec.nobody53`)
            src.warn(line, f"{who}: '{said[:80]}' at the opening of its text says none is {field}, read as the other "
                           f"branch of {latest.id} ({latest.when}): it runs exactly when that condition is false; to "
                           f"say so plainly write `Otherwise (of {latest.id.replace('-', ' ').title()}):`",
                     "spec.lead-condition")
            where = src.where(line)
            reading = Reading(what="otherwise", where=where, text=" ".join(words.split())[:160],
                              note=f"runs exactly when the condition of {latest.id} was false ('{said[:60]}')")
            return step.model_copy(update={"otherwise_where": where, "otherwise_of": latest.id,
                                           "field_where": {**step.field_where, "when": where},
                                           "readings": (*step.readings, reading)})
        if m is None and state is not None:
            return _stated(step, state, latest, src, line, who)
        if m is None or _FAILURE.search(m.group("c")) or step.approval is not None:
            return step
        gone = unhappened(m.group("c"))
        if gone is not None and (gone[2] or read_condition(m.group("c").strip()) is None):  # "If D didn't run, ..."
            return other_branch(step, gone, words[:m.end()].strip(), latest, src, line, who)
        condition = m.group("c").strip()
        negated = words[:m.start("c")].strip().lower().endswith("unless")
        if m.end() < len(words) and read_condition(condition) is not None:  # a clause mark ends it: the step's own
            when = f"unless {condition}" if negated else condition
            src.warn(line, f"{who}: its text opens with '{words[:m.end()].strip()[:80]}', read as its condition: it "
                           f"runs only when {when}; to say so plainly write `- When: {condition}`", "spec.lead-condition")
            where = src.where(line)
            reading = Reading(what="when", where=where, text=" ".join(words.split())[:160],
                              note=f"runs only when {when} (the opening of its text)")
            maybe = {"when_or_otherwise": where} if gone is not None else {}  # "if none was found": `plan.dataflow`
            return step.model_copy(update={"when": when, "readings": (*step.readings, reading), "field_where": {
                **step.field_where, "when": where, "when_title": where, **maybe}})
        if recovery_opening(words):  # "If the printer jams, wait 2 min and retry": the failure it answers
            return step
        if state is not None:
            return _stated(step, state, latest, src, line, who)
        src.warn(line, f"{who}: its text opens with the condition '{words[:m.end()].strip()[:80]}', which is not "
                       "read: the step runs on every run; write it as a comparison of a named value "
                       "(`- When: NAME > NUMBER`)", "spec.condition-not-read", Hint(action=HintAction.INTERPRET))
        return unread(step, src.where(line))
    said = (other or way).group(0).strip()  # type: ignore[union-attr]
    if latest is None:
        src.warn(line, f"{who}: its text opens with '{said}', the other branch of a condition, but no step before it "
                       "has a condition that was read, so both run on every run; write the condition before as a "
                       "comparison of a named value (`- When: NAME > NUMBER`) and this step as `Otherwise:`",
                 "spec.condition-not-read", Hint(action=HintAction.INTERPRET))
        return step
    if way is not None:
        partner = _single(latest)
        down = way.group("dir").lower() in _DOWN
        number = way.group("n")
        value = None
        if number is not None:
            value = float(number) if "." in number else int(number)
        fits = partner is not None and (partner[0] in ("<", "<=")) != down and (value is None or value == partner[1])
        if not fits:
            src.warn(line, f"{who}: its text opens with '{said}', which is not read as the other branch of "
                           f"{latest.id} ({latest.when}): it is not that condition's other direction, so the step "
                           "runs on every run; write `Otherwise:` or a comparison (`- When: NAME < NUMBER`)",
                     "spec.condition-not-read", Hint(action=HintAction.INTERPRET))
            return step
    src.warn(line, f"{who}: '{said}' at the opening of its text is read as the other branch of {latest.id} "
                   f"({latest.when}): it runs exactly when that condition is false; to say so plainly write "
                   f"`Otherwise (of {latest.id.replace('-', ' ').title()}):`", "spec.lead-condition")
    where = src.where(line)
    reading = Reading(what="otherwise", where=where, text=" ".join(words.split())[:160],
                      note=f"runs exactly when the condition of {latest.id} was false ('{said}' opens its text)")
    return step.model_copy(update={"otherwise_where": where, "otherwise_of": latest.id,
                                   "field_where": {**step.field_where, "when": where},
                                   "readings": (*step.readings, reading)})


def _asked(step: StepSpec, asked: tuple[str, bool, str], latest: StepSpec | None, src: Source, line: int,
           who: str) -> StepSpec:
    """The step whose text opens with a yes/no question (`spec.condition_question`): its condition, or the
    other branch of the step before that asked the same, warned as read."""
    name, negated, said = asked
    where = src.where(line)
    if negated and latest is not None and latest.when == f"{name} is true":
        src.warn(line, f"{who}: its text opens with the question '{said}', read as the other branch of {latest.id} "
                       f"(which asks the same): it runs exactly when {name} is false; to say so plainly write "
                       f"`Otherwise (of {latest.id.replace('-', ' ').title()}):`", "spec.lead-condition")
        reading = Reading(what="otherwise", where=where, text=said, note=f"runs exactly when the condition of "
                                                                         f"{latest.id} was false ('{said}')")
        return step.model_copy(update={"otherwise_where": where, "otherwise_of": latest.id,
                                       "field_where": {**step.field_where, "when": where},
                                       "readings": (*step.readings, reading)})
    when = f"{name} is {'false' if negated else 'true'}"
    src.warn(line, f"{who}: its text opens with the question '{said}', read as its condition `{when}` (a yes/no "
                   f"value named by the question's words): if no step gives `{name}` it is dropped; to say so "
                   f"plainly write `- When: {when}` with the name of the value", "spec.lead-condition")
    reading = Reading(what="when", where=where, text=said, note=f"runs only when {when} (the question opening "
                                                                "its text)")
    return step.model_copy(update={"when": when, "readings": (*step.readings, reading),
                                   "field_where": {**step.field_where, "when": where, "when_title": where}})


_rx.save()
