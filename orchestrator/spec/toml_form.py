"""A spec written as TOML, read natively and handed to the YAML form's readers as nodes with their lines.

    [show]                          → a block of the workflow's own keys (`own_schema`)
    wrap_by = "40m"
    [[stage]]                       → one step each (`[[stage]]` is the list of steps)
    label = "rundown"
    tool = "build-rundown"

`tomllib` (the standard library's) reads the values; a syntax error is an error at its line.
`tomllib` gives no lines, so `key_lines` finds the line of every key, table and array item in
one pass over the text; the values are then built into the YAML node tree `yaml_form` reads
(`read_yaml(src, root)`), so a TOML spec is read by the same readers as a YAML one, its own
schema included, and every reading and warning names the TOML line. The plan's spec format is
`yaml` (the form the readers read); the spec's path keeps its `.toml`.
"""

from __future__ import annotations

import datetime
import math
import re
import tomllib
from typing import Any

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.check import SpecParts
from orchestrator.spec.source import Source

Path_ = tuple[str | int, ...]
_TAG = "tag:yaml.org,2002:"
_AT = re.compile(r"\(at line (\d++), column (\d++)\)")
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def read_toml(src: Source) -> SpecParts:
    """Read a TOML spec (module docstring); a syntax error stops here, at its line."""
    from orchestrator.spec.yaml_form import read_yaml

    try:
        data = tomllib.loads(src.text)
    except tomllib.TOMLDecodeError as exc:
        said = str(exc)
        m = _AT.search(said)
        line = int(m.group(1)) if m else max(len(src.lines), 1)
        src.error(line, f"TOML syntax: {_AT.sub('', said).strip() or said}", "spec.toml")
        src.raise_if_errors()
        raise  # unreachable: raise_if_errors raised
    from orchestrator.spec.key_comments27 import read_whole_run_comments

    lines = key_lines(src.text)
    read_whole_run_comments(src)  # the head's comments speak for the whole run (`key_comments27`)
    return read_yaml(src, _node(data, (), lines, 1, src.path))


def _mark(path: str, line: int) -> Mark:
    return Mark(path, 0, line - 1, 0, None, None)


def _node(value: Any, at: Path_, lines: dict[Path_, int], line: int, name: str) -> Node:
    line = lines.get(at, line)
    mark = _mark(name, line)
    if isinstance(value, dict):
        items = []
        for key, inner in value.items():
            kline = lines.get((*at, key), line)
            items.append((ScalarNode(f"{_TAG}str", key, _mark(name, kline), _mark(name, kline), style='"'),
                          _node(inner, (*at, key), lines, kline, name)))
        return MappingNode(f"{_TAG}map", items, mark, mark)
    if isinstance(value, list):
        return SequenceNode(f"{_TAG}seq", [_node(v, (*at, i), lines, line, name) for i, v in enumerate(value)],
                            mark, mark)
    if isinstance(value, bool):
        return ScalarNode(f"{_TAG}bool", "true" if value else "false", mark, mark)
    if isinstance(value, int):
        return ScalarNode(f"{_TAG}int", str(value), mark, mark)
    if isinstance(value, float):
        text = ".nan" if math.isnan(value) else ("-.inf" if value < 0 else ".inf") if math.isinf(value) else repr(value)
        return ScalarNode(f"{_TAG}float", text, mark, mark)
    if isinstance(value, datetime.date | datetime.time):
        return ScalarNode(f"{_TAG}str", value.isoformat(), mark, mark, style='"')
    return ScalarNode(f"{_TAG}str", str(value), mark, mark, style='"')


class _Scan:
    """One pass over TOML text that tomllib has read: the line of each key, table and item."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.line = 1
        self.lines: dict[Path_, int] = {}

    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.text[j] if j < len(self.text) else ""

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            if self.i < len(self.text):
                if self.text[self.i] == "\n":
                    self.line += 1
                self.i += 1

    def blank(self, newlines: bool) -> None:
        """Skip spaces (and newlines and comments, when `newlines`)."""
        while self.i < len(self.text):
            c = self.text[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.step()
            elif c == "#" and newlines:
                while self.i < len(self.text) and self.text[self.i] != "\n":
                    self.i += 1
            else:
                return

    def key(self) -> list[str]:
        parts: list[str] = []
        while True:
            self.blank(False)
            c = self.peek()
            if c in "\"'":
                start = self.i + 1
                self.string()
                raw = self.text[start:self.i - 1]
                parts.append(raw if c == "'" else _unescape(raw))
            else:
                start = self.i
                while self.peek() and self.peek() in _BARE:
                    self.i += 1
                parts.append(self.text[start:self.i])
            self.blank(False)
            if self.peek() != ".":
                return parts
            self.step()

    def string(self) -> None:
        quote = self.peek()
        if self.text.startswith(quote * 3, self.i):
            self.step(3)
            while self.i < len(self.text) and not self.text.startswith(quote * 3, self.i):
                self.step(2 if quote == '"' and self.peek() == "\\" else 1)
            self.step(3)
            while self.peek() == quote:  # `""""x""""`: up to two quotes belong to the text
                self.step()
            return
        self.step()
        while self.i < len(self.text) and self.peek() not in (quote, "\n"):
            self.step(2 if quote == '"' and self.peek() == "\\" else 1)
        self.step()

    def value(self, at: Path_) -> None:
        self.blank(False)
        c = self.peek()
        if c in "\"'":
            self.string()
        elif c == "[":
            self.step()
            index = 0
            while self.i < len(self.text):
                self.blank(True)
                if self.peek() in ("]", ""):
                    break
                self.lines.setdefault((*at, index), self.line)
                before = self.i
                self.value((*at, index))
                self.blank(True)
                if self.peek() == "," or self.i == before:
                    self.step()
                index += 1
            self.step()
        elif c == "{":
            self.step()
            while self.i < len(self.text):
                self.blank(True)
                if self.peek() in ("}", ""):
                    break
                before = self.i
                self.pair(at)
                self.blank(True)
                if self.peek() == "," or self.i == before:
                    self.step()
            self.step()
        else:
            while self.i < len(self.text) and self.text[self.i] not in ",]}\n#":
                self.i += 1

    def pair(self, table: Path_) -> None:
        line = self.line
        keys = self.key()
        for n in range(1, len(keys) + 1):
            self.lines.setdefault((*table, *keys[:n]), line)
        self.blank(False)
        if self.peek() == "=":
            self.step()
        self.value((*table, *keys))


def key_lines(text: str) -> dict[Path_, int]:
    """The line of every key, table header and array item of a TOML text tomllib has read, by its
    path (`("stage", 1, "tool")`), in one pass."""
    scan = _Scan(text)
    tables: dict[Path_, int] = {}  # an array of tables -> the index of its last `[[...]]`
    table: Path_ = ()
    while True:
        scan.blank(True)
        if scan.i >= len(text):
            return scan.lines
        before = scan.i
        if scan.peek() == "[":
            double = scan.peek(1) == "["
            line = scan.line
            scan.step(2 if double else 1)
            keys = scan.key()
            resolved: Path_ = ()
            for key in keys[:-1]:
                resolved = (*resolved, key)
                resolved = (*resolved, tables[resolved]) if resolved in tables else resolved
            resolved = (*resolved, keys[-1])
            if double:
                tables[resolved] = tables.get(resolved, -1) + 1
                scan.lines.setdefault(resolved, line)
                resolved = (*resolved, tables[resolved])
            scan.lines.setdefault(resolved, line)
            table = resolved
            while scan.i < len(text) and text[scan.i] != "\n" and text[scan.i] != "#":
                scan.i += 1  # the closing brackets
        else:
            scan.pair(table)
        if scan.i == before:
            scan.step()


def _unescape(raw: str) -> str:
    try:
        return str(tomllib.loads(f'k = "{raw}"')["k"])
    except tomllib.TOMLDecodeError:
        return raw
