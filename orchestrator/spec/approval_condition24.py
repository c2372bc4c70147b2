"""An approval's condition said in prose: its alternatives after a comma, and the steps its values come from.

    HOWEVER - if the rollup shows any hits at all, OR the fee estimate is over $25,000, Ms. Adeyemi must approve
        -> the condition "the rollup shows any hits at all, OR the fee estimate is over $25,000" (both
           alternatives; the first alone asked the approval too seldom, and the second was lost unsaid)
    If the total is over 5,000, or the vendor is new, finance signs off first      -> both alternatives
    the UKC from 1a is under 0.5 m           -> "the UKC from step 1 is under 0.5 m": `1a` is the label
                                                 of step-1's item ("1a. tide-window ..."), so its output
    the rollup shows any hits at all          -> "step 3 shows any hits at all": `rollup` is a word of one
                                                 earlier step's skill only (`conflict-rollup`); and "hits"
                                                 of a step that gives `hit_count`, no `hits`: that count
                                                 (`said_field`; "UKC" of a step giving `ukc_m`: that field)

`or_continued` reads the first: after the first clause, each ", or <clause>" (", OR", ", and/or") that reads
as a condition is kept with it; a part that is no condition ("Ms. Adeyemi must approve") ends it. "and"
is not taken: ", and the lead signs off" is the approval, not a condition. `wait_glossed` reads the
person's wait said in words with its exact time in brackets ("one business day (8 hours)"): the time in
brackets is the wait. `steps_said` reads the second
and third in a condition's text before the planner places its values: a label ("1a", "(b)", "iii")
that ends exactly one earlier step's name and is said after "from"/"of"/"in", and a subject's opening
"the <word> shows/found/returned/reports" ("has" is not: "the class has 30 pupils" says what it counts) whose word is a hyphen-part of exactly one earlier step's
skill and of no other step's. Words that name two steps, or none, are left as written (the planner
then says what it could not place).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from orchestrator.spec.approval_words25 import label_subject
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OR_PART = _rx(r"(?i)^(?:or|and/or|or\s++else)\s++(?=\S)")
_LABEL_REF = _rx(r"(?i)\b(?P<prep>from|of|in|by)\s++(?P<label>\(?[a-z]\)|\d{1,2}+[a-z]|[ivx]{1,5}+)(?=[\s,.;:)]|$)")
_SUBJECT_STEP = _rx(r"(?i)\bthe\s++(?P<word>[a-z]{3,20}+)\s++(?=(?:shows?|found|finds|returned|returns|"
                    r"reports?|reported|came\s++back|comes\s++back|flags?|flagged|lists?|listed)\b)")
_GLOSSED_WAIT = _rx(r"(?i)\b(?:a|an|one|two|three|four|five|half\s++a|\d{1,3}+)\s++(?:(?:business|working|calendar|"
                    r"full|whole)\s++)?(?:day|days|week|weeks|shift|shifts|hour|hours|morning|afternoon)\s*+"
                    r"\((?P<d>\d{1,4}+\s*+(?:h|hrs?|hours?|mins?|minutes?|days?))\)")
_NAME_LABEL = _rx(r"(?i)(?:^|\s)(?P<label>\(?[a-z]\)|\d{1,2}+[a-z]|[ivx]{1,5}+)\.?+$")


def or_continued(cond: str) -> str | None:
    """The condition at the start of `cond` with its ", or ..." alternatives (module docstring), as
    written (a prefix of `cond`); None when no alternative follows the first clause."""
    from orchestrator.spec.condition import read_condition

    parts = cond.split(", ")
    if len(parts) < 2 or read_condition(parts[0].strip()) is None:
        return None
    end = len(parts[0])
    taken = 0
    for part in parts[1:]:
        m = _OR_PART.match(part)
        if m is None or len(part[m.end():].split()) < _ALTERNATIVE_WORDS \
                or read_condition(cond[: end + 2 + len(part)].strip()) is None:
            break
        end += 2 + len(part)
        taken += 1
    return cond[:end].strip() if taken else None


def said_field(name: str, fields: Iterable[str]) -> str | None:
    """The field of a named step a word of a condition names when the step gives no field of that very
    name: the same name in other case ("UKC": `ukc`), the name with a unit after it ("UKC": `ukc_m`,
    "depth": `depth_cm`), or the count of a plural noun ("any hits": `hit_count`, `hits_count`,
    `num_hits`, `n_hits`; truthy exactly when there are some; "pupil_count": `n_pupils`); None when no
    such field, or two."""
    low = name.lower()
    if not (low.isascii() and low.replace("_", "").isalpha() and 2 <= len(low) <= 40):
        return None
    said = {low}
    if low.endswith("s") and len(low) >= 3 and "_" not in low:
        one = low[:-3] + "y" if low.endswith("ies") else low[:-2] if low.endswith(("ches", "shes", "xes", "sses")) \
            else low[:-1]
        said |= {f"{one}_count", f"{low}_count", f"num_{low}", f"n_{low}"}
    if low.endswith("_count") and low[:-6].isalpha():  # "more than 30 pupils" of a named step: `n_pupils`
        one = low[:-6]
        many = f"{one[:-1]}ies" if one.endswith("y") else f"{one}es" if one.endswith(("s", "x", "ch", "sh")) else f"{one}s"
        said |= {f"n_{many}", f"num_{many}", f"total_{many}", f"{many}_count", f"number_of_{many}"}
    fields = list(fields)
    fits = [f for f in fields if f.lower() in said]
    if not fits:
        fits = [f for f in fields if f.lower().startswith(low + "_") and f[len(low) + 1:].isalpha()
                and len(f) - len(low) - 1 <= _UNIT_LETTERS]
    return fits[0] if len(fits) == 1 else None


_ALTERNATIVE_WORDS = 3  # "the vendor is new": a subject and what it is; "or else" is none
_UNIT_LETTERS = 3  # "m", "kg", "pct": a unit after the name, no other word


def wait_glossed(text: str) -> str:
    """The text with a wait said in words and glossed in brackets written as the gloss: "She gets one
    business day (8 hours) to respond" -> "She gets 8 hours to respond"; the text as it was when none."""
    return _GLOSSED_WAIT.sub(lambda m: m.group("d"), text)


def _label(name: str) -> str | None:
    m = _NAME_LABEL.search(name.strip())
    return m.group("label").strip("()").lower() if m else None


def steps_said(text: str, earlier: list[StepSpec], skills: Mapping[str, str], others: list[StepSpec]) -> str:
    """`text` with the earlier steps it names by their item label or a word of their skill written
    as "step N" (module docstring); `skills` maps step ids to the skill each runs, `others` are the
    steps after (their skills' words name no step uniquely)."""
    labels: dict[str, list[StepSpec]] = {}
    for s in earlier:
        if (lab := _label(s.name)) is not None:
            labels.setdefault(lab, []).append(s)

    def by_label(m: re.Match[str]) -> str:
        found = labels.get(m.group("label").strip("()").lower(), [])
        if len(found) != 1 or found[0].number is None:
            return m.group(0)
        return f"{m.group('prep')} step {found[0].number}"

    out = _LABEL_REF.sub(by_label, text) if labels else text

    def words(s: StepSpec) -> set[str]:
        return set((skills.get(s.id) or "").lower().split("-"))

    def by_skill(m: re.Match[str]) -> str:
        word = m.group("word").lower()
        found = [s for s in earlier if word in words(s)]
        if len(found) != 1 or found[0].number is None or any(word in words(s) for s in others):
            return m.group(0)
        return f"step {found[0].number} "

    return _SUBJECT_STEP.sub(by_skill, out)


def gates_placed(spec: WorkflowSpec, skills: Mapping[str, str]) -> WorkflowSpec:
    """The spec with each approval condition's steps said as "step N" (`steps_said`); the same spec
    when none changes."""
    steps = list(spec.steps)
    changed = False
    for index, step in enumerate(steps):
        gate = step.approval
        if gate is None or not gate.when:
            continue
        said = steps_said(gate.when, steps[:index], skills, steps[index:])
        said = label_subject(said, [(s.number, s.name) for s in steps[:index] if s.number is not None])  # "Q3 logged ..."
        if said != gate.when:
            steps[index] = step.model_copy(update={"approval": gate.model_copy(update={"when": said})})
            changed = True
    return spec.model_copy(update={"steps": tuple(steps)}) if changed else spec


_rx.save()
