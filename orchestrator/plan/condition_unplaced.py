"""A step's or an approval's condition whose subject, said in words, names no value the run has.

    If the cue report has any failures, Fi has to OK it        `failures`: no input or output is so named
    Only if the weather is bad                                   `weather`: the same

Such a condition was read from everyday words ("failures", "weather"); refusing the whole spec over
it loses every other reading. It is dropped instead, with a warning at its line that says what it
means for the run: an approval is asked on every run, a step runs on every run (and the step that
is its other branch then runs too, which the warning says as well). A name the author wrote as a
name (`total_usd`, `` `valid` ``, `Step 4 reported ok`, an expression) that does not exist is still
an error: the author named a value, and the run cannot have it; so are words that some values share
("the computed refund": `refund_amount` or `refund_fee`), which the error names for the author to choose.
"""

from __future__ import annotations

import re

from orchestrator.plan.conditions import ConditionError

_NAME_LIKE = re.compile(r"[_\d.]|[a-z][A-Z]")


def written_as_name(text: str, subject: tuple[str, ...]) -> bool:
    """Whether the author wrote the subject as a name (module docstring), not in everyday words."""
    if any(_NAME_LIKE.search(w) for w in subject):
        return True
    return any(f"`{w}" in text or f"{w}`" in text for w in subject)


def droppable(exc: ConditionError, text: str) -> bool:
    """Whether the condition's error is a subject in words that names no value (module docstring)."""
    if exc.subject is None or exc.step is not None or written_as_name(text, exc.subject):
        return False
    return "the values it may mean" not in exc.hint  # words some value shares: one was meant, the error names them


def dropped_message(what: str, text: str, exc: ConditionError) -> str:
    """The warning for a condition dropped so; `what` is "When", "approval condition", ..."""
    said = " ".join(exc.subject or ())
    runs = ("the approval is asked on every run" if what.startswith("approval")
            else "the step runs on every run (and so does a step that is its other branch)")
    return (f"{what}: the condition '{text.strip()[:100]}' is not read: `{said}` names no workflow input, earlier "
            f"step output or field of the item{exc.hint}, so {runs}; write the condition with the name of the "
            "value it compares (`failed_count > 0`, `total > 1000`)")


def both_run(sid: str, name: str, partner: str) -> str:
    """The warning for the other branch of a step whose condition was dropped so: both run."""
    return (f"{sid} ({name}): it is the other branch of {partner}, whose condition was not read: both run on "
            f"every run; write {partner}'s condition with the name of the value it compares")


def none_found(sid: str, name: str, when: str, partner: str) -> str:
    """The warning for a condition saying nothing was found ("no delays") that names no value: read as the
    other branch of the conditional step before it (`spec.condition_unhappened`)."""
    return (f"{sid} ({name}): the condition '{when}' names no value the steps give; it is read as the other branch "
            f"of {partner}: the step runs exactly when {partner}'s condition was false. To say so plainly write "
            f"`Otherwise (of {partner.replace('-', ' ').title()}):`")
