"""Steps named by their bare numbers in a step's own text as going at once.

    2. Weather for the pitch [pitch-weather] - ... Do 1 and 2 at once, they're separate.   2 starts with 1
    3. Pack the stove [pack-stove]. 2 and 3 can go together.                              3 starts with 2
    4. Brown the onions. Do steps 3 & 4 side by side.                                       4 starts with 3
    Call me at once if the oven trips.                                                      no: no steps named
    Retry 1 and 2 at once.                                                                  no: tries
    Add 2 and 3 cups at once.                                                               no: quantities
    Call me at once if 1 and 2 run late.                                                    no: the cue is not theirs

A plan sheet, a packing list or a service sheet names its items by number: a sentence of a step's own
text that names two steps by their numbers ("1 and 2", "steps 3 & 4", "2 + 3"; each at most the count of
steps, the pair followed by the cue or a stop, never by a unit or a thing) and then, within a few words,
says they go "at once", "together", "at the same time", "in parallel", "side by side", or that "they're
separate" / "independent":
each later one starts with the first (`StepSpec.starts_with`: it waits for what the first waits for and
for the steps whose outputs it reads, not for the step before it), warned at the sentence's line. A step
that already says what it waits for is left alone; a sentence of tries, a schedule or a negation
(`spec.start_together24`'s words) is no start. `spec.start_together24` reads the labels of a line ("Q1
and Q2", "(1) and (2)"); this module reads the bare numbers a line wrap or a step's text hides from it.
"""

from __future__ import annotations

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "1 and 2", "steps 3 & 4", "2 + 3", "#1 and #2": two numbers, the pair ending at a cue word or a stop
_PAIR = _rx(r"(?i)(?<![\w.,/:-])(?:(?:steps?|items?|tasks?|jobs?|nos?\.?)\s++)?+#?+(?P<a>\d{1,2}+)\s*+(?:and|&|\+|,)\s*+"
            r"(?:(?:step|item|task|job)\s++)?+#?+(?P<b>\d{1,2}+)(?=\s*+(?:[,.;:)!]|$|(?:at|together|in|side|simultaneously|"
            r"concurrently|are|can|could|may|go|run|start|both)(?![\w-])))")
_CUE = _rx(r"(?i)(?<![\w-])(?:(?:both\s++)?at\s++once|(?:at\s++)?the\s++same\s++time|together|side\s++by\s++side|"
           r"in\s++parallel|concurrently|simultaneously|they(?:['’]re|\s++are)\s++(?:separate|independent|unrelated)|"
           r"neither\s++(?:one\s++)?waits?\s++(?:on|for)\s++the\s++other)(?![\w-])")
_NOT = _rx(r"(?i)n['’]t(?![\w-])|(?<![\w-])(?:never|not|cannot|retr(?:y|ies|ied)|attempts?|tries|one\s++by\s++one|"
           r"one\s++after\s++(?:the\s++)?other|in\s++turn|every\s++(?:night|day|morning|week|hour)|daily|nightly|"
           r"weekly|hourly)(?![\w-])")
_SENTENCE = _rx(r"[^.;!?\n]++(?:[.;!?](?!\w)|$)")


def _free(step: StepSpec) -> bool:
    return not step.depends_on and step.depends_where is None and step.starts_with is None and (
        step.unordered_where is None) and not step.when and step.otherwise_where is None


def _named(sentence: str, count: int) -> list[int] | None:
    """The step numbers (1-based, in order) the sentence says go at once, or None."""
    if _NOT.search(sentence) is not None:
        return None
    pair = _PAIR.search(sentence)
    if pair is None or _CUE.search(sentence[pair.end():pair.end() + 40]) is None:  # "1 and 2 at once", the cue after
        return None
    a, b = int(pair.group("a")), int(pair.group("b"))
    if a == b or not (1 <= a <= count and 1 <= b <= count):
        return None
    return sorted((a, b))


def _mark(step: StepSpec, first: StepSpec, line: int, sentence: str, src: Source) -> StepSpec:
    where = src.where(line)
    note = (f"starts together with {first.id}: waits for what {first.id} waits for (and the steps whose outputs "
            "it reads), not for the step before it")
    src.warn(line, f"{step.id} ({step.name[:50]}): '{sentence[:80]}' read as: {note}", "spec.parallel")
    return step.model_copy(update={"unordered_where": where, "starts_with": first.id, "readings": (
        *step.readings, Reading(what="depends_on", where=where, text=sentence[:160], note=note))})


def read_at_once(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the starts of the module docstring read (one pass over each step's sentences)."""
    if len(steps) < 2 or len({s.id for s in steps}) != len(steps):
        return steps
    out = list(steps)
    for step in steps:
        for text in step.texts:
            if len(text.text) > 2000:
                continue
            for m in _SENTENCE.finditer(text.text):
                sentence = " ".join(m.group(0).split())
                named = _named(sentence, len(out)) if len(sentence) <= 400 else None
                if named is None:
                    continue
                first, later = out[named[0] - 1], named[1] - 1
                if _free(out[later]):
                    out[later] = _mark(out[later], first, text.line, sentence, src)
    return out


_rx.save()
