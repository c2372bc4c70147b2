"""What the person starting the run gives it, said where `spec.prose_inputs` and `spec.input_user_gives`
do not look: a title over a list of the things, or an opening sentence "It needs the ...".

    .What you hand it                               (an AsciiDoc block title over its list)
    * the sailing number (e.g. SK-0715)
    * which weather buoy to read -- normally BUOY-14

    2   INFORMATION REQUIRED BEFORE STARTING         (a Word outline's section, its items numbered 2.1, 2.2)
    2.1 The reporting week (ISO week, e.g. 2025-W09).

    FILL IN BEFORE GO                               (a form's block: each field a label, then two spaces
      TAIL ...... (e.g. C-FKTJ)                      or a dot leader; "data to be entered by ...", "what
      NOM PSI     from the placard                   the analyst supplies")

    **Have to hand before you start**               (a bold line, a heading or a line ending in a colon)
    - the hive list
    - today's weather: from the app

    Every week I forget something. It needs the **season label** and the **count sheets**.

A title says what the run is given when its words are a need or a handing over ("what you hand it",
"information required before starting", "what it needs", "things to have ready"); its items are the
bulleted, lettered or numbered lines under it (an outline's items numbered under the title's number),
each read up to its first parenthesis, colon, dash or "e.g.", then split as a sentence's parts. The
sentence is one that opens with "It/This/The run needs (takes, requires)" and goes on to a thing ("the",
"a", "your", a bold word), in the text before the first heading below the title or list item (after
them such a sentence is a step's); a part that names a skill (`merge-counts`) makes it a step's.
Each part is kept as written with its line: the planner (`plan.prose_inputs`) matches it to the name a
skill reads and warns at the line how it was read. Read only when the spec declares no inputs and no
other reader found what it is given. One pass over the lines; every pattern is anchored and bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from orchestrator.spec.prose_inputs import parts_of
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a title line: an AsciiDoc block title (".What you hand it"), a heading, an outline number ("2\t", "2."), bold
_TITLE = _rx(r"^[ \t]*+(?:\.(?=[A-Za-z])|#{1,6}+[ \t]++|=={1,5}+[ \t]++|(?P<num>\d{1,2}+(?:\.\d{1,2}+){0,3}+)[.)]?+[ \t]++)?+"
             r"(?:\*\*|__)?+(?P<words>[A-Za-z][^\n]{2,80}+)$")
_GIVE = r"(?:hand|give|feed|pass|suppl(?:y|ie)|provide|send)s?+"
_WHEN = (r"(?:\s++(?:each|every)\s++time|\s++(?:at|before)\s++(?:the\s++)?+(?:start|kick-?off)\b"
         r"|\s++before\s++(?:you\s++|we\s++)?+(?:start|begin)(?:ning|ing)?+(?:\s++(?:it|the\s++run))?+"
         r"|\s++to\s++(?:start|begin)(?:\s++(?:it|the\s++run))?+)?+")
# the title's words: a need or a handing over, all of them (a title that says more is something else)
_GIVEN_TITLE = _rx(
    r"(?i)^(?:"
    rf"what\s++(?:you|i|we|the\s++[a-z]++)\s++{_GIVE}\s++(?:it|this|the\s++run|in){_WHEN}"
    rf"|what\s++(?:it|this|the\s++run)\s++(?:needs|takes|wants|asks\s++for)(?:\s++from\s++you)?+{_WHEN}"
    rf"|(?:the\s++)?+(?:information|info|data|details|inputs?|input\s++data|things|items|documents)\s++"
    rf"(?:required|needed|wanted|to\s++(?:have|get)\s++ready|to\s++(?:hand|give)(?:\s++it)?+|you\s++(?:need|give\s++it))"
    rf"{_WHEN}"
    rf"|(?:have|to\s++have|get)\s++(?:these\s++|this\s++)?+(?:ready|to\s++hand|in\s++hand){_WHEN}"
    rf"|(?:required|needed)\s++(?:information|info|data|details|inputs?){_WHEN}"
    rf"|(?:what\s++)?+you(?:['’]ll|\s++will)?+\s++(?:need|hand\s++it|give\s++it){_WHEN}"
    # a form's block: "FILL IN BEFORE GO", "DATA TO BE ENTERED BY MECH AT START OF CARD", "WHAT THE ANALYST SUPPLIES"
    r"|fill(?:\s++(?:it|this|these))?+\s++in(?:\s++(?:before|first|at|when)\b[^:*_\n]{0,40}+)?+"
    r"|(?:the\s++)?+(?:data|details|information|info|values|fields)\s++to\s++be\s++(?:entered|filled\s++in|supplied|"
    r"given|provided|recorded)(?:\s++(?:by|at|before|when)\b[^:*_\n]{0,50}+)?+"
    rf"|what\s++(?:you|i|we|the\s++[a-z]++)\s++{_GIVE}"
    r")[ \t]*+(?:\*\*|__)?+[ \t]*+:?+[ \t]*+(?:\*\*|__)?+$")
# a form's field line under such a title: a label, then two spaces or a dot leader ("  TAIL ...... (e.g. C-FKTJ)")
_FORM_FIELD = _rx(r"^[ \t]++(?P<text>[A-Za-z][\w#/&'’-]*+(?: [\w#/&'’-]++){0,3}+)(?:[ \t]{2,}+|[ \t]*+\.{3,}+[ \t]*+)\S")
# an item under the title: a bullet, an AsciiDoc ". item", a number or letter, an outline number ("2.1\t")
_ITEM = _rx(r"^[ \t]*+(?:[-*•+](?:\*{1,2}+)?+|\.{1,3}+|[a-z][.)]|(?P<num>\d{1,2}+(?:\.\d{1,2}+){0,3}+)[.)]?+)[ \t]++"
            r"(?P<text>\S[^\n]*+)$")
_LABELLED = _rx(r"^[ \t]*+(?P<text>[^:\n]{1,60}+)::[ \t]")  # an AsciiDoc "term:: what it is"
# an item read up to its first parenthesis, colon, dash, "e.g." or stop: what follows says what it is
_CUT = _rx(r"(?i)\(|:|(?<!\s)\s++(?:--|—|–|-)\s|;|(?:,\s*+|(?<![\s,])\s++)(?:e\.g\.|i\.e\.|eg\b|such\s++as|normally|usually)"
           r"|\.(?=\s|$)")
_MARKS = _rx(r"\*\*|__|`")
# "It needs the **season label** ...": an opening sentence that goes on to a thing
_NEEDS = _rx(r"(?i)(?:^|(?<=[.!?])[ \t]++|(?<=[.!?][\"')])[ \t]++)(?:it|this|the\s++(?:run|runner|job|script|workflow|"
             r"process|bot|tool|automation))\s++(?:needs|takes|requires|wants)\s++"
             r"(?=the\b|an?\b|your\b|our\b|two\b|three\b|four\b|both\b|\*\*|__)")
_STOP = _rx(r"(?<!\be\.g)(?<!\bi\.e)(?<!\b[Nn]o)\.(?=\s|$)|[!?](?=\s|$)")
_PAREN = _rx(r"\([^()\n]{0,400}+\)")
_SKILL = _rx(r"(?<![\w-])[a-z][a-z0-9]*+(?:-[a-z0-9]++)++(?![\w-])")  # `merge-counts`: a step's sentence
_BREAK = _rx(r"^[ \t]*+(?:#{2,6}+[ \t]|={2,6}+[ \t]|[-*•+][ \t]|\d{1,2}+[.)][ \t]|\|)")  # a section or a list: steps begin
_MAX_WORDS = 10


def _item_parts(text: str) -> list[str]:
    """An item's things: its words up to the first parenthesis, colon, dash or "e.g.", split at commas and
    "and"; a part longer than a phrase is left out."""
    cut = _CUT.search(text)
    head = _MARKS.sub("", text[: cut.start()] if cut else text)
    return [p for p in parts_of(head) if len(p.split()) <= _MAX_WORDS]


def _kind(line: str) -> str:
    """An item's marker kind: its bullet, or "1" for a number, "a" for a letter."""
    mark = line.lstrip()[:1]
    return "1" if mark.isdigit() else "a" if mark.isalpha() else mark


def _outline_below(title: str | None, num: str | None) -> bool:
    """An item numbered below the title's number ("2.1" under "2"); any number when the title has none."""
    return title is None or (num is not None and num.startswith(f"{title}."))


def _listed(lines: list[str], at: int, title_num: str | None) -> list[tuple[str, int]]:
    """(part, line index) for the items under the title at `at`: one blank line may stand between."""
    out: list[tuple[str, int]] = []
    blank, kind = 0, ""
    for i in range(at + 1, min(len(lines), at + 41)):
        line = lines[i]
        if not line.strip():
            blank += 1
            if blank > 1 or (blank and not out and i > at + 1):
                break
            continue
        m = _ITEM.match(line)
        if m is not None and _outline_below(title_num, m.group("num")) \
                and (not blank or not kind or _kind(line) == kind):  # past a blank line: the same list
            blank, kind = 0, kind or _kind(line)
            out += [(p, i) for p in _item_parts(m.group("text"))]
            continue
        m = _LABELLED.match(line) or _FORM_FIELD.match(line)
        if m is not None and (not blank or kind in ("", "=")):
            blank, kind = 0, "="  # past a blank line a list of another kind is the steps, not these fields
            out += [(p, i) for p in _item_parts(m.group("text"))]
            continue
        if out and line[:1].isspace() and not blank:
            continue  # an item's text running on
        break
    return out


def _titled(lines: list[str]) -> list[tuple[str, int]]:
    for i, line in enumerate(lines):
        m = _TITLE.match(line)
        if m is None or _GIVEN_TITLE.match(m.group("words").strip()) is None:
            continue
        found = _listed(lines, i, m.group("num"))
        if found:
            return found
    return []


def _needs_said(lines: list[str]) -> list[tuple[str, int]]:
    """The parts of an opening "It needs the ..." sentence, in the text before the steps."""
    for i, line in enumerate(lines):
        if _BREAK.match(line):
            return []
        m = _NEEDS.search(line)
        if m is None:
            continue
        rest = line[m.end():]
        end = _STOP.search(rest)
        said = _PAREN.sub(" ", rest[: end.start()] if end else rest)
        if _SKILL.search(said) or _SKILL.search(line, 0, m.start()):
            continue  # "`merge-counts` needs the coded routes": a step's
        parts = [p for p in parts_of(_MARKS.sub("", said)) if len(p.split()) <= _MAX_WORDS]
        if parts:
            return [(p, i) for p in parts]
    return []


def read_given_list(lines: Iterable[str], where: Callable[[int], str]) -> tuple[tuple[str, str], ...]:
    """(thing as written, file:line) for each thing a titled list or an opening "It needs ..." sentence says
    the run is given (module docstring); () when none does."""
    text = list(lines)
    found = _titled(text) or _needs_said(text)
    return tuple((part, where(i + 1)) for part, i in found)


_rx.save()
