"""A step's fields under the author's own names, read by what the name means.

    - Op: `load-roster`            Performer: open-ticket          → the skill
    - Reads: shift_date            Input data: incident_id         → what the step takes
    - Emits: message_id            Output data: ticket_id          → what it gives back
    Gives back: scores, passed_count                                → (a paragraph of one field a line)
    Check: `status` is "sent"      Done when: count >= 1           → the step's success check

A label is read by its words: a verb or noun of doing names the skill (`op`, `performer`,
`handler`, `done by`, `command`), one of taking names the inputs (`takes`, `gets`, `receives`,
`input data`), one of giving the outputs (`gives back`, `emits`, `hands back`, `result`), one of checking the
step's success check (`check`, `verify`, `done when`, `expected`); a check that is no comparison
is warned at its line by the success reader.
Words like "data", "fields" or "values" after it change nothing. A paragraph whose lines each
open with a field label (`Tool: x` / `Takes: y` / `Gives back: z`) is read a line at a time,
never as one run-on sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from orchestrator.spec.blocks import split_label

# the label's words (after `_bare`) -> the field it names
OWN_LABELS: dict[str, str] = {
    **dict.fromkeys(("op", "operation", "performer", "performed by", "actor", "handler", "handled by", "runner",
                     "run by", "runs", "executor", "executed by", "worker", "done by", "who does it", "doer",
                     "command", "cmd", "script", "function", "service", "plugin", "component", "calls", "call",
                     "invokes", "invoke", "executes", "action", "tool used", "engine",
                     "implementation", "implemented by", "skill to use", "which skill"), "skill"),
    **dict.fromkeys(("input data", "in", "gets", "receives", "accepts", "given", "ingests", "eats", "pulls in",
                     "takes in", "reads in", "needs input", "params", "parameters", "arguments", "args",
                     "fed", "feed", "fed with", "input fields", "source data", "uses data", "works on",
                     "operates on"), "input"),
    **dict.fromkeys(("output data", "out", "gives back", "hands back", "sends back", "result", "results",
                     "outcome", "makes", "creates", "publishes", "puts out", "leaves", "writes out",
                     "returns data", "produces data", "spits out", "comes back with", "output fields"),
                  "output"),
    **dict.fromkeys(("check", "checks", "check that", "verify", "verify that", "verification", "done when",
                     "passes when", "pass if", "pass when", "ok when", "ok if", "acceptance", "acceptance check",
                     "exit criteria", "exit criterion", "definition of done", "expected", "expected result",
                     "expect", "assert", "postcondition", "post condition", "good when", "green when"), "success"),
}
_TRAILING = re.compile(r"(?<!\s)\s++(?:data|fields?|values?|items?|params|parameters|names?)$")


def _bare(label: str) -> str:
    text = " ".join(re.sub(r"[^a-z ]", " ", label.lower()).split())
    return text


_NAME = re.compile(r"^[`*_'\"]*+[A-Za-z_][\w.-]*+[`*_'\"]*+$")
_PART_TAIL = re.compile(r"(?i)(?<!\s)\s*+(?:\([^()]*\)|(?<!\w)(?:from|of|out\s++of|via)\s.*)$")


def _names(value: str) -> bool:
    """The value is names (`a, b and c`, "`scores` from step 1"), not a sentence."""
    parts = [p for p in re.split(r"(?<!\s)\s*+(?:[,;]|(?<!\w)and(?!\w)|\+)\s*+", value.strip().rstrip(".")) if p]
    return bool(parts) and all(_NAME.match(_PART_TAIL.sub("", p).strip()) for p in parts)


def own_label(label: str | None, value: str = "") -> str | None:
    """The field an author's own label names (module docstring), or None. Its value must be
    names: one skill's name for a skill, a list of names for inputs and outputs ("Action: call
    the vendor" is no skill, "Result: the page is live" no outputs)."""
    found = _own(label)
    if found == "skill" and not _NAME.match(value.strip().rstrip(".")):
        return None
    if found in ("input", "output") and not _names(value):
        return None
    return found


def _own(label: str | None) -> str | None:
    if not label:
        return None
    text = _bare(label)
    found = OWN_LABELS.get(text)
    if found is None and _TRAILING.search(text):  # "Input fields", "Output data", "Result values"
        head = _TRAILING.sub("", text)
        found = OWN_LABELS.get(head) or {"input": "input", "inputs": "input", "output": "output",
                                          "outputs": "output"}.get(head)
    return found


def label_lines(text: str, key_of: Callable[[str | None, str], str | None]) -> list[tuple[int, str]] | None:
    """A paragraph of two or more lines that each open with a field label (`key_of` knows it),
    as its lines with their offsets; a line that opens with none goes on the line before.
    None when the paragraph is not so written (it is read sentence by sentence)."""
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    out: list[tuple[int, str]] = []
    labelled = 0
    for offset, raw in enumerate(lines):
        label, value = split_label(raw)
        if label is not None and value and key_of(label, value) not in (None, "description"):
            out.append((offset, raw.strip()))
            labelled += 1
        elif out:
            out[-1] = (out[-1][0], f"{out[-1][1]} {raw.strip()}")
        else:
            return None
    return out if labelled >= 2 else None
