"""A Gherkin feature file (`Feature:` / `Background:` / `Scenario:`) read as a spec.

A document with a `Feature:` line and at least one `Scenario:` (or `Scenario Outline:`,
`Example:`, `Scenario Template:`) line is rewritten line for line before markdown parses
it (every line keeps its number, so findings point at the author's text):

    Feature: Nightly billing          ->  # Nightly billing            the title
    @tag @other                       ->  (blank)                     tags are labels, not text
    # a comment                       ->  a comment                   text of what it sits in
    Background:                       ->  ## Inputs
      Given the export as "csv_text"  ->  - csv_text: the export as   a quoted name is an input
    Scenario: Read it                 ->  ## Step 1: Read it          a step, named by its title
      When `parse` reads csv_text     ->  When `parse` reads csv_text.
    Examples:  | row |                ->  (blank)                     the outline's sample rows

Indentation is dropped (four spaces would make markdown read a code block). A step line
(Given/When/Then/And/But) ends with a full stop when it has none, so each is a sentence. A
Background line that quotes no name is kept as text of the preamble, with a warning.
"""

from __future__ import annotations

import re

from orchestrator.spec.gherkin28 import background_line, refine
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FEATURE = _rx(r"^\s*(?:Feature|Ability|Business\s+Need):\s*(?P<title>.*)$")
_SCENARIO = _rx(r"^\s*(?:Scenario(?:\s+(?:Outline|Template))?|Example):\s*(?P<title>.*)$")
_BACKGROUND = _rx(r"^\s*Background:\s*(?P<rest>.*)$")
_EXAMPLES = _rx(r"^\s*(?:Examples|Scenarios):\s*.*$")
_RULE = _rx(r"^\s*Rule:\s*(?P<title>.*)$")
_TAGS = _rx(r"^\s*@[\w:.-]+(?:\s+@[\w:.-]+)*\s*$")
_LANGUAGE = _rx(r"^\s*#\s*language\s*:")
_COMMENT = _rx(r"^\s*#+\s?(?P<text>.*)$")
_STEP = _rx(r"^\s*(?:Given|When|Then|And|But|\*)\s")
_TABLE_ROW = _rx(r"^\s*\|.*\|\s*$")
_QUOTED_NAME = _rx(r"[\"“]([A-Za-z_][\w.-]*)[\"”]|`([A-Za-z_][\w.-]*)`")


def is_gherkin(text: str) -> bool:
    """A `Feature:` line first (after blank lines, `#` comments and tags), and a Scenario after it."""
    lines = text.split("\n")
    first = next((line for line in lines if line.strip() and not _TAGS.match(line)
                  and not (line.lstrip().startswith("#") and not _FEATURE.match(line))), "")
    return bool(_FEATURE.match(first)) and any(_SCENARIO.match(line) for line in lines)


def _sentence(line: str) -> str:
    text = line.strip()
    if text.endswith(":"):  # "... prices them with:" before a data table: its own sentence
        return text[:-1] + "."
    return text if not text or text[-1] in ".!?;" else text + "."


_FENCE = _rx(r"^\s*(```|~~~)\s*(?:gherkin|feature|cucumber)\s*$", re.I)


def gherkin_to_markdown(text: str, src: Source) -> str:
    """The feature file as the markdown the reader knows, line for line (see the module doc);
    a feature pasted in a ```gherkin fence of a markdown page likewise (the fence lines blank,
    its Feature line a sentence when the page has a title); the text unchanged when it is neither."""
    if is_gherkin(text):
        return _rewrite(text, src)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(m.group(1))), None) if m else None
        if m is None or end is None or not is_gherkin("\n".join(lines[i + 1:end])):
            continue
        titled = any(re.match(r"^#\s", x) for x in lines[:i])
        inner = _rewrite("\n".join(lines[i + 1:end]), src, first_line=i + 2).split("\n")
        if titled:
            inner = [x[2:] + "." if x.startswith("# ") else x for x in inner]
        return "\n".join([*lines[:i], "", *inner, "", *lines[end + 1:]])
    return text


def gherkin_with_origin(text: str, src: Source) -> tuple[str, list[int]] | None:
    """A feature file's markdown with each of its lines' 0-based source line, the steps its step lines and
    Examples tables name read (`spec.gherkin28`); None when the text is no feature file."""
    if not is_gherkin(text):
        return None
    out, origin = refine(text.split("\n"), _rewrite(text, src).split("\n"), src)
    return "\n".join(out), origin


def _rewrite(text: str, src: Source, first_line: int = 1) -> str:
    lines = text.split("\n")
    out: list[str] = []
    where = "preamble"  # preamble, background, scenario, examples
    number = 0
    for i, line in enumerate(lines, start=first_line):
        if where == "examples" and (_TABLE_ROW.match(line) or not line.strip()):
            out.append("")
            continue
        if where == "examples":
            where = "scenario"
        if _LANGUAGE.match(line) or _TAGS.match(line):
            out.append("")
        elif m := _FEATURE.match(line):
            out.append(f"# {m.group('title').strip()}")
        elif m := _RULE.match(line):
            out.append(_sentence(m.group("title")))
        elif m := _BACKGROUND.match(line):
            where = "background"
            out.append("## Inputs")
        elif m := _SCENARIO.match(line):
            where = "scenario"
            number += 1
            out.append(f"## Step {number}: {m.group('title').strip()}")
        elif _EXAMPLES.match(line):
            where = "examples"
            out.append("")
        elif m := _COMMENT.match(line):
            out.append(m.group("text").strip())
        elif _TABLE_ROW.match(line):
            out.append(_table_row(line, where, out))
        elif where == "background" and _STEP.match(line):
            table_next = bool(lines[i - first_line + 1:] and _TABLE_ROW.match(lines[i - first_line + 1]))
            out.append("" if table_next else _background_line(line, i, src))  # "Given these inputs:" + a table
        elif _STEP.match(line):
            out.append(_sentence(line))
        else:
            out.append(line.strip())
    return "\n".join(out)


_HEADER_CELLS = {"name", "names", "input", "inputs", "key", "field", "param", "parameter", "value", "values",
                 "description", "meaning", "type", "default", "example"}


def _table_row(line: str, where: str, out: list[str]) -> str:
    """A data table's row. In the Background, `| orders_csv | the export |` declares the input its first
    cell names (a header row of column words is blank); under a step line, `| currency | EUR |` (two
    cells, the first a name) gives that input the value: `Input: currency = "EUR".`. Any other row is text."""
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if all(c.lower() in _HEADER_CELLS for c in cells if c):
        return ""
    named = bool(cells) and re.fullmatch(r"[A-Za-z_][\w.-]*", cells[0]) is not None
    if where == "background" and named:
        rest = " ".join(c for c in cells[1:] if c)
        return f"- {cells[0]}: {rest}" if rest else f"- {cells[0]}"
    if where == "scenario" and named and len(cells) == 2 and cells[1]:
        value = cells[1].strip("\"'")
        return f"Input: {cells[0]} = \"{value}\"."
    return line.strip()


def _background_line(line: str, number: int, src: Source) -> str:
    """`Given the export as "csv_text" (CSV)` -> `- csv_text: the export as (CSV)`: the quoted
    name is a workflow input, the rest of the line its description."""
    body = re.sub(r"^\s*(?:Given|And|But|\*)\s+", "", line.strip())
    if (several := background_line(body, number, src)) is not None:  # two or more names (`spec.gherkin28`)
        return several
    m = _QUOTED_NAME.search(body)
    if m is None:
        src.warn(number, f"the Background line '{body[:60]}' quotes no name, so it declares no input; write the "
                         "input's name in quotes (`Given the export as \"csv_text\"`)", "spec.unread")
        return _sentence(line)
    name = m.group(1) or m.group(2)
    rest = " ".join((body[:m.start()] + body[m.end():]).split()).rstrip(".")
    return f"- {name}: {rest}" if rest else f"- {name}"


_rx.save()
