"""A spec written as a Lua config (a `.lua` file that returns a table of steps), read field by field, never run,
and handed to `hcl30`'s reader as its blocks and attributes (and so to the YAML form's readers), as HCL is.

    local depot = arg[1]                      → the workflow input `depot` (also `...`, `select(2, ...)`;
    local day = arg[2] or "mon"                  `or "mon"` its default)
    local MAX_JOBS = 14                       → a constant: `MAX_JOBS` in a value is the literal 14, never an input
    return {
      run_limit = "20 mins in all",           → keys of the returned table beside the steps: the whole run's
      done_when = "notify gives sent = true",    (`timeout`, `success`, ... as the YAML form reads them)
      steps = {
        { id = "fetch", skill = "pull-jobs",  → a step: any table that says which skill it runs (`skill`, `uses`,
          give = { day = day },                  `tool`); `id` / `name` (or its key in a keyed list) names it,
          -- 2 retries, 10s apart                `give` / `with` / `input` its inputs, `after` its dependencies;
        },                                       its `--` comments are its words, as in YAML
        { id = "plan", skill = "plan-cover", after = { "fetch" },
          give = { jobs = "fetch.jobs", cap = MAX_JOBS } },   → "fetch.jobs": step `fetch`'s output `jobs`
      },
    }

A quoted "id.field" whose id names a step is that step's output (a quoted string is otherwise a literal); a bare
name is the local it names: an input local the workflow input, a constant local its literal. A local that holds a
table stands for that table (`local steps = {...}` ... `return { steps = steps }`). A statement that is neither a
local, a global assignment nor the `return` (a function, a loop) is warned at its line and not read. A `.lua` file
in which no table says which skill it runs is not read here (the caller reads it as text, as before).
"""

from __future__ import annotations

import re
from pathlib import Path

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.check import SpecParts
from orchestrator.spec.hcl30 import _SKILL_WORDS, _Attr, _Block, _Expr, _Reader
from orchestrator.spec.source import Source
from orchestrator.spec.text_cursor import Cursor, LineError

SUFFIXES = (".lua",)
_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F]++|\d++(?:\.\d++)?+(?:[eE][+-]?\d++)?+)")
# a local read from the command line: `arg[1]`, `arg[2] or "x"`, `...`, `select(2, ...)`, `(select(2, ...))`
_ARG = re.compile(r"""^\(?(?:arg\[\s*+\d++\s*+\]|\.\.\.|select\(\s*+\d++\s*+,\s*+\.\.\.\s*+\))\)?"""
                  r"""(?:\s++or\s++(?P<default>"[^"]*+"|'[^']*+'|-?\d++(?:\.\d++)?+|true|false))?$""")
_DOTTED = re.compile(r"^([A-Za-z_][\w-]*+)((?:\.[A-Za-z_][\w-]*+)++)$")
_ID_KEYS = ("id", "name", "key", "label")


class LuaSyntax(LineError):
    """A syntax error in a Lua file, at its line."""


def is_lua(path: str) -> bool:
    """Whether the file's name says Lua (`.lua`)."""
    return Path(path).suffix.lower() in SUFFIXES


class _Scan(Cursor):
    """One pass over Lua text: locals, assignments, the `return`, and table constructors, with lines and columns."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.comments: list[int] = []  # where each `--` comment starts
        self.skipped: list[int] = []  # lines of statements not read

    def to_eol(self) -> None:
        while self.i < len(self.t) and self.t[self.i] != "\n":
            self.i += 1

    def long_bracket(self) -> str | None:
        """`[[...]]` / `[==[...]==]` from its `[`: its text, or None when no long bracket starts here."""
        j = self.i + 1
        while j < len(self.t) and self.t[j] == "=":
            j += 1
        if self.peek() != "[" or j >= len(self.t) or self.t[j] != "[":
            return None
        close = "]" + "=" * (j - self.i - 1) + "]"
        end = self.t.find(close, j + 1)
        if end < 0:
            raise LuaSyntax(self.line, "a long string or comment `[[` is not closed")
        text = self.t[j + 1:end]
        while self.i < end + len(close):
            self.step()
        return text.removeprefix("\n")

    def blank(self, newlines: bool = True) -> None:
        while self.i < len(self.t):
            c = self.t[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.step()
            elif c == "-" and self.peek(1) == "-":
                self.comments.append(self.i)
                self.i += 2
                if self.long_bracket() is None:
                    self.to_eol()
            else:
                return

    def name(self) -> str:
        start = self.i
        if self.i < len(self.t) and (self.t[self.i].isalpha() or self.t[self.i] == "_"):
            while self.i < len(self.t) and (self.t[self.i].isalnum() or self.t[self.i] == "_"):
                self.i += 1
        return self.t[start:self.i]

    def string(self) -> str:
        quote, start_line = self.peek(), self.line
        self.step()
        out: list[str] = []
        while True:
            c = self.peek()
            if c == "" or c == "\n":
                raise LuaSyntax(start_line, "a quoted string is not closed on its line")
            if c == "\\":
                nxt = self.peek(1)
                out.append({"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}.get(nxt, nxt))
                self.step()
                self.step()
                continue
            self.step()
            if c == quote:
                return "".join(out)
            out.append(c)

    def expr(self) -> _Expr:
        """A value: a table, or an expression up to `,`, `;`, a closing bracket or the line's end."""
        self.blank()
        line, col = self.line, self.col()
        if self.peek() == "{":
            return self.table()
        start, depth, only = self.i, 0, None
        while self.i < len(self.t):
            c = self.t[self.i]
            if c in "\"'":
                at = self.i
                text = self.string()
                only = text if at == start else None
                continue
            if c == "[" and self.peek(1) in "[=":
                at = self.i
                long = self.long_bracket()
                if long is not None:
                    only = long if at == start else None
                    continue
            if c == "-" and self.peek(1) == "-":
                break
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and c in ",;\n":
                break
            self.step()
        text = self.t[start:self.i].strip()
        if not text:
            raise LuaSyntax(line, f"a value is missing before '{self.peek() or 'the end'}'")
        if only is not None and _one_string(text):
            return _Expr("str", line, col, only)
        if _NUMBER.fullmatch(text):
            return _Expr("num", line, col, text)
        if text in ("true", "false"):
            return _Expr("bool", line, col, text)
        if text == "nil":
            return _Expr("null", line, col, "null")
        return _Expr("ref", line, col, text)

    def table(self) -> _Expr:
        line, col = self.line, self.col()
        self.step()
        pairs: list[tuple[str, int, int, _Expr]] = []
        items: list[_Expr] = []
        while True:
            self.blank()
            if self.peek() in ("}", ""):
                break
            kline, kcol, at = self.line, self.col(), (self.i, self.line, self.bol)
            key = ""
            if self.peek() == "[" and self.peek(1) in "\"'":
                self.step()
                key = self.string()
                self.blank()
                if self.peek() != "]":
                    raise LuaSyntax(kline, "a `[\"key\"]` is not closed")
                self.step()
            else:
                key = self.name()
            self.blank()
            if key and self.peek() == "=" and self.peek(1) != "=":
                self.step()
                pairs.append((key, kline, kcol, self.expr()))
            else:
                self.i, self.line, self.bol = at
                items.append(self.expr())
            self.blank()
            if self.peek() in (",", ";"):
                self.step()
            elif self.peek() != "}":
                raise LuaSyntax(self.line, f"'{self.peek() or 'the end'}' where a table's `,` or `}}` was due")
        if self.peek() != "}":
            raise LuaSyntax(line, "a table `{` is not closed")
        self.step()
        if pairs:
            if items:  # `{ "a", skill = "x" }`: the listed values kept under their places, as Lua numbers them
                pairs.extend((f"[{n}]", i.line, i.col, i) for n, i in enumerate(items, 1))
            return _Expr("obj", line, col, pairs=pairs)
        return _Expr("list", line, col, items=items)

    def chunk(self) -> tuple[list[tuple[str, _Expr]], list[tuple[str, _Expr]], _Expr | None]:
        """The file's locals, its global assignments and what it returns."""
        locals_: list[tuple[str, _Expr]] = []
        globals_: list[tuple[str, _Expr]] = []
        returned: _Expr | None = None
        while True:
            self.blank()
            if self.i >= len(self.t):
                return locals_, globals_, returned
            line, at = self.line, (self.i, self.line, self.bol)
            word = self.name()
            if word == "local":
                self.blank(False)
                names = [self.name()]
                self.blank(False)
                while self.peek() == ",":
                    self.step()
                    self.blank(False)
                    names.append(self.name())
                    self.blank(False)
                if all(names) and self.peek() == "=" and self.peek(1) != "=":
                    self.step()
                    values = [self.expr()]
                    self.blank(False)
                    while self.peek() == ",":
                        self.step()
                        values.append(self.expr())
                        self.blank(False)
                    if values[-1].kind == "ref" and values[-1].text == "..." and len(values) < len(names):
                        values += [values[-1]] * (len(names) - len(values))  # `local a, b = ...`: each an argument
                    locals_.extend(zip(names, values, strict=False))
                    continue
            elif word == "return":
                returned = self.expr()
                continue
            elif word and word not in ("function", "if", "for", "while", "repeat", "do", "end"):
                self.blank(False)
                if self.peek() == "=" and self.peek(1) != "=":
                    self.step()
                    globals_.append((word, self.expr()))
                    continue
            self.i, self.line, self.bol = at
            self.skipped.append(line)
            self.to_eol()
            if self.i == at[0]:
                self.step()


def _one_string(text: str) -> bool:
    """Whether `text` is one quoted or long-bracket string, nothing before or after it."""
    if text[0] in "\"'":
        s = _Scan(text)
        try:
            s.string()
        except LuaSyntax:
            return False
        return s.i == len(text)
    return text.startswith("[") and (text.endswith("]]") or text.endswith("]"))


class _Lua:
    def __init__(self, src: Source, scan: _Scan) -> None:
        self.src = src
        self.scan = scan
        self.inputs: dict[str, tuple[int, int, _Expr | None]] = {}  # name -> line, col, default
        self.consts: dict[str, _Expr] = {}
        self.tables: dict[str, _Expr] = {}
        self.labels: set[str] = set()

    def has_skill(self, e: _Expr) -> bool:
        return e.kind == "obj" and any(yk.key_name(k) in _SKILL_WORDS for k, _, _, _ in e.pairs)

    def resolve(self, e: _Expr) -> _Expr:
        if e.kind == "ref" and e.text in self.tables:
            return self.tables[e.text]
        return e

    def step_tables(self, e: _Expr) -> list[tuple[str | None, _Expr]]:
        e = self.resolve(e)
        if e.kind == "list":
            return [(None, x) for x in map(self.resolve, e.items) if self.has_skill(x)]
        if e.kind == "obj":
            return [(k, x) for k, _, _, v in e.pairs if self.has_skill(x := self.resolve(v))]
        return []

    def read(self, locals_: list[tuple[str, _Expr]], globals_: list[tuple[str, _Expr]],
             returned: _Expr | None) -> tuple[list[_Attr | _Block], dict[str, _Expr]] | None:
        for name, e in locals_:
            m = _ARG.match(e.text.strip()) if e.kind == "ref" else None
            if m is not None:
                d = m.group("default")
                default = None if d is None else (_Expr("str", e.line, e.col, d[1:-1]) if d[0] in "\"'" else
                                                  _Expr("bool" if d in ("true", "false") else "num", e.line, e.col, d))
                self.inputs[name] = (e.line, e.col, default)
            elif e.kind in ("str", "num", "bool"):
                self.consts[name] = e
            elif e.kind in ("obj", "list"):
                self.tables[name] = e
            else:
                self.src.warn(e.line, f"the local `{name} = {e.text[:60]}` is neither read from the command line "
                                      "(`arg[1]`) nor a plain value: not read", "spec.unread")
        root = self.resolve(returned) if returned is not None else None
        top: list[tuple[str, int, int, _Expr]] = []
        steps: list[tuple[str | None, _Expr]] = []
        if root is not None and root.kind == "obj":
            top = list(root.pairs)
        elif root is not None:
            steps = self.step_tables(root)
        top.extend((n, e.line, e.col, e) for n, e in globals_)
        held = ""
        for key, _, _, value in top:
            if not steps and (found := self.step_tables(value)):
                steps, held = found, key
        if not steps:
            return None
        body: list[_Attr | _Block] = []
        for name, (line, col, default) in self.inputs.items():
            kept: list[_Attr | _Block] = [_Attr("default", line, col, default)] if default is not None else []
            body.append(_Block("variable", [name], line, col, kept))
        labels: list[str] = []
        for skey, e in steps:  # its key in a keyed list, its `id` / `name`, else its skill (made unique)
            label = skey or next((v.text for k, _, _, v in e.pairs if k in _ID_KEYS and v.kind == "str"), "") or next(
                (v.text for k, _, _, v in e.pairs if yk.key_name(k) in _SKILL_WORDS), "step")
            n, base = 2, label
            while label in labels:
                label, n = f"{base}-{n}", n + 1
            labels.append(label)
        self.labels = set(labels)
        for (skey, e), label in zip(steps, labels, strict=True):
            attrs: list[_Attr | _Block] = [_Attr(k, kl, kc, self.value(v)) for k, kl, kc, v in e.pairs
                                           if skey or k not in _ID_KEYS or v.kind != "str"]
            body.append(_Block("step", [label], e.line, e.col, attrs))
        for key, kl, kc, value in top:
            if key != held:
                body.append(_Attr(key, kl, kc, self.value(value)))
        return body, dict(self.consts)

    def value(self, e: _Expr) -> _Expr:
        """A Lua value in `hcl30`'s words: input locals `var.x`, constants `local.X`, "step.field" a reference."""
        if e.kind == "str" and (m := _DOTTED.match(e.text)) is not None and m.group(1) in self.labels:
            return _Expr("ref", e.line, e.col, e.text)
        if e.kind == "ref":
            text = e.text.strip()
            if text in self.inputs:
                return _Expr("ref", e.line, e.col, f"var.{text}")
            if text in self.consts:
                return _Expr("ref", e.line, e.col, f"local.{text}")
            if text in self.tables:
                return self.value(self.tables[text])
            return e
        if e.kind == "list":
            return _Expr("list", e.line, e.col, items=[self.value(i) for i in e.items])
        if e.kind == "obj":
            return _Expr("obj", e.line, e.col, pairs=[(k, kl, kc, self.value(v)) for k, kl, kc, v in e.pairs])
        return e


def lua_steps(text: str) -> bool:
    """Whether a Lua file holds a table that says which skill it runs (else it is read as text)."""
    scan = _Scan(text)
    try:
        return _Lua(Source(text, "x.lua"), scan).read(*scan.chunk()) is not None
    except (LuaSyntax, RecursionError):
        return False


def read_lua(src: Source) -> SpecParts:
    """Read a Lua config spec (module docstring) through `hcl30`'s reader into the YAML form's."""
    from orchestrator.spec.key_comments27 import read_whole_run_comments
    from orchestrator.spec.yaml_form import read_yaml

    scan = _Scan(src.text)
    try:
        chunk = scan.chunk()
    except LuaSyntax as exc:
        src.error(exc.line, f"Lua syntax: {exc}", "spec.lua")
        src.raise_if_errors()
        raise
    lua = _Lua(src, scan)
    read = lua.read(*chunk)
    if read is None:
        src.error(1, "this Lua file is not read as a workflow: no table in it says which skill it runs "
                     "(`{ id = \"a\", skill = \"name\" }`)", "spec.no-steps")
        src.raise_if_errors()
        raise AssertionError("unreachable")
    body, consts = read
    for line in scan.skipped:
        src.warn(line, "this Lua statement is neither a local, an assignment nor the `return`: not read",
                 "spec.unread")
    if scan.comments:  # `-- note` read as the `# note` the comment readers know (same columns)
        chars = list(src.text)
        for at in scan.comments:
            chars[at:at + 2] = ["#", " "]
        src.text = "".join(chars)
        src.lines = src.text.splitlines()
    reader = _Reader(src, body)
    reader.locals.update(consts)
    root = reader.read()
    read_whole_run_comments(src)
    return read_yaml(src, root)
