"""A spec written as a Nix expression (`.nix`: a function of its inputs returning one attribute set per step),
read into the blocks `hcl30` reads, so that it is read as an HCL file would be.

    { night                 # the evening's date   → the workflow input `night` (its comment the description)
    , minAltitude ? 30      # degrees              → the workflow input `minAltitude`, default 30
    , ...
    }:
    let site = "Hollow Fell"; in                   → a constant: `site` is the literal "Hollow Fell"
    {
      weather = {                                  → a step, `weather` (an attribute set that says which skill
        skill  = "weather-window";                    it runs: `skill`, `uses`, `tool`, as in `hcl30`)
        inputs = { date = night; inherit site; };  → its inputs: `night` the workflow input, `site` the literal
      };
      post = { skill = "post"; inputs = { plan = schedule.plan; }; };   → `schedule.plan`: step schedule's `plan`
      maxRunTime = "15m";                          → a whole-run key, as at the top of an HCL file
    }

A name the function's argument set binds is the workflow input of that name wherever a value names it (bare, or
inside `"${...}"`); a name a `let` binds is its value (a literal where the binding is one). `inherit a b;` is
`a = a; b = b;`, `inherit (x) a;` is `a = x.a;`, a dotted name `inputs.date = night;` the nested set. Lists are
Nix's (`[ "M31" "M45" ]`), strings `"..."` (lines may run on) or `''...''`. A binding whose value is another
expression (a function call, `//`, `if`) is kept as its text. A syntax error is an error at its line.
"""

from __future__ import annotations

import re
from pathlib import Path

from orchestrator.spec.hcl30 import HclSyntax, _Attr, _Block, _Expr
from orchestrator.spec.source import Source
from orchestrator.spec.text_cursor import Cursor

SUFFIXES = (".nix",)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_NAME = re.compile(r"(?<![\w.'\"$-])([A-Za-z_][\w'-]*+)")


def is_nix(path: str) -> bool:
    """Whether the file's name says Nix (`.nix`)."""
    return Path(path).suffix.lower() in SUFFIXES


class _Scan(Cursor):
    """One pass over Nix text: the function's arguments, the `let` bindings and the attribute set returned."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.args: dict[str, tuple[int, int, _Expr | None, str]] = {}  # name -> line, col, default, its comment
        self.lets: list[_Attr] = []

    def skip(self, n: int) -> None:
        for _ in range(n):
            self.step()

    def blank(self) -> str:
        """Skip spaces and comments; the text of the last `#` comment on the line it was left on."""
        said = ""
        while self.i < len(self.t):
            c = self.t[self.i]
            if c in " \t\r\n":
                if c == "\n":
                    said = ""
                self.step()
            elif c == "#":
                end = self.t.find("\n", self.i)
                end = len(self.t) if end < 0 else end
                said = self.t[self.i + 1:end].strip()
                self.i = end
            elif c == "/" and self.peek(1) == "*":
                end = self.t.find("*/", self.i + 2)
                self.skip((len(self.t) if end < 0 else end + 2) - self.i)
            else:
                break
        return said

    def ident(self) -> str:
        start = self.i
        while self.i < len(self.t) and (self.t[self.i].isalnum() or self.t[self.i] in "_-'"):
            self.i += 1
        return self.t[start:self.i]

    def word(self, w: str) -> bool:
        """Whether the keyword `w` stands here (then it is taken)."""
        end = self.i + len(w)
        if self.t.startswith(w, self.i) and (end >= len(self.t) or not (self.t[end].isalnum() or self.t[end] in "_'-")):
            self.i = end
            return True
        return False

    # -- values ------------------------------------------------------------------------

    def string(self) -> str:
        start = self.line
        self.step()
        out: list[str] = []
        while True:
            c = self.peek()
            if c == "":
                raise HclSyntax(start, "a quoted string is not closed")
            if c == "\\":
                nxt = self.peek(1)
                out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\", "$": "$"}.get(nxt, nxt))
                self.skip(2)
                continue
            if c == '"':
                self.step()
                return "".join(out)
            out.append(c)
            self.step()

    def indented(self) -> str:
        start = self.line
        self.skip(2)
        out: list[str] = []
        while True:
            c = self.peek()
            if c == "":
                raise HclSyntax(start, "an indented string `''` is not closed")
            if c == "'" and self.peek(1) == "'":
                if self.peek(2) in ("'", "$", "\\"):  # `'''`, `''${`, `''\n`: escapes
                    out.append(self.peek(2))
                    self.skip(3)
                    continue
                self.skip(2)
                rows = "".join(out).split("\n")
                return "\n".join(r.strip() for r in rows).strip()
            out.append(c)
            self.step()

    def expr(self, in_list: bool = False) -> _Expr:
        """A value; in a list, one element (they stand apart by spaces)."""
        self.blank()
        line, col, c = self.line, self.col(), self.peek()
        if c == '"':
            text = self.string()
            return _Expr("tmpl" if "${" in text else "str", line, col, self.names(text, True))
        if c == "'" and self.peek(1) == "'":
            text = self.indented()
            return _Expr("tmpl" if "${" in text else "str", line, col, self.names(text, True))
        if c == "[":
            self.step()
            items: list[_Expr] = []
            while True:
                self.blank()
                if self.peek() in ("]", ""):
                    break
                items.append(self.expr(True))
            if self.peek() != "]":
                raise HclSyntax(line, "a list `[` is not closed")
            self.step()
            return _Expr("list", line, col, items=items)
        if c == "{" or (c == "r" and self.t.startswith("rec", self.i) and self.t[self.i + 3:].lstrip()[:1] == "{"):
            if c == "r":
                self.word("rec")
                self.blank()
            self.step()
            return _Expr("obj", line, col, pairs=self.bindings("}"))
        return self.raw(line, col, in_list)

    def raw(self, line: int, col: int, in_list: bool) -> _Expr:
        start, depth = self.i, 0
        while self.i < len(self.t):
            c = self.t[self.i]
            if c == '"':
                self.string()
                continue
            if c == "#" or (c == "/" and self.peek(1) == "*"):
                if depth == 0:
                    break
                self.blank()
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (c == ";" or (in_list and c in " \t\r\n")):
                break
            self.step()
        text = " ".join(self.t[start:self.i].split())
        if not text:
            raise HclSyntax(line, f"'{self.peek()}' cannot start a value here")
        if _NUMBER.fullmatch(text):
            return _Expr("num", line, col, text)
        if text in ("true", "false"):
            return _Expr("bool", line, col, text)
        if text == "null":
            return _Expr("null", line, col, text)
        return _Expr("ref", line, col, self.names(text, False))

    def names(self, text: str, in_string: bool) -> str:
        """The names an argument or a `let` binds, written as `hcl30` reads them (`var.x`, `local.x`)."""

        def one(m: re.Match[str]) -> str:
            name = m.group(1)
            if name in self.args:
                return f"var.{name}"
            if any(a.name == name for a in self.lets):
                return f"local.{name}"
            return name

        if in_string:
            return re.sub(r"\$\{([^{}]*+)\}", lambda m: "${" + _NAME.sub(one, m.group(1)) + "}", text)
        parts = re.split(r"(\"[^\"]*+\")", text)
        return "".join(p if p.startswith('"') else _NAME.sub(one, p) for p in parts)

    # -- bindings ------------------------------------------------------------------------

    def bindings(self, close: str) -> list[tuple[str, int, int, _Expr]]:
        """`name = value;` and `inherit a b;` up to `close` (`}` or the word `in`)."""
        out: list[tuple[str, int, int, _Expr]] = []
        while True:
            self.blank()
            if self.peek() == "" or (close == "}" and self.peek() == "}"):
                if close != "}" or self.peek() == "":
                    raise HclSyntax(self.line, "a set `{` is not closed" if close == "}" else "`let` has no `in`")
                self.step()
                return out
            if close == "in" and self.word("in"):
                return out
            line, col = self.line, self.col()
            if self.word("inherit"):
                self.blank()
                source = ""
                if self.peek() == "(":
                    end = self.t.find(")", self.i)
                    if end < 0:
                        raise HclSyntax(line, "`inherit (` is not closed")
                    source = self.names(self.t[self.i + 1:end].strip(), False)
                    self.skip(end + 1 - self.i)
                while True:
                    self.blank()
                    ncol = self.col()
                    name = self.ident()
                    if not name:
                        break
                    text = f"{source}.{name}" if source else self.names(name, False)
                    out.append((name, line, ncol, _Expr("ref", line, ncol, text)))
                if self.peek() != ";":
                    raise HclSyntax(line, "`inherit` is not ended by `;`")
                self.step()
                continue
            path = [self.string() if self.peek() == '"' else self.ident()]
            while self.peek() == ".":
                self.step()
                path.append(self.string() if self.peek() == '"' else self.ident())
            if not all(path):
                raise HclSyntax(line, f"'{self.peek()}' cannot start a binding here (`name = value;`)")
            self.blank()
            if self.peek() != "=":
                raise HclSyntax(line, f"the name '{'.'.join(path)}' has no `=` after it")
            self.step()
            value = self.expr()
            self.blank()
            if self.peek() != ";":
                raise HclSyntax(line, f"the binding '{'.'.join(path)}' is not ended by `;`")
            self.step()
            _put(out, path, line, col, value)

    def header(self) -> None:
        """The function's argument set `{ a, b ? 1, ... }:` (or `args@{ ... }:`), if the file opens with one."""
        self.blank()
        at = self.i
        if re.match(r"[A-Za-z_][\w'-]*+\s*+@", self.t[self.i:]):
            self.skip(self.t.index("@", self.i) + 1 - self.i)
            self.blank()
        if self.peek() != "{" or not self.is_header():
            self.i = at
            return
        self.step()
        while True:
            self.blank()
            if self.peek() == "}":
                self.step()
                break
            if self.t.startswith("...", self.i):
                self.skip(3)
            else:
                line, col = self.line, self.col()
                name = self.ident()
                if not name:
                    raise HclSyntax(line, f"'{self.peek()}' cannot start an argument of the function")
                self.blank()
                default = None
                if self.peek() == "?":
                    self.step()
                    default = self.expr_to(",}")
                said = self.blank()
                self.args[name] = (line, col, default, said)
            said = self.blank()
            if self.peek() == ",":
                self.step()
                said = self.blank() or said
            if said and self.args:  # `, name  # comment` after the comma: that argument's description
                last = next(reversed(self.args))
                if not self.args[last][3]:
                    self.args[last] = (*self.args[last][:3], said)
        self.blank()
        if self.t.startswith("@", self.i):
            self.step()
            self.blank()
            self.ident()
            self.blank()
        if self.peek() != ":":
            raise HclSyntax(self.line, "the function's arguments `{ ... }` have no `:` after them")
        self.step()

    def is_header(self) -> bool:
        """Whether the `{` here opens an argument set (`{ a, b ? 1 }:`), not the attribute set itself."""
        depth, j = 0, self.i
        while j < len(self.t):
            c = self.t[j]
            if c == "#":
                j = self.t.find("\n", j)
                if j < 0:
                    return False
            elif c in "{[(":
                depth += 1
            elif c in "}])":
                depth -= 1
                if depth == 0:
                    rest = self.t[j + 1:].lstrip()
                    return rest.startswith(":") or rest.startswith("@")
            elif c in ";=" and depth == 1:
                return False
            j += 1
        return False

    def expr_to(self, ends: str) -> _Expr:
        """A default value, up to `,` or `}` at its depth (or a comment)."""
        self.blank()
        line, col = self.line, self.col()
        if self.peek() in "\"[{" or self.t.startswith("''", self.i):
            return self.expr()
        start, depth = self.i, 0
        while self.i < len(self.t):
            c = self.t[self.i]
            if c in "([{":
                depth += 1
            elif c in ")]}" and depth:
                depth -= 1
            elif depth == 0 and (c in ends or c == "#"):
                break
            self.step()
        text = self.t[start:self.i].strip()
        if _NUMBER.fullmatch(text):
            return _Expr("num", line, col, text)
        if text in ("true", "false", "null"):
            return _Expr("bool" if text != "null" else "null", line, col, text)
        return _Expr("ref", line, col, text)


def _put(out: list[tuple[str, int, int, _Expr]], path: list[str], line: int, col: int, value: _Expr) -> None:
    """`a.b.c = v;`: `v` under `c` in the set `b` in the set `a` (made where not yet bound)."""
    if len(path) == 1:
        out.append((path[0], line, col, value))
        return
    for key, _kl, _kc, e in out:
        if key == path[0] and e.kind == "obj":
            _put(e.pairs, path[1:], line, col, value)
            return
    inner = _Expr("obj", line, col)
    out.append((path[0], line, col, inner))
    _put(inner.pairs, path[1:], line, col, value)


def _is_step(e: _Expr) -> bool:
    from orchestrator.spec import yaml_keys as yk
    from orchestrator.spec.hcl30 import _SKILL_WORDS

    return e.kind == "obj" and any(yk.key_name(k) in _SKILL_WORDS for k, _l, _c, _v in e.pairs)


def _block(kind: str, labels: list[str], line: int, col: int, e: _Expr) -> _Block:
    """A set read as a block: its sets that hold steps blocks too; every other binding an attribute."""
    body: list[_Attr | _Block] = []
    for key, kl, kc, v in e.pairs:
        if _is_step(v):
            body.append(_block("step", [key], kl, kc, v))
        elif v.kind == "obj" and any(_is_step(x) for _k, _l, _c, x in v.pairs):
            body.append(_block(key, [], kl, kc, v))
        else:
            body.append(_Attr(key, kl, kc, v))
    return _Block(kind, labels, line, col, body)


def nix_top(src: Source) -> list[_Attr | _Block]:
    """A Nix spec's arguments, `let` constants and returned set as `hcl30`'s top-level blocks and attributes."""
    scan = _Scan(src.text)
    scan.header()
    scan.blank()
    if scan.word("let"):
        scan.lets = [_Attr(k, kl, kc, v) for k, kl, kc, v in scan.bindings("in")]
    scan.blank()
    line, col = scan.line, scan.col()
    if scan.peek() != "{" and not scan.t.startswith("rec", scan.i):
        raise HclSyntax(line, "the file does not return an attribute set `{ name = { skill = ...; }; }`")
    body = scan.expr()
    scan.blank()
    if scan.peek() not in ("", ";"):
        raise HclSyntax(scan.line, f"'{scan.peek()}' after the attribute set the file returns is not read")
    top: list[_Attr | _Block] = []
    for name, (aline, acol, default, said) in scan.args.items():
        attrs: list[_Attr | _Block] = []
        if said:
            attrs.append(_Attr("description", aline, acol, _Expr("str", aline, acol, said)))
        if default is not None:
            attrs.append(_Attr("default", aline, acol, default))
        top.append(_Block("variable", [name], aline, acol, attrs))
    if scan.lets:
        first = scan.lets[0]
        top.append(_Block("locals", [], first.line, first.col, list(scan.lets)))
    top.extend(_block("nix", [], line, col, body).body)
    return top
