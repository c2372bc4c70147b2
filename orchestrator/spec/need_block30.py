"""A plan sheet's own block of what the run is given: a heading in the author's words over a list.

    WHAT I NEED BEFORE I HIT GO                  a need heading: the list under it is what the run is given
      - squad list with who's coming (...)         -> `players` (a list of people, `prose_inputs` matches it)
      - which night it is (tue / thu / sat)        -> `day` (the night, the evening: the day the run is for)
    What we need from you before service:        (a kitchen sheet; the colon is optional)
    Things I need first                          (a rehearsal schedule)
    What I need to do tonight                    no: chores ("need to" a verb), not what goes in
    WHAT YOU NEED TO KNOW                        no: the same

`need_head(line)` says whether a line alone is such a heading (`spec.prose_inputs` reads the list under it
item by item, each up to its colon, and the planner matches each to a name a skill reads, warned). The
heading is one short line: "what" + a person or the run + "need(s)", then nothing, a colon, or words
saying when or from whom ("before I hit go", "from you", "first", "up front", "on the night").

Two kinds of words people write in such a list stand for the words of an input's name (`stand_ins30`,
beside `spec.input_word_names`; the planner tries them only when no name has every word said, and says so):

- the night or evening the run is for ("which night it is", "the evening", "session night"): `day`,
  `night`, `weekday`, `date`;
- a list of people ("squad list", "who's coming", "the roster", "attendees", "guest list"): `players`,
  `people`, `attendees`, `members`, `guests`, `squad`, `roster`.

A plan sheet's header says values as labels ("Coach: Dele A.    Venue: Riverside 3G", two spaces or
more between labels): a skill input nothing gives whose name is such a label (said once, one value) and
which the step's own text names ("venue Riverside 3G, the night") takes the label's value as the step's
literal (a blank to fill in, "LOCATION: ........ (location)", is none) (`labelled_value`, for `plan.literal_units`, warned there).

Patterns are anchored and bounded; the labels are read once per document.
"""

from __future__ import annotations

from functools import lru_cache

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WHO = r"(?:i|we|you|it|this|the\s++(?:run|job|sheet|computer|tool))"
# "WHAT I NEED BEFORE I HIT GO", "What we need from you before service:", "Things I need first"
_HEAD = _rx(
    rf"(?i)^[ \t]*+(?:#{{1,6}}+[ \t]++)?+(?:what|things?|stuff|inputs?)\s++{_WHO}(?:['’]ll|\s++will|\s++must|\s++have\s++to)?+"
    r"\s++(?:need|needs|want|wants|must\s++have|have\s++to\s++have)"
    r"(?:\s++(?:before|from|first|up\s++front|upfront|ahead|for|on|at|when|each\s++time|every\s++time|to\s++hand|"
    r"in\s++hand|ready)(?:[ \t]++[\w'’]++){0,6}+)?+[ \t]*+[:\-–—]?+[ \t]*+$")
# "need to do", "need to know": chores or notes, not what goes in
_NOT = _rx(r"(?i)\bneeds?\s++to\b|\bwants?\s++to\b")

_NIGHT = _rx(r"(?i)(?<![\w])(?:night|evening|weeknight|session\s++day|match\s++day|which\s++day)(?![\w])")
NIGHT_WORDS = frozenset({"day", "night", "weekday", "date"})
_PEOPLE = _rx(r"(?i)(?<![\w])(?:squad|roster|who['’]?s\s++coming|who\s++is\s++coming|who['’]?s\s++in|attendees|"
              r"guest\s++list|team\s++list|team\s++sheet|sign-?ups)(?![\w])")
PEOPLE_WORDS = frozenset({"player", "players", "people", "attendee", "attendees", "member", "members", "guest",
                          "guests", "squad", "roster"})


# "Venue: Riverside 3G" at a line's start or after two spaces (or a bar), its value up to two spaces or the end
_LABEL = _rx(r"(?:^[ \t]*+|(?<=\s\s)|(?<=\|)[ \t]*+)(?P<label>[A-Za-z][A-Za-z ]{0,30}?):[ \t]++(?P<value>\S(?:(?! {2}|\t|\|)[^\n]){0,60}+)")
_BLANK = _rx(r"\.{3}|_{3}|…")
_WORD = _rx(r"[A-Za-z][A-Za-z0-9_]*+")


@lru_cache(maxsize=8)
def _labels(document: str) -> dict[str, str | None]:
    """Each header label's name (`venue`, `session_length`) -> its value, None when said twice differently."""
    out: dict[str, str | None] = {}
    for line in document.splitlines()[:400]:
        if len(line) > 400:
            continue
        for m in _LABEL.finditer(line):
            name = "_".join(m.group("label").lower().split())
            value = m.group("value").strip()
            if _BLANK.search(value) or not value[:1].isalnum():  # "LOCATION: ....... (location)": a blank to fill in
                continue
            out[name] = value if out.get(name, value) == value else None
    return out


def labelled_value(name: str, text: str, document: str) -> tuple[str, str] | None:
    """(value, the label as written) for an input `name` the sheet's header labels and the step's `text` names."""
    value = _labels(document).get(name.lower())
    if not value or not any(w.lower() == name.lower() for w in _WORD.findall(text)):
        return None
    return value, f"{name.replace('_', ' ').capitalize()}: {value}"


def need_head(line: str) -> bool:
    """Whether `line` alone is a heading over the list of what the run is given (module docstring)."""
    return len(line) <= 90 and _HEAD.match(line) is not None and _NOT.search(line) is None


def stand_ins30(part: str) -> tuple[frozenset[str], list[str]]:
    """(words `part` stands for beyond its own, the words of it that say so): the night, a list of people."""
    words: set[str] = set()
    said: list[str] = []
    for rx, stand in ((_NIGHT, NIGHT_WORDS), (_PEOPLE, PEOPLE_WORDS)):
        m = rx.search(part)
        if m is not None:
            words |= stand
            said.append(m.group(0))
    return frozenset(words), said


_rx.save()
