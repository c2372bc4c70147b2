"""Words people write for a thing the run is given that stand for the words of an input's name.

`plan.prose_inputs` matches a thing said in words ("the order number") to the name a skill reads when
every word of the name is said. People write other words for three kinds of name:

- a number or identifier: "no.", "nr", "num", "#", "number", "ref" stand for `id` and `number`
  ("the crate no." is `crate_id` or `crate_number`; "the badge #" is `badge_id`);
- the day the run is for: "today's date", "today", "the date we run", "this morning's date" stand for
  `run_date`, `date`, `today`, `as_of` (`current_date`, `run_day` too);
- what a container, load or parcel holds: "what's in it", "what is inside", "the contents", "what it
  carries" stand for `commodity`, `contents`, `cargo`, `goods`, `product`, `load`, `item`.

`stand_ins(part)` gives the words a part stands for beyond its own; the planner tries them only when
no name has every word said, and says so in its warning ("by what 'no.' stands for").
"""

from __future__ import annotations

from orchestrator.spec.need_block30 import stand_ins30
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NUMBER = _rx(r"(?i)(?<![\w])(?:no\.?|nr\.?|num\.?|#|number|ref\.?|reference)(?![\w])")
_TODAY = _rx(r"(?i)\b(?:today['’]?s?|this\s++(?:morning|evening|week)['’]s|the\s++(?:run|current)\s++date|"
             r"the\s++date\s++(?:we|you|it)\s++(?:run|start)s?|the\s++day['’]s\s++date|current\s++date)\b")
_DATE_WORD = _rx(r"(?i)\b(?:date|day)\b")
_CONTENTS = _rx(r"(?i)\b(?:what['’]s\s++(?:in|inside)\b|what\s++is\s++(?:in|inside)\b|what\s++(?:it|they|the\s++[a-z]++)\s++"
                r"(?:holds?|carr(?:y|ies)|contains?)\b|the\s++contents\b|contents\b)")

NUMBER_WORDS = frozenset({"id", "number", "no", "num", "nr", "ref"})
TODAY_WORDS = frozenset({"run", "date", "today", "current", "as", "of", "day"})
CONTENTS_WORDS = frozenset({"commodity", "content", "contents", "cargo", "good", "goods", "product", "load", "item"})


def stand_ins(part: str) -> tuple[frozenset[str], str]:
    """(words `part` stands for beyond its own, the words of it that say so) — empty when none."""
    words: set[str] = set()
    said: list[str] = []
    m = _NUMBER.search(part)
    if m is not None:
        words |= NUMBER_WORDS
        said.append(m.group(0))
    m = _TODAY.search(part)
    if m is not None and (_DATE_WORD.search(part) or part.strip(" .").lower() in ("today", "today's")):
        words |= TODAY_WORDS
        said.append(m.group(0))
    m = _CONTENTS.search(part)
    if m is not None:
        words |= CONTENTS_WORDS
        said.append(m.group(0))
    more, named = stand_ins30(part)  # "which night it is", "squad list" (`spec.need_block30`)
    words |= more
    said += named
    return frozenset(words), ", ".join(f"'{s.strip()}'" for s in said)


_rx.save()
