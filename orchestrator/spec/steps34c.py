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

Also here: a step whose paragraph opens with "otherwise" ("**Mark week clean** – otherwise (nothing
unmatched), `mark-clean` with the matched count") is the other branch of the step before it, as a
bullet or an `Otherwise:` line saying so already is.
"""

from __future__ import annotations

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


def opens_otherwise(sentence: str, block_index: int, values: Mapping[str, Any]) -> bool:
    """True when a paragraph's first sentence, in the step's first block, opens with "Otherwise" /
    "Else" / "If not" ("**Mark week clean** – otherwise (nothing unmatched), `mark-clean` ...") and
    the step has no condition or Otherwise yet: the step is the other branch, as a bullet saying so is."""
    return block_index == 0 and "when" not in values and "otherwise_where" not in values \
        and otherwise_sentence(sentence) is not None


_rx.save()
