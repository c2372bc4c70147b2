"""A sentence that says when the work is done is a check, never a value to go on with (50th round).

"its done when the customer text has gone (sent = true)", "Finished once the invoice is out (posted = yes)",
"the job counts as complete when status = closed", "it succeeded if ok = true": the field and value in such
a sentence are what the run (or the step) must give to have succeeded (`spec.done_when`, `spec.whole_success`).
Read as a fallback value ("use {sent: true}" when the step fails) they would make a failed step look like
the very success the author checks for, so a run could end `succeeded` for a text never sent. The policy
reader therefore takes no fallback value from a sentence said as a check, unless the sentence also says
what follows a failure ("if it fails, carry on with sent = false").
"""

from __future__ import annotations

from orchestrator.spec.done_when import done_clause


def said_as_check(sentence: str) -> bool:
    """The sentence says when the work is done (module docstring)."""
    from orchestrator.spec.whole_success import (
        success_cue,  # it reads through the spec's readers, this is read by them
    )

    return done_clause(sentence) is not None or success_cue(sentence) is not None

