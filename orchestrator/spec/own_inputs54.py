"""The run's inputs listed in the author's own words after a count of things and where they come from (round 54).

    You need three things off the enquiry form: the customer's name, the site address and the date
    they'd like us (type it 2027-04-12 style). Those are all it asks for.
    We need two things from the booking sheet: the guest's surname and the night they want.
    Base needs: the trip code, heads out (how many went on the river) and heads in (how many ...).

A sentence that says the run needs a counted number of things (`two`..`six` or a digit, "a few") off
or from a named source (a form, a sheet, a call, the customer), its list after a colon; or one whose
subject is a single word (a desk, a base, a station: "Base needs:") and whose colon comes right after
"needs". The list is split as `spec.prose_inputs` splits one (a parenthesis is a remark on its part,
left out). Unlike a plain "you'll need to give it the order number", each thing here is a field the
author names: the workflow input is named as the author calls it (`own_name`), and the planner binds
a skill's input to it where the skill's name is one of those words or clearly stands for them
(`plan.prose_inputs`, with `author_words=True`).

`own_name(part)`: the part's words as a name: articles and possessives off ("the customer's name" is
`customer_name`; "tonight's PMS snapshot" `pms_snapshot`: when the thing is said before it is no part of it), a wish said after the thing ("the date they'd like us", "the night they want",
"the slot you'd prefer") made `wanted_` before it (`wanted_date`), a word that is not a letter or digit
a separator. None when nothing is left.

A list where one part describes its thing rather than names it ("whatever the rate shopper pulled for
the comp set": a wh- word first, or over four words) is not this reading: the older readers name those
inputs from the skills' fields.

Every pattern is anchored or bounded; each paragraph is read once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from orchestrator.spec.prose_inputs import paragraphs, parts_of
from orchestrator.spec.regex_cache import Patterns

__all__ = ["CUSTOMER_WORDS", "own_name", "read_own_inputs"]

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COUNT = r"(?:two|three|four|five|six|[2-9]|a\s++few|a\s++couple\s++of)"
# "You need three things off the enquiry form:", "we need two things from the booking sheet:"
_COUNTED = _rx(rf"(?i)\b(?:you|we|it|this)\s++(?:(?:['’]ll|will)\s++)?+needs?+\s++{_COUNT}\s++"
               r"(?:things|bits|details|fields|items|values)\s++(?:off|from|out\s++of|on)\s++[^:.\n]{1,60}?:")
# "Base needs:", "The desk needs:" (one word, or "the" and one word, right before it)
_DESK = _rx(r"(?i)(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s)|(?<=\n))[ \t]*+(?:the\s++)?+[A-Za-z][\w-]{1,30}+\s++needs\s*+:")
_END = _rx(r"(?<!\be\.g)(?<!\bi\.e)\.(?=\s|$)|[!?](?=\s|$)")
_PAREN = _rx(r"\([^()]{0,400}+\)")

_ARTICLES = frozenset({"the", "a", "an", "your", "their", "our", "my", "his", "her", "its", "this", "that"})
# "the date they'd like us", "the slot you'd prefer", "the night they want", "the day the customer wants"
_WISH = _rx(r"(?i)^(.{1,60}?)\s++(?:that\s++|which\s++)?+(?:they|you|we|he|she|the\s++[a-z]++)\s*+"
            r"(?:['’]d\s++|would\s++|)(?:like|want|wants|wanted|prefer|prefers|preferred|ask\s++for|asked\s++for)\b")
_POSSESSIVE = _rx(r"(?i)['’]s?+\b")
# "tonight's PMS snapshot", "today's sheet": when the thing is, said before it, is no part of its name
_WHEN_OF = _rx(r"(?i)^(?:tonight|today|tomorrow|yesterday|last\s++night|this\s++(?:week|month|morning|evening))['’]s\s++")
_NOT_WORD = _rx(r"[^0-9a-z]++")
_WH = _rx(r"(?:whatever|what|which|whichever|how|whoever|who|wherever|where)_")

# a person the business serves: one word of these said stands for the others (`plan.prose_inputs`)
CUSTOMER_WORDS = frozenset({"customer", "client", "clients", "customers"})


def own_name(part: str) -> str | None:
    """The part's words as the input's name (module docstring), or None."""
    text = " ".join(part.split())
    wanted = False
    m = _WISH.match(text)
    if m is not None:
        text, wanted = m.group(1), True
    text = _POSSESSIVE.sub("", _WHEN_OF.sub("", text).lower())
    words = [w for w in _NOT_WORD.split(text) if w and w not in _ARTICLES]
    if not words or not words[0][0].isalpha():
        return None
    return "_".join(["wanted", *words] if wanted else words)


def _described(part: str) -> bool:
    """Whether the part describes its thing rather than names it: a wh- word first, or over four words."""
    name = own_name(part) or ""
    return bool(_WH.match(name)) or name.count("_") > 3


def read_own_inputs(lines: Iterable[str], where: Callable[[int], str]) -> tuple[tuple[str, str], ...]:
    """(part as written, file:line) for each thing the first such sentence lists (module docstring); ()
    when there is none."""
    for first, text in paragraphs(lines):
        m = _COUNTED.search(text) or _DESK.search(text)
        if m is None:
            continue
        end = _END.search(_PAREN.sub(lambda p: " " * len(p.group(0)), text), m.end())
        said = text[m.end():end.start() if end else len(text)]
        parts = [p for p in parts_of(said) if own_name(p) is not None]
        if any(_described(p) for p in parts):
            continue  # "whatever the rate shopper pulled for the comp set": a thing described, not named
        if len(parts) >= 1:
            line = first + text.count("\n", 0, m.start())
            return tuple((p, where(line)) for p in parts)
    return ()


_rx.save()
