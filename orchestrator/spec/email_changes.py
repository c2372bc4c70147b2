"""What a later message of an email thread changes in the plan an earlier one proposed.

    > 3. `place-order` - ... If the portal is down, retry 3x, 5 min apart.   (the proposal)
    - for the orders, retry 5 times, 1 minute apart instead.                 (the reply above it)

In a thread (`spec.email_thread`) the newest message is on top. A step's texts are handed to the
policy reader newest message first, so where a reply and the proposal both state a step's retry,
timeout or fallback, the reply's wins, and the policy reader warns at the reply's line with both
lines ("... disagrees with ...; ... wins"). In a reply, what follows "rather than" or "instead of"
is the old value it replaces ("make it 10 minutes rather than every 5 min"): it is cut from the
text read, and the cut is warned at its line. A reply's sentence that uses a policy's words and
that no step took and no reader warned about is placed on the one step it names (its skill, its
number, or a word of its name no other step has: "for the plate reader"), warned; one that names
none or several ("the message: if it hasn't gone in 30 seconds ...") is warned at its line: said,
not dropped. Headers and signatures were blanked before, so none is
warned.
"""

from __future__ import annotations

from orchestrator.spec.check import SpecParts
from orchestrator.spec.elsewhere import StepKey, carries_policy, keys_of, named_step
from orchestrator.spec.email_thread import Thread
from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.step_prose import sentences

_rx = Patterns(__name__)

# ", rather than every 5 min", " instead of the 3 tries": the old value a reply replaces, to the clause's end
# "Ravi - one change: ...", "One thing: ...": a reply's lead-in before what it says of a step
_LEAD_IN = _rx(r"^[^:\n]{0,40}+:[ \t]++")
_OLD_VALUE = _rx(r"(?i)\b(?:rather[ \t]++than|instead[ \t]++of)\b[^.;:\n]{0,120}+")


def _line_of(where: str) -> int:
    tail = where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def _keys(steps: tuple[StepSpec, ...], src: Source) -> list[StepKey]:
    """How a sentence may name each step: its number, its skill (as written, or the first catalog
    skill its text names) and the words of its name."""
    def skill(step: StepSpec) -> str | None:
        said = (step.skill or "").strip("`*_ ")
        return said or next((m.text for m in step.mentions if m.text in src.vocabulary.skills), None)

    return keys_of([(i, s.name, skill(s)) for i, s in enumerate(steps, start=1)])


def email_changes(parts: SpecParts, thread: Thread, src: Source) -> SpecParts:
    """The parts with what later messages say placed on the steps, newest message first, their old
    values cut (module docstring); a reply's policy sentence that names no step is warned."""
    if not parts.steps:
        return parts
    proposal = min((thread.message_of.get(_line_of(s.where), 0) for s in parts.steps), default=0)
    if proposal == 0:
        return parts  # the steps are in the newest message: nothing later changes them
    texts = {s.id: list(s.texts) for s in parts.steps}
    readings = {s.id: list(s.readings) for s in parts.steps}
    taken = {_line_of(r.where) for s in parts.steps for r in s.readings} | {
        t.line for s in parts.steps for t in s.texts}
    said = {w.line for w in [*src.warnings, *src.errors] if w.code != "spec.suffix"}
    keys = _keys(parts.steps, src)
    head = 0  # the first line of the paragraph or item a line goes on (an indented line goes on the one before)
    for line, text in enumerate(src.lines, start=1):
        head = head if text[:1] in (" ", "\t") and text.strip() and head else line
        if thread.message_of.get(line, proposal) >= proposal or {line, head} & (taken | said) or not text.strip():
            continue
        for _, sentence in sentences(text.strip().lstrip("-*+ ")):
            if not carries_policy(sentence):
                continue
            named = named_step(_LEAD_IN.sub("", sentence, count=1), keys, src.vocabulary)
            if named is None:
                src.warn(line, f"a later message says '{sentence[:70]}', which reads like a step's policy but "
                               "names no step it is about (or several), so it is not read: write it in that "
                               "step's text", "spec.unread")
                continue
            step = parts.steps[named[0] - 1]
            src.warn(line, f"{step.id} ({step.name}): '{sentence[:60]}' in a later message is read as this step's "
                           f"policy (it names {named[1]}); where the step's own text says otherwise, it wins",
                     "spec.placed")
            readings[step.id].append(Reading(what="moved", where=src.where(line), text=sentence[:160],
                                             note=f"read as {step.id}'s policy, said in a later message "
                                                  f"(it names {named[1]})"))
            texts[step.id].append(SpecText(text=sentence, line=line, kind="sentence"))
    steps: list[StepSpec] = []
    for step in parts.steps:
        mine: list[SpecText] = []
        for t in texts[step.id]:
            old = _OLD_VALUE.search(t.text) if thread.message_of.get(t.line, proposal) < proposal else None
            if old is not None:
                cut = t.text[:old.start()].rstrip(" \t,") + t.text[old.end():]
                src.warn(t.line, f"{step.id}: a later message replaces a value: '{old.group(0).strip()[:60]}' "
                                 f"is read as the old value it replaces and is not read; the rest, '{cut[:60]}', is",
                         "spec.reading")
                t = t.model_copy(update={"text": cut})
            mine.append(t)
        ordered = sorted(mine, key=lambda t: thread.message_of.get(t.line, proposal))
        if ordered != list(step.texts) or readings[step.id] != list(step.readings):
            step = step.model_copy(update={"texts": tuple(ordered), "readings": tuple(readings[step.id])})
        steps.append(step)
    return parts.model_copy(update={"steps": tuple(steps)})
