"""A cursor over a config file's text that knows its line and column, shared by the hand-written scanners of
HCL (`spec.hcl30`), Nix (`spec.nix45`) and Lua (`spec.lua46`): each reads its own syntax on top of it."""

from __future__ import annotations


class LineError(Exception):
    """A syntax error at a 1-based line of the file, reported there by the reader that raised it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


class Cursor:
    """The text, the index into it, the current line (1-based) and where that line begins."""

    def __init__(self, text: str) -> None:
        self.t = text
        self.i = 0
        self.line = 1
        self.bol = 0  # the index where the current line begins

    def col(self) -> int:
        return self.i - self.bol

    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.t[j] if j < len(self.t) else ""

    def step(self) -> None:
        if self.i < len(self.t):
            if self.t[self.i] == "\n":
                self.line += 1
                self.bol = self.i + 1
            self.i += 1
