"""The step a step's sentence names for one of its inputs: "the `commits` from step 2".

    `merge-changes` takes the `commits` from step 2 and the `tickets` from step 3
    over the `notes` that came out of step 5
    the `rows` of Stage 1

A backticked name followed by "from", "of", "out of" or "that came (back) out of / from" and
a step by its number names the step that gives that input (an AsciiDoc link to a step's
anchor is read as "step N" first, `plan.xrefs`). The planner binds the input to that step's
field of the same name when that step outputs it; else the rules go on as if unsaid.
"""

from __future__ import annotations

import re

from orchestrator.spec.fields import NUMBER, STEP_WORD, number_of

_SAID = re.compile(
    rf"(?i)`(?P<name>[A-Za-z_]\w*+)`\s++(?:(?:that|which)\s++(?:came|comes|come)\s++(?:back\s++)?(?:out\s++)?(?:of|from)"
    rf"|from|of|out\s++of)\s++(?:the\s++)?(?:{STEP_WORD})\s*+(?P<n>{NUMBER})\b"
)


# "... from step 1" after a list of values in words: "Finder's phone + case no. + species from step 1"
_FROM = re.compile(rf"(?i)\b(?:from|of|out\s++of)\s++(?:the\s++)?(?:{STEP_WORD})\s*+(?P<n>{NUMBER})\b"
                   rf"(?!\s*+(?:or|/)\s*+(?:{STEP_WORD}\s*+)?{NUMBER}\b)")
# "plan (from 2 or 3)", "the `plan` from step 2 or step 3": a value of whichever of two steps
_EITHER = re.compile(rf"(?i)\b(?:from|of|out\s++of)\s++(?:the\s++)?(?:(?:{STEP_WORD})s?\s*+)?(?P<a>\d{{1,3}})"
                     rf"\s*+(?:or|/)\s*+(?:{STEP_WORD}\s*+)?(?P<b>\d{{1,3}})\b")
_CUT = re.compile(r"[,;:\n]|[.!?]\s++(?=[A-Z])|\b[Ff]rom\b")
_WORD = re.compile(r"[a-z0-9]++|#")
_STANDS = {"no": ("id", "no", "number", "num"), "nr": ("id", "no", "number", "num"), "#": ("id", "no", "number", "num"),
           "num": ("id", "no", "number", "num"), "ref": ("id", "ref", "reference")}


def _says(clause: str, name: str) -> bool:
    """Whether `clause` says `name`'s words in a row ("case no." for `case_id`, "finder's phone" for
    `finder_phone`); a name of one word must be said as it is."""
    words = name.lower().split("_")
    said = [w for w in _WORD.findall(clause.lower().replace("'s", "").replace("’s", "")) if w]
    n = len(words)
    for i in range(len(said) - n + 1):
        if all(s == w or w in _STANDS.get(s, ()) or (s.rstrip("s") == w.rstrip("s") and len(w) > 3)
               for s, w in zip(said[i:i + n], words, strict=True)):
            return True
    return False


def said_either(text: str, name: str) -> tuple[str, str] | None:
    """The two steps the text names for `name` as "`name` from step 2 or 3" / "name (from 2 or 3)": the
    words before "from", back to the clause's start, say the name; None when it says no such thing."""
    for m in _EITHER.finditer(text):
        cuts = [c.end() for c in _CUT.finditer(text, 0, m.start())]
        if _says(text[cuts[-1] if cuts else 0:m.start()], name) and m.group("a") != m.group("b"):
            return f"step-{int(m.group('a'))}", f"step-{int(m.group('b'))}"
    return None


def said_step(text: str, name: str) -> str | None:
    """The id of the step the text names for `name` ("step-2"), or None."""
    for m in _SAID.finditer(text):
        if m.group("name") == name and (n := number_of(m.group("n"))) is not None:
            return f"step-{n}"
    for m in _FROM.finditer(text):  # the values said in words before "from step N", back to the clause's start
        cuts = [c.end() for c in _CUT.finditer(text, 0, m.start())]
        if _says(text[cuts[-1] if cuts else 0:m.start()], name) and (n := number_of(m.group("n"))) is not None:
            return f"step-{n}"
    return None
