"""Where a sentence ends when the next line opens with an outline label (twenty-fourth round).

A form or an outline numbers its items "1a.", "2b)", "(c)", "iv." at the start of a line. After a
full stop, such a line starts a new sentence, even though the label is no capital: "... 2 retries,
1 min between.\\n 1b. weather-routing ..." is two sentences, so the policy said for 1a stays on 1a's
step and is never carried into the step the next label opens (`spec.step_prose.sentences`).
A label in the middle of a line ("see 1b. below") is left to the sentence rules as before.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# after the stop: an optional closing mark, blanks, a line break, blanks, then a label and a blank
_LABEL_LINE = _rx(r"[\"')\]]?[ \t]*+\n[ \t]*+(?=(?:\d{1,3}+[a-z]|[ivx]{1,5}+|[a-z])[.)][ \t]|\((?:\d{1,3}+[a-z]?|[ivx]{1,5}+|[a-z])\)[ \t])")


def label_line_end(text: str, at: int) -> re.Match[str] | None:
    """The break after a sentence's stop at `at - 1` when the next line opens with an outline label
    ("1b.", "(c)", "iv."), else None."""
    return _LABEL_LINE.match(text, at)


_rx.save()
