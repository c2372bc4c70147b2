"""Split a SKILL.md into its YAML frontmatter and body, keeping the line of every key.

The YAML is composed (not just loaded) so that each top-level key and each
`metadata` entry knows its line in SKILL.md: every diagnostic can then say
`SKILL.md:LINE`. Raw YAML values stay inside the `skills` package.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

from orchestrator.config import ENV_MAX_SPEC_BYTES, file_caps
from orchestrator.errors import Diagnostic, SkillError
from orchestrator.filecap import FileCapError, read_capped
from orchestrator.jsonsafe import deepest_line
from orchestrator.yamlsafe import BoundedConstructor
from orchestrator.yamlsafe import compose as compose_bounded

_FENCE = "---"
_FM_FIRST_LINE = 2  # the frontmatter's first line in SKILL.md (after the opening ---)


@dataclass(frozen=True, slots=True)
class Entry:
    """One `key: value` of a YAML mapping, with where it sits in SKILL.md."""

    key: str
    line: int  # 1-based line of the key
    value: Any  # the constructed YAML value
    value_line: int
    end_line: int  # first line after this entry (the next key, or the closing ---)
    children: tuple[Entry, ...] = ()  # the entries of a mapping value (for `metadata`)
    is_mapping: bool = False

    def child(self, key: str) -> Entry | None:
        return next((c for c in self.children if c.key == key), None)


@dataclass(frozen=True, slots=True)
class Frontmatter:
    path: Path  # the SKILL.md
    text: str  # the whole file
    entries: tuple[Entry, ...]
    close_line: int  # line of the closing ---
    body: str
    body_line: int

    def get(self, key: str) -> Entry | None:
        return next((e for e in self.entries if e.key == key), None)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(e.key for e in self.entries)


def _error(path: Path, line: int | None, message: str, code: str) -> SkillError:
    return SkillError(Diagnostic(file=str(path), line=line, message=message, code=code))


def one_line(text: str) -> str:
    """A (YAML library) message on one line: its first line, whitespace collapsed."""
    return " ".join(text.strip().splitlines()[0].split()) if text.strip() else text


def _too_deep(path: Path, yaml_text: str) -> SkillError:
    at = deepest_line(yaml_text, first_line=_FM_FIRST_LINE)
    return _error(path, at, "the frontmatter nests lists or mappings too deeply to be read", "yaml")


def read_frontmatter(skill_md: Path, max_bytes: int | None = None) -> Frontmatter:
    """Read and split a SKILL.md (a regular file of at most `max_bytes`, by default the
    SKILLWEAVE_MAX_SPEC_BYTES cap). Raises SkillError (file:line) when it cannot be read."""
    limit = file_caps().spec_bytes if max_bytes is None else max_bytes
    try:
        raw = read_capped(skill_md, limit, ENV_MAX_SPEC_BYTES)
    except FileCapError as exc:
        raise _error(skill_md, None, f"SKILL.md is {exc.strerror}", "too-large") from None
    except OSError as exc:
        raise _error(skill_md, None, f"cannot read: {exc.strerror or exc}", "unreadable") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(skill_md, None, f"not UTF-8 text ({exc.reason})", "encoding") from exc
    return parse_frontmatter(text, skill_md)


def parse_frontmatter(text: str, path: Path) -> Frontmatter:
    """Split `text` (a SKILL.md) into frontmatter entries and body."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != _FENCE:
        raise _error(
            path, 1, "no YAML frontmatter: SKILL.md must start with a '---' line", "no-frontmatter"
        )
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() in (_FENCE, "...")), None)
    if close is None:
        raise _error(
            path, 1, "the frontmatter is not closed: no second '---' line", "no-frontmatter"
        )
    yaml_text = "".join(lines[1:close])
    try:
        node = compose_bounded(yaml_text)  # aliases and integers bounded
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + _FM_FIRST_LINE if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise _error(path, line, f"invalid YAML in the frontmatter: {problem}", "yaml") from exc
    except yaml.YAMLError as exc:
        raise _error(path, 1, f"invalid YAML in the frontmatter: {one_line(str(exc))}", "yaml") from exc
    except RecursionError:
        raise _too_deep(path, yaml_text) from None
    if node is None:
        raise _error(
            path, 1, "the frontmatter is empty: it needs at least name and description", "empty"
        )
    if not isinstance(node, MappingNode):
        raise _error(
            path,
            _FM_FIRST_LINE,
            "the frontmatter must be a mapping of keys to values",
            "not-mapping",
        )
    close_line = close + 1
    try:
        entries = _entries(node, path, end_line=close_line, nested=True)
    except RecursionError:
        raise _too_deep(path, yaml_text) from None
    return Frontmatter(
        path=path,
        text=text,
        entries=entries,
        close_line=close_line,
        body="".join(lines[close + 1 :]),
        body_line=close_line + 1,
    )


def _entries(node: MappingNode, path: Path, *, end_line: int, nested: bool) -> tuple[Entry, ...]:
    constructor = BoundedConstructor()
    pairs: list[tuple[str, int, Node]] = []
    seen: dict[str, int] = {}
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + _FM_FIRST_LINE
        if not isinstance(key_node, ScalarNode):
            raise _error(path, line, "a frontmatter key must be a plain name", "bad-key")
        key = str(key_node.value)
        if key in seen:
            raise _error(
                path, line, f"duplicate key '{key}' (first on line {seen[key]})", "duplicate-key"
            )
        seen[key] = line
        pairs.append((key, line, value_node))
    result: list[Entry] = []
    for index, (key, line, value_node) in enumerate(pairs):
        next_line = pairs[index + 1][1] if index + 1 < len(pairs) else end_line
        try:
            value = constructor.construct_object(value_node, deep=True)
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or one_line(str(exc))
            mark = getattr(exc, "problem_mark", None)
            at = mark.line + _FM_FIRST_LINE if mark is not None else line
            raise _error(path, at, f"'{key}': cannot read the value: {problem}", "yaml") from exc
        is_mapping = isinstance(value_node, MappingNode)
        children = (
            _entries(value_node, path, end_line=next_line, nested=False)
            if nested and isinstance(value_node, MappingNode)
            else ()
        )
        result.append(
            Entry(
                key=key,
                line=line,
                value=value,
                value_line=value_node.start_mark.line + _FM_FIRST_LINE,
                end_line=next_line,
                children=children,
                is_mapping=is_mapping,
            )
        )
    return tuple(result)
