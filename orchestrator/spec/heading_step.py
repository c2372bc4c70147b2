"""A heading that opens with a word of a notes section used as a verb: a step, not a foreign section.

    ## Note it in the log          "Note" here says what to do (note it), so the heading is a step
    **Tool:** `log-run` ...         when what it owns names a skill, like the step headings beside it
    ## Log the batch               the same ("log" said of the work)
    ## Contact the owners          the same
    ## Background check            the same (a check is work, not background)
    ## Notes / ## Note: / ## Links  still a notes section: a noun, a label, a plural

Before, `structure.NOT_STEPS` took any heading that opens with "note", "link", "contact", ... as
a section of notes: "## Note it in the log" among three step headings was "not a spec section",
its step and its policies lost. A heading is read here as an action when that word is followed by
what a verb takes (a pronoun, an article, "down", "each", ...) or, for "background", by "check".
Such a heading is still a step only when what it owns names a skill (the caller checks), and the
reading is warned at its line since the heading could be a remark's title.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.heading-step"

_ACTION = _rx(
    r"(?i)^\W*+(?:(?:note|link|contact|log|list|reference)\s++(?:it|them|this|that|these|those|the|a|an|down|each|"
    r"every|all|who|what|our|your|any|back|up|in|with)|background\s++(?:checks?+|screening|scan))(?!\w)")
_WORD = _rx(r"^\W*+(\w++)")


def action_heading(title: str) -> bool:
    """The heading says what to do with a word a notes section opens with ("Note it in the log")."""
    return _ACTION.match(title.strip("*_ ")) is not None


def warn_action_heading(title: str, line: int, sid: str, src: Source) -> None:
    """Said at the heading: it opens like a notes section but is read as a step."""
    if not action_heading(title):
        return
    m = _WORD.match(title.strip("*_ "))
    word = m.group(1) if m else title
    src.warn(line, f"heading '{title}' opens with '{word}', as a notes section may, but says what to do and "
                   f"its text names a skill: read as {sid}; if it is a note, title it 'Notes' (or give the step "
                   f"a heading that opens with its action: '{sid.replace('step-', 'Step ')}: {title}')", CODE)


_rx.save()
