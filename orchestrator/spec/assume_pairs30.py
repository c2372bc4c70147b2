"""Values to go on with said as an assumption in words, then spelled out in brackets as the step's own outputs.

    If the weather thing is down just assume dry, 10 degrees (surface dry, temp_c 10) and get on with it.
        (skill outputs `surface`, `temp_c`)  -> on failure carry on with surface "dry", temp_c 10
    If the stove won't light, pretend it's lit (lit yes, temp_c 20) and crack on.     -> lit true, temp_c 20
    If the scale is down, assume the usual (weight 12) and carry on.                  no: one pair (an
                                                                                       earlier round's reading)
    assume nothing (see the notes, page 2) and carry on                               no: no pairs

A plan sheet, a packing list or a service sheet says the values in the author's words ("dry, 10 degrees")
and then, in brackets, as `name value` pairs. The sentence must say an assumption ("assume", "pretend",
"treat it as", "act as if", "call it") and a going on ("get on with it", "crack on", "carry on", "keep
going", "proceed"), and the bracket two or more pairs, each name an output of the step's skill
(`Vocabulary.outputs_of`), each value a number, yes/no/true/false, or one word (a text). The sentence
is given to the policy reader as "carry on as surface "dry" and temp_c 10" (`spec.two_values29` reads
it), its condition kept; the reading is shown on the step.
"""

from __future__ import annotations

from orchestrator.spec.cue_notes import skill_of
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ASSUME = _rx(r"(?i)(?<![\w-])(?:assum(?:e|ing)|pretend(?:ing)?|treat\s++it\s++as|act\s++as\s++if|call\s++it)(?![\w-])")
_GO_ON = _rx(r"(?i)(?<![\w-])(?:get\s++on\s++with\s++it|crack\s++on|carry(?:ing)?\s++on|keep(?:ing)?\s++going|"
             r"mov(?:e|ing)\s++on|go(?:ing)?\s++on|continu(?:e|ing)|proceed(?:ing)?|press\s++on|push\s++on)(?![\w-])")
_BRACKET = _rx(r"\((?P<inside>[^()\n]{3,200}+)\)")
_PAIR = _rx(r"^\s*+(?P<name>[a-z][a-z0-9_]{0,40}+)\s*+[:=]?\s*+(?P<value>-?\d{1,9}+(?:\.\d{1,6}+)?+|[A-Za-z][\w-]{0,30}+)\s*+$")
_SPLIT = _rx(r"(?<!\s)\s*+(?:,|;|&|\band\b)\s*+")
_WORDS = frozenset({"yes", "no", "true", "false", "null"})


def _pairs(inside: str, outputs: frozenset[str]) -> list[tuple[str, str]] | None:
    """The `name value` pairs of a bracket, each name one of `outputs`, or None."""
    pairs = []
    for part in _SPLIT.split(inside):
        m = _PAIR.match(part)
        if m is None or m.group("name") not in outputs:
            return None
        value = m.group("value")
        low = value.lower()
        pairs.append((m.group("name"), low if low in _WORDS or value[:1].isdigit() or value[:1] == "-"
                      else f'"{value}"'))
    return pairs if len(pairs) >= 2 and len({n for n, _ in pairs}) == len(pairs) else None


def read_assumed_pairs(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each sentence of the module docstring given to the policy reader as the values to go on with."""
    out = []
    for step in steps:
        skill = skill_of(step)
        outputs = src.vocabulary.outputs_of(skill) if src.vocabulary and skill else None
        if not outputs:
            out.append(step)
            continue
        texts = []
        for text in step.texts:
            said = text.text
            assume = _ASSUME.search(said) if len(said) <= 600 else None
            bracket = _BRACKET.search(said, assume.end()) if assume else None
            go_on = _GO_ON.search(said, bracket.end()) if bracket else None
            pairs = _pairs(bracket.group("inside"), frozenset(outputs)) if bracket and go_on else None
            if assume is not None and go_on is not None and pairs:
                plain = "carry on as " + " and ".join(f"{n} {v}" for n, v in pairs)
                step = step.model_copy(update={"readings": (*step.readings, Reading(
                    what="fallback", where=src.where(text.line), text=said[assume.start():go_on.end()][:160],
                    note=f"the values to go on with: {', '.join(f'`{n}` = {v}' for n, v in pairs)} (`{skill}` returns "
                         "them)"))})
                text = text.model_copy(update={"text": f"{said[:assume.start()]}{plain}{said[go_on.end():]}"})
            texts.append(text)
        out.append(step.model_copy(update={"texts": tuple(texts)}))
    return out


_rx.save()
