"""The whole run's limit, wherever a document puts it.

People state how long the whole run may take outside any step: a line of the
preamble ("Total time: no more than 3 hours"), a comment the markdown reader
takes for a second title (a Gherkin `# Whole run: ... within 25 minutes`), a
sentence left over in the steps section ("The whole job keeps its 15-minute hard
ceiling"), a paragraph of a section no reader knows. `read_run_limit` reads such a
text sentence by sentence with the grammar (`spec.phrase`, its `run_timeout`
rows): a sentence read as a whole-run limit becomes a reading in `src.readings`
(the plan's wall time, with its line); one that speaks of the whole run and a
duration but is not read is a warning at its line that says what to write. Any
other sentence is left to the caller, which reports it as it always did.
"""

from __future__ import annotations

import re

from orchestrator.spec import prose
from orchestrator.spec.grammar import DURATION, WHOLE
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.source import Source

_WHOLE_SAID = re.compile(rf"(?i)\b(?:{WHOLE}|total\s+(?:time|run\s*time|duration)|end[- ]to[- ]end)\b[^.;]*?{DURATION}")
WRITE = "write it as 'Whole run: 25 min max.'"


def read_run_limit(text: str, line: int, src: Source, *, who: str) -> bool:
    """Read `text` (starting at `line`) for the whole run's limit; True when it was read or
    reported, so the caller says nothing more about it."""
    taken = False
    for sentence, at in prose.sentences(text, line):
        if any(r.section == "whole run" and r.where == src.where(at) for r in src.readings):
            taken = True  # the same line met by two readers (a comment line is also a preamble's)
            continue
        phrase = read_phrase(sentence)
        if phrase.statement.whole_run and phrase.statement.timeout_s is not None:
            prose.record(phrase, sentence, at, src, section="whole run", steps=(), who=who)
            taken = True
        elif _WHOLE_SAID.search(sentence):  # not read, or read as something else than the run's limit
            src.warn(at, f"{who}: '{sentence[:80]}' seems to limit the whole run, but the limit is not "
                         f"understood; {WRITE}", prose.UNREAD_CODE)
            taken = True
    return taken
