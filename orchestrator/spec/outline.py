"""A document of any kind cut into outline units: headings (ATX, setext, AsciiDoc `==`, org `**`,
a man page's capitals), paragraphs, list items at any depth and with any marker (`-`, `*`, `+`,
`1.`, `a)`, `(a)`, `I.`, `A.`, `i.`, `1.2`, checkboxes), definition-list terms (`Term` then
`:   text`, or `Term:: text`), each with its lines; a unit owns the units under it (by heading
level or indentation); an item whose first line is short and whose next lines are indented
deeper than it ("2. hash" above its text, as a man page writes) is `titled`. Used by the
anchored reading (`spec.anchored`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orchestrator.spec.legal_prose29 import doubled_numeral
from orchestrator.spec.org_drawer import drawer_lines
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.shape_comment import aside_title, starts_unit, unboxed
from orchestrator.spec.wrapped_item47 import goes_on

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ATX = _rx(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_ADOC = _rx(r"^(={1,6})\s+(\S.*)$")
_ORG = _rx(r"^(\*+)\s+(\S.*)$")
_SETEXT = _rx(r"^\s{0,3}(=+|-+)\s*$")
_FENCE = _rx(r"^\s{0,3}(```|~~~)")
# list markers, any kind (module docstring)
_ITEM = _rx(
    r"^(\s*)((?:[-*+•]|\d+(?:\.\d+)*[.)]|\d+(?:\.\d+)+|\(\w{1,4}\)|[A-Za-z][.)]|[IVXLCivxlc]{1,6}[.)]|\.{1,5})"
    r"(?:\s+\[[ xX]\])?)\s+(\S.*)$")
_DEF = _rx(r"^\s{0,3}:\s+(\S.*)$")
_ADOC_DEF = _rx(r"^([^:\s][^:]{0,60}?)::(?:\s+(.*))?$")
_TITLE_WORDS = 5  # at most so many words in an item's title line
_CAPS = _rx(r"^([A-Z][A-Z0-9&/ ,'-]{2,40})\s*$")


@dataclass
class Unit:
    kind: str  # root, heading, item, term, para
    line: int
    depth: int  # a heading's level, an item's indentation
    label: str = ""  # the marker as written ("(a)", "II.", "-")
    name: str = ""  # a heading's title, a term
    lines: list[tuple[int, str]] = field(default_factory=list)  # its own text, a line each
    children: list[Unit] = field(default_factory=list)
    content: int = 0  # where an item's text starts (its sub-units are indented at least so far)
    covers: list[int] = field(default_factory=list)  # every line it was written on (underlines too)
    titled: bool = False  # an item whose first line is a title, its text indented deeper below it (a man page's)

    def text(self) -> str:
        return "\n".join(t for _, t in self.lines)

    def walk(self) -> list[Unit]:
        return [self, *(u for c in self.children for u in c.walk())]

    def last(self) -> int:
        return max(ln for u in self.walk() for ln in [u.line, *u.covers, *(n for n, _ in u.lines)])


def outline(lines: list[str]) -> Unit:
    """The units of a document (module docstring) under one root."""
    lines = drawer_lines(unboxed(lines))  # a comment box's gutter is no markup (`shape_comment`), an org drawer's lines labels
    root = Unit("root", 0, 0)
    stack: list[Unit] = [root]
    org = any(re.match(r"^\*{2,}\s+\S", ln) for ln in lines)
    open_text: Unit | None = None  # the unit a next non-blank line continues
    fenced = False
    i = 0
    while i < len(lines):
        raw, n = lines[i], i + 1
        if _FENCE.match(raw):
            fenced = not fenced
        if fenced or _FENCE.match(raw):
            open_text = None
            i += 1
            continue
        if not raw.strip():
            open_text = None
            i += 1
            continue
        indent = len(raw) - len(raw.lstrip())
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if open_text is not None and open_text.kind == "para" and indent <= open_text.depth and starts_unit(raw.lstrip()):
            open_text = None  # "Step 50 ...", "Success: ...", "Change History": not the paragraph's text
        heading: tuple[int, str] | None = None
        if (m := _ATX.match(raw)) is not None or (m := _ADOC.match(raw)) is not None or (org and (m := _ORG.match(raw)) is not None):
            heading = (len(m.group(1)), m.group(2))
        elif open_text is None and _SETEXT.match(nxt) and not _ITEM.match(raw) and indent < 4:
            heading = (1 if nxt.strip().startswith("=") else 2, raw.strip())
        elif open_text is None and indent == 0 and _CAPS.match(raw) and nxt[:1] in (" ", "\t"):
            heading = (2, raw.strip())  # a man page's NAME / DESCRIPTION
        elif open_text is None and indent == 0 and aside_title(raw) and nxt.strip():
            heading = (6, raw.strip())  # "Change History" over its rows: remarks, no step's text
        if heading is not None:
            while stack[-1].kind != "root" and not (stack[-1].kind == "heading" and stack[-1].depth < heading[0]):
                stack.pop()
            unit = Unit("heading", n, heading[0], name=heading[1].strip(), lines=[(n, heading[1].strip())], covers=[n])
            if _SETEXT.match(nxt) and not _ATX.match(raw) and not _ADOC.match(raw):
                unit.covers.append(n + 1)
                i += 1
            stack[-1].children.append(unit)
            stack.append(unit)
            open_text = None
            i += 1
            continue
        if (m := _DEF.match(raw)) is not None and stack[-1].children and stack[-1].children[-1].kind == "para" \
                and len(stack[-1].children[-1].lines) == 1:
            term = stack[-1].children[-1]  # "Term" then ":   definition"
            term.kind, term.name, term.content = "term", term.lines[0][1].strip(), max(indent + 2, 2)
            term.covers = [term.line]
            term.lines = [(n, m.group(1))]
            stack.append(term)
            open_text = term
            i += 1
            continue
        item = _ITEM.match(raw)
        if item is not None and open_text is not None and open_text.lines \
                and doubled_numeral(open_text.lines[-1][1], item.group(2)):
            item = None  # "up to four\n(4) further times": the sentence goes on (`spec.legal_prose29`)
        if item is not None and open_text is not None and open_text.kind == "item" and open_text.lines \
                and goes_on(open_text.lines[-1][1], item.group(2), len(item.group(1)), open_text.content,
                        open_text.depth):
            item = None  # "the time from\n   1. Gives you ...": the sentence goes on (`spec.wrapped_item47`)
        if item is None and (m := _ADOC_DEF.match(raw)) is not None:
            while stack[-1].kind in ("item", "term"):
                stack.pop()
            unit = Unit("term", n, 0, name=m.group(1).strip(), lines=[(n, m.group(2))] if m.group(2) else [(n, "")],
                        covers=[n], content=1)
            stack[-1].children.append(unit)
            stack.append(unit)
            open_text = unit
            i += 1
            continue
        if item is not None:
            depth = len(item.group(1))
            while stack[-1].kind in ("item", "term") and stack[-1].content > depth:
                stack.pop()
            unit = Unit("item", n, depth, label=item.group(2).strip(), lines=[(n, item.group(3))], covers=[n],
                        content=len(raw) - len(item.group(3)))
            stack[-1].children.append(unit)
            stack.append(unit)
            open_text = unit
            i += 1
            continue
        if open_text is not None:  # a line that goes on with the text before it
            if open_text.kind == "item" and len(open_text.lines) == 1 and indent >= open_text.content + 2 \
                    and len(open_text.lines[0][1].split()) <= _TITLE_WORDS:
                open_text.titled = True  # "2. hash" then the text indented under it: its title, then its text
            open_text.lines.append((n, raw.strip()))
            i += 1
            continue
        while stack[-1].kind in ("item", "term") and indent < stack[-1].content:
            stack.pop()
        unit = Unit("para", n, indent, lines=[(n, raw.strip())], covers=[n])
        stack[-1].children.append(unit)
        open_text = unit
        i += 1
    return root


# -- steps --------------------------------------------------------------------------------------
