"""A value to go on with said as a count of one of the step's own outputs: "assume we have 0
credits and keep going", where `credits` is what the step's skill returns.

    if it errors assume we have 0 credits and keep going     (skill outputs `credits`) -> credits: 0
    if the scale dies, pretend it found 12 rows and carry on  (skill outputs `rows`)    -> rows: 12
    if the scale fails, assume we have 0 eggs and carry on    (no output `eggs`): left to the policy
                                                              reader, which warns the value as not read
    assume we've got 0 doses and carry on   (skill outputs only `doses_on_hand` of that word) -> doses_on_hand: 0,
                                            a guess warned at its line

The words after the number name a thing, which is a field only when the step's skill (its `Skill:`,
else the first skill its text names) declares an output of that name (`Vocabulary.outputs_of`); the
sentence is then given to the policy reader as "assume `credits` = 0", a value it reads, and the
reading is shown on the step. A word that is no output but begins or ends exactly one output's name at
an underscore (`doses` of `doses_on_hand`, `credits` of `sms_credits`) is that output, a guess warned at its
line; two such outputs are no guess. A count of time or tries ("assume we have 3 tries") is never a value.
"""

from __future__ import annotations

from orchestrator.spec.cue_notes import skill_of
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ASSUMED = _rx(r"(?i)(?<![\w-])(?P<verb>assum(?:e|ing)|pretend(?:ing)?|act\s++as\s++if|as\s++if)\s++(?:that\s++)?"
               r"(?:we|they|it|you|there|the\s++[\w-]{1,30}+)(?:['’](?:ve|s)\s++got|\s++(?:still\s++|only\s++)?(?:have|has|"
               r"had|got|found|returned|are|is|were|was|gets?|holds?))\s++(?:got\s++)?(?P<value>-?\d{1,9}+(?:\.\d{1,6}+)?+)"
               r"\s++(?P<field>[a-z][a-z0-9_]{0,40}+)(?![\w-])")
_GO_ON = _rx(r"(?i)(?<!\w)(?:carry(?:ing)?\s++on|keep(?:ing)?\s++going|mov(?:e|ing)\s++on|go(?:ing)?\s++on|"
             r"continu(?:e|ing)|proceed(?:ing)?|press\s++on|push\s++on|anyway)(?!\w)")


def read_assumed(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each sentence of the module docstring given to the policy reader as a field's value."""
    out = []
    for step in steps:
        skill = skill_of(step)
        outputs = src.vocabulary.outputs_of(skill) if src.vocabulary and skill else None
        if outputs:
            texts = []
            for text in step.texts:
                m = _ASSUMED.search(text.text)
                field = _field(m.group("field"), outputs) if m is not None else None
                if m is not None and field is not None and _GO_ON.search(text.text):
                    said = f"{m.group('verb')} `{field}` = {m.group('value')}"
                    step = step.model_copy(update={"readings": (*step.readings, Reading(
                        what="fallback", where=src.where(text.line), text=m.group(0)[:160],
                        note=f"the value to go on with: `{field}` = {m.group('value')} (`{skill}` "
                             f"returns `{field}`)"))})
                    if field != m.group("field"):
                        src.warn(text.line, f"'{m.group(0)[:80]}' is read as the value to go on with `{field}` = "
                                            f"{m.group('value')}: `{m.group('field')}` is no output of `{skill}`, "
                                            f"`{field}` the only one of that word; check the plan, or name the output")
                    text = text.model_copy(update={"text": text.text[:m.start()] + said + text.text[m.end():]})
                texts.append(text)
            step = step.model_copy(update={"texts": tuple(texts)})
        out.append(step)
    return out


def _field(word: str, outputs: frozenset[str]) -> str | None:
    """The output the word names: itself, or the one output it begins or ends at an underscore (docstring)."""
    if word in outputs:
        return word
    word = word.lower()
    near = [o for o in outputs if o.lower().startswith(word + "_") or o.lower().endswith("_" + word)]
    return near[0] if len(near) == 1 else None


_rx.save()
