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


def said_step(text: str, name: str) -> str | None:
    """The id of the step the text names for `name` ("step-2"), or None."""
    for m in _SAID.finditer(text):
        if m.group("name") == name and (n := number_of(m.group("n"))) is not None:
            return f"step-{n}"
    return None
