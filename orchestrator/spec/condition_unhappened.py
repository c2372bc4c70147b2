"""A step's condition written as the negation of an earlier step's: read as that step's other branch.

    Only when: D didn't happen (zero discrepancies)     the other branch of step D (a lettered step)
    - When: the refund step was skipped                 the other branch of the step named "refund"
    If step 3 did not run, `send-thanks` ...            the other branch of step 3
    Condition: nothing was found                        the other branch of the nearest step before
    only if: there were no matches                      with a condition (its condition said "found at
    - When: no discrepancies                            least one", "any matches", ...)
    Only if: it does NOT fit (i.e. instead of 4)        the other branch of the step it stands in for: a
                                                        negation that says "instead of / in place of" a step

People say when a step runs by saying the other step did not: "D didn't happen", "the hold was
skipped", "nothing was found". No comparison reads that; before, a `When:` line so written refused
the spec and an opening "If D didn't run, ..." was warned as not read while both steps ran.
`unhappened(text)` gives (the step named, or None for the nearest step before with a condition; the
words that said it; strong). A step said not to have run is strong: read so even where a comparison
reads the words too ("the laptop step was skipped" is no comparison of a value `laptop step`). "Nothing
was found" / "no delays" is not: a comparison reads it ("`delays` is empty") when the steps give such a
value, so the step keeps it as its condition, marked `field_where["when_or_otherwise"]`, and the planner
reads it as the other branch only when it names no value (`plan.dataflow`), warned. `spec.step` takes it on a condition line and `spec.condition_opening` at the
opening of a step's text: the step becomes an Otherwise (`otherwise_where`, and `otherwise_of` the
words naming the step), warned at its line as a guess, with how to write it plainly. `resolve_named`
(run after every step is read) turns the words naming a step into its id: a letter of a lettered
step ("D": the step whose name opens "D."), a number, or the step's name; words that name no step
before it are dropped, so the step is the other branch of the nearest conditional step before it.
"""

from __future__ import annotations

import re

from orchestrator.hints import Hint, HintAction
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "<a step> didn't happen / was skipped / never ran / wasn't needed"
_STEP_NOT = _rx(
    r"(?i)^\W*+(?P<ref>[\w`'’. -]{1,60}?)\s++(?:(?:did(?:n['’]t|\s++not)|never)\s++(?:happen|run|fire|go\s++ahead|"
    r"get\s++(?:run|done|triggered|used)|trigger|kick\s++in|apply)|never\s++(?:happened|ran|fired|ran)|"
    r"(?:was|were|got|has\s++been|had\s++been)\s++skipped|(?:was|were)(?:n['’]t|\s++not)\s++(?:needed|run|triggered|"
    r"done|taken|used|required|reached|hit)|(?:is|was)\s++not\s++the\s++one\s++that\s++ran)(?=\W|$)")
# "nothing was found", "there were none", "no discrepancies", "zero matches (found)"
_W = r"[a-z][a-z-]*+"  # a word ("call-ins")
_AFTER = r"(?:found|flagged|raised|returned|left|detected|matched|at|was|were|is|are|got|came|turned|showed)"
_NOUN = rf"{_W}(?:\s++(?!{_AFTER}(?![\w-])){_W})?+"  # "delays", "open queries"
_NONE = _rx(
    rf"(?i)^\W*+(?:(?:nothing|none|no\s++(?:one|{_NOUN}))\s++(?:was|were|is|are|got|came\s++back|"
    r"turned\s++up|showed\s++up)\s*+(?:found|flagged|raised|returned|left|matched|detected|wrong|open|back|up)?+|"
    rf"there\s++(?:were|was|are|is)\s++(?:none|nothing|no\s++{_NOUN})(?:\s++(?:found|left|at\s++all))?+|"
    rf"(?:zero|no)\s++{_NOUN}(?:\s++(?:found|flagged|raised|returned|left|detected|at\s++all))?+|"
    rf"(?:it|that|the\s++{_W})\s++found\s++(?:nothing|none|no\s++{_W}))\W*+$")
_ASIDE = _rx(r"(?<!\s)\s*+\([^()]{0,200}+\)\s*+$")
# "it does NOT fit (i.e. instead of step 4)", "the batch failed — in place of 2b": a negation that names the step
# it stands in for
_INSTEAD = _rx(r"(?i)\b(?:instead\s++of|in\s++place\s++of|rather\s++than)\s++(?:the\s++)?(?P<ref>(?:step\s++)?+"
               r"[\w`'’-]{1,40}+)")
_NEGATED = _rx(r"(?i)\b(?:not|never|no|otherwise|else|fails?|failed)\b|n['’]t\b")
_NO_REF = frozenset({"it", "that", "this", "the", "they", "those", "one", "ones", "the step", "that step"})


def unhappened(text: str) -> tuple[str | None, str, bool] | None:
    """(the words naming the step, or None for the nearest step before with a condition; what was said; strong)
    when `text` says an earlier step did not run or found nothing (module docstring); None when it does not."""
    t = text.strip().rstrip(".;:!")
    bare = t[: m.start()] if (m := _ASIDE.search(t)) is not None and m.start() > 0 else t
    if (m := _STEP_NOT.match(bare)) is not None and m.end() >= len(bare.rstrip()) - 1:
        ref = m.group("ref").strip(" `'’.")
        return (None if ref.lower() in _NO_REF else ref), bare, True
    if _NONE.match(bare) is not None:
        return None, bare, False
    if (m := _INSTEAD.search(t)) is not None and _NEGATED.search(t[: m.start()]) is not None:
        return m.group("ref").strip(" `'’"), bare, True  # "it does NOT fit (i.e. instead of step 4)"
    return None


_LETTERED = _rx(r"^\(?(?P<l>[A-Za-z])[.):]\s")


def other_branch(step: StepSpec, gone: tuple[str | None, str, bool], said: str, latest: StepSpec | None, src: Source, line: int,
          who: str) -> StepSpec:
    """The step whose title or text opens with "if <a step> didn't run" (`unhappened`): that step's other
    branch (the step named, resolved by `resolve_named`, else the nearest step before with a condition), warned."""
    ref, words, _ = gone
    if ref is None and latest is None:
        src.warn(line, f"{who}: its text opens with '{said[:80]}', the other branch of a condition, but no step before "
                       "it has a condition that was read, so both run on every run; write the condition before as a "
                       "comparison of a named value (`- When: NAME > NUMBER`) and this step as `Otherwise:`",
                 "spec.condition-not-read", Hint(action=HintAction.INTERPRET))
        return step
    whose = f"'{ref}'" if ref is not None else f"{latest.id} ({latest.when})"  # type: ignore[union-attr]
    src.warn(line, f"{who}: '{said[:80]}' at its opening is read as the other branch of {whose}: it runs "
                   "exactly when that condition is false; to say so plainly write `Otherwise (of Step N):`",
             "spec.lead-condition")
    where = src.where(line)
    reading = Reading(what="otherwise", where=where, text=words[:160],
                      note=f"runs exactly when the condition of {whose} was false ('{said[:60]}' opens its text)")
    marks = {"when": where, **({"otherwise_said": where} if ref is not None else {})}
    return step.model_copy(update={"otherwise_where": where, "otherwise_of": ref if ref is not None else latest.id,  # type: ignore[union-attr]
                                   "field_where": {**step.field_where, **marks},
                                   "readings": (*step.readings, reading)})



class _Names:
    """The steps read so far, to find the one words name (built once, grown as the steps go)."""

    def __init__(self, steps: list[StepSpec]) -> None:
        from orchestrator.spec.structure import StepIndex

        self.index = StepIndex(steps)
        self.letters: dict[str, list[str]] = {}
        for s in steps:
            if (m := _LETTERED.match(s.name)) is not None:
                self.letters.setdefault(m.group("l").lower(), []).append(s.id)
        self.earlier: set[str] = set()

    def named(self, ref: str) -> str | None:
        if len(ref) == 1 and ref.isalpha():  # "D": the lettered step "D. Raise queries"
            hits = self.letters.get(ref.lower(), [])
            found = hits[0] if len(hits) == 1 else None
        else:
            words = re.sub(r"(?i)^(?:the|step)\s++", "", ref)
            found = self.index.resolve(ref) or (self.index.resolve(words) if words != ref else None)
        return found if found in self.earlier else None


def resolve_named(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each Otherwise whose partner was said in words (`unhappened`) naming the step by its id."""
    if not any("otherwise_said" in s.field_where for s in steps):
        return steps
    names = _Names(steps)
    out: list[StepSpec] = []
    for step in steps:
        said = step.field_where.get("otherwise_said")
        if said is not None and step.otherwise_of is not None:
            found = names.named(step.otherwise_of)
            if found is None:
                line = int(said.rpartition(":")[2]) if said.rpartition(":")[2].isdigit() else 0
                src.warn(line, f"{step.id} ({step.name.strip()[:60]}): '{step.otherwise_of}' names no step before it: "
                               "it is read as the other branch of the nearest step before it with a condition",
                         "spec.lead-condition")
            step = step.model_copy(update={"otherwise_of": found})
        names.earlier.add(step.id)
        out.append(step)
    return out


_rx.save()
