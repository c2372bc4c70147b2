"""A spec written as an nginx-style block config (`key value;` directives, `name label { }` blocks, `#`
comments), read into the blocks `hcl30` reads, so that it is read as an HCL file would be.

    pipeline reset {                          → a block that holds steps: its directives speak for the whole run
      input  wall;                            → the workflow input `wall` (also `param`, `arg`, `variable`;
      input  shift day;                          a second word is its default)
      time_limit 45m;                         → the run's keys, as the YAML form reads them (`timeout`, ...)
      done_when  $post.sent = true;           → the run's success check (also `success`, `check`, `assert`)
      step list {                             → a step, `list` (any block with a `skill` / `uses` / `tool`)
        skill    list-problems;
        foreach  $fetch.rows;                 → over step `fetch`'s output `rows` (also `for_each`, `each`)
        after    a b;                         → waits for steps `a` and `b` (also `depends_on`, `needs`)
        pass     wall  $wall;                 → an input: `pass` / `set` / `with` / `give` name then value
        pass     scores $score[*];            → every result of step `score`, gathered
        # retry 3 times, 10s apart            → the step's words (its comments, as in YAML)
      }
    }

In a value, `$x` is the workflow input `x` (an `input` directive), `$item.f` (`$each.f`) the loop item's field,
`$a.f` step `a`'s output `f`, `$a[*]` every result of step `a`; a number, `true` / `false` is that value and any
other word or quoted string a literal. Any other directive in a step is read as `hcl30` reads an attribute of
that name (`timeout 90s;` the step's timeout, `grade V4;` an input). A file is read this way only when its
suffix is no spec format's own (`.conf`, `.cfg`, none, ...) and some block in it names the skill it runs.
"""

from __future__ import annotations

import re
from pathlib import Path

from orchestrator.spec.hcl30 import _SKILL_WORDS, _Attr, _Block, _Expr
from orchestrator.spec.source import Source
from orchestrator.spec.text_cursor import Cursor, LineError

SUFFIXES = (".conf", ".cfg", ".config", ".nginx", ".pipeline", ".flow", ".wf", "")
_INPUT = frozenset({"input", "param", "arg", "argument", "variable", "var"})
_CHECK = frozenset({"done_when", "success", "success_when", "check", "assert", "done", "finished_when"})
_PASS = frozenset({"pass", "set", "with", "give", "feed", "bind", "env"})
_AFTER = frozenset({"after", "depends_on", "depends", "needs", "requires", "wait_for", "waits_for"})
_EACH = frozenset({"foreach", "for_each", "each", "over", "loop"})
_WHEN = frozenset({"when", "if", "only_if", "run_if"})
_NUMBER = re.compile(r"-?\d++(?:\.\d++)?+")
_VAR = re.compile(r"\$\{?+([A-Za-z_][\w-]*+)((?:\.[A-Za-z_][\w-]*+|\[\*\]|\[\d++\])*+)\}?+")


class NginxSyntax(LineError):
    """A syntax error in an nginx-style block config, at its line."""


class _Dir:
    """One directive or block: its name, its words (each with its line, column and whether it was quoted)."""

    def __init__(self, name: str, line: int, col: int) -> None:
        self.name = name
        self.line = line
        self.col = col
        self.words: list[tuple[str, int, int, bool]] = []
        self.body: list[_Dir] | None = None  # a block's directives


class _Scan(Cursor):
    def blank(self) -> None:
        while self.i < len(self.t):
            c = self.t[self.i]
            if c in " \t\r\n":
                self.step()
            elif c == "#":
                while self.i < len(self.t) and self.t[self.i] != "\n":
                    self.i += 1
            else:
                return

    def word(self) -> tuple[str, bool]:
        c = self.peek()
        if c in "\"'":
            start_line = self.line
            self.step()
            out: list[str] = []
            while self.peek() != c:
                if self.peek() in ("", "\n"):
                    raise NginxSyntax(start_line, "a quoted word is not closed on its line")
                if self.peek() == "\\" and self.peek(1):
                    self.step()
                out.append(self.peek())
                self.step()
            self.step()
            return "".join(out), True
        start = self.i
        while self.i < len(self.t) and self.t[self.i] not in " \t\r\n;{}#\"'":
            self.i += 1
        return self.t[start:self.i], False

    def body(self, top: bool) -> list[_Dir]:
        out: list[_Dir] = []
        while True:
            self.blank()
            c = self.peek()
            if c == "":
                if not top:
                    raise NginxSyntax(self.line, "a block `{` is not closed before the end of the file")
                return out
            if c == "}":
                if top:
                    raise NginxSyntax(self.line, "a `}` closes no block")
                self.step()
                return out
            line, col = self.line, self.col()
            name, _q = self.word()
            if not name:
                raise NginxSyntax(line, f"'{c}' cannot start a directive here")
            d = _Dir(name, line, col)
            while True:
                while self.peek() in (" ", "\t", "\r", "\n"):
                    self.step()
                c = self.peek()
                if c == ";":
                    self.step()
                    break
                if c == "{":
                    self.step()
                    d.body = self.body(False)
                    break
                if c in ("", "}", "#"):
                    raise NginxSyntax(line, f"the directive `{name}` has no `;` at its end")
                wl, wc = self.line, self.col()
                text, quoted = self.word()
                d.words.append((text, wl, wc, quoted))
            out.append(d)


def _names_skill(dirs: list[_Dir]) -> bool:
    return any((d.body is None and d.name.lower() in _SKILL_WORDS and d.words) or (d.body and _names_skill(d.body))
               for d in dirs)


def is_nginx(path: str, text: str) -> bool:
    """Whether the file is an nginx-style block config in which some block names the skill it runs."""
    if Path(path).suffix.lower() not in SUFFIXES or "{" not in text or ";" not in text:
        return False
    try:
        return _names_skill(_Scan(text).body(True))
    except (NginxSyntax, RecursionError):
        return False


class _Convert:
    def __init__(self, inputs: set[str]) -> None:
        self.inputs = inputs

    def ref(self, text: str) -> str:
        def one(m: re.Match[str]) -> str:
            head, rest = m.group(1), m.group(2)
            if head in ("item", "each", "it", "this") and rest:
                return "each.value" + rest
            if head in self.inputs and not rest:
                return f"var.{head}"
            return head + rest

        return _VAR.sub(one, text)

    def value(self, words: list[tuple[str, int, int, bool]]) -> _Expr:
        text, line, col, quoted = words[0]
        if len(words) > 1:
            whole = " ".join(w[0] for w in words)
            return _Expr("ref" if "$" in whole else "str", line, col, self.ref(whole) if "$" in whole else whole)
        if quoted:
            return _Expr("str", line, col, text)
        if _VAR.fullmatch(text):
            return _Expr("ref", line, col, self.ref(text))
        if _NUMBER.fullmatch(text):
            return _Expr("num", line, col, text)
        if text in ("true", "false", "on", "off"):
            return _Expr("bool", line, col, "true" if text in ("true", "on") else "false")
        return _Expr("str", line, col, text)

    def condition(self, d: _Dir) -> _Expr:
        words = [("==" if w == "=" else w) for w, *_ in d.words]
        return _Expr("ref", d.words[0][1], d.words[0][2], self.ref(" ".join(words)))

    def step(self, d: _Dir) -> _Block:
        body: list[_Attr | _Block] = []
        passed: list[tuple[str, int, int, _Expr]] = []
        for x in d.body or []:
            key = x.name.lower()
            if x.body is not None:
                body.append(self.block(x))
            elif not x.words:
                body.append(_Attr(x.name, x.line, x.col, _Expr("bool", x.line, x.col, "true")))
            elif key in _PASS and len(x.words) >= 2:  # one `input = { ... }` of them all: each is data, whatever
                name, nl, nc, _q = x.words[0]  # its name (`count`, `label`)
                passed.append((name, nl, nc, self.value(x.words[1:])))
            elif key in _AFTER:
                deps = [_Expr("ref", wl, wc, w.lstrip("$")) for w, wl, wc, _q in x.words]
                body.append(_Attr("depends_on", x.line, x.col, _Expr("list", x.line, x.col, items=deps)))
            elif key in _EACH:
                body.append(_Attr("for_each", x.line, x.col, self.value(x.words)))
            elif key in _WHEN:
                body.append(_Attr("when", x.line, x.col, self.condition(x)))
            else:
                body.append(_Attr(x.name, x.line, x.col, self.value(x.words)))
        if passed:
            body.append(_Attr("input", passed[0][1], passed[0][2], _Expr("obj", passed[0][1], passed[0][2],
                                                                        pairs=passed)))
        return _Block(d.name, [w for w, *_ in d.words], d.line, d.col, body)

    def block(self, d: _Dir) -> _Block:
        if _names_skill(d.body or []) and not any(x.body is not None and _names_skill(x.body) for x in d.body or []):
            return self.step(d)
        return _Block(d.name, [w for w, *_ in d.words], d.line, d.col, self.top(d.body or []))

    def top(self, dirs: list[_Dir]) -> list[_Attr | _Block]:
        out: list[_Attr | _Block] = []
        for d in dirs:
            key = d.name.lower()
            if d.body is not None:
                out.append(self.block(d))
            elif key in _INPUT and d.words:
                name = d.words[0][0]
                attrs: list[_Attr | _Block] = []
                if len(d.words) > 1:
                    attrs.append(_Attr("default", d.words[1][1], d.words[1][2], self.value(d.words[1:])))
                out.append(_Block("variable", [name], d.line, d.col, attrs))
            elif key in _CHECK and d.words:
                cond = _Attr("condition", d.line, d.col, self.condition(d))
                out.append(_Block("check", [], d.line, d.col, [cond]))
            elif d.words:
                out.append(_Attr(d.name, d.line, d.col, self.value(d.words)))
        return out


def _inputs(dirs: list[_Dir], out: set[str]) -> set[str]:
    for d in dirs:
        if d.body is not None:
            _inputs(d.body, out)
        elif d.name.lower() in _INPUT and d.words:
            out.add(d.words[0][0])
    return out


def _is_step(b: _Block) -> bool:
    return any(isinstance(a, _Attr) and a.name.lower() in _SKILL_WORDS for a in b.body)


def _holds_step(b: _Block) -> bool:
    """Whether a block holds a step in it (and is no step itself)."""
    return not _is_step(b) and any(isinstance(x, _Block) and (_is_step(x) or _holds_step(x)) for x in b.body)


def _lift(body: list[_Attr | _Block]) -> list[_Attr | _Block]:
    """The directives of the blocks that hold the steps (not steps themselves) lifted to the top, where the run's
    keys are read; the holders keep their blocks."""
    out: list[_Attr | _Block] = []
    for b in body:
        if isinstance(b, _Block) and b.type not in ("variable", "check") and _holds_step(b):
            inner = _lift(b.body)
            out.extend(x for x in inner if isinstance(x, _Attr))
            out.append(_Block(b.type, b.labels, b.line, b.col, [x for x in inner if isinstance(x, _Block)]))
        else:
            out.append(b)
    return out


def nginx_top(src: Source) -> list[_Attr | _Block]:
    """An nginx-style config's directives and blocks as `hcl30`'s top-level blocks and attributes."""
    dirs = _Scan(src.text).body(True)
    return _lift(_Convert(_inputs(dirs, set())).top(dirs))
