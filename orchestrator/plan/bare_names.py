"""Names a skill's instructions list bare on a label line, without backticks:

    Inputs: product (text, lower case recipe name, e.g. "chicken korma"), site (text).
    Outputs: allergens (list of text, sorted), source (text, "recipe db").
    Takes:
    station_id or station_code (text), day (text,
    YYYY-MM-DD).

A label line opens (after a list mark or bold, if any) with an inputs word (Input, Inputs,
Takes, Reads, Needs, Expects, Accepts) or an outputs word (Output, Outputs, Returns, Gives,
Gives back, Produces, Emits, Yields) and a colon; its list goes on over the paragraph's next
lines (up to a list item, a heading or another label). The list is names, each one word
(`batch_no`, `pm25`) optionally followed by a parenthesis that describes it (a comma in it
separates nothing; it may hold quotes, numbers, "e.g."), separated by commas, semicolons,
"and" or "or"; a stop after a name or its parenthesis ends the list. A parenthesis after
"a or b" describes both. `wanted.read_instructions` gives each name the type its
parenthesis says in the words it already reads for backticked names ("(list of text)": an
array). A label line with a backtick anywhere is `wanted`'s own. "Inputs: none" names
nothing and says so. A label line whose items are not such names (a sentence: "Inputs: the
product's name and the site") gives no names: its `file:line` is `unread`, and the plan
warns when the skill's instructions then name nothing of that kind (`unread_warnings`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from orchestrator.errors import Diagnostic
from orchestrator.plan.list_end55 import list_lines
from orchestrator.plan.location import warning_at
from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:
    from orchestrator.kinds import BoundSkill
    from orchestrator.plan.wanted import Instructions

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LABEL = _rx(r"(?i)^[ \t]*+(?:[-*+][ \t]++)?+(?:\*\*|__)?+(inputs?|takes|reads|needs|expects|accepts|outputs?|returns?"
             r"|gives(?:[ \t]++back)?+|produces|emits|yields)(?:\*\*|__)?+[ \t]*+:(?:\*\*|__)?+[ \t]*+(.*+)$")
_OTHER_LINE = _rx(r"^[ \t]*+(?:[-*+][ \t]|\d{1,3}[.)][ \t]|#|\||```)")  # a list item, a heading, a table, a fence
_NAME = _rx(r"[A-Za-z_][\w-]{0,63}+")
_JOIN = _rx(r"(?i)(?:and/or|and|or|plus)(?![\w-])")
_STOP = _rx(r"\.(?:\s|$)")
_NOTHING = frozenset({"none", "nothing", "n/a", "na", "nil", "no inputs", "no outputs", "-", "--", "—"})
_OUT_WORDS = ("output", "return", "give", "produce", "emit", "yield")


class Bare(NamedTuple):
    """One bare name: its `file:line`, the parenthesis after it (None: none) and its kind."""

    name: str
    where: str
    gloss: str | None
    kind: str  # "in" or "out"


class Unread(NamedTuple):
    """A label line whose items are not names (a sentence), at its `file:line`."""

    kind: str
    where: str
    text: str


def bare_names(body: str, skill_md: str, first_line: int = 1) -> tuple[list[Bare], list[Unread]]:
    """The bare names of `body`'s label lines, and the label lines read as sentences (module docstring)."""
    names: list[Bare] = []
    unread: list[Unread] = []
    lines = body.splitlines()
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("```"):
            fenced = not fenced
        label = None if fenced else _LABEL.match(line)
        i += 1
        if label is None:
            continue
        kind = "out" if label.group(1).lower().startswith(_OUT_WORDS) else "in"
        parts = [(first_line + i - 1, label.group(2))]  # (line number, text) of the list's lines
        while i < len(lines) and lines[i].strip() and not _OTHER_LINE.match(lines[i]) and not _LABEL.match(lines[i]):
            parts.append((first_line + i, lines[i].strip()))
            i += 1
        text = " ".join(t for _, t in parts)  # not stripped: `_line_at` counts offsets in it
        if not text.strip() or "`" in text or "{" in text:  # a section's label, or `wanted`'s own (backticks, JSON)
            continue
        if text.rstrip(" .").lower() in _NOTHING:
            continue
        read = _read_list(text)
        if read is None and (keep := list_lines(parts, _read_list)):  # a sentence after it (`plan.list_end55`)
            parts = parts[:keep]
            text = " ".join(t for _, t in parts)
            read = _read_list(text)
        where = f"{skill_md}:{parts[0][0]}"
        if read is None:
            unread.append(Unread(kind, where, text.strip()))
            continue
        for name, at, gloss in read:
            line_no = _line_at(parts, at)
            names.append(Bare(name, f"{skill_md}:{line_no}", gloss, kind))
    return names, unread


def _line_at(parts: list[tuple[int, str]], at: int) -> int:
    """The line number of offset `at` in the parts joined by one blank."""
    for number, text in parts:
        if at <= len(text):
            return number
        at -= len(text) + 1
    return parts[-1][0]


def _read_list(text: str) -> list[tuple[str, int, str | None]] | None:
    """(name, offset, parenthesis) of each item of "a (x, y), b or c (z)"; None when an item is no name."""
    out: list[tuple[str, int, str | None]] = []
    group: list[int] = []  # the items of an "a or b" run, which a parenthesis after the last describes
    at, end = 0, len(text)
    while True:
        at = _blanks(text, at)
        m = _NAME.match(text, at)
        if m is None or _JOIN.fullmatch(m.group(0)):
            return None
        out.append((m.group(0), m.start(), None))
        group.append(len(out) - 1)
        at = _blanks(text, m.end())
        if at < end and text[at] == "(":
            close = _closing(text, at)
            if close is None:
                return None
            gloss = text[at + 1:close].strip()
            for k in group:
                if out[k][2] is None:
                    out[k] = (out[k][0], out[k][1], gloss)
            group = []
            at = _blanks(text, close + 1)
        if at >= end or _STOP.match(text, at):
            return out
        if text[at] in ",;":
            group = []
            at = _blanks(text, at + 1)
            joined = _JOIN.match(text, at)  # ", and b", ", or c"
            if joined is not None:
                at = joined.end()
            continue
        joined = _JOIN.match(text, at)
        if joined is None:
            return None  # "product name": two words, a phrase, not a name
        at = joined.end()


def _blanks(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t":
        at += 1
    return at


def _closing(text: str, at: int) -> int | None:
    """Where the parenthesis opened at `at` closes (None: it does not)."""
    depth = 0
    for k in range(at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return k
    return None


def unread_warnings(bound: Mapping[str, BoundSkill], instructions: Mapping[str, Instructions],
                    default_file: str) -> list[Diagnostic]:
    """A warning at each label line of a bound skill whose items were read as no names, when the skill then
    names nothing of that kind and has no schema for it: its steps get no input bound from it, or no
    outputs declared."""
    found: list[Diagnostic] = []
    seen: set[str] = set()
    for skill in _unique(bound.values()):
        said = instructions.get(skill.name)
        if said is None or skill.name in seen:
            continue
        seen.add(skill.name)
        for line in said.unread:
            if line.kind == "in" and (said.inputs or skill.input_schema is not None):
                continue
            if line.kind == "out" and (said.outputs or skill.output_schema is not None):
                continue
            what = "inputs" if line.kind == "in" else "outputs"
            found.append(warning_at(line.where, default_file, (
                f"skill `{skill.name}` says its {what} in a sentence, not as names: '{_short(line.text)}': none is "
                f"read, so {'no input of its steps is bound by name' if line.kind == 'in' else 'its steps declare no outputs'}"
                f"; write them as `{what.capitalize()}: name (type), name (type)`, or put each name in backticks"),
                "plan.skill-interface-unread"))
    return found


def _unique(skills: Iterable[BoundSkill]) -> list[BoundSkill]:
    return list({s.name: s for s in skills}.values())


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


_rx.save()
