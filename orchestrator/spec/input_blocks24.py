"""Workflow inputs written as the plain-text blocks of a file or a paper form, before the first step.

    FEED_DATE ?= $(shell date +%F)   # workflow input      a Makefile variable the caller may set: an input
    FLOOR     ?= 0.12                # fixed, not a knob   ... unless its comment says it is fixed: a literal
    ARG REGION=north                                       a Dockerfile build argument
    : "${BATCH_DAY:=2024-01-01}"                           a shell default the caller may override
    BATCH_DAY="${BATCH_DAY:-2024-01-01}"                   (the same, as an assignment)
    TICKET_ID=                                             an env-file line left empty to fill in
    Dep port ........ departure   (e.g. ABERDEEN)          a dotted fill-in line naming its input
    Sailing date ....                                      ... or left blank (four dots or more): the label's slug
    Name: ____________                                     a paper form's blank to fill in
    DATE OF APPLICATION: spray_date                        a capitalised label and the input's name
    FIELDS TO TREAT:     fields   (list - one per line)    (a bracket after the name is its note)

Each line says one input; the lines are read only when the spec declares its inputs no other way
and only before the first step. A variable or env-file line whose value is fixed (`FLOOR := 0.12`,
`PY = python3`, `ENV MODE=prod`) is no input, nor is a `?=` line whose comment says it is fixed
("not a knob", "constant", "do not change"): that reading is warned. A name is kept as the author
wrote it (FEED_DATE stays FEED_DATE; the planner binds a skill's `date` to it). A default computed
by the tool (`$(shell date +%F)`, `$(date)`) is not a value the reader can know: that input is
required and the warning says so. A bracket after a fill-in name is its note: "(list ...)" makes
it a list, "(e.g. X)" is an example, never a default.

Not inputs: a row of dots ending in a page number (a table of contents: "Introduction ..... 3"),
a line in capitals with nothing after its colon (a heading: "HOW IT RUNS:"), a capitalised label
followed by a value rather than a name ("TANK: 3000 L", "Approved: Master", "PRIORITY: high": the name must
say a word of its label, `fields` for "FIELDS TO TREAT", or be written as a name, `spray_date`). A block read gets one
warning at its first line naming the inputs and how they were read. Patterns are anchored and
bounded; one pass over the lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.spec.input_blocks25 import names_listed
from orchestrator.spec.inputs38 import bracket_name
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `NAME ?= value  # comment`, `export NAME := value`, `override NAME = value`
_MAKE = _rx(r"^(?:export[ \t]++|override[ \t]++)?+([A-Za-z_][A-Za-z0-9_]{0,60}+)[ \t]*+(\?=|::=|:=|\+=|=)"
            r"[ \t]*+([^#\n]{0,200}?)[ \t]*+(?:#[ \t]*+(.{0,300}))?$")
# a Dockerfile `ARG NAME=default` / `ARG NAME`
_ARG = _rx(r"^[ \t]*+ARG[ \t]++([A-Za-z_][A-Za-z0-9_]{0,60}+)(?:=([^#\n]{0,200}?))?[ \t]*+(?:#[ \t]*+(.{0,300}))?$")
# a shell default the caller may override: `: "${X:=v}"`, `: ${X:-v}`, `X="${X:-v}"`, `: "${X:?msg}"`
_SH = _rx(r"^[ \t]*+(?::[ \t]++|(?:export[ \t]++|readonly[ \t]++)?+([A-Za-z_][A-Za-z0-9_]{0,60}+)=)"
          r"[\"']?+\$\{([A-Za-z_][A-Za-z0-9_]{0,60}+)(:?+[-=?])([^}\n]{0,200}+)\}[\"']?+[ \t]*+(?:#[ \t]*+(.{0,300}))?$")
# an env-file line: `NAME=value` (no spaces around `=`, the whole line)
_ENV = _rx(r"^[ \t]*+(?:export[ \t]++)?+([A-Z_][A-Z0-9_]{0,60}+)=([^ \t#\n][^#\n]{0,200}?|)[ \t]*+"
           r"(?:#[ \t]*+(.{0,300}))?$")
# a dotted leader: `Label ........ name (note)`, `Label ....`, `Label .... 12` (a contents line)
_DOTS = _rx(r"^[ \t]{0,8}+([A-Za-z][A-Za-z0-9 ()/&'’:-]{0,60}?)[ \t]*+(?:\.[ \t]?+){3,}+[ \t]*+(.{0,200})$")
_BRACKETED = _rx(r"\([^()\n]{0,60}+\)")
# a blank to fill in: `Name: ________`, `Date of birth ______`
_BLANK = _rx(r"^[ \t]{0,8}+([A-Za-z][A-Za-z0-9 ()/&'’-]{0,60}?)[ \t]*+:?+[ \t]*+_{4,}+[ \t]*+(?:\(([^()\n]{0,120})\))?"
             r"[ \t]*+$")
# a capitalised label and a name: `PRODUCT:   product   (MAPP no. ...)`
_CAPS = _rx(r"^[ \t]{0,8}+([A-Z][A-Z0-9 /&'’-]{0,60}?)[ \t]*+:[ \t]*+(\S.{0,200})$")
_NAME = _rx(r"^([a-z][a-z0-9_]{0,60}+|[A-Z][A-Z0-9]{0,30}+(?:_[A-Z0-9]{1,30}+){1,4}+)(?:[ \t]++\(([^()\n]{0,200}+)\)?+)?+[ \t]*+[.;]?+$")
_IDENT = _rx(r"^[A-Za-z_][A-Za-z0-9_]*+$")
_PAGE = _rx(r"^(?:\d{1,4}+|[ivxlc]{1,6}+)$")
# a comment or a note saying the value is fixed, or an input
_FIXED = _rx(r"(?i)\b(?:not\s++(?:a\s++)?+(?:knob|input|parameter|setting\s++to\s++change)|constant|"
             r"fixed|literal|hard[- ]?+coded|do(?:n['’]?+t|\s++not)\s++(?:change|touch|override)|never\s++change)\b")
_INPUT = _rx(r"(?i)\b(?:(?:workflow|run|job)\s++input|input|parameter|param|override|set\s++(?:it\s++)?on\s++"
             r"the\s++command\s++line|per\s++run|each\s++run|fill\s++(?:it\s++)?+in)\b")
_NO_NAMES = frozenset({"none", "tbd", "tba", "todo", "n", "na", "yes", "no", "ok", "draft", "done", "final", "open",
                       "closed", "pending", "approved", "true", "false", "nil", "null", "unknown", "various", "see"})
_COMPUTED = _rx(r"\$\(|`|\$\{")
_LIST_NOTE = _rx(r"(?i)^\s*+(?:a\s++)?+list\b|\bone\s++per\s++line\b|\blist\s++of\b")
_EXAMPLE = _rx(r"(?i)^\s*+(?:e\.?\s*+g\.?+|for\s++example|example|like|say)\b")


class _Found:
    """The inputs read so far, the lines read and the kinds of writing read."""

    def __init__(self) -> None:
        self.inputs: dict[str, InputSpec] = {}
        self.lines: list[int] = []
        self.kinds: list[str] = []
        self.fixed: list[tuple[int, str]] = []

    def add(self, spec: InputSpec, line: int, kind: str) -> None:
        if spec.name not in self.inputs:
            self.inputs[spec.name] = spec
            self.lines.append(line)
            if kind not in self.kinds:
                self.kinds.append(kind)


def _slug(label: str) -> str:
    words = re.findall(r"[a-z0-9]+", re.sub(r"\([^()]*\)", " ", label.lower()))
    return "_".join(words)[:60]


def _default(value: str) -> tuple[bool, object]:
    """(required, default) of a written default: empty -> required; computed by the tool -> required."""
    value = value.strip().strip("\"'")
    if not value or _COMPUTED.search(value):
        return True, None
    return False, value


def _assignment(text: str, line: int, src: Source, found: _Found) -> bool:
    """A Makefile, Dockerfile, shell or env-file line; True when the line was one of them."""
    if (m := _SH.match(text)) is not None and (m.group(1) is None or m.group(1) == m.group(2)):
        name, op, value = m.group(2), m.group(3), m.group(4)
        required, default = (True, None) if op.endswith("?") else _default(value)
        found.add(InputSpec(name=name, required=required, default=default, description=(m.group(5) or "").strip(),
                            where=src.where(line)), line, "shell defaults")
        return True
    if (m := _ARG.match(text)) is not None:
        required, default = _default(m.group(2) or "")
        found.add(InputSpec(name=m.group(1), required=required, default=default,
                            description=(m.group(3) or "").strip(), where=src.where(line)), line, "ARG lines")
        return True
    if (m := _MAKE.match(text)) is None:
        return False
    name, op, value, comment = m.group(1), m.group(2), m.group(3), (m.group(4) or "").strip()
    env_line = _ENV.match(text) is not None and op == "="
    said_input = bool(_INPUT.search(comment)) and not _FIXED.search(comment)
    if op == "?=" and _FIXED.search(comment):
        found.fixed.append((line, f"{name} ?= {value}"))
        return True
    if op == "?=" or said_input or (env_line and not value):
        required, default = _default(value)
        if required and value.strip():
            src.warn(line, f"the input {name}'s default '{value.strip()}' is computed when the file runs, so it is not "
                           f"read: the input is required; give {name} on each run", "spec.reading")
        kind = "env-file lines" if env_line else "variables set with ?=" if op == "?=" else "variables said to be inputs"
        found.add(InputSpec(name=name, required=required, default=default, description=comment,
                            where=src.where(line)), line, kind)
    return True


def _fill_in(text: str, line: int, src: Source, found: _Found, contents: list[int]) -> bool:
    """A form's fill-in line (dotted leader, blank, capitalised label); True when the line was one."""
    if (m := _DOTS.match(text)) is not None and ":" not in _BRACKETED.sub("", m.group(1)):
        # a colon only inside the label's brackets ("OUT OF OVEN (hh:mm) ...."); "DATE: .... (d)   LOCATION: ...." is
        # two labelled fields on one line, not one label
        label, rest = m.group(1).strip(), m.group(2).strip()
        if _PAGE.match(rest):
            contents.append(line)  # "Introduction ...... 3": a table of contents, no input
            return True
        named = _NAME.match(rest) if rest else None
        if named is None and (bracketed := bracket_name(label, rest)) is not None:  # "DOG'S NAME .... (dog_name)"
            found.add(_with_note(bracketed[0], label, bracketed[1], line, src), line, "dotted fill-in lines")
            return True
        if named is None and text.count(".") < 4:
            return False  # "TITLE    ...": an ellipsis in a column of values, no leader to a blank
        if rest and named is None and (several := names_listed(rest, _NO_NAMES)) is not None:
            for one in several[0]:  # "box office figures .... sold / comps / scanned" (`spec.input_blocks25`)
                found.add(_with_note(one, label, several[1], line, src), line, "dotted fill-in lines")
            return True
        if rest and named is None and not set(rest) <= set("_ ."):
            return False  # "Dep port ..... ABERDEEN": a value filled in, not an input's place
        name = named.group(1) if named else _slug(label)
        if name:
            found.add(_with_note(name, label, named.group(2) if named else None, line, src), line, "dotted fill-in lines")
        return bool(name)
    if (m := _BLANK.match(text)) is not None and (name := _slug(m.group(1))):
        found.add(_with_note(name, m.group(1).strip(), m.group(2), line, src), line, "blanks to fill in")
        return True
    if (m := _CAPS.match(text)) is not None and any(c.isalpha() for c in m.group(1)) \
            and (named := _NAME.match(m.group(2).strip())) is not None and named.group(1).lower() not in _NO_NAMES \
            and _names_label(named.group(1), m.group(1)):
        found.add(_with_note(named.group(1), m.group(1).strip(), named.group(2), line, src), line,
                  "capitalised labels")
        return True
    return False


def _names_label(name: str, label: str) -> bool:
    """Whether `name` is written as a name (`spray_date`) or says a word of its label (`fields` for "FIELDS TO
    TREAT", `samples` for "SAMPLE IDS"): "PRIORITY: high", "OWNER: sam" say values."""
    if "_" in name:
        return True
    stems = {w[:4] for w in re.findall(r"[a-z0-9]+", label.lower()) if len(w) >= 3}
    return name.lower()[:4] in stems


def _with_note(name: str, label: str, note: str | None, line: int, src: Source) -> InputSpec:
    typ = "array" if note and _LIST_NOTE.search(note) else None
    said = f"'{label}'" + (f" ({note.strip()})" if note else "")
    return InputSpec(name=name, type=typ, description=f"the form's {said}", where=src.where(line))


def read_input_blocks(src: Source, step_wheres: Sequence[str]) -> tuple[InputSpec, ...] | None:
    """The workflow inputs of the plain-text blocks before the first step (module docstring), or None
    when no line there is one; a warning at the first line read names them and how they were read."""
    firsts = [int(w.rsplit(":", 1)[1]) for w in step_wheres if w.rsplit(":", 1)[-1].isdigit()]
    end = min(firsts) - 1 if firsts else 0
    found, contents = _Found(), list[int]()
    lines = src.code if len(src.code) >= len(src.lines) else src.lines  # a script read as its comments: its code
    for i, raw in enumerate(lines[:end], 1):
        text = raw.rstrip()
        if not text.strip() or text.lstrip().startswith(("#", "//", "<!--")):
            continue
        if not _assignment(text, i, src, found):
            _fill_in(text, i, src, found, contents)
    for line, said in found.fixed:
        src.warn(line, f"'{said}' is read as a fixed value, not a workflow input (its comment says so)", "spec.reading")
    if not found.inputs:
        return None
    names = ", ".join(found.inputs)
    src.warn(found.lines[0], f"lines {found.lines[0]}-{found.lines[-1]} read as the workflow inputs: {names} "
                             f"({', '.join(found.kinds)}); check the plan, or declare them in an Inputs section",
             "spec.reading")
    _retract_unread(src, set(found.lines))
    return tuple(found.inputs.values())


def block_read(src: Source, read: set[int], first: int) -> bool:
    """Whether every line of the block (up to a blank line) that starts at line `first` is in `read`."""
    n = first
    while n <= len(src.lines) and src.lines[n - 1].strip():
        if n not in read:
            return False
        n += 1
    return True


def _retract_unread(src: Source, read: set[int]) -> None:
    """A block warned "not read (not a step)" before its lines were read here, every line of it an input's
    (`Deceased (full name) ..... deceased` under a fax's check boxes): read now, so no longer warned."""
    src.warnings[:] = [w for w in src.warnings if not (
        w.code == "spec.unread" and w.line in read and w.message.endswith("not read (not a step)")
        and block_read(src, read, w.line))]


_rx.save()
