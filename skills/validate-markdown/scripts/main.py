#!/usr/bin/env python3
"""validate-markdown: check that generated API docs keep the documentation contract.

stdin   one JSON object: {"generated_docs": "...", "required_sections": [...], "fail_on_issues": true}
stdout  one JSON object: {"validation_result": bool, "issues": [...], "title": ..., "sections": [...]}
exit    0 valid (or issues found with fail_on_issues false);
        1 issues found: the same JSON on stdout, and the issues on stderr, one per line;
        2 invalid input (not JSON, generated_docs not a string)

The contract (the one generate-docs writes): the document is not empty; its
first heading is the only level-1 heading (`# title`); every required section is
a level-2 heading (`## Overview`, `## Functions`, `## Classes` by default, matched
without regard to case); code fences are closed; no heading is empty (a heading
with nothing but other headings, or nothing at all, before the next heading of
its level or higher). Headings are ATX headings (`#` lines) outside code
fences. Standard library only.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from typing import Any

DEFAULT_SECTIONS = ("Overview", "Functions", "Classes")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


class InputError(Exception):
    """The input cannot be validated: exit 2."""


def read_request(raw: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"input is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(data, dict):
        raise InputError("input must be a JSON object with generated_docs")
    if not isinstance(data.get("generated_docs"), str):
        raise InputError("generated_docs must be a string (the markdown to check)")
    sections = data.get("required_sections", list(DEFAULT_SECTIONS))
    if not isinstance(sections, list) or not all(
        isinstance(s, str) and s.strip() for s in sections
    ):
        raise InputError("required_sections must be a list of non-empty section names")
    if not isinstance(data.get("fail_on_issues", True), bool):
        raise InputError("fail_on_issues must be true or false")
    return data


def outline(text: str) -> tuple[list[tuple[int, int, str]], list[int], list[str]]:
    """(headings as (line, level, text), lines that carry content, fence problems)."""
    headings: list[tuple[int, int, str]] = []
    content: list[int] = []
    problems: list[str] = []
    fence: tuple[str, int, int] | None = None  # char, length, line opened
    for number, line in enumerate(text.splitlines(), start=1):
        match = FENCE.match(line)
        if fence is not None:
            content.append(number)
            if (
                match
                and match.group(1)[0] == fence[0]
                and len(match.group(1)) >= fence[1]
                and not match.group(2).strip()
            ):
                fence = None
            continue
        if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
            fence = (match.group(1)[0], len(match.group(1)), number)
            content.append(number)
            continue
        heading = ATX.match(line)
        if heading:
            headings.append((number, len(heading.group(1)), (heading.group(2) or "").strip()))
        elif line.strip():
            content.append(number)
    if fence is not None:
        problems.append(f"line {fence[2]}: code fence {fence[0] * fence[1]} is never closed")
    return headings, content, problems


def validate(text: str, required: list[str]) -> tuple[list[str], str | None, list[str]]:
    """(issues, title, level-2 section names)."""
    if not text.strip():
        return ["the document is empty"], None, []
    headings, content, issues = outline(text)
    title = None
    if not headings:
        issues.append("no headings: the document needs a level-1 title (# ...)")
    else:
        first_line, first_level, first_text = headings[0]
        if first_level != 1:
            issues.append(
                f"line {first_line}: the first heading must be the level-1 title (# ...), not level {first_level}"
            )
        elif not first_text:
            issues.append(f"line {first_line}: the title is empty")
        else:
            title = first_text
        issues += [
            f"line {line}: a second level-1 heading '{txt}'; use ## for sections"
            for line, level, txt in headings[1:]
            if level == 1
        ]
    sections = [txt for _, level, txt in headings if level == 2]
    present = {s.casefold() for s in sections}
    issues += [
        f"missing required section: ## {name}"
        for name in required
        if name.strip().casefold() not in present
    ]
    total = len(text.splitlines())
    for index, (line, level, txt) in enumerate(headings):
        end = next((h[0] for h in headings[index + 1 :] if h[1] <= level), total + 1)
        if not any(line < c < end for c in content):
            issues.append(f"line {line}: section '{'#' * level} {txt}' is empty")
    return issues, title, sections


def main() -> int:
    try:
        request = read_request(sys.stdin.read())
        required = request.get("required_sections", list(DEFAULT_SECTIONS))
        issues, title, sections = validate(request["generated_docs"], required)
    except InputError as exc:
        print(f"validate-markdown: {exc}", file=sys.stderr)
        return 2
    except Exception:
        traceback.print_exc()
        return 1
    result = {
        "validation_result": not issues,
        "issues": issues,
        "title": title,
        "sections": sections,
    }
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    if issues and request.get("fail_on_issues", True):
        print(f"validate-markdown: validation failed with {len(issues)} issue(s):", file=sys.stderr)
        for issue in issues:
            print(f"- {issue}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
