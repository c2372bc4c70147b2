#!/usr/bin/env python3
"""generate-docs: turn an analyze-module analysis into a markdown API reference.

stdin   one JSON object: {"module_name": "json", "analysis": {...analyze-module output...}}
stdout  one JSON object: {"generated_docs": "...", "sections": [...], "files": [...]}
exit    0 done; 2 invalid input; 1 anything else (traceback on stderr)

The document follows the contract that validate-markdown checks: a level-1
title `# <module_name>`, then `## Overview`, `## Functions` and `## Classes`
(and `## Constants` when there are any), no empty section, balanced code
fences. It is also written to `docs/<module_name>.md` in the working directory.
Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
from typing import Any

REQUIRED_SECTIONS = ("Overview", "Functions", "Classes")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
HEADING_LIKE = re.compile(r"^ {0,3}#")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)\s*$")
MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


class InputError(Exception):
    """The input cannot be documented: exit 2."""


def read_request(raw: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"input is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(data, dict):
        raise InputError("input must be a JSON object with module_name and analysis")
    name = data.get("module_name")
    if not isinstance(name, str) or not MODULE_NAME.match(name.strip()):
        raise InputError("module_name must be a dotted Python module name")
    analysis = data.get("analysis")
    if not isinstance(analysis, dict):
        raise InputError("analysis must be the JSON object that analyze-module produced")
    for key in ("functions", "classes"):
        items = analysis.get(key)
        if not isinstance(items, list) or not all(
            isinstance(i, dict) and isinstance(i.get("name"), str) for i in items
        ):
            raise InputError(f"analysis.{key} must be a list of objects with a name")
    for cls in analysis["classes"]:
        if not isinstance(cls.get("methods", []), list):
            raise InputError(f"analysis.classes[{cls['name']}].methods must be a list")
    if not isinstance(data.get("write_file", True), bool):
        raise InputError("write_file must be true or false")
    return data


# --- markdown helpers -----------------------------------------------------------


def code(text: str) -> str:
    """Inline code that survives backticks inside `text`."""
    ticks = "`"
    while ticks in text:
        ticks += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def prose(docstring: str) -> str:
    """A docstring as markdown that cannot break the document's structure: its
    `#` lines and setext underlines are escaped, and its code fences too when
    they do not balance."""
    lines = docstring.strip("\n").splitlines()
    fence: tuple[str, int] | None = None
    for line in lines:
        match = FENCE.match(line)
        if not match:
            continue
        marker = match.group(1)
        if fence is None:
            fence = (marker[0], len(marker))
        elif marker[0] == fence[0] and len(marker) >= fence[1] and not match.group(2).strip():
            fence = None
    unbalanced = fence is not None
    out: list[str] = []
    inside: tuple[str, int] | None = None
    for line in lines:
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if unbalanced:
                out.append("\\" + line.lstrip())
                continue
            if inside is None:
                inside = (marker[0], len(marker))
            elif marker[0] == inside[0] and len(marker) >= inside[1] and not match.group(2).strip():
                inside = None
            out.append(line)
            continue
        if inside is None and (
            HEADING_LIKE.match(line) or (SETEXT_UNDERLINE.match(line) and out and out[-1].strip())
        ):
            line = "\\" + line.lstrip()
        out.append(line)
    return "\n".join(out).rstrip()


def signature(func: dict[str, Any]) -> str:
    parts: list[str] = []
    params = [p for p in func.get("params") or [] if isinstance(p, dict)]
    kinds = [p.get("kind") for p in params]
    for index, p in enumerate(params):
        kind = p.get("kind")
        text = str(p.get("name", "?"))
        if kind == "var_positional":
            text = "*" + text
        elif kind == "var_keyword":
            text = "**" + text
        if p.get("annotation"):
            text += f": {p['annotation']}"
        if p.get("default") is not None:
            text += f" = {p['default']}" if p.get("annotation") else f"={p['default']}"
        if (
            kind == "keyword_only"
            and "var_positional" not in kinds
            and "keyword_only" not in kinds[:index]
        ):
            parts.append("*")
        parts.append(text)
        if kind == "positional_only" and (
            index + 1 == len(params) or kinds[index + 1] != "positional_only"
        ):
            parts.append("/")
    prefix = "async " if func.get("is_async") else ""
    result = f"{prefix}{func['name']}({', '.join(parts)})"
    if func.get("returns"):
        result += f" -> {func['returns']}"
    return result


def doc_or_placeholder(item: dict[str, Any]) -> str:
    docstring = item.get("docstring")
    if isinstance(docstring, str) and docstring.strip():
        return prose(docstring)
    return "_No docstring._"


# --- the document ---------------------------------------------------------------


def render(name: str, analysis: dict[str, Any]) -> tuple[str, list[str]]:
    functions = analysis["functions"]
    classes = analysis["classes"]
    constants = [
        c for c in analysis.get("constants") or [] if isinstance(c, dict) and c.get("name")
    ]
    lines = [f"# {name}", ""]
    sections = []

    sections.append("Overview")
    lines += ["## Overview", ""]
    docstring = analysis.get("docstring")
    if isinstance(docstring, str) and docstring.strip():
        lines += [prose(docstring), ""]
    else:
        lines += [f"The module {code(name)} has no module docstring.", ""]
    counts = f"{len(functions)} public function{'s' * (len(functions) != 1)}, {len(classes)} public class{'es' * (len(classes) != 1)}"
    if constants:
        counts += f", {len(constants)} constant{'s' * (len(constants) != 1)}"
    lines += [f"It defines {counts}.", ""]

    sections.append("Functions")
    lines += ["## Functions", ""]
    if not functions:
        lines += ["_This module defines no public functions._", ""]
    for func in functions:
        lines += [f"### {code(signature(func))}", "", doc_or_placeholder(func), ""]

    sections.append("Classes")
    lines += ["## Classes", ""]
    if not classes:
        lines += ["_This module defines no public classes._", ""]
    for cls in classes:
        bases = [str(b) for b in cls.get("bases") or []]
        title = f"class {cls['name']}({', '.join(bases)})" if bases else f"class {cls['name']}"
        lines += [f"### {code(title)}", "", doc_or_placeholder(cls), ""]
        attributes = [
            a for a in cls.get("attributes") or [] if isinstance(a, dict) and a.get("name")
        ]
        if attributes:
            lines += ["Attributes:", ""]
            for attr in attributes:
                text = str(attr["name"])
                if attr.get("annotation"):
                    text += f": {attr['annotation']}"
                if attr.get("default") is not None:
                    text += f" = {attr['default']}"
                lines.append(f"- {code(text)}")
            lines.append("")
        for method in cls.get("methods") or []:
            if not isinstance(method, dict) or not isinstance(method.get("name"), str):
                continue
            heading = code(f"{cls['name']}.{signature(method)}")
            if method.get("kind") in ("classmethod", "staticmethod", "property"):
                heading += f" ({method['kind']})"
            lines += [f"#### {heading}", "", doc_or_placeholder(method), ""]

    if constants:
        sections.append("Constants")
        lines += ["## Constants", ""]
        for const in constants:
            text = str(const["name"])
            if const.get("annotation"):
                text += f": {const['annotation']}"
            if const.get("value") is not None:
                text += f" = {const['value']}"
            lines.append(f"- {code(text)}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n", sections


def write_artifact(name: str, text: str) -> str:
    path = os.path.join("docs", f"{name}.md")
    os.makedirs("docs", exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def main() -> int:
    try:
        request = read_request(sys.stdin.read())
        name = request["module_name"].strip()
        text, sections = render(name, request["analysis"])
        files = [write_artifact(name, text)] if request.get("write_file", True) else []
    except InputError as exc:
        print(f"generate-docs: {exc}", file=sys.stderr)
        return 2
    except Exception:
        traceback.print_exc()
        return 1
    json.dump(
        {"generated_docs": text, "sections": sections, "files": files},
        sys.stdout,
        ensure_ascii=False,
    )
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
