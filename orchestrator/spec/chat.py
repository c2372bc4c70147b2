"""A pasted chat thread (Slack, Teams) read as a spec.

Two or more message headers ("**Aisha Bello** 10:16 AM", "Omar 9:05") make a document a
chat. Each header is blanked before markdown parses it (lines keep their numbers), so an
author is never a step's name; a message line that opens with a word of sequence and names a
skill in backticks ("then `b` on every PR") becomes a list item, a proposed step. After the
steps are found, each later reply that names exactly one step (its skill, or a word of four
letters or more of it: "split step", "the announcement bit") is that step's text, with a
reading. A reply that names no step is read for what concerns the whole workflow: a limit on
the whole run ("if the whole thing takes more than 10 min ... kill it") is the run's wall time,
and an input it names ("version comes in as `version`") is a workflow input, added to those
the steps' needs give. Any other reply that names none, or one that names several, is a warning
at its line, never a guess.
"""

from __future__ import annotations

import re

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.forum_thread45 import forum_lines
from orchestrator.spec.inputs_lead import inputs_lead
from orchestrator.spec.model import InputSpec, Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.transcript import read_transcript

# a pasted chat's message header: the author (bold, or before a colon) and the time it was sent
_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CHAT_HEADER = _rx(r"^\s*(?:\*\*|__)?[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3}(?:\*\*|__)?\s+"
                   r"(?:\[)?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)?(?:\])?\s*$")


_CHAT_SEQUENCE = _rx(r"(?i)^\s*(?:first|then|next|after\s+that|finally|lastly|and\s+then)\b[^`\n]{0,40}"
                     r"`[a-z0-9]+(?:-[a-z0-9]+)+`")


def blank_chat_headers(text: str) -> str:
    """In a pasted chat thread (two or more lines like "**Aisha Bello** 10:16 AM"), each message
    header is a line of its own, not text: it is blanked (the lines keep their numbers), so a
    message is a paragraph of what was said and an author is never taken for a step's name. A
    line of a message that opens with a word of sequence and names a skill ("then `b` on ...")
    is a list item (a proposed step)."""
    transcript = read_transcript(text)  # turns that open with their speaker: `[09:01] Dana: ...`
    if transcript is not None:
        return transcript
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if _CHAT_HEADER.match(line)]
    if len(heads) < 2:  # "**kemi-o** · 3 days ago · Maintainer": a forum thread's (`spec.forum_thread45`)
        heads = forum_lines(lines) or []
    if len(heads) < 2:
        return text
    for i in heads:
        lines[i] = ""
    for i, line in enumerate(lines):  # "first `a` on ..., then `b` ...": a message's proposal, a list item a line
        if _CHAT_SEQUENCE.match(line):
            lines[i] = "- " + line.lstrip()
    return "\n".join(lines)


def _skill_of(step: StepSpec) -> str:
    """The skill a step names: its `skill`, else the first name in backticks in its text."""
    return step.skill or (step.mentions[0].text if step.mentions else "")


def _reply_targets(text: str, steps: list[StepSpec]) -> list[StepSpec]:
    """The steps a chat reply speaks of: the skill's name, or one of its words of four letters or
    more ("split step", "classify", "the announcement bit") as a whole word."""
    said = text.lower()
    found = []
    for step in steps:
        skill = re.sub(r"[^a-z0-9-]", "", _skill_of(step).lower())
        words = [skill, *(w for w in skill.split("-") if len(w) >= 4)] if skill else []
        if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", said) for w in words):
            found.append(step)
    return found


# "version comes in as `version`", "the input is `version`", "pass `version` in": an input of the run
_INPUT_SAID = _rx(r"(?i)\b(?:comes?|is\s+passed|gets\s+passed|is\s+given|goes)\s+in\s+(?:as|through|via)\s+"
                  r"`([A-Za-z_]\w*)`|\binputs?\s+(?:is\s+|are\s+|called\s+|named\s+)?`([A-Za-z_]\w*)`"
                  r"|\bpass(?:ed)?\s+`([A-Za-z_]\w*)`\s+in\b")


def _whole_workflow(block: Para | Bullet, src: Source) -> tuple[bool, list[InputSpec]]:
    """A reply that names no step: (it states a limit on the whole run, read as one; the inputs it
    names). A whole-run limit is recorded as a workflow sentence (`prose.record`)."""
    from orchestrator.spec.prose import whole_run_sentence

    where = src.where(block.line)
    inputs = [InputSpec(name=next(g for g in m.groups() if g), where=where,
                        description=f"named in a reply of the chat: '{' '.join(block.text.split())[:80]}'")
              for m in _INPUT_SAID.finditer(block.text)]
    whole = whole_run_sentence(block.text, block.line, src, "a reply in the chat that names no step")
    return whole, inputs


def chat_replies(steps: list[StepSpec], preamble: list[Block], src: Source
                 ) -> tuple[list[StepSpec], list[Block], tuple[InputSpec, ...]]:
    """The replies after the proposed steps of a pasted chat: one that speaks of exactly one step
    is that step's text (its policies are read there, with a reading saying so); one that speaks
    of none is read for the whole run and the workflow's inputs (module docstring); any other is
    read sentence by sentence (`_by_sentence`), and what is left of it is a warning at its line,
    never a policy on a guessed step. A list item after the steps ("- svg-measure: 45 seconds max")
    is a reply of its own; a lead line over a list ("Rules I've set:") and a line that lists the
    workflow's inputs (`spec.inputs_lead`) are no reply. What the replies place on a step comes
    before the step's own text, the latest first: where a later message states a rule again, its
    rule is the one read (the policy reader warns that the two disagree). Also the inputs the
    replies name. A paragraph of the proposal's own message (before the next message's header) that names no
    step is left to the other readers (a success check, a note), as a preamble's is, not warned."""
    lines = [int(s.where.rsplit(":", 1)[1]) for s in steps if ":" in s.where]
    first, step_lines = min(lines), set(lines)
    heads = [i + 1 for i, line in enumerate(src.lines) if _CHAT_HEADER.match(line)]
    heads = heads if len(heads) >= 2 else [i + 1 for i in forum_lines(src.lines) or []]
    # the proposal's message ends at the next header (a transcript's turns have none: each turn is a reply)
    mine = next((h for h in heads if h > first), len(src.lines) + 1) if heads else first
    by_id = {s.id: s for s in steps}
    placed: dict[str, list[tuple[SpecText, Reading]]] = {}
    kept: list[Block] = []
    said: dict[str, InputSpec] = {}
    questions: dict[str, list[Reading]] = {}
    read_at: set[int] = set()  # the lines of the replies read (placed on a step, or read for the whole run)
    asked: list[tuple[int, Para | Bullet, list[StepSpec]]] = []  # questions, decided once their answer is read

    def reply(block: Para | Bullet, targets: list[StepSpec]) -> bool:
        """Read one reply (the docstring's rules); False when it is warned as not read."""
        if len(targets) == 1:
            step = targets[0]
            reading = Reading(what="moved", where=src.where(block.line), text=" ".join(block.text.split())[:160],
                              note=f"a reply in the chat that names `{_skill_of(step)}`: read as part of {step.id}"
                                   "; a later message's rule is read before an earlier one's")
            placed.setdefault(step.id, []).append((SpecText(text=block.text, line=block.line, kind="prose"), reading))
            return True
        if not targets:
            whole, inputs = _whole_workflow(block, src)
            said.update({i.name: i for i in inputs if i.name not in said})
            if whole or inputs:
                kept.append(block)
                return True
        elif _by_sentence(block, list(by_id.values()), placed, src):
            kept.append(block)  # what it says of the whole run is read with the preamble
            return True
        if block.line < mine:  # the proposal's own message: what it says besides is the other readers'
            kept.append(block)
            return True
        which = f"it names {', '.join(t.id for t in targets)}" if targets else "it names no step"
        src.warn(block.line, f"a reply in the pasted chat, '{block.text[:60]}', is not read ({which}): a policy "
                             "or an input it states is not in the plan; write it under its step", "spec.unread")
        kept.append(block)
        return False

    for at, block in enumerate(preamble):
        if not isinstance(block, Para | Bullet) or block.line <= first or block.line in step_lines:
            kept.append(block)
            continue
        after = preamble[at + 1] if at + 1 < len(preamble) else None
        if inputs_lead(block.text) or (isinstance(block, Para) and _LIST_LEAD.match(block.text)
                                       and isinstance(after, Bullet)):
            kept.append(block)  # read by the inputs' reader; a list's lead line, its items read one by one
            continue
        targets = _reply_targets(block.text, list(by_id.values()))
        if block.line >= mine and _ASKS.search(block.text) and isinstance(after, Para | Bullet):
            asked.append((at, block, targets))  # "could it have a retry?": decided by its answer (`_answered`)
            continue
        if reply(block, targets):
            read_at.add(block.line)
    for at, block, targets in asked:
        answer = _answered(block, targets, preamble[at + 1], read_at, list(by_id.values()))
        if answer is None:
            if reply(block, targets):
                read_at.add(block.line)
            continue
        for step in answer:  # it sets no rule: its answer, read, is what the plan has (said, not dropped)
            questions.setdefault(step.id, []).append(Reading(
                what="moved", where=src.where(block.line), text=" ".join(block.text.split())[:160],
                note=f"a question in the chat, answered by the reply at line {preamble[at + 1].line}, which is read: "
                     "the question itself sets no rule"))
    for sid, items in placed.items():
        items.sort(key=lambda item: -item[0].line)
        step = by_id[sid]
        by_id[sid] = step.model_copy(update={"texts": (*(t for t, _ in items), *step.texts),
                                             "readings": (*step.readings, *(r for _, r in items))})
    for sid, asks in questions.items():
        by_id[sid] = by_id[sid].model_copy(update={"readings": (*by_id[sid].readings, *asks)})
    return list(by_id.values()), kept, tuple(said.values())


# a reply that asks: a sentence of it ends in a question mark ("could it have a retry?", "What happens if ... no?")
_ASKS = _rx(r"\?(?=\s|$)")


def _answered(question: Para | Bullet, targets: list[StepSpec], answer: Block, read_at: set[int],
              steps: list[StepSpec]) -> list[StepSpec] | None:
    """The steps a question is about when the reply right after it answers it and is read: the answer was
    read (placed on a step or read for the whole run) and speaks of a step the question names (or the
    question names none); None otherwise (the question is then read, or warned, as any reply)."""
    if not isinstance(answer, Para | Bullet) or answer.line not in read_at:
        return None
    spoken = _reply_targets(answer.text, steps)
    if not spoken:
        return None
    common = [s for s in spoken if s.id in {t.id for t in targets}] if targets else spoken
    return common or None


# a paragraph that is only a list's lead: a short line ending in a colon ("Rules I've set:", "Two changes:")
_LIST_LEAD = _rx(r"^[^\n:]{1,60}+:[ \t]*+$")


def _by_sentence(block: Para | Bullet, steps: list[StepSpec], placed: dict[str, list[tuple[SpecText, Reading]]],
                 src: Source) -> bool:
    """A reply that names several steps, read a sentence at a time: a sentence that names one step and
    uses a policy's words is that step's; one that names none and follows such a sentence is about the
    same step ("Don't retry it either"); a question asks, it sets no rule. A sentence that states a
    limit on the whole run is left to the whole run's reader. True when every sentence that uses a
    policy's words was placed so (the others are no rule); each sentence placed is warned at its line."""
    from orchestrator.spec.elsewhere import carries_policy
    from orchestrator.spec.phrase import read_phrase
    from orchestrator.spec.run_limit import WHOLE_SAID
    from orchestrator.spec.whole_limit import whole_limit

    found: list[tuple[StepSpec, str, int]] = []
    current: StepSpec | None = None
    for offset, sentence in sentences(block.text):
        phrase = read_phrase(" ".join(sentence.split()), src.vocabulary.skills)
        if (phrase.read and phrase.statement.whole_run) or WHOLE_SAID.search(sentence) or whole_limit(sentence):
            current = None
            continue
        targets = _reply_targets(sentence, steps)
        if sentence.rstrip().endswith("?") or not carries_policy(sentence):
            current = targets[0] if len(targets) == 1 else None
            continue
        step = targets[0] if len(targets) == 1 else current if not targets else None
        if step is None:
            return False
        found.append((step, sentence, block.line + offset))
        current = step
    for step, sentence, line in found:
        reading = Reading(what="moved", where=src.where(line), text=" ".join(sentence.split())[:160],
                          note=f"a sentence of a reply in the chat that names `{_skill_of(step)}`: read as part of "
                               f"{step.id}; a later message's rule is read before an earlier one's")
        placed.setdefault(step.id, []).append((SpecText(text=sentence, line=line, kind="sentence"), reading))
        src.warn(line, f"{step.id}: '{sentence[:60]}' in a reply that names several steps is read as this step's "
                       f"(it names `{_skill_of(step)}`): check the plan, or say it in a reply of its own",
                 "spec.placed")
    return bool(found)


_rx.save()
