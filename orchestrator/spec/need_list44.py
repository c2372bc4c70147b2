"""A heading or lead line that says what the run needs, over a list of things each followed by its name in brackets.

    2. WHAT YOU NEED (from the admit screen - field names in brackets)
       patient name (patient), species (species - "cat" or "dog"),
       bodyweight in kg on the day, not last visit (bw_kg), procedure (procedure)
    You'll need (ask the caller)                  the same under "you'll need", "needed", "bring", "required info"
    Required info:

The heading is one short line: an optional number or letter ("2.", "b)", "#"), the words that say what the
run needs, then at most a remark in brackets and a colon; nothing else ("WHAT YOU NEED TO KNOW" and "What
you need to do" are notes and chores, not what goes in). The lines under it, up to a blank line, are its
list: split at commas outside brackets, a piece with no bracket of its own is part of the next piece's words
("bodyweight in kg on the day, not last visit (bw_kg)" is one thing). Each thing is read as
`spec.intro_inputs` reads a thing after "it needs:" (the name opening its brackets is the workflow input, the
words before it what it is, a guess warned at the heading).
"""

from __future__ import annotations

from orchestrator.spec.need_block30 import need_head
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NUMBERED = _rx(r"^[ \t]*+(?:#{1,6}+[ \t]++|(?:\d{1,2}|[A-Za-z])[.)][ \t]++|[-*][ \t]++)?+")
_NEEDS = _rx(
    r"(?i)^(?:\*\*|__)?+(?:what\s++(?:you|we)(?:['’]ll|\s++will)?+\s++need|(?:you|we)(?:['’]ll|\s++will)\s++need|"
    r"(?:(?:things?|info|information|details|data|fields?)\s++)?+(?:needed|required)|what\s++to\s++bring|bring|"
    r"(?:required|needed)\s++(?:info|information|details|data|fields?|values?)|needs)(?:\*\*|__)?+$"
)
_MAX_HEAD = 160


def need_list_head(line: str) -> bool:
    """Whether `line` alone is a heading over a list of what the run needs (module docstring)."""
    if len(line) > _MAX_HEAD or not line.strip():
        return False
    core = line[_NUMBERED.match(line).end():].rstrip(" \t:-–—")  # type: ignore[union-attr]
    if core.endswith(")") and (open_at := core.rfind("(")) >= 0 and core.count("(") == 1:  # "(field names in brackets)"
        core = core[:open_at].rstrip(" \t:-–—")
    words = core
    return _NEEDS.match(" ".join(words.split())) is not None or need_head(words)


def whole_things(parts: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The list's pieces with each piece that has no bracket joined to the next one that has ("bodyweight in kg
    on the day, not last visit (bw_kg)"); trailing pieces with no bracket stay as they are."""
    out: list[tuple[str, int]] = []
    held: list[tuple[str, int]] = []
    for part, at in parts:
        if "(" not in part:
            held.append((part, at))
            continue
        if held:
            out.append((",".join([*(p for p, _ in held), part]), held[0][1]))
            held = []
        else:
            out.append((part, at))
    return [*out, *held]


_rx.save()
