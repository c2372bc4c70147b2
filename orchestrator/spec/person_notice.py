"""A person to be told, said beside an approval: not something the run does, so said.

    "If nobody signs, do NOT make the worklist, page the RPh supervisor."
    "No answer in an hour = reject and ring the duty manager."

An approval's text may end with whom to tell when it times out or is refused. The run can wait for
a person and reject on silence; it sends no page, call or text. Such a clause was either dropped
without a word or taken for an escalation nobody wrote a skill for; now it is warned at its line,
naming the words, and the approval is read as ever.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TELL = _rx(r"(?i)(?<![\w-])(?:page|ping|ring|call|phone|text|sms|radio|notify|alert|tell|email|e-mail|escalate\s++to)\s++"
            r"(?:me|us|him|her|them|(?:the\s++)?on-?call|(?:the|our|my|your)\s++(?!(?:run|step|job|batch|file|list|report|text|email|"
            r"message|board|api|script|skill)\b)[\w-]++(?:\s++[\w-]++){0,2}?\s*+(?:supervisor|manager|lead|on-?call|director|"
            r"boss|chief|nurse|pharmacist|officer|owner|team|desk|person|engineer|editor|rph)|on-?call|(?-i:[A-Z][a-z]++))"
            r"(?![\w-])")


def person_told(text: str) -> str | None:
    """The words that ask for a person to be told ("page the RPh supervisor"), or None."""
    m = _TELL.search(text)
    return m.group(0) if m is not None else None


def notice(said: str) -> str:
    return (f"'{said}' asks for a person to be told; the run does not page, call or message anyone (the approval "
            "is read as written): add a step that sends it, with a skill, if it must happen")


_rx.save()
