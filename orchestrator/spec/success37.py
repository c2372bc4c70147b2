"""Success checks: a quantity said by its name and its unit; a comparison restated in parentheses over two lines.

1. A quantity said by its name and its unit, where the output field carries the unit.

People write the quantity as they say it, with its unit after the number ("intra-plate CV ≤ 15 %",
"latency p95 under 300 ms", "payload ≤ 750 kg"), where the step's output names it with the unit
as a suffix (`cv_pct`, `p95_ms`, `payload_kg`). A check on a name no step outputs is the check on
the one output field of the steps that is that name, an underscore and a suffix of the unit the
sentence writes right after the check's value ("%" is `_pct`, `_percent`; "ms" is `_ms`; "s",
"sec", "seconds" are `_s`, `_sec`, `_secs`, `_seconds`; ...). A unit not written, a suffix of
another unit, or several steps' fields that fit leave the name as it was (placed and warned as
before).

2. A check of two values said in words and restated in parentheses, the sentence wrapped onto the next
line of a plain-text document ("DONE = the card comes back printed, and the tally counted every single
/ vendor that was on the sheet (counted = how many the sheet had)."): the words warned as not checked
are read to the end of their sentence (`sentence_from`, at most three lines on, in a document that
wraps its lines), a part that ends in a parenthesis holding a comparison is that comparison
(`restated`), and "how many <thing> had / has / holds / lists" is the count the one step the thing's
words name gives (its `count`, `total` or `n` output: `how_many_had`, the first step that names the thing and gives a
count; no such step leaves the check unplaced and warned).

3. A thing dated by a time word ("last night's copy", "yesterday's export", "last week's snapshot") names
a copy of data, not what used to be done: the policy grammar's doubt "it is about the past, not a rule"
(`spec.grammar_aside`) does not take a time word followed by `'s` and such a thing (`DATED_THING`, a
lookahead the row carries). "Last week's run retried 5 times" is still about the past, and warned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)
# after "last night", "yesterday": the possessive of a dated copy of data, which is no past practice
DATED_THING = (r"(?!['’]s\s++(?:copy|copies|export|exports|file|files|data|snapshot|backup|dump|cache|cached\s+copy|list|"
               r"sheet|extract|version|numbers|figures|feed|batch|report|csv|json|download|sync|mirror|build)\b)")
OutputsOf = Callable[[StepSpec, Vocabulary], frozenset[str]]  # `whole_success.outputs_of`

# a unit as written after a number -> the suffixes an output field's name carries for it
_UNITS: dict[str, tuple[str, ...]] = {
    "%": ("pct", "percent", "perc", "pc"),
    "percent": ("pct", "percent", "perc", "pc"),
    "pct": ("pct", "percent", "perc", "pc"),
    "ms": ("ms", "millis"),
    "s": ("s", "sec", "secs", "seconds"),
    "sec": ("s", "sec", "secs", "seconds"),
    "secs": ("s", "sec", "secs", "seconds"),
    "seconds": ("s", "sec", "secs", "seconds"),
    "min": ("min", "mins", "minutes"),
    "mins": ("min", "mins", "minutes"),
    "minutes": ("min", "mins", "minutes"),
    "h": ("h", "hrs", "hours"),
    "hours": ("h", "hrs", "hours"),
    "kg": ("kg",),
    "g": ("g", "grams"),
    "kb": ("kb",),
    "mb": ("mb",),
    "gb": ("gb",),
    "eur": ("eur",),
    "usd": ("usd",),
}
_UNIT_AFTER = _rx(r"\s?+(%|[A-Za-z]{1,7}+)(?![\w%])")
_NUMBER = _rx(r"-?\d{1,12}+(?:\.\d{1,12}+)?+")
_END = _rx(r"[.!?](?:\s|$)")
_RESTATED = _rx(r"\((?P<inner>[^()]{3,120}+)\)\s*+[.!?]?\s*+$")
_COMPARES = _rx(r"(?<![=!<>])(?:==?|!=|>=|<=)(?!=)|(?i:\s(?:equals|matches)\s)")
_HAD = _rx(r"(?i)^how\s++many\s++(?:the\s++|a\s++|its\s++|their\s++)?(?P<thing>[A-Za-z][\w-]*+(?:\s++[A-Za-z][\w-]*+){0,2}?)"
           r"\s++(?:had|has|have|holds|held|lists|listed|contains|contained|gave|gives|sent|returned)\s*+$")
_WORDS = _rx(r"[a-z][a-z0-9]*+")
_NAME = _rx(r"[A-Za-z][A-Za-z0-9]{0,30}+")


def unit_field(field: str, value: str, sentence: str, steps: list[StepSpec], vocabulary: Vocabulary,
               outputs: OutputsOf) -> str | None:
    """The output field the check's `field` names by its unit (module docstring), or None."""
    if not _NAME.fullmatch(field) or any(field in outputs(s, vocabulary) for s in steps):
        return None
    value = value.strip().strip("\"'")
    at = _number_at(sentence, value)
    if at is None:
        return None
    unit = _UNIT_AFTER.match(sentence, at)
    suffixes = _UNITS.get(unit.group(1).lower()) if unit is not None else None
    if not suffixes:
        return None
    head = field.lower() + "_"
    fits = {name for s in steps for name in outputs(s, vocabulary)
            if name.lower().startswith(head) and name.lower()[len(head):] in suffixes}
    return fits.pop() if len(fits) == 1 else None


def _number_at(sentence: str, value: str) -> int | None:
    """Where the number `value` ends in the sentence (its one occurrence as a number), or None."""
    if _NUMBER.fullmatch(value) is None:
        return None
    found: list[int] = []
    at = sentence.find(value)
    while at >= 0:
        end = at + len(value)
        before = sentence[at - 1] if at else " "
        after = sentence[end] if end < len(sentence) else " "
        if not (before.isdigit() or before == "." or after.isdigit()):
            found.append(end)
        at = sentence.find(value, at + 1)
    return found[0] if len(found) == 1 else None


def renamed(check: str, sentence: str, steps: list[StepSpec], vocabulary: Vocabulary, outputs: OutputsOf) -> str:
    """The check "FIELD OP VALUE" with its field the unit's output field where one fits, else as it was."""
    field, _, rest = check.partition(" ")
    _op, _, value = rest.partition(" ")
    better = unit_field(field, value, sentence, steps, vocabulary, outputs)
    return f"{better} {rest}" if better else check


def sentence_from(text: str, line: int, lines: Callable[[int], str]) -> str:
    """`text` (the words of `line` from some point to its end) carried on to its sentence's end when the
    sentence wraps: the next lines (up to three, none blank) up to the first that ends a sentence."""
    if _END.search(text) is not None or not text.strip():
        return text
    out = text.rstrip()
    for nxt in range(line + 1, line + 4):
        more = lines(nxt).strip()
        if not more:
            break
        end = _END.search(more)
        out = f"{out} {more[: end.start() + 1] if end else more}"
        if end is not None:
            break
    return out


def restated(clause: str) -> str:
    """The comparison a part restates in the parenthesis it ends with ("the tally counted every vendor
    (counted = how many the sheet had)" -> "counted = how many the sheet had"), else the part."""
    m = _RESTATED.search(clause)
    if m is None or _COMPARES.search(m.group("inner")) is None:
        return clause
    return m.group("inner").strip()


def how_many_had(text: str, steps: Sequence[StepSpec], counts: Callable[[StepSpec], bool]) -> tuple[str, str] | None:
    """(step id, the thing) of "how many the sheet had": the first step whose name, skill or text's first
    line holds every word of the thing ("Pull the vendor sheet": the step that makes the sheet; later
    steps that name it use it) among those that give a count (`counts`); None when no step does."""
    m = _HAD.match(text.strip())
    if m is None:
        return None
    words = {w.lower() for w in m.group("thing").split()}
    for step in steps:
        said = " ".join((step.name, step.skill or "", step.description.strip().split("\n", 1)[0])).lower()
        if words <= set(_WORDS.findall(said)) and counts(step):
            return step.id, m.group("thing")
    return None


_rx.save()
