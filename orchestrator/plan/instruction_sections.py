"""The names a SKILL.md lists under an Inputs or Outputs heading of its own.

`wanted.read_instructions` reads sentences that open with a word like "Inputs:" or
"Returns". Many skills say it as a section instead, the list a paragraph of its own:

    ## Input                          **What it takes**

    - `roster`: the class list        | name      | type |
    - trip_date (YYYY-MM-DD)          |-----------|------|
                                      | `crew`    | list |
    ## Output
                                      ```json
    ```json                           {"crew": [], "tide": "high"}
    {"count": 3}                      ```
    ```

A label line (a heading, or a short line alone in bold or ending in ":") whose words are
an inputs or outputs word opens the section; the next heading or label closes it. In it,
each list item and table row names one value (its first name: the rest describes it),
and a fenced JSON object gives its top-level keys, read as an example (`wanted.Named.example`).
A line that says "optional" or "default" names an optional value. Nothing else is read:
the sentences of a section are `read_instructions`'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import NamedTuple

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)


class Listed(NamedTuple):
    """One name a section lists, with its `file:line`."""

    name: str
    where: str
    optional: bool = False
    example: bool = False  # a key of a fenced JSON example

_IN_WORD = _rx(r"(?i)\b(?:inputs?|takes|reads|needs|expects|accepts|parameters|arguments|params|args)\b")
_OUT_WORD = _rx(r"(?i)\b(?:outputs?|returns?|gives back|produces|emits|yields|result)\b")
_ITEM = _rx(r"^[ \t]*+(?:[-*+]|\d{1,3}[.)])[ \t]++(.*+)$")
_FIRST_NAME = _rx(r"^(?:\*\*|__)?`?([A-Za-z_][\w-]{0,63}+)`?(?:\*\*|__)?(?=[ \t]*+(?:[:(—–,]|-[ \t]|$))")
_OPTIONAL = _rx(r"(?i)\b(?:optional|default)\b")
_HEADER_CELLS = frozenset({"name", "field", "input", "inputs", "key", "parameter", "param", "output", "outputs",
                           "argument", "arg", "field name", "value"})


def _label(line: str) -> str | None:
    """'in' or 'out' for a label line that opens a section, '' for a heading of another
    kind (it closes one), None for a line that is no label."""
    text = line.strip()
    heading = text.startswith("#")
    bold = text.startswith(("**", "__")) and text.rstrip(":").endswith(("**", "__"))
    if not (heading or bold or text.endswith(":")):
        return None
    words = text.strip("#*_: \t").rstrip(":").strip("*_ \t")
    if not words or len(words.split()) > 5:
        return "" if heading else None
    kind_in, kind_out = _IN_WORD.search(words), _OUT_WORD.search(words)
    if bool(kind_in) == bool(kind_out):
        return "" if heading else None
    return "in" if kind_in else "out"


def _named(text: str) -> str | None:
    """The name `text` opens with: in backticks, or a word in lower case ("Note:" is no name)."""
    m = _FIRST_NAME.match(text)
    if m is None or (not m.group(0).lstrip("*_").startswith("`") and not m.group(1)[0].islower()):
        return None
    return m.group(1)


def _row_name(line: str) -> str | None:
    """The name a list item or table row starts with."""
    text = line.strip()
    if text.startswith("|"):
        cells = [c.strip() for c in text.strip("|").split("|")]
        first = cells[0] if cells else ""
        if not first or set(first) <= set("-: ") or first.strip("`*_ ").lower() in _HEADER_CELLS:
            return None
        return _named(first)
    item = _ITEM.match(line)
    if item is None:
        return None
    return _named(item.group(1).strip())


def _json_keys(block: Iterable[str]) -> list[str]:
    try:
        value = json.loads("\n".join(block))
    except ValueError:
        return []
    return [k for k in value if isinstance(k, str) and k.isidentifier()] if isinstance(value, dict) else []


def section_names(body: str, skill_md: str, first_line: int = 1) -> tuple[list[Listed], list[Listed]]:
    """(inputs, outputs) listed in sections of `body` (module docstring)."""
    found: dict[str, list[Listed]] = {"in": [], "out": []}
    section: str | None = None
    fence: list[str] | None = None
    fence_at = 0
    for i, line in enumerate(body.splitlines()):
        where = f"{skill_md}:{first_line + i}"
        if line.strip().startswith("```"):
            if fence is None:
                fence, fence_at = [], first_line + i
            else:
                if section:
                    found[section] += [Listed(k, f"{skill_md}:{fence_at}", example=True)
                                       for k in _json_keys(fence)]
                fence = None
            continue
        if fence is not None:
            fence.append(line)
            continue
        label = _label(line)
        if label is not None:
            section = label or None
            continue
        if section is None:
            continue
        name = _row_name(line)
        if name is not None:
            found[section].append(Listed(name, where, optional=bool(_OPTIONAL.search(line))))
    return found["in"], found["out"]


_rx.save()
