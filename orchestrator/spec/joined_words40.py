"""An input said to be several steps' values put together in order (`plan.joined_value40`), on an
Input line's assignment (`spec.fields.assigned_source`):

    lines = step-1.picked + step-2.picked                 dotted references joined by `+`
    lines = step 1's picked followed by step 2's picked   "step N's field" / "field of step N", by
                                                          "followed by", "then" or `+`
    lines = the picked lists of steps 1 and 2, put together
                                                          one field of several steps, said to be put
                                                          together ("joined", "combined",
                                                          "concatenated", "together", "into one list")

Each is the reference `steps.step-1.output.picked + steps.step-2.output.picked`. A part that is no
step's or input's value ("count + 1", "step 2's total plus tax") makes it no join; the words "steps 1
and 2" without a word of putting together are no join either (which one ran is `spec.either_input`).
"""

from __future__ import annotations

from orchestrator.spec.fields import NUMBER, STEP_WORD, reference_of, step_id
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

_N = r"[A-Za-z_][A-Za-z0-9_]*+"
_TOGETHER = (r"(?:(?:joined|put\s+together|together|concatenated|combined|merged|appended)"
             r"(?:\s+(?:in|into|as)\s+(?:one|a\s+single|a)\s+list)?|(?:in|into|as)\s+one\s+list)")
_SPLIT = _rx(r"(?i)\+|(?<![\w-])(?:followed\s++by|and\s++then|then)(?![\w-])")
_TAIL = _rx(rf"(?i)(?<![\w-])(?:all\s++|both\s++)?{_TOGETHER}\.?$")
_STEP_S = _rx(rf"(?i)^(?:the\s+)?({STEP_WORD}[\s_-]*+{NUMBER})['’]s\s++`?({_N})`?(?:\s+(?:list|values?|items?))?$")
_OF_STEP = _rx(rf"(?i)^(?:the\s+)?`?({_N})`?(?:\s+(?:list|values?|items?))?\s+(?:of|from)\s+({STEP_WORD}[\s_-]*+{NUMBER})$")
_OF_STEPS = _rx(rf"(?i)^(?:the\s+|all\s+(?:the\s+)?)?`?({_N})`?(?:\s+(?:lists?|values?|items?))?\s+(?:of|from)\s+"
                rf"{STEP_WORD}s?\s++({NUMBER}(?:\s*+,\s*+{NUMBER})*+,?\s+(?:and|&)\s+{NUMBER})$")
_NUM = _rx(rf"(?i){NUMBER}")


def _part(text: str) -> str | None:
    """One part: `step-1.picked`, `inputs.spare`, "step 1's picked", "picked of step 1"."""
    text = text.strip().strip(",").strip().strip("`").strip()
    ref = reference_of(text)
    if ref is not None:
        return ref
    m = _STEP_S.match(text)
    if m is not None and (sid := step_id(m.group(1))) is not None:
        return f"steps.{sid}.output.{m.group(2)}"
    m = _OF_STEP.match(text)
    if m is not None and (sid := step_id(m.group(2))) is not None:
        return f"steps.{sid}.output.{m.group(1)}"
    return None


def joined_source(value: str) -> str | None:
    """The joined reference an assignment's value says (module docstring), None when it says none."""
    value = value.strip()
    tail = _TAIL.search(value)
    body = value[:tail.start()].rstrip().rstrip(",") if tail is not None else value
    m = _OF_STEPS.match(body.strip())
    if m is not None and tail is not None:  # "the picked lists of steps 1 and 2, put together"
        ids = [step_id(f"step {n.group(0)}") for n in _NUM.finditer(m.group(2))]
        if all(ids):
            return " + ".join(f"steps.{sid}.output.{m.group(1)}" for sid in ids)
        return None
    pieces = _SPLIT.split(body)
    if len(pieces) < 2:
        return None
    parts = [_part(p) for p in pieces]
    if any(p is None for p in parts):
        return None
    return " + ".join(p for p in parts if p)


_rx.save()
