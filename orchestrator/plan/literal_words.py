"""A literal input value in words that speaks of the run's own values, not a value to pass as text.

    feed:
      boat: the boat this go is about            an item of the loop, in words
      fits: all the step-20 answers, as one list  a gather of step 20, in words

An author's own YAML schema gives a step's inputs as a mapping; a value there that no reader takes as a
reference is passed as the literal text. When that text names a step ("step-20", "step 3"), the loop's
item ("this go", "each boat", "the current one") or a gather ("all the ... answers"), the author most
likely meant a value of the run: `literal_words` says which, and the binder warns at the line, keeping
the literal (`plan.literal-words`). A short label or a sentence that is plainly text says nothing.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_STEP = _rx(r"(?i)(?<![\w-])(?:step|stage|job|task)[\s-]?\d{1,4}(?!\w)|(?<![\w-])#\d{1,4}(?!\w)")
_ITEM = _rx(r"(?i)(?<![\w-])(?:this\s+(?:go|one|round|pass|time|item|entry|row)|each\s+(?:one|item|row|entry)|"
                   r"the\s+current\s+(?:one|item|row|entry)|the\s+(?:item|entry|row)\s+(?:in\s+hand|at\s+hand|being))"
                   r"(?![\w-])")
_GATHER = _rx(r"(?i)(?<![\w-])(?:all|every|each\s+of)\s+(?:the\s+)?[\w-]{1,30}\s+(?:answers|results|outputs|"
                     r"replies|returns)(?![\w-])|(?<![\w-])as\s+one\s+list(?![\w-])")


def literal_words(value: str) -> str | None:
    """What a literal in words speaks of ("a step", "the loop's item", "a gather"), or None."""
    if len(value) > 300 or len(value.split()) < 3:
        return None
    if _GATHER.search(value):
        return "a gather of results"
    if _STEP.search(value):
        return "a step"
    if _ITEM.search(value):
        return "the loop's item"
    return None


_rx.save()
