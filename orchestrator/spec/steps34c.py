"""A condition said as what an earlier piece of work left or found: "Match left something unmatched".

    only when Match left something unmatched        `unmatched` has a value (a list not empty)
    if the sweep turned up anything vulnerable      `vulnerable` has a value
    unless triage found nothing urgent              `urgent` is empty (negated by "unless" as ever)

People name the earlier work by its title ("Match", "the sweep", "triage") and what it gave by one
word after "something" / "anything" / "nothing"; that word is the output (or the start of its name:
`unmatched`, `unmatched_count`) the planner places as it places any subject (`plan.conditions`).
The verb is one of having produced ("left", "found", "turned up", "returned", "flagged", "reported",
"came back with", "gave back", "produced", "raised", "spotted"); the words before it (the work's
title) are at most four. "Something to do", "anything else", "nothing at all" name no output and are
not read here.

Also here: a person who "wants to see" the work, when the same sentence says what their yes is
("Lena wants to see the batch herself if there are more than 3 mails in it; if she hasn't said yes
within 24 hours, don't send"), asks an approval (`condition.approval_sentence`); and a count's clause
read without the place the things are counted in ("more than 3 mails in it").

And a step whose paragraph opens with "otherwise" ("**Mark week clean** – otherwise (nothing
unmatched), `mark-clean` with the matched count") is the other branch of the step before it, as a
bullet or an `Otherwise:` line saying so already is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from orchestrator.spec.condition import otherwise_sentence
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LEFT = _rx(r"(?i)^(?P<who>(?:[\w`'’-]++\s++){0,4}?)(?:has\s++|have\s++|had\s++)?"
            r"(?:left|found|finds|turned\s++up|turns\s++up|returned|returns|flagged|flags|reported|reports|"
            r"came\s++back\s++with|comes\s++back\s++with|gave\s++back|gives\s++back|produced|raised|spotted)"
            r"\s++(?P<some>something|anything|nothing)\s++`?(?P<w>[A-Za-z_]\w*+)`?$")
# words after "something" that name no output: "something to fix", "anything else", "nothing at all"
_NO_NAME = frozenset({"to", "at", "else", "more", "new", "of", "in", "on", "for", "that", "which", "we", "you",
                      "i", "it", "they", "worth", "like", "from", "with", "and", "or", "but", "is", "was"})


def left_something(text: str) -> tuple[Literal["empty", "filled"], str] | None:
    """("filled", word) for "X left something WORD", ("empty", word) for "X found nothing WORD"; None
    when the text is not said so."""
    m = _LEFT.match(text.strip())
    if m is None or m.group("w").lower() in _NO_NAME:
        return None
    return ("empty" if m.group("some").lower() == "nothing" else "filled"), m.group("w").lower()


# a person who wants to see the work (first), and, in the same sentence, what it is for them to say yes
_SEE = _rx(r"(?i)\b(?:wants?|would\s++like|needs?)\s++to\s++(?:see|look\s++(?:at|over)|check|review|eyeball|"
           r"go\s++(?:over|through))\b")
_YES = _rx(r"(?i)\b(?:said|say|says|given|give|gives)\s++(?:yes|ok|okay|the\s++ok|the\s++go-?ahead|the\s++nod)\b|"
           r"\bok['’]?d\b|\bsigned\s++off\b|\bapproved\b")
# "more than 3 mails in it": the place the things are counted in, after the count's noun
_SCOPE = _rx(r"\s++(?:in|on)\s++(?:it|them|there|the\s++[A-Za-z_]\w*+)\s*+$")


def wants_to_see(sentence: str) -> bool:
    """True when a person "wants to see" (look over, check, review) the work and the same sentence says
    what their yes is ("Lena wants to see the batch herself if there are more than 3 mails in it; if she
    hasn't said yes within 24 hours, don't send"): an approval, as "has to approve it" is."""
    return see_cue(sentence) is not None


def see_cue(sentence: str) -> re.Match[str] | None:
    """The words "wants to see" of `wants_to_see`, where the approval's clause is (`condition.approval_rest`)."""
    see = _SEE.search(sentence)
    return see if see is not None and _YES.search(sentence, see.end()) is not None else None


def without_scope(text: str) -> str | None:
    """The clause without the place its things are counted in ("more than 3 mails in it" -> "more than
    3 mails"); None when it ends in no such place."""
    m = _SCOPE.search(text)
    return text[: m.start()] if m is not None and m.start() > 0 else None


def opens_otherwise(sentence: str, block_index: int, values: Mapping[str, Any]) -> bool:
    """True when a paragraph's first sentence, in the step's first block, opens with "Otherwise" /
    "Else" / "If not" ("**Mark week clean** – otherwise (nothing unmatched), `mark-clean` ...") and
    the step has no condition or Otherwise yet: the step is the other branch, as a bullet saying so is."""
    return block_index == 0 and "when" not in values and "otherwise_where" not in values \
        and otherwise_sentence(sentence) is not None


_rx.save()
