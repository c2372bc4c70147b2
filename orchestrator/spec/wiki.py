"""A page in MediaWiki markup (a team wiki's runbook) read as the markdown it stands for.

    == Preshow ==                     ->  ## Preshow                  headings by their `=` count
    '''bold''' / ''italic''           ->  **bold** / *italic*
    * point / ** sub-point            ->  - point / nested - sub-point
    # first / # second                ->  1. first / 2. second        numbered in order
    {{Step|skill=x|after=1|uses=y}}   ->  - Skill: x                  a template on its own line: a
                                          - Depends on: 1             field per named value, by the
                                          - Input: y                  words of a steps table's header
    {{Note|say it plainly}}           ->  say it plainly              its unnamed values: their text
    [[Page|words]] / [[Page]]         ->  words / Page                a link: the words it shows
    [[Category:x]], __TOC__           ->  (nothing)

A document is a wiki page when it has a heading written `== like this ==` and one more sign of
the markup (another such heading, `'''`, `{{`, `[[`, `__TOC__`). A template's named values are
fields as a steps table's columns are (`table_columns`): `uses` or `needs` beside a `skill` is what
the step takes, or the steps it waits for when it lists step numbers; a name no field takes is
kept as the bullet's label, for the policy reader (which reports what it does not understand).
Those fields take a line each, so the page can grow: `origin` maps each markdown line back to the
author's line, and `remap` puts the parser's line numbers back, so findings point at the page.
Wiki tables (`{| ... |}`) are left as written.
"""

from __future__ import annotations

from typing import Any

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.table_columns import columns_of, needs_key

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MARKS = _rx(r"'''|\{\{|\[\[|__(?:NO)?TOC__")
_MAGIC = _rx(r"__(?:NO)?(?:TOC|EDITSECTION|FORCETOC)__")
_CATEGORY = _rx(r"(?i)\[\[\s*+(?:Category|File|Image|Media)\s*+:[^\[\]]*+\]\]")
_LINK = _rx(r"\[\[(?:[^\[\]|]*+\|)?+([^\[\]]*+)\]\]")
_EXTERNAL = _rx(r"\[(https?://[^\s\]]++)\s*+([^\]]*+)\]")
_TEMPLATE = _rx(r"\{\{([^{}]*+)\}\}")
_WHOLE_TEMPLATE = _rx(r"^\s*+\{\{([^{}]*+)\}\}\s*+$")
_BARE_NUMBER = _rx(r"(?<![\w#])(\d{1,4})(?![\w.])")
_LIST = _rx(r"^([*#:;]++)\s*+(.*)$")
_LABELS = {"skill": "Skill", "input": "Input", "output": "Output", "depends": "Depends on", "when": "When",
           "for_each": "For each", "approval": "Approval", "timeout": "Timeout", "retries": "Retries",
           "on_error": "On error", "compensation": "Compensation", "success": "Success criteria"}
_TEXT_FIELDS = ("notes", "description")


def _heading(line: str) -> str | None:
    """`== Title ==` as `## Title`, or None."""
    text = line.strip()
    lead = len(text) - len(text.lstrip("="))
    trail = len(text) - len(text.rstrip("="))
    level = min(lead, trail, 6)
    if level < 1 or len(text) <= 2 * level:
        return None
    inner = text[lead:len(text) - trail].strip()
    return f"{'#' * level} {inner}" if inner else None


def is_wiki(text: str) -> bool:
    """A wiki page (module docstring)."""
    headings = sum(1 for line in text.split("\n") if line.startswith("==") and _heading(line) is not None)
    return headings >= 2 or (headings == 1 and _MARKS.search(text) is not None)


def _inline(text: str) -> str:
    text = _MAGIC.sub("", _CATEGORY.sub("", text))
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _EXTERNAL.sub(lambda m: m.group(2) or m.group(1), text)
    for _ in range(4):  # a template inside a template: innermost first
        text, n = _TEMPLATE.subn(lambda m: ", ".join(_said(m.group(1))), text)
        if not n:
            break
    return text.replace("'''''", "***").replace("'''", "**").replace("''", "*")


def _said(body: str) -> list[str]:
    """A template's values as words: `k: v` for a named one, the text of an unnamed one."""
    return [f"{k.strip()}: {v.strip()}" if sep else k.strip()
            for k, sep, v in (part.partition("=") for part in body.split("|")[1:]) if (v if sep else k).strip()]


def _fields(body: str) -> list[str]:
    """A template on its own line: a bullet per named value, a line of text per unnamed one."""
    parts = [p.partition("=") for p in body.split("|")[1:]]
    named = [(k.strip(), v.strip()) for k, sep, v in parts if sep and v.strip()]
    columns = columns_of([k for k, _ in named])
    lines: list[str] = []
    for (key, value), column in zip(named, columns, strict=True):
        if column == "needs":
            column = needs_key(value)
        if column in _TEXT_FIELDS:
            lines.append(_inline(value))
            continue
        label = _LABELS.get(column or "") or key.replace("_", " ")
        if column == "depends":  # "after=1, 2": the steps by their numbers
            value = _BARE_NUMBER.sub(r"step \1", value)
        lines.append(f"- {label}: {_inline(value)}")
    lines += [_inline(k.strip()) for k, sep, _ in parts if not sep and k.strip()]
    return lines


def wiki_markdown(text: str) -> tuple[str, list[int]] | None:
    """The page as markdown and, for each of its lines, the author's line (0-based); None when
    `text` is no wiki page."""
    if not is_wiki(text):
        return None
    out: list[str] = []
    origin: list[int] = []
    counters: list[int] = []
    for at, line in enumerate(text.split("\n")):
        line = _LINK.sub(lambda m: m.group(1), _CATEGORY.sub("", line))  # a link's '|' is not a template's
        whole = _WHOLE_TEMPLATE.match(line)
        if whole is not None:
            converted = _fields(whole.group(1)) or [""]
            counters.clear()
        else:
            converted = [_line(line, counters)]
        out += converted
        origin += [at] * len(converted)
    return "\n".join(out), origin


def _line(line: str, counters: list[int]) -> str:
    heading = _heading(line) if line.startswith("=") else None
    if heading is not None:
        counters.clear()
        return _inline(heading)
    item = _LIST.match(line)
    if item is None:
        counters.clear()
        return _inline(line)
    marks, rest = item.group(1), _inline(item.group(2))
    depth = len(marks)
    del counters[depth:]
    counters += [0] * (depth - len(counters))
    indent = "   " * (depth - 1)
    kind = marks[-1]
    if kind == "#":
        counters[depth - 1] += 1
        return f"{indent}{counters[depth - 1]}. {rest}"
    if kind == "*":
        return f"{indent}- {rest}"
    if kind == ";":  # a term, its definition after ':'
        term, _, definition = rest.partition(":")
        return f"{indent}**{term.strip()}**: {definition.strip()}" if definition else f"{indent}**{term.strip()}**"
    return f"{indent}{rest}"  # ':' an indented line: its text


def remap(tokens: list[Any], origin: list[int]) -> None:
    """The parser's line numbers (of the markdown) put back to the page's lines."""
    last = len(origin) - 1
    for token in tokens:
        if token.map:
            start, end = token.map
            token.map = [origin[min(start, last)], origin[min(max(end - 1, start), last)] + 1]
        if token.children:
            remap(token.children, origin)


_rx.save()
