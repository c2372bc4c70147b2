"""A value to go on with said as what the step came back with: "carry on as if free_gb came back as 50,
collection PHOTO-ARCH", "if it errors, pretend it returned 0", "act as though the count was 12".

    if it doesnt answer carry on as if free_gb came back as 50, collection PHOTO-ARCH
                                          (skill outputs `free_gb`, `collection`) -> {free_gb: 50, collection: PHOTO-ARCH}
    if the lookup fails, pretend it returned 0          (skill outputs only `count`)  -> {count: 0}
    if the lookup fails, pretend it returned 0          (outputs not known)           -> the value 0
    on error act as though the count was 12 and move on (skill outputs `count`)       -> {count: 12}
    act as if the server is down                        (no output `server`): not read here

The first name must be an output of the step's skill (`Vocabulary.outputs_of`: its `Skill:`, else
the first skill its text names), or "it" / "they" (the step's one output, else the value itself);
names after it ("..., collection PHOTO-ARCH", "and depth_m 0") must be outputs too. A bare word is a
value only after a name the skill returns; numbers, quoted text, true / false anywhere. The text must
say the step failed or that the run goes on ("carry on", "if it fails", "doesn't answer"). The
sentence is then given to the policy reader as "continue with `{...}`", a value it reads, and the
reading is shown on the step; anything else is left for the policy reader, which warns it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from orchestrator.spec.cue_notes import skill_of
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.notes38 import said_pair
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.spoken53 import spoken_pair

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LEAD = _rx(r"(?i)(?<![\w-])(?:(?:act|behave|treat\s++it|carry\s++on|go\s++on|continue|proceed)\s++)?(?:as\s++(?:if|though)|"
            r"pretend(?:ing)?|assum(?:e|ing))\s++(?:that\s++)?")
_VERB = (r"(?:came\s++back\s++(?:as|with)|come\s++back\s++(?:as|with)|returned|returns|gave\s++back|gave|gives|"
         r"was|were|is|are|equals?|said|reported|=|:)")
_VALUE = r"(?P<value>\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|`[^`\n]{0,80}+`|-?\d{1,9}+(?:\.\d{1,6}+)?+|[A-Za-z][\w-]{0,40}+)"
_FIRST = _rx(rf"(?i)(?:(?P<it>it|they|the\s++(?:step|call|service|skill|check|lookup|api))|(?:the\s++)?"
             rf"(?P<field>[A-Za-z_][\w-]{{0,40}}+))\s++{_VERB}\s++{_VALUE}")
_MORE = _rx(rf"(?i)\s*+(?:,|;|\band\b)\s*+(?:and\s++)?(?:the\s++)?(?P<field>[A-Za-z_][\w-]{{0,40}}+)\s++(?:{_VERB}\s++)?"
            rf"{_VALUE}")
_CUE = _rx(r"(?i)(?<!\w)(?:carry(?:ing)?\s++on|keep(?:ing)?\s++going|mov(?:e|ing)\s++on|go(?:ing)?\s++on|get\s++on|"
           r"continu(?:e|ing)|proceed(?:ing)?|press\s++on|push\s++on|anyway|fail(?:s|ed|ing|ure)?|errors?|erroring|"
           r"down|dies|died|breaks?|broken|times?\s++out|timed\s++out|(?:does\s*+n[o']?t|doesnt|did\s*+n[o']?t|didnt|"
           r"won['’]?t|no)\s++(?:answer|respond|reply|come\s++back)|unreachable|unavailable)(?!\w)")
_GO_ON_BEFORE = _rx(r"(?i)(?:carry\s++on|keep\s++going|move\s++on|go\s++on|get\s++on|continue|proceed|press\s++on)\s*+,?\s*+$")
_NUMBER = _rx(r"-?\d{1,9}+(?:\.\d{1,6}+)?+")
_FILLER = frozenset({"it", "they", "nothing", "everything", "we", "you", "i", "there", "this", "that", "all", "none"})


def _value(said: str, known: bool) -> object | None:
    """The value as written: a number, quoted text, true / false, or a bare word after a known name."""
    if said[:1] in "\"'`":
        return said[1:-1]
    if _NUMBER.fullmatch(said):
        return json.loads(said) if said.lstrip("-")[:1] != "0" or "." in said or said in ("0", "-0") else said
    if said.lower() in ("true", "false"):
        return said.lower() == "true"
    if said.lower() in ("null", "none", "nothing", "empty"):
        return None if known else _MISSING
    return said if known and said.lower() not in _FILLER else _MISSING


_MISSING = object()


def _read(text: str, outputs: frozenset[str] | None) -> tuple[int, int, dict[str, object] | None, object] | None:
    """(start, end, values by name or None, the value alone) of the first as-if clause the text says, else None."""
    if not _CUE.search(text):
        return None
    for lead in _LEAD.finditer(text):
        first = _FIRST.match(text, lead.end())
        if first is None:
            continue
        name = first.group("field")
        if name is not None and (outputs is None or name not in outputs or name.lower() in _FILLER):
            continue
        value = _value(first.group("value"), name is not None)  # "as if it was fine": no value
        end = first.end()
        if name is None and (pair := said_pair(text, first.start("value"), outputs)) is not None:
            name, value, end = pair[0], _value(pair[1], True), pair[2]  # "as if it said logged: false" (`notes38`)
        elif name is None and (spoken := spoken_pair(text, first.start("value"), outputs)) is not None:
            name, value, end = spoken  # "as if it said texted nought" (`spoken53`)
        if value is _MISSING:
            continue
        values: dict[str, object] = {}
        alone: object = _MISSING
        if name is not None:
            values[name] = value
        elif outputs is not None and len(outputs) == 1:
            values[next(iter(outputs))] = value
        else:
            alone = value
        while values:
            more = _MORE.match(text, end)
            if more is None or outputs is None or more.group("field") not in outputs:
                break
            extra = _value(more.group("value"), True)
            if extra is _MISSING:
                break
            values[more.group("field")] = extra
            end = more.end()
        return lead.start(), end, values or None, alone
    return None


def _rewrite(text: str, outputs: frozenset[str] | None) -> tuple[str, str, str] | None:
    """(the text with its as-if clause as "continue with `{...}`", the clause as written, what it reads) or None."""
    found = _read(text, outputs)
    if found is None:
        return None
    start, end, values, alone = found
    said = json.dumps(values) if values is not None else json.dumps(alone)
    before = text[:start]
    lead = "with" if _GO_ON_BEFORE.search(before) else "continue with"
    shown = (", ".join(f"`{k}` = {json.dumps(v)}" for k, v in values.items()) if values is not None
             else f"the value {said}")
    return f"{before}{lead} `{said}`{text[end:]}", text[start:end], shown


def as_if_notes(text: str, step: StepSpec | None, src: Source) -> str:
    """A YAML step's notes (`yaml_policy`) with their as-if clause read as the value to go on with."""
    skill = skill_of(step) if step is not None else ""
    outputs = src.vocabulary.outputs_of(skill) if src.vocabulary and skill else None
    found = _rewrite(text, outputs)
    return text if found is None else found[0]


Found = Callable[[str, "frozenset[str] | None"], "tuple[str, str, str] | None"]


def rewrite_values(steps: list[StepSpec], src: Source, find: Found, said_as: str) -> list[StepSpec]:
    """The steps, each text in which `find` (text, the skill's outputs) finds a value to go on with given to
    the policy reader as its rewrite, the clause shown on the step as a fallback reading `said_as`."""
    out = []
    for step in steps:
        skill = skill_of(step)
        outputs = src.vocabulary.outputs_of(skill) if src.vocabulary and skill else None
        texts = []
        for text in step.texts:
            found = find(text.text, outputs)
            if found is None:
                texts.append(text)
                continue
            rewritten, clause, shown = found
            step = step.model_copy(update={"readings": (*step.readings, Reading(
                what="fallback", where=src.where(text.line), text=clause[:160],
                note=f"the value to go on with: {shown} ({said_as})"))})
            texts.append(text.model_copy(update={"text": rewritten}))
        out.append(step.model_copy(update={"texts": tuple(texts)}))
    return out


def read_as_if(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each as-if clause of the module docstring given to the policy reader as the value to go on with."""
    return rewrite_values(steps, src, _rewrite, "said as what the step came back with")


_rx.save()
