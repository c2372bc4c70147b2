"""The markdown of a spec as a few block kinds, each with its line.

markdown-it-py parses; `read_blocks` turns the token tree of one section into
`Bullet`, `Fence`, `Para` and `Table` values that the section readers consume.
A bullet's label is what precedes its first colon (`- **Skill used:** x` has
the label `skill used`), kept only when it looks like a label (a few words).
"""

from __future__ import annotations

import re

from markdown_it.tree import SyntaxTreeNode
from pydantic import BaseModel, ConfigDict

# `\s*+`: the spaces before the colon are taken once (two `\s*` in a row are quadratic on a long line)
_LABEL = re.compile(
    r"^\s*+(?:\*\*|__)?\s*+([A-Za-z][A-Za-z0-9 /'_-]{0,40}?)\s*+(?:(?:\*\*|__)\s*+)?:\s*(?:\*\*|__)?\s*(.*)$",
    re.S,
)


_SUB_ITEM = re.compile(r"^\s*[-*+]\s+\S")
_TASK = re.compile(r"^\[[ xX]\]\s+(?:(\d+)[.)]\s+)?")


class _Block(BaseModel):
    model_config = ConfigDict(frozen=True)

    line: int  # 1-based


class Bullet(_Block):
    text: str  # the item's first paragraph, raw inline markdown
    label: str | None = None  # lowercased, spaces collapsed
    value: str = ""  # the text after the label's colon (or the whole text)
    children: tuple[Block, ...] = ()  # nested lists and further paragraphs
    ordered: bool = False
    number: str | None = None  # an ordered list item's own number ("3" for `3. ...`)


class Fence(_Block):
    info: str
    content: str


class Para(_Block):
    text: str


class Table(_Block):
    header: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # (line, cells)


class Other(_Block):
    kind: str
    text: str


Block = Bullet | Fence | Para | Table | Other
Bullet.model_rebuild()


def split_label(text: str) -> tuple[str | None, str]:
    """`Skill used: x` → (`skill used`, `x`); no label → (None, text)."""
    m = _LABEL.match(text)
    if not m or len(m.group(1).split()) > 5:
        return None, text.strip()
    label = " ".join(m.group(1).lower().replace("_", " ").split())
    return label, m.group(2).strip()


def _inline_text(node: SyntaxTreeNode) -> str:
    return "\n".join(
        child.content for child in node.walk() if child.type == "inline"
    ).strip()


def _line(node: SyntaxTreeNode) -> int:
    return (node.map[0] + 1) if node.map else 0


def _list_items(node: SyntaxTreeNode, ordered: bool) -> list[Block]:
    items: list[Block] = []
    for item in node.children:
        first_text = ""
        rest: list[Block] = []
        for i, child in enumerate(item.children):
            if i == 0 and child.type == "paragraph":
                first_text = _inline_text(child)
            else:
                rest.extend(read_blocks([child]))
        number = (item.info or None) if ordered else None
        lines = first_text.split("\n")
        cut = next((i for i, t in enumerate(lines) if i and _SUB_ITEM.match(t)), None)
        if cut is not None:  # sub-items indented past a code block's depth: the parser's continuation lines
            said: list[tuple[int, str]] = []  # a line that is no sub-item goes on with the one before (lazily)
            for i in range(cut, len(lines)):
                t = lines[i].strip()
                said.append((i, t[2:].strip())) if _SUB_ITEM.match(t) else said.append((said[-1][0], f"{said.pop()[1]}\n{t}"))
            subs = [Bullet(line=_line(item) + i, text=t, label=split_label(t)[0], value=split_label(t)[1]) for i, t in said]
            first_text, rest = "\n".join(lines[:cut]), [*subs, *rest]
        task = _TASK.match(first_text)  # `- [ ] 1. **tidy-roster** ← course`: a task list item, its number
        if task is not None:
            first_text = first_text[task.end():]
            if task.group(1):
                number, ordered = task.group(1), True
        label, value = split_label(first_text)
        items.append(
            Bullet(
                line=_line(item),
                text=first_text,
                label=label,
                value=value,
                children=tuple(rest),
                ordered=ordered,
                number=number,
            )
        )
    return items


def _table(node: SyntaxTreeNode) -> Table:
    header: tuple[str, ...] = ()
    rows: list[tuple[int, tuple[str, ...]]] = []
    for part in node.children:
        for tr in part.children:
            cells = tuple(_inline_text(cell) for cell in tr.children)
            if part.type == "thead":
                header = cells
            else:
                rows.append((_line(tr), cells))
    return Table(line=_line(node), header=header, rows=tuple(rows))


def read_blocks(nodes: list[SyntaxTreeNode]) -> list[Block]:
    """Top-level blocks of `nodes` (the content between two headings)."""
    blocks: list[Block] = []
    for node in nodes:
        kind = node.type
        if kind in ("bullet_list", "ordered_list"):
            blocks.extend(_list_items(node, ordered=kind == "ordered_list"))
        elif kind == "paragraph":
            blocks.append(Para(line=_line(node), text=_inline_text(node)))
        elif kind in ("fence", "code_block"):
            blocks.append(Fence(line=_line(node), info=node.info.strip().lower(), content=node.content))
        elif kind == "table":
            blocks.append(_table(node))
        elif kind == "html_block" and node.content.strip().startswith("<!--"):
            continue  # a comment is not spec text
        elif kind == "hr":
            continue
        elif kind == "blockquote":
            blocks.extend(read_blocks(list(node.children)))
        else:
            blocks.append(Other(line=_line(node), kind=kind, text=node.content or _inline_text(node)))
    return blocks
