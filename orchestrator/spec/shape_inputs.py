"""The workflow's inputs as authors list them outside the template's bullets: a paragraph (or
an indented block) of one input a line, and a table whose columns say the type, whether it is
required and its default.

    csv_text : str                                    numpydoc: `name : type[, optional]`,
        Raw CSV from the export.                      the description on the indented lines
    limit : int, optional
        Rows to keep. Default 500.                    → optional, default 500
    class_id (str): The class to grade.               Google style: `name (type[, optional]): text`
    pass_mark (int, optional): Defaults to 60.
    `region` -- where the shop is                     `name: text`, `name -- text`, `name — text`
    MAX_ROWS=200  # rows per page                     `NAME=value`: an input with that default

    | Parameter | Type | Required | Default | Notes |  a table: the name column (or the first),
    | limit     | int  | no       | 500     |       |  and the columns its header names

An input with a default, or said optional ("optional", "Required: no", "-" in a Required
column), is not required and keeps its default. A line of the block that is none of these
forms is warned at its line, saying what to write; the other lines are still read.
"""

from __future__ import annotations

import json
import re
from typing import Any

from orchestrator.spec.blocks import Block, Fence, Para, Table
from orchestrator.spec.fields import qualify, split_top, type_of
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NAME = r"(?:`|\*\*|__)?+([A-Za-z_][\w-]*+)(?:`|\*\*|__)?+"
# numpydoc `name : type, optional` (spaces around the colon, nothing after the type)
_NUMPY = _rx(rf"^\s*+{_NAME}\s++:\s++([^:\n]{{1,60}}?)\s*+$")
# Google style `name (type, optional): description`
_GOOGLE = _rx(rf"^\s*+{_NAME}\s*+\(([^()\n]{{1,60}})\)\s*+:\s*+(.*)$")
# `name: text`, `name -- text`, `name — text`
_LABELLED = _rx(rf"^\s*+{_NAME}\s*+(?::|--|—|–)\s*+(\S.*)$")
# `NAME=value  # text` (an env file, a Procfile's comments)
_ASSIGNED = _rx(r"^\s*+(?:export\s++)?+([A-Za-z_]\w*+)\s*+=\s*+([^#\n]*?)\s*+(?:#\s*+(.*))?$")
# "Default 10000.", "defaults to `false`", "(default: autumn)", "default is 3"
_DEFAULT = _rx(r"(?i)(?<!\w)defaults?+(?:\s++(?:is|to|of|value|=))?+\s*+[:=]?\s*+`?([^`\s;,()]++)`?")
_BACKTICKED = _rx(r"`([A-Za-z_]\w*+)`")
_OUTPUTS_SAID = _rx(r"(?i)(?<!\w)(?:out\s++comes?|outputs?|returns?|gives?\s++back|produces?|results?\s++(?:is|are))(?!\w)")
_OPTIONAL_SAID = _rx(r"(?i)(?<!\w)(?:optional|not\s++required|may\s++be\s++omitted|can\s++be\s++left\s++out)(?!\w)")
_REQUIRED_COLUMN = ("required", "mandatory", "req", "needed")
_NAME_COLUMN = ("name", "parameter", "param", "input", "field", "variable", "var", "knob", "setting",
                "argument", "arg", "key", "option")
_TYPE_COLUMN = ("type", "kind", "format", "data type")
_DEFAULT_COLUMN = ("default", "default value", "defaults", "if not given", "if omitted")
_PLAIN_FENCES = frozenset(("", "text", "txt", "plain", "python", "py", "ini", "env", "dotenv", "sh", "bash", "shell"))
_NO = frozenset(("no", "n", "false", "optional", "-", "—", "–", "not required", "✗", "✘"))
_YES = frozenset(("yes", "y", "true", "required", "mandatory", "✓", "✔", "x", "must"))


def default_of(text: str) -> tuple[bool, Any]:
    """(said, value) for a default written in a description: "Default 10000." → (True, 10000)."""
    m = _DEFAULT.search(text)
    if m is None:
        return False, None
    return True, _value(m.group(1).rstrip(".:"))


def _value(raw: str) -> Any:
    raw = raw.strip().strip("`")
    try:
        return json.loads(raw)
    except ValueError:
        return raw.strip("'\"")


def _strong(name: str, raw: str) -> bool:
    """A name that is clearly a value's: backticked, bold, or shaped like code (`snake_case`)."""
    return raw.lstrip().startswith(("`", "**", "__")) or "_" in name or (name.islower() and "-" not in name)


def _input(name: str, quals: str, desc: str, line: int, src: Source) -> InputSpec:
    typ, _items, required, notes = qualify(quals, name, src, line)
    said, default = default_of(" ".join([quals, desc]))
    if said or _OPTIONAL_SAID.search(desc):
        required = False
    return InputSpec(name=name, type=typ, required=required, default=default,
                     description=", ".join(n for n in [*notes, desc.strip()] if n), where=src.where(line))


def _raw_lines(block: Block, src: Source) -> list[tuple[int, str]]:
    """The block's lines as written (with their indentation), each with its number."""
    if isinstance(block, Fence):  # an indented block starts at its line, a fenced one after its fence
        first = block.line + 1 if src.line_text(block.line).lstrip().startswith(("```", "~~~")) else block.line
        return [(first + i, t) for i, t in enumerate(block.content.splitlines())]
    text = block.text if isinstance(block, Para) else ""
    count = len(text.splitlines()) or 1
    return [(block.line + i, src.line_text(block.line + i)) for i in range(count)]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def block_inputs(block: Block, src: Source) -> list[InputSpec] | None:
    """The inputs a paragraph or indented block lists, one a line (module docstring); None when
    no line of it is an input (the caller warns the block as not read)."""
    if isinstance(block, Fence) and block.info not in _PLAIN_FENCES:
        return None
    entries: list[list[Any]] = []  # [name, quals, description parts, line, head indent]
    unread: list[tuple[int, str]] = []
    for number, raw in _raw_lines(block, src):
        if not raw.strip():
            continue
        if entries and _indent(raw) > entries[-1][4]:
            entries[-1][2].append(raw.strip())  # the description goes on
            continue
        if m := _GOOGLE.match(raw):
            entries.append([m.group(1), m.group(2), [m.group(3)], number, _indent(raw)])
        elif (m := _NUMPY.match(raw)) and (type_of(m.group(2).split(",")[0].strip().lower()) is not None
                                             or "optional" in m.group(2).lower()):
            entries.append([m.group(1), m.group(2), [], number, _indent(raw)])
        elif (m := _ASSIGNED.match(raw)) and m.group(2):
            entries.append([m.group(1), "", [m.group(3) or "", f"default {m.group(2)}"], number, _indent(raw)])
        elif (m := _LABELLED.match(raw)) and _strong(m.group(1), raw):
            entries.append([m.group(1), "", [m.group(2)], number, _indent(raw)])
        else:
            unread.append((number, raw.strip()))
    if not entries:
        return _named_in_prose(block, src)
    for number, text in unread:
        src.warn(number, f"inputs: '{text[:60]}' is not an input line, so it is not read; write one input "
                         "a line: `name (type, optional): description; default: value`", "spec.unread")
    found: list[InputSpec] = []
    for name, quals, parts, number, _ in entries:
        found.append(_input(name, quals, " ".join(p for p in parts if p), number, src))
    return found


def _named_in_prose(block: Block, src: Source) -> list[InputSpec] | None:
    """A sentence of the inputs section that names its values in backticks ("the form gives us a
    `form` object and the `requester` e-mail"): each name not a catalog skill's is an input,
    optional when "optional" or a default is said just after it."""
    if not isinstance(block, Para):
        return None
    found: list[InputSpec] = []
    said = _OUTPUTS_SAID.split(block.text, maxsplit=1)[0]  # not "Output: `bundle`", "it returns `x`"
    for m in _BACKTICKED.finditer(said):
        name = m.group(1)
        if src.vocabulary.skill_for(name) is not None or name in {i.name for i in found}:
            continue
        after = block.text[m.end():m.end() + 40].lstrip(" (,")
        optional = after.lower().startswith("optional")
        after = after[8:].lstrip(" ,") if optional else after  # "(optional, default 5000)"
        said, default = default_of(after) if _DEFAULT.match(after) else (False, None)
        optional = optional or said
        line = block.line + block.text.count("\n", 0, m.start())
        found.append(InputSpec(name=name, required=not optional, default=default, where=src.where(line)))
    return found or None


def _column(header: tuple[str, ...], names: tuple[str, ...]) -> int | None:
    for i, cell in enumerate(header):
        bare = " ".join(re.sub(r"[^a-z ]", " ", cell.lower()).split())
        if bare in names or (bare.split() and bare.split()[0] in names and len(bare.split()) <= 2):
            return i
    return None


def table_inputs(table: Table, src: Source) -> list[InputSpec]:
    """An inputs table: a row each, the name in the column the header calls so (else the first),
    and its type, required and default columns read as such; the other cells its description."""
    header = table.header
    at_name = _column(header, _NAME_COLUMN) or 0
    at_type, at_default = _column(header, _TYPE_COLUMN), _column(header, _DEFAULT_COLUMN)
    at_required, at_optional = _column(header, _REQUIRED_COLUMN), _column(header, ("optional",))
    taken = {at_name, at_type, at_default, at_required, at_optional} - {None}
    found: list[InputSpec] = []
    for line, cells in table.rows:
        def cell(i: int | None, cells: tuple[str, ...] = cells) -> str:
            return cells[i].strip() if i is not None and i < len(cells) else ""

        m = re.match(r"^\s*(?:\*\*|__)?`?([A-Za-z_]\w*)`?(?:\*\*|__)?\s*(?:\(([^()]*)\))?\s*$", cell(at_name))
        if m is None:
            src.warn(line, f"inputs: row '{' | '.join(cells)[:60]}' not read; put the input's name in the "
                           f"'{header[at_name] if at_name < len(header) else 'first'}' column (`name`)",
                     "spec.unread")
            continue
        quals = ", ".join(q for q in (m.group(2) or "", cell(at_type)) if q)
        typ, _items, required, notes = qualify(quals, m.group(1), src, line)
        default: Any = None
        said = cell(at_default).lower() not in ("", "-", "—", "–", "none", "n/a", "(none)")
        if said:
            default, required = _value(cell(at_default)), False
        for at, flip in ((at_required, False), (at_optional, True)):
            word = cell(at).lower().strip("*_` ")
            if word in _NO or word in _YES:
                required = (word in _YES) != flip
        desc = ", ".join(cells[i].strip() for i in range(len(cells)) if i not in taken and cells[i].strip())
        if _OPTIONAL_SAID.search(desc) and at_required is None and at_optional is None:
            required = False
        found.append(InputSpec(name=m.group(1), type=typ, required=required and not said, default=default,
                               description=", ".join(n for n in [*notes, desc] if n), where=src.where(line)))
    return found


_rx.save()


# a comment or quote marker before a line's text: `% inputs:`, `# inputs:`, `// inputs:`, `> Input:`
_MARKER = _rx(r"^\s*+(?:%++|#++|//++|--++|;++|>++)[ \t]*+")
_ASSIGNED_PART = _rx(r"^\s*+`?+([A-Za-z_]\w*+)`?+\s*+(?:(?:=|:|—|–|\s-\s)\s*+(.*)|\((.*)\))?\s*+$", re.S)


def uncomment(line: str) -> str:
    """The line without a comment or quote marker before it (`% inputs: ...` → `inputs: ...`)."""
    return _MARKER.sub("", line, count=1)


def assigned_inputs(text: str, src: Source, line: int) -> list[InputSpec] | None:
    """An inputs line whose names each come with what they hold: "`prs` = merged PRs (number/title,
    from `gh pr list`), `version` = e.g. `2.4.0`", "runs = list of {bench, ms}; threshold_pct (we use
    5); channel". None unless every part is a name with (or without) its words."""
    found: list[InputSpec] = []
    assigned = False  # one name at least says what it holds after `=` or `:` (else `parse_fields` reads it)
    for part in split_top(text.strip().rstrip("."), ",;"):
        m = _ASSIGNED_PART.match(part)
        if m is None:
            return None
        assigned = assigned or m.group(2) is not None
        desc = (m.group(2) or m.group(3) or "").strip()
        said, default = default_of(desc)
        typ = "array" if re.match(r"(?i)(?:a\s++)?+list\s++of\b", desc) else None
        found.append(InputSpec(name=m.group(1), type=typ, required=not said, default=default, description=desc,
                               where=src.where(line)))
    return found if len(found) >= 2 and assigned else None
