"""The workflow inputs named in a request to supply them when the run starts, said in a sentence no
other reader takes (`spec.prose_inputs`, `spec.input_user_gives`, `spec.given_list` found none):

    fill CLIENT and MONTH (YYYY-MM) in when I kick it off
    You'll need the TERM (e.g. Summer 2027) and the POOL (Kingsmead or Eastbrook).
    Give it `region`, `cutoff` and the BATCH when you start it.
    Put in the SITE before you run it.

A lead (someone needs, fills/puts/types/enters in, gives/hands/feeds it) is followed by a list of
names, each a word in capitals (`CLIENT`, `START DATE`) or a name in backticks, with "the"/"your"
before it and a bracket after it that says its format or example (`(YYYY-MM)`, not a name). The list
is split at commas, "and", "plus", "&", "+". After it the sentence may say "in", "to it", and when:
"when I kick it off", "before you run it", "each time you start it"; then it must end (a stop, the
line's end, a dash, a todo.txt `+project @context`). A single name needs that "when ... start".

Not read: a sentence that names a step (a `skill-name`, "step 2", "3/", "(from 3)") or what comes
after the list is anything else ("you'll need the KEY from Dee": a person; "fill NET and VAT in from
3/", "the TOTAL that 4/ works out": what a step produces), a bracket that says "from"/a step, or a
name written in lower case ("you'll need the key"). Each name is kept as written with its line, as
`spec.prose_inputs` keeps its parts: the planner (`plan.prose_inputs`) matches each to a name a
skill reads and warns at the line how each was read. One pass over the lines; every pattern is
anchored at a lead or a list position and bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from orchestrator.spec.prose_inputs import paragraphs
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_IT = r"(?:it|this|the\s++(?:run|job|script|workflow))"
# "you'll need", "we will need", "fill", "fill in", "put in", "type in", "enter", "give it", "hand this", "supply"
_LEAD = _rx(
    r"(?i)\b(?:(?:you|we)(?:['’]ll|\s++will)?+\s++need(?!\s++to\b)"
    r"|(?:fill|put|type|key|plug|paste)(?:\s++in\b)?+"
    r"|enter"
    rf"|(?:give|hand|feed|pass|supply|provide)(?:\s++{_IT}\b)?+)(?=\s)"
)
_NAME = (r"(?:(?P<caps>[A-Z][A-Z0-9]++(?:[ _][A-Z][A-Z0-9]++){0,2}+)(?![\w-])"
         r"|`(?P<tick>[A-Za-z_][\w.-]{0,60}+)`)")
_NAMED_PART = _rx(rf"\s++(?:(?i:the|a|an|your|its|their|our|this)\s++)?+{_NAME}"
            r"(?:\s*+(?P<paren>\([^()]{0,80}+\)))?+")
_NAMED_SEP = _rx(r"\s*+(?:,(?:\s*+(?:and|plus)(?=\s))?+|and(?=\s)|plus(?=\s)|&|\+(?=\s))")
# what may follow the list: "in", "to it", and a "when/before ... start/kick/run" clause
_PUT_IN = _rx(rf"(?i)\s++(?:in(?:to\s++{_IT})?+|to\s++{_IT}|on\s++{_IT})\b")
_RUN_STARTS = _rx(r"(?i),?+\s++(?:when|before|as|once|at|each\s++time|every\s++time|whenever)\b"
            r"[^.!?;,\n]{0,60}?\b(?:start|kick|run|launch|fire|trigger|begin|go)(?:s|ing|ning)?+\b"
            rf"(?:\s++{_IT}|\s++things)?+(?:\s++(?:off|up))?+")
_REQUEST_ENDS = _rx(r"[ \t]*+(?:[+@][^\s+@]++[ \t]*+)*+(?:$|\n|[.!?;:,](?=\s|$)|(?:--|-|—|–)(?=\s))")
# a sentence ends at its stop, or at a line that opens a new item: a bullet, "2)", "3/", a todo.txt "(B)" or "x "
_STOP = _rx(r"(?<!\be\.g)(?<!\bi\.e)(?<!\b[Nn]o)[.!?](?=\s)"
            r"|\n(?=[ \t]*+(?:[-*•+][ \t]|\d{1,2}+[.)/][ \t]|\([A-Z]\)[ \t]|x[ \t]|\d{4}+-\d\d-\d\d))")
# a step named in the sentence: `bank-feed-pull`, "step 2", "3/", "(from 3)"
_STEP = _rx(r"(?<![\w-])[a-z][a-z0-9]*+(?:-[a-z0-9]++)++(?![\w-])|\b(?i:steps?)\s*+\d|(?<![\w/])\d{1,2}+/(?!\d)"
            r"|\b(?i:from)\s++\d")
_PAREN_STEP = _rx(r"(?i)\bfrom\b|\bsteps?\b|\d/|\boutput|\bresult")


def _opening(text: str, at: int) -> int:
    """Where the sentence that holds `at` opens."""
    return max((m.end() for m in _STOP.finditer(text, 0, at)), default=0)


def _names_after(line: str, lead: re.Match[str]) -> list[str] | None:
    """The names listed after a lead, when the sentence is a request to supply them (module docstring)."""
    parts: list[re.Match[str]] = []
    pos = lead.end()
    part = _NAMED_PART.match(line, pos)
    while part is not None:
        if part.group("paren") and _PAREN_STEP.search(part.group("paren")):
            return None  # "the TOTAL (from 3/)": a step's output
        parts.append(part)
        pos = part.end()
        sep = _NAMED_SEP.match(line, pos)
        part = _NAMED_PART.match(line, sep.end()) if sep is not None else None
    if not parts:
        return None
    put_in = _PUT_IN.match(line, pos)
    pos = put_in.end() if put_in is not None else pos
    when = _RUN_STARTS.match(line, pos)
    pos = when.end() if when is not None else pos
    if _REQUEST_ENDS.match(line, pos) is None:
        return None  # "... from Dee", "... that 4/ works out": not a request for the run's inputs
    if len(parts) == 1 and when is None:
        return None  # "you'll need the VPN": one name with no word of the run's start
    return [p.group("caps") or p.group("tick") for p in parts]


def read_start_names(lines: Iterable[str], where: Callable[[int], str]) -> tuple[tuple[str, str], ...]:
    """(name as written, file:line) for each input a request to supply named things when the run starts
    lists (module docstring), at the line of its lead; the first such sentence only."""
    for first, text in paragraphs(lines):
        if len(text) > 20_000:
            continue
        for lead in _LEAD.finditer(text):
            names = _names_after(text, lead)
            if names is None:
                continue
            stop = _STOP.search(text, lead.end())
            sentence = text[_opening(text, lead.start()):stop.start() if stop else len(text)]
            if _STEP.search(sentence):
                continue  # a step's sentence, or one about what a step gives
            line = first + text.count("\n", 0, lead.start())
            return tuple((name, where(line)) for name in names)
    return ()


_rx.save()
