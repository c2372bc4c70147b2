"""Steps said to start together in a note, an intro, a footer or a comment: not in either step's own words.

    Do 1 and 2 at once.                                   (an intro line)   2 starts with 1
    Steps 1 and 2 don't depend on each other.             (a footer)        2 starts with 1
    Kick off the scan and the export together.            (a note)          the export starts with the scan
    <!-- 1, 2 and 3 can run in parallel -->               (a comment)       2 and 3 start with 1
    Do not run 1 and 2 at the same time.                  no: a negation
    Then email them at once.                              no: "at once" is "right away", no steps named
    Merge 1 and 2 together.                               no: their outputs are combined, not started

A runbook, a chat export or a README often says in one line away from the steps which of them go
side by side. A sentence (anywhere in the document, comments included) that names two or more steps
and says they go "at once", "together", "at the same time", "in parallel", "side by side",
"concurrently", or that they "don't depend on each other" / "don't wait for each other" / "are
independent", makes each later step named start with the first (`StepSpec.starts_with`: it waits for
what the first waits for, not for the step before it), warned at the sentence's line. Steps are named by
number ("steps 1 and 2", "1 & 2", "#1 and #2", "(1) and (2)"; a bare number only before the cue and
never followed by a unit), by skill (`scan-disk`), or by a word of one step's name or skill that names
no other ("the scan and the export"; then a word of starting must be said: do, run, kick off, start,
fire, launch, go, happen). A later step whose text says it reads the first one's output (an input
taken from it, or the first's output named in its text) keeps its wait: said at the line. A sentence
of tries, of a schedule, a negation, or one that combines the steps' results ("merge 1 and 2
together") is no start; a step that already says what it waits for is left alone. One pass over the
document's lines.
"""

from __future__ import annotations

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the words that say two steps go side by side
_CUE = _rx(r"(?i)(?<![\w-])(?:(?:both\s++)?at\s++once|(?:at\s++)?the\s++same\s++time|together|side\s++by\s++side|"
           r"in\s++parallel|concurrently|simultaneously|independent(?:ly)?+|(?:are\s++)?unrelated|"
           r"do(?:n['’]t|\s++not)\s++(?:depend\s++on|need|wait\s++(?:on|for))\s++each\s++other|"
           r"neither\s++(?:one\s++)?(?:waits?|depends?)\s++(?:on|for)\s++the\s++other)(?![\w-])")
# a cue that is itself a "not": taken out before the negation is looked for
_NOT_CUE = _rx(r"(?i)(?<![\w-])(?:do(?:n['’]t|\s++not)\s++(?:depend\s++on|need|wait\s++(?:on|for))\s++each\s++other|"
               r"neither\s++(?:one\s++)?(?:waits?|depends?)\s++(?:on|for)\s++the\s++other|no\s++need\s++to\s++wait)")
_NOT = _rx(r"(?i)n['’]t(?![\w-])|(?<![\w-])(?:never|not|no|cannot|avoid|retr(?:y|ies|ied)|attempts?|tries|"
           r"one\s++by\s++one|one\s++after\s++(?:the\s++)?other|in\s++turn|every\s++(?:night|day|morning|week|hour)|"
           r"each\s++(?:night|day|morning|week|hour)|daily|nightly|weekly|hourly)(?![\w-])")
# the steps' results put together: no start ("merge 1 and 2 together", "add the scan and the export together");
# after an article it is a step's name ("the merge and the mail can happen together")
_COMBINE = _rx(r"(?i)(?<![\w-])(?<!the\s)(?<!\ba\s)(?<!our\s)(?<!this\s)(?:merg|combin|join|add|put|fold|mix|compar|collat|gather|bring|stitch|sum|"
               r"total|zip|concatenat|append|bundl|pack|glu)\w*+(?![\w-])")
# a word of starting: needed when the steps are named by a word of their names
_START = _rx(r"(?i)(?<![\w-])(?:do|run|runs|kick\w*+|start\w*+|fire\w*+|launch\w*+|go|goes|happen\w*+|execute\w*+|"
             r"be\s++done|done|kicked|fired|in\s++parallel|concurrently|simultaneously|independent|unrelated)(?![\w-])")
# a wait said around the steps named: a join after them, no start ("once 1 and 2 are done together")
_AFTER = _rx(r"(?i)(?<![\w-])(?:once|after|afterwards|when|whenever|until|wait(?:s|ing)?+\s++(?:on|for)|following|"
             r"finish\w*+|complet\w*+)(?![\w-])")
_WORD = _rx(r"[A-Za-z]++")
# two or more step numbers in a row: "steps 1 and 2", "1 & 2", "#1, #2 and #3", "(1) and (2)"
_NUMBERS = _rx(r"(?i)(?<![\w.,/:#(-])(?P<word>(?:steps?|items?|tasks?|jobs?)\s++)?+(?:#|\()?+(?P<a>\d{1,2}+)\)?+"
               r"(?P<rest>(?:\s*+(?:,|and|&|\+)\s*+(?:and\s++)?+(?:(?:step|item|task|job)\s++)?+(?:#|\()?+\d{1,2}+\)?+){1,5}+)"
               r"(?!\s*+(?:[%$€£°]|(?:cups?|kg|g|mg|ml|l|lb|oz|mins?|minutes?|hours?|hrs?|h|s|secs?|seconds?|days?|"
               r"weeks?|times|x|pm|am|percent|gb|mb|tb)(?![\w-]))|[.,/:-]\d)")
_DIGITS = _rx(r"\d{1,2}+")
_SKILLISH = _rx(r"[A-Za-z][\w-]{2,60}+")
_SENTENCE = _rx(r"[^.;!?\n]++(?:[.;!?](?!\w)|$)")
_COMMENT = _rx(r"<!--|-->|^\s*+(?://|#)\s*+")
_STOP = frozenset(("the", "this", "that", "these", "those", "them", "they", "then", "with", "from", "into", "both",
                   "step", "steps", "task", "tasks", "same", "time", "once", "together", "parallel", "side", "other",
                   "each", "every", "first", "second", "next", "last", "before", "after", "when", "while", "have",
                   "will", "would", "should", "could", "must", "need", "needs", "what", "report", "data", "file",
                   "list", "results", "result", "output", "outputs", "check", "make", "send", "get", "run", "runs",
                   "start", "kick", "fire", "done", "happen", "also", "just", "only", "here", "there", "their"))


def _free(step: StepSpec) -> bool:
    return not step.depends_on and step.depends_where is None and step.starts_with is None and (
        step.unordered_where is None) and not step.when and step.otherwise_where is None


def _stem(word: str) -> str:
    word = word.lower()
    for tail in ("ing", "es", "ed", "s"):
        if word.endswith(tail) and len(word) - len(tail) >= 4:
            return word[: -len(tail)]
    return word


class _Index:
    """What names each step: its number, its skill, the words of its name and skill that name it alone."""

    def __init__(self, steps: list[StepSpec], catalog: frozenset[str]) -> None:
        self.by_number: dict[int, int] = {}
        for i, step in enumerate(steps):
            self.by_number.setdefault(step.number if step.number is not None else i + 1, i)
        skills: dict[str, set[int]] = {}
        for i, step in enumerate(steps):  # its skill, or the catalog skills its text names (bound later)
            said = [step.skill or "", *(m.text for m in step.mentions if not catalog or m.text in catalog)]
            for name in said:
                if name.strip():
                    skills.setdefault(name.strip().strip("`").lower(), set()).add(i)
        self.by_skill = {name: next(iter(ix)) for name, ix in skills.items() if len(ix) == 1}
        seen: dict[str, set[int]] = {}
        for i, step in enumerate(steps):
            own = " ".join((step.name, step.skill or "", *(n for n, ix in self.by_skill.items() if ix == i)))
            for w in (m.group(0) for m in _WORD.finditer(own)):
                if len(w) >= 4 and w.lower() not in _STOP:
                    seen.setdefault(_stem(w), set()).add(i)
        self.by_word = {w: next(iter(ix)) for w, ix in seen.items() if len(ix) == 1}


def _named(sentence: str, index: _Index) -> tuple[list[int], bool] | None:
    """The steps (indexes, in the order said) the sentence names, and whether by number or skill (not by a
    word of their names only); None when it names fewer than two."""
    cue = _CUE.search(sentence)
    if cue is None:
        return None
    m = _NUMBERS.search(sentence)
    if m is not None and (m.group("word") or m.end() <= cue.start()):
        said = [int(d) for d in _DIGITS.findall(m.group(0))]
        if all(n in index.by_number for n in said) and len(set(said)) >= 2:
            return list(dict.fromkeys(index.by_number[n] for n in said)), True
        return None
    hits: list[int] = []
    by_skill = True
    for w in _SKILLISH.finditer(sentence):
        word = w.group(0).lower()
        if word in index.by_skill:
            hits.append(index.by_skill[word])
        elif len(word) >= 4 and word not in _STOP and _stem(word) in index.by_word:
            hits.append(index.by_word[_stem(word)])
            by_skill = False
    hits = list(dict.fromkeys(hits))
    return (hits, by_skill) if len(hits) >= 2 else None


def _says_start(sentence: str, index: _Index) -> list[int] | None:
    """The steps a sentence says start together (module docstring), or None."""
    if len(sentence) > 300:
        return None
    rest = _NOT_CUE.sub(" together ", sentence)
    if _NOT.search(rest) is not None or _AFTER.search(_CUE.sub(" ", rest)) is not None or _COMBINE.search(sentence) is not None:
        return None
    named = _named(sentence, index)
    if named is None:
        return None
    steps, plain = named
    if not plain and _START.search(_CUE.sub(" ", sentence)) is None and _START.search(sentence) is None:
        return None
    return steps


def _reads_from(later: StepSpec, first: StepSpec) -> str | None:
    """What of `first` the later step says it reads: an input taken from it or one of its outputs named in
    its text; None when nothing flows."""
    for f in later.inputs:
        if f.source and f"steps.{first.id}." in f.source:
            return f.name
    words = {m.group(0).lower() for m in _SKILLISH.finditer(" ".join([later.description, *(t.text for t in later.texts)]))}
    for out in first.outputs:
        if len(out.name) >= 3 and out.name.lower() in words:
            return out.name
    return None


def read_notes(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the starts together said in notes (module docstring) read."""
    if len(steps) < 2 or len({s.id for s in steps}) != len(steps) or not _CUE.search(src.text):
        return steps
    out = list(steps)
    index = _Index(out, src.vocabulary.skills)
    for number, raw in enumerate(src.lines, start=1):
        if len(raw) > 2000 or _CUE.search(raw) is None:
            continue
        for m in _SENTENCE.finditer(_COMMENT.sub(" ", raw)):
            sentence = " ".join(m.group(0).split())
            named = _says_start(sentence, index)
            if named is None:
                continue
            first = out[named[0]]
            for later_ix in named[1:]:
                later = out[later_ix]
                if later_ix < named[0] or not _free(later):
                    continue
                flows = _reads_from(later, first)
                if flows is not None:
                    src.warn(number, f"{later.id}: '{sentence[:80]}' says it starts together with {first.id}, but it "
                                     f"reads {first.id}'s `{flows}`: it keeps waiting for {first.id}", "spec.parallel")
                    continue
                where = src.where(number)
                note = (f"starts together with {first.id}: waits for what {first.id} waits for (and the steps whose "
                        "outputs it reads), not for the step before it")
                src.warn(number, f"{later.id} ({later.name[:50]}): '{sentence[:80]}' read as: {note}", "spec.parallel")
                out[later_ix] = later.model_copy(update={"unordered_where": where, "starts_with": first.id,
                                                         "readings": (*later.readings, Reading(
                                                             what="depends_on", where=where, text=sentence[:160],
                                                             note=note))})
    return out


_rx.save()
