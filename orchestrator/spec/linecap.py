"""How long a line of a spec the readers read (issue 25: parsing stays linear).

    markdown_lines(src) -> str      the text the markdown readers parse: each line longer than
                                    `LINE_LIMIT` blanked, with a warning at it
    yaml_scalars(root, src)         each YAML text on a line longer than `LINE_LIMIT`, and
                                    itself longer, emptied, with a warning at the line

The spec file is capped (1 MiB), but one line of it can be the whole MiB, and the structure
and policy readers try their patterns at many places of a line. A line longer than the limit
is not read: "line too long to read: N characters, limit M" at its line (a warning, an error
with `--strict`), never dropped silently. The limit is ten times the longest line of
the real specs and skills the tests read (1 616 characters, a paragraph of a SKILL.md; the
longest spec line is 593), rounded.

Not cut: a field list (`- Input: a, b, c`, `- Output: ...`), which the field reader splits in
one pass and caps at 1 000 fields with its own error, and the lines of a fenced block (JSON,
YAML, code), which no prose reader reads. A table row keeps its other cells: only a cell
over the limit is emptied, and the row only when it is still over the limit.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.source import Source

LINE_LIMIT = 16_000
CODE = "spec.line-too-long"
_TEXT = "tag:yaml.org,2002:str"  # a number or a date keeps its own bound (`yamlsafe`)
_FENCE = re.compile(r" {0,3}(```+|~~~+)")
_FIELD_LIST = re.compile(r"(?i)^\s*+(?:[-*+]|\d{1,9}[.)])\s++(?:\*\*|__)?(?:inputs?|outputs?|in|out|takes|returns|"
                         r"produces|gives)(?:\*\*|__)?\s*+:")


def _warn(src: Source, line: int, length: int) -> None:
    src.warn(line, f"line too long to read: {length:,} characters, limit {LINE_LIMIT:,}", CODE)


def _row(text: str) -> str:
    """A table row with each cell over the limit emptied."""
    return "|".join("" if len(cell) > LINE_LIMIT else cell for cell in text.split("|"))


def markdown_lines(src: Source) -> str:
    """`src.text` as the markdown readers read it (module docstring)."""
    if all(len(line) <= LINE_LIMIT for line in src.lines):
        return src.text
    out: list[str] = []
    fence: str | None = None
    for number, line in enumerate(src.text.splitlines(keepends=True), start=1):
        body = line.rstrip("\r\n")
        opened = _FENCE.match(body)
        if fence is not None:
            if opened is not None and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
        elif opened is not None:
            fence = opened.group(1)
        elif len(body) > LINE_LIMIT and _FIELD_LIST.match(body) is None:
            _warn(src, number, len(body))
            kept = _row(body) if body.lstrip().startswith("|") else ""
            line = (kept if len(kept) <= LINE_LIMIT else "") + line[len(body):]
        out.append(line)
    return "".join(out)


def yaml_scalars(root: Node | None, src: Source) -> None:
    """Empty each text of the YAML tree that is longer than the limit and sits on a line
    longer than it (a long flow list of short items is read: no one text of it is long; a
    100 000-digit number is refused by `yamlsafe`, not emptied here)."""
    long = {n: len(line) for n, line in enumerate(src.lines) if len(line) > LINE_LIMIT}  # 0-based
    if not long or root is None:
        return
    warned: set[int] = set()
    seen: set[int] = set()
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:  # an alias: one node, reached again
            continue
        seen.add(id(node))
        if isinstance(node, MappingNode):
            stack += [part for pair in node.value for part in pair]
        elif isinstance(node, SequenceNode):
            stack += node.value
        elif isinstance(node, ScalarNode) and node.tag == _TEXT and len(node.value) > LINE_LIMIT:
            first, last = int(node.start_mark.line), int(node.end_mark.line)
            at = next((n for n in range(first, last + 1) if n in long), None)
            if at is None:
                continue
            node.value = ""
            if at not in warned:
                warned.add(at)
                _warn(src, at + 1, long[at])
