"""A comment right above a step in a list of steps (YAML `# ...`, Lua `-- ...`, HCL `# ...`) that says the
steps it sits over start together: the ones it counts start with the first of them, each reading warned.

    # these two go at the same time, they don't need each other    → the step below and the next one
    -- the next 3 run in parallel                                    → the step below and the two after it
    # both of these can happen side by side                          → the step below and the next one
    # these two must never run at the same time                      → no: a negation
    # retry these two together                                       → no: said of tries

The comment must count the steps (`these two`, `the next 3`, `both`, `the following three`); a comment
that says "together" without a count is left to the policy readers, as before. A counted step that already
says what it waits for (`depends_on`, `after`) keeps it (`spec.steps_together`'s rule).
"""

from __future__ import annotations

from orchestrator.spec.key_comments27 import _above
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.steps_together import _start_with

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WORDS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
_COUNT = _rx(r"(?i)(?<!\w)(?:(?:these|the\s++next|the\s++following|the)\s++(two|three|four|five|[2-5])|"
             r"(both))(?:\s++(?:steps?|jobs?|tasks?|of\s++(?:these|them)|below|here))?+(?!\w)")
_TOGETHER = _rx(r"(?i)(?<!\w)(?:at\s++the\s++same\s++time|same\s++time|together|in\s++parallel|side\s++by\s++side|"
                r"concurrently|simultaneously|do(?:n['’]t|\s++not)\s++(?:need|depend\s++on|wait\s++(?:for|on))\s++"
                r"each\s++other|independent(?:ly)?+(?:\s++of\s++each\s++other)?+)(?!\w)")
_NOT = _rx(r"(?i)(?<!\w)(?:never|mustn['’]t|must\s++not|can(?:not|['’]t)|shouldn['’]t|should\s++not|"
           r"not\s++(?:at\s++the\s++same\s++time|together|in\s++parallel)|one\s++(?:by|after)\s++(?:the\s++)?+one|"
           r"one\s++after\s++(?:the\s++)?+other|in\s++turn|retr(?:y|ies|ied)|attempts?|tries)(?!\w)")


def comment_starts(steps: list[StepSpec], lines: list[int], src: Source) -> list[StepSpec]:
    """`steps` with the starts the comment above each (at `lines`, each step's first line) says (docstring)."""
    if len(steps) < 2 or len(lines) != len(steps) or len({s.id for s in steps}) != len(steps):
        return steps  # an id used twice is an error of its own: nothing read by id here
    by_id = {s.id: s for s in steps}
    for i, line in enumerate(lines[:-1]):
        said = _above(src, line)
        if not said:
            continue
        text = " ".join(t for _, t in said)
        count = _COUNT.search(text)
        if count is None or _TOGETHER.search(text) is None or _NOT.search(text) is not None:
            continue
        n = _WORDS[(count.group(1) or count.group(2)).lower()]
        first = steps[i].id
        for later in steps[i + 1:i + n]:
            _start_with(by_id, later.id, first, text, said[0][0], src)
    return [by_id[s.id] for s in steps]
