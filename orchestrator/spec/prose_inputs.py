"""What the person running the workflow gives it, said in a sentence rather than an Inputs section.

    When you start it you'll need to give it the order number, the store code and your name.
    What I hand it each time: the recipe card, how many servings. Plus the oven temperature.
    You feed it the crew list and the sailing date.
    * Notes  / :TAKES: ... (an org heading's prose): the same sentences, wherever they stand.
    Whoever starts it pastes in: the RSVP sheet, the hall size.   (a chat message; its sentence ends
        at the next stamped message)
    "Whoever runs this needs the dock pack: crate no., berth.",,,  (a spreadsheet's notes row)
    What we need from whoever starts this: the start date and the badge photo.
    Working from the tender file and the budget.                  (opening a paragraph)
    It needs three things from you: the stay date, the snapshot.   (a count of things between)
    Before anything you'll need off the desk: the ref, the code.  (a need that a colon opens)
    YOU'LL NEED                                                   (a need heading over a list:
      * the batch code (chalked on the tank)                        each item up to its colon)
      * the style target: ABV low/high

The sentence that opens with such words (someone gives / feeds / hands the run things, or
"it needs/takes ... from whoever runs it") lists the inputs after them, split at commas, "and",
"plus", "+"; a next sentence that opens with "Plus"/"Also" goes on with the list. Each part is
kept as written ("the order number") with its line: the planner (`plan.prose_inputs`) matches
each to the name a skill reads (`order_number`) and warns at the line how it was read.
Only when the spec declares no inputs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from orchestrator.spec.inputs_lead import ASKED_LEAD
from orchestrator.spec.need_block30 import need_head
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sms50 import SMS_HEAD
from orchestrator.spec.steps34a import RUN_INPUTS_LEAD
from orchestrator.spec.steps37 import TYPED_IN_LEAD

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_GIVE = r"(?:give|feed|hand|pass|send|supply|provide)s?+"
_PUTS = r"(?:paste|type|enter|drop|put|fill|upload|plug)s?+(?:\s++in)?+"
_STARTS = r"(?:start|run|kick|launch|trigger|set|fire)s?+(?:ning|ing)?+"
# "you'll need to give it", "what I give it each time:", "you feed it", "what you'll get from me every time is",
# "it needs, from whoever runs it,"
_LEAD = _rx(
    rf"(?i)(?:\byou(?:['’]ll|\s++will)?+\s++(?:need\s++to\s++|have\s++to\s++|must\s++)?+{_GIVE}\s++(?:it|this|the\s++run)\b"
    rf"|\bwhat\s++(?:i|we|you)\s++{_GIVE}\s++(?:it|this)\b"
    r"|\bwhat\s++you(?:['’]ll|\s++will)?+\s++get\s++from\s++(?:me|us)\b"
    # "it needs three things from you:", "this takes, from whoever runs it,"
    r"|\b(?:it|this|the\s++run)\s++(?:needs|takes)(?:\s++(?!from\b)[a-z]++){0,3}+,?+\s++"
    r"(?:from\s++(?:you|whoever\s++runs\s++it)|as\s++input)\b"
    # "before anything you'll need off the desk:": a need that a colon opens within a few words
    r"|\byou(?:['’]ll|\s++will)\s++need\b(?!\s++to\b)(?=[^:.\n]{0,40}+:)"
    # "from the call u need: postcode, door type ...": a need said plainly, its colon right after (round 50)
    r"|\b(?:you|u)\s++need\s*+:"
    # "whoever starts it pastes in:", "the person running this needs the pack:", "whoever kicks it off brings"
    rf"|\b(?:whoever|the\s++(?:person|one)\s++(?:who\s++)?+)\s*+{_STARTS}\s++(?:it|this|the\s++run)(?:\s++off)?+"
    rf"\s++(?:{_GIVE}(?:\s++(?:it|this|the\s++run))?+|{_PUTS}|brings|(?:needs|has)\s++to\s++(?:{_GIVE}|{_PUTS}|bring)(?:\s++(?:it|this))?+|needs)"
    rf"(?:\s++in)?+\b"
    # "what we need from whoever starts this:", "what it needs from you:"
    rf"|\bwhat\s++(?:we|i|it|this|the\s++run)\s++needs?+\s++from\s++(?:you|whoever\s++{_STARTS}\s++(?:it|this))\b"
    # "Working from the tender file and the budget." opening a paragraph
    r"|^(?:we(?:['’]re|\s++are)\s++)?+working\s++from\b"
    # "You'll be asked for:", "What the desk needs to fill in before starting:" (`spec.inputs_lead`)
    rf"|\b(?:{ASKED_LEAD})\b"
    rf"|{RUN_INPUTS_LEAD}"  # "Inputs per night: the build number, the branch" (`spec.steps34a`)
    rf"|{TYPED_IN_LEAD})"  # "Things the DSM types in at the start:" (`spec.steps37`)
    r"(?:[^:.\n]{0,40}?(?::|\s++is\b))?+"
)
_ASKED_BY = _rx(r"(?i)\bby\s++(?:the|a|an|your|its)\s++\w")  # asked for X by someone else: no input
_GOES_ON = _rx(r"(?i)(?<!\s)\s*+(?:\[[\d:]++\]\s*+)?+(?:plus|also|and\s++also)\b[\s,]*+")
# a sentence ends at its stop, or at a line that opens a new message, item or stamp ("12/05/2025, 09:10 - ...")
# ("the site no. (e.g. S-014)": an abbreviation's stop ends no sentence)
_SENTENCE_END = _rx(r'(?:(?<!\b[Nn]o)(?<!\b[Nn]r)(?<!e\.g)(?<!i\.e)\.|[!?])(?=\s|$)|\n(?=[ \t]*+(?:\d{1,4}+[/.-]\d|[-*•+][ \t]|\d{1,2}+[.)][ \t]|"[A-Z]|' + SMS_HEAD + r'))')
_SKILL_WORD = _rx(r"(?<![\w-])[a-z0-9]++(?:-[a-z0-9]++)++(?![\w-])")  # `aggregate-sentiment`: a step's sentence
_LEADING_AND = _rx(r"(?i)^(?:and|plus|also)\s++")
_STAMP = _rx(r"\[[\d:]++\]")  # a transcript's "[00:12]"
# "their mobile n what time they rang": text-speak's "n" is "and" (round 50)
_PARTS = _rx(r"(?i)(?<!\s)\s*+(?:,|;|\+|\band\b|\bplus\b|&|(?<=\s)n(?=\s))\s*+")
_PAREN = _rx(r"\([^()]{0,400}+\)")
# a line that heads a list of what the run is given: "YOU'LL NEED", "What you need:", "Have ready"
_LIST_HEAD = _rx(r"(?i)^[ \t]*+(?:#{1,6}+[ \t]++)?+(?:you(?:['’]ll|\s++will)?+\s++need|what\s++you(?:['’]ll|\s++will)?+\s++need"
                 r"|(?:things\s++)?+needed|have\s++(?:these\s++)?+ready|to\s++have\s++ready)[ \t]*+:?+[ \t]*+$")
_ITEM = _rx(r"^[ \t]*+(?:[-*•+]|\d{1,2}+[.)])[ \t]++(?=\S)")
_FILLER = _rx(r"(?i)^(?:you\s++know|um+|uh+|i\s++mean|like|so|also|then|too|each\s++time|every\s++time)$")


def gives_lead(sentence: str) -> re.Match[str] | None:
    """Where a sentence says what the run is given ("You give it three things:", "What I hand it each time:"),
    for a reader of the names in backticks after it (`spec.markdown.read_inline_inputs`)."""
    return _LEAD.search(sentence)


_OWN_NAME = _rx(r"^\s*+`[A-Za-z_]\w*+`\s*+$")  # "(`submissions`)": the name of the thing before it


def given_names(clause: str) -> list[re.Match[str]]:
    """The names in backticks that such a sentence gives: those outside parentheses, and a parenthesis that is
    just a name ("the jury sheet (`submissions`)"); not the names a parenthesis describes an input with ("the
    list of `items` (each has a `sku`, `on_hand`)": those are its fields)."""
    out: list[re.Match[str]] = []
    depth, start = 0, 0
    spans: list[tuple[int, int]] = []
    for i, ch in enumerate(clause):
        if ch == "(":
            depth += 1
            start = i if depth == 1 else start
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i))
    for m in _TICKED_NAME.finditer(clause):
        inside = next(((a, b) for a, b in spans if a < m.start() < b), None)
        if inside is None or _OWN_NAME.match(clause[inside[0] + 1:inside[1]]):
            out.append(m)
    return out


_TICKED_NAME = _rx(r"`([A-Za-z_]\w*+)`")


def _sentence_after(text: str, start: int) -> tuple[str, int]:
    end = _SENTENCE_END.search(text, start)
    stop = end.start() if end else len(text)
    return text[start:stop], (end.end() if end else len(text))


def _parts(said: str) -> list[str]:
    said = _PAREN.sub(" ", _STAMP.sub(" ", said)).replace("**", "").replace("__", "")
    out = []
    for part in _PARTS.split(said):
        part = _LEADING_AND.sub("", " ".join(part.split()).strip(" -—–:.`*_\"'"))
        if part and _FILLER.match(part) is None and len(part) <= 80:
            out.append(part)
    return out


def parts_of(said: str) -> list[str]:
    """The parts of a list said in words, as this reader splits them (`spec.input_user_gives` reads the same)."""
    return _parts(said)


def paragraphs(lines: Iterable[str]) -> Iterable[tuple[int, str]]:
    """(first line, text) of each run of lines between blank lines; fenced code left out."""
    held: list[str] = []
    start, fenced = 1, False
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not line.strip():
            if held:
                yield start, "\n".join(held)
            held = []
            continue
        if not held:
            start = number
        held.append(line)
    if held:
        yield start, "\n".join(held)


def _head(line: str) -> bool:
    """A need heading: "YOU'LL NEED", or a plan sheet's "WHAT I NEED BEFORE I HIT GO" (`spec.need_block30`)."""
    return _LIST_HEAD.match(line) is not None or need_head(line)


def _listed(text: str) -> list[tuple[str, int]]:
    """(part, line offset) for each item of a list under a need heading ("YOU'LL NEED" then `* the
    batch code (chalked on the brite)`): an item's words up to its first colon (what follows says
    what it is), split as a sentence's parts; an indented line without a bullet goes on with its item."""
    lines = text.split("\n")
    if len(lines) < 2 or not _head(lines[0]):
        return []
    items: list[tuple[str, int]] = []
    for offset, line in enumerate(lines[1:], 1):
        bullet = _ITEM.match(line)
        if bullet is not None:
            items.append((line[bullet.end():], offset))
        elif items and line[:1].isspace():
            items[-1] = (f"{items[-1][0]} {line.strip()}", items[-1][1])
        else:
            break
    return [(part, offset) for item, offset in items for part in _parts(item.split(":", 1)[0])]


_IN_WORDS = _rx(r"^[ \t*_`]*+[A-Za-z][\w'’.-]*+[ \t]++[A-Za-z]")  # "the batch code", "OG and FG": no `name:`


def listed_in_words(items: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """(part, line) for the items of an inputs section ("You will need" then bullets) when every item
    says its value in words ("the quiz answer key (from the drive)"), none as `name: what it is`: each
    read up to its colon as a sentence's parts; () when any item is written as a name."""
    if not items or any(_IN_WORDS.match(text.split(":", 1)[0]) is None for text, _ in items):
        return ()
    return tuple((part, line) for text, line in items for part in _parts(text.split(":", 1)[0]))


# "the **loan record** (object no., title, lender, declared value + currency)": a part, then its fields
_RECORD = _rx(r"([^(),;+\n]{1,80}+)\(([^()]{1,400}+)\)")


def records_in(said: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(part, its fields) for each part of a list said in words that a parenthesis of two or more parts
    follows ("the loan record (object no., title, lender)"): what the thing given holds, each part a field
    (the planner reads it as one input of those fields when they are names the skills read)."""
    out = []
    for m in _RECORD.finditer(_STAMP.sub(" ", said)):
        head = _parts(m.group(1))
        fields = tuple(_parts(m.group(2)))
        if head and len(fields) >= 2:
            out.append((head[-1], fields))
    return tuple(out)


def read_prose_records(lines: Iterable[str], where: Callable[[int], str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(part, its fields) for each part of the sentence `read_prose_inputs` reads that a parenthesis listing
    fields follows (`records_in`); () when there is none."""
    return _read(lines, where)[1]


def read_prose_inputs(lines: Iterable[str], where: Callable[[int], str]) -> tuple[tuple[str, str], ...]:
    """(part as written, file:line) for each input a sentence of the document's `lines` says the
    run is given (module docstring); the first such sentence only."""
    return _read(lines, where)[0]


def _read(lines: Iterable[str], where: Callable[[int], str]) \
        -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    heading: tuple[int, str] | None = None  # a need heading alone, its list in the next paragraph
    for first, text in paragraphs(lines):
        if heading is not None and heading[0] < first:
            listed = _listed(f"{heading[1]}\n{text}")
            if listed:
                return tuple((p, where(first + offset - 1)) for p, offset in listed), ()
        heading = (first, text) if "\n" not in text and _head(text) else None
        listed = _listed(text)
        if listed:
            return tuple((p, where(first + offset)) for p, offset in listed), ()
        m = _LEAD.search(text)
        if m is None:
            continue
        opening = max((e.end() for e in _SENTENCE_END.finditer(text, 0, m.start() + 8) if e.end() <= m.start()),
                      default=0)  # where its sentence opens: a skill named there makes it a step's
        if _SKILL_WORD.search(text, opening, m.start()):  # "aggregate-sentiment, you give it the pile": a step's
            continue
        said, at = _sentence_after(text, m.end())
        if "asked" in m.group(0).lower() and _ASKED_BY.search(said) and not text[m.end():m.end() + 4].lstrip(" *_").startswith(":"):
            continue  # "you'll be asked for a password by the VPN": someone else asks, not the run
        goes_on = _GOES_ON.match(text, at)
        if goes_on is not None:
            more, _ = _sentence_after(text, goes_on.end())
            said = f"{said}, {more}"
        line = first + text.count("\n", 0, m.start())
        parts = _parts(said)
        if parts:
            return tuple((p, where(line)) for p in parts), records_in(said)
    return (), ()

_rx.save()
