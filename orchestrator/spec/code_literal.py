"""The literals of a code file (Python, JavaScript/TypeScript, JSON) as values with their lines.

    STEPS = [dict(key="intake", skill="permit-intake", takes={"request": REQUEST}),   # Python
             {"key": "wx", "skill": "weather-risk"}]
    export const steps = [{ id: "fetch", skill: "fetch-rows", after: ["a"] }];       // JS / TS

`tokens` cuts the text into strings, numbers, names, punctuation and comments (`#` in Python,
`//` and `/* */` in JavaScript), each with its line, in one pass. `Parser` reads the module's
top-level assignments (`NAME = ...`, `export const name = ...`, `module.exports = ...`, a JSON
document's one value) into `Lit` values: strings, numbers, booleans, null, lists, mappings
(`{...}`, and a call with keyword arguments `dict(a=1)` / `Step(a=1)`), references (`REQUEST`,
`intake.attendees`, `REQUEST['date']`) and any other expression kept as its source text. Nothing
is run. A top-level statement that is no assignment is kept in `skipped`, with its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_MAX_DEPTH = 60
_PREFIXES = frozenset({"r", "b", "f", "u", "rb", "br", "fr", "rf", "R", "B", "F", "U", "Rb", "bR", "RB", "BR", "Fr",
                       "fR", "FR", "rF", "Rf", "RF"})
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "`": "`", "0": "\0"}
_KEYWORDS = {"True": True, "False": False, "true": True, "false": False}
_NULLS = frozenset({"None", "null", "undefined"})
_SETUP = frozenset({"import", "from", "require", "use", "__all__", "'use strict'", "\"use strict\"", "if", "def",
                    "function", "class", "async", "type", "interface"})


@dataclass
class Tok:
    kind: str  # str, num, name, op, comment
    text: str  # the value (a string's unquoted text, a comment's text), else the source
    line: int
    start: int
    end: int
    end_line: int = 0


@dataclass
class Lit:
    kind: str  # str, num, bool, null, seq, map, ref, expr
    value: object = None  # str / int / float / bool / None; ref and expr: the source text
    line: int = 0
    end_line: int = 0
    items: list[Lit] = field(default_factory=list)  # seq
    pairs: list[tuple[str, int, Lit]] = field(default_factory=list)  # map: (key, its line, value)
    call: str = ""  # map: the name of the call it was written as (`dict`, `Step`), else ""


class LiteralError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def tokens(text: str, language: str) -> list[Tok]:
    """The tokens of `text` ("py", "js" or "json"), comments included, each with its line."""
    out: list[Tok] = []
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r\f\ufeff":
            i += 1
        elif (c == "#" and language == "py") or (c == "/" and text.startswith("//", i) and language != "py"):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(Tok("comment", text[i:j].lstrip("#/").strip(), line, i, j, line))
            i = j
        elif c == "/" and text.startswith("/*", i) and language != "py":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            body = text[i + 2:j - 2] if j <= n else text[i + 2:]
            first = line
            for k, part in enumerate(body.split("\n")):
                said = part.strip().lstrip("*").strip()
                if said:
                    out.append(Tok("comment", said, first + k, i, j, first + k))
            line += text.count("\n", i, j)
            i = j
        elif c in "\"'`":
            i, line = _string(text, i, line, "", out)
        elif c.isalpha() or c == "_" or c == "$":
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_$"):
                j += 1
            word = text[i:j]
            if language == "py" and word in _PREFIXES and j < n and text[j] in "\"'":
                i, line = _string(text, j, line, word, out)
                continue
            out.append(Tok("name", word, line, i, j, line))
            i = j
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            j = i
            while j < n and (text[j].isalnum() or text[j] in "._" or (text[j] in "+-" and text[j - 1] in "eE"
                                                                         and not text[i:j].lower().startswith("0x"))):
                j += 1
            out.append(Tok("num", text[i:j], line, i, j, line))
            i = j
        else:
            two = text[i:i + 2]
            size = 3 if text[i:i + 3] in ("===", "!==", "**=", "...") else 2 if two in (
                "==", "!=", "<=", ">=", "=>", "->", "**", "//", "&&", "||", "??", "?.", ":=") else 1
            out.append(Tok("op", text[i:i + size], line, i, i + size, line))
            i += size
    return out


def _string(text: str, i: int, line: int, prefix: str, out: list[Tok]) -> tuple[int, int]:
    quote = text[i]
    triple = text.startswith(quote * 3, i) and quote != "`"
    close = quote * 3 if triple else quote
    j = i + len(close)
    raw = "r" in prefix.lower()
    chars: list[str] = []
    start_line = line
    n = len(text)
    while j < n and not text.startswith(close, j):
        c = text[j]
        if c == "\n":
            if not triple and quote != "`":
                break  # an unclosed string ends at its line
            line += 1
        if c == "\\" and j + 1 < n and not raw:
            nxt = text[j + 1]
            if nxt == "\n":
                line += 1
                j += 2
                continue
            chars.append(_ESCAPES.get(nxt, "\\" + nxt))
            j += 2
            continue
        chars.append(c)
        j += 1
    j = min(n, j + len(close))
    out.append(Tok("str", "".join(chars), start_line, i - len(prefix), j, line))
    return j, line


class Parser:
    """The top-level assignments of a module's tokens (module docstring)."""

    def __init__(self, toks: list[Tok], text: str, language: str) -> None:
        self.toks = [t for t in toks if t.kind != "comment"]
        self.text, self.language = text, language
        self.i = 0
        self.depth = 0
        self.assigned: list[tuple[str, int, Lit]] = []  # (name as written, line, value)
        self.skipped: list[tuple[int, str]] = []  # (line, the statement's first words)

    # -- the module ------------------------------------------------------------------
    def module(self) -> None:
        if self.language == "json":
            if self.toks:
                value = self.expr()
                self.assigned.append(("", value.line, value))
                if self.i < len(self.toks):
                    raise LiteralError(self.toks[self.i].line, "more after the JSON document's one value")
            return
        while self.i < len(self.toks):
            start = self.i
            if not self._assignment():
                self.i = start
                self._skip_statement()

    def _assignment(self) -> bool:
        toks, i = self.toks, self.i
        words: list[str] = []
        while i < len(toks) and toks[i].kind == "name" and toks[i].text in ("export", "const", "let", "var", "default",
                                                                               "final", "readonly", "declare"):
            words.append(toks[i].text)
            i += 1
        if "default" in words:  # `export default [...]` / `export default {...}`
            self.i = i
            value = self.expr()
            self.assigned.append(("default", value.line, value))
            self._end()
            return True
        if i >= len(toks) or toks[i].kind != "name":
            return False
        first = toks[i]
        name = first.text
        i += 1
        while i + 1 < len(toks) and toks[i].text == "." and toks[i + 1].kind == "name":  # module.exports, exports.x
            name = f"{name}.{toks[i + 1].text}"
            i += 2
        if i < len(toks) and toks[i].text == ":" and (self.language != "py" or not words):  # `: Step[]`, `: list`
            i += 1
            depth = 0
            while i < len(toks) and (depth or toks[i].text != "="):
                if toks[i].line != first.line and not depth:
                    return False
                depth += toks[i].text in "([{<" and toks[i].kind == "op"
                depth -= toks[i].text in ")]}>" and toks[i].kind == "op"
                depth = max(depth, 0)
                i += 1
        if i >= len(toks) or toks[i].text != "=":
            return False
        self.i = i + 1
        value = self.expr()
        name = name.removeprefix("module.exports.").removeprefix("exports.")
        self.assigned.append(("default" if name == "module.exports" else name, first.line, value))
        self._end()
        return True

    def _end(self) -> None:
        """After an assignment: its `;`, a TypeScript `as const` / `satisfies X`."""
        while self.i < len(self.toks) and (self.toks[self.i].text == ";" or self.toks[self.i].text in ("as", "satisfies")):
            if self.toks[self.i].text in ("as", "satisfies"):
                self.i += 2
            else:
                self.i += 1

    def _skip_statement(self) -> None:
        """A statement that is no assignment: kept in `skipped` (unless setup: imports, `use strict`),
        and passed over to the next line that starts outside any bracket."""
        first = self.toks[self.i]
        depth = 0
        last_line = first.line
        j = self.i
        while j < len(self.toks):
            t = self.toks[j]
            if depth == 0 and j > self.i and t.line > last_line and t.text not in (")", "]", "}", ".", ",") and \
                    not (self.language == "py" and first.text in ("def", "class", "async", "if", "for", "while",
                                                                  "with", "try") and _indented(self.text, t)):
                break
            if t.kind == "op" and t.text in "([{":
                depth += 1
            elif t.kind == "op" and t.text in ")]}":
                depth = max(depth - 1, 0)
            last_line = t.end_line
            j += 1
        said = self.text[first.start:self.toks[j - 1].end].split("\n", 1)[0].strip()
        if first.text not in _SETUP and first.kind != "str" and said not in (";",):
            self.skipped.append((first.line, said))
        self.i = max(j, self.i + 1)

    # -- values ----------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> Tok | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def take(self, text: str | None = None) -> Tok:
        tok = self.peek()
        if tok is None:
            last = self.toks[-1].line if self.toks else 1
            raise LiteralError(last, f"the file ends inside a value (expected {text or 'more'})")
        if text is not None and tok.text != text:
            raise LiteralError(tok.line, f"expected '{text}' here, found '{tok.text[:20]}'")
        self.i += 1
        return tok

    def expr(self) -> Lit:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise LiteralError(self.toks[min(self.i, len(self.toks) - 1)].line, "values nested too deeply to be read")
        try:
            start = self.i
            value = self._primary()
            nxt = self.peek()
            if nxt is None or _closes(nxt) or nxt.text in (",", ":", ";", "="):
                return value
            if nxt.kind == "op" or (nxt.kind == "name" and nxt.line == self.toks[self.i - 1].end_line
                                    and nxt.text not in ("as", "satisfies")):
                return self._rest(start, value.line)
            return value
        finally:
            self.depth -= 1

    def _rest(self, start: int, line: int) -> Lit:
        """An expression that is no literal (`a + b`, `x if y else z`): its source text, to its end."""
        depth = 0
        j = self.i
        while j < len(self.toks):
            t = self.toks[j]
            if depth == 0 and (_closes(t) or (t.kind == "op" and t.text in (",", ";"))):
                break
            if depth == 0 and self.language != "py" and t.line > self.toks[j - 1].end_line and t.kind == "name" \
                    and t.text in ("export", "const", "let", "var", "module", "function"):
                break
            if depth == 0 and self.language == "py" and t.line > self.toks[j - 1].end_line and t.kind == "name" \
                    and j + 1 < len(self.toks) and self.toks[j + 1].text == "=":
                break
            if t.kind == "op" and t.text in "([{":
                depth += 1
            elif t.kind == "op" and t.text in ")]}":
                depth -= 1
            j += 1
        self.i = j
        end = self.toks[j - 1]
        return Lit("expr", " ".join(self.text[self.toks[start].start:end.end].split()), line, end.end_line)

    def _primary(self) -> Lit:
        tok = self.take()
        if tok.kind == "str":
            text = tok.text
            while (nxt := self.peek()) is not None and nxt.kind == "str":  # "a" "b": one string
                text += self.take().text
            return Lit("str", text, tok.line, tok.end_line)
        if tok.kind == "num":
            return Lit("num", _number(tok.text), tok.line, tok.line)
        if tok.kind == "op" and tok.text == "-" and (nxt := self.peek()) is not None and nxt.kind == "num":
            self.take()
            number = _number(nxt.text)
            return Lit("num", -number if isinstance(number, int | float) else f"-{number}", tok.line, tok.line)
        if tok.kind == "op" and tok.text == "[":
            return self._seq(tok, "]")
        if tok.kind == "op" and tok.text == "(":
            inner = self._seq(tok, ")")
            return inner.items[0] if len(inner.items) == 1 and not self._had_comma else inner
        if tok.kind == "op" and tok.text == "{":
            return self._map(tok)
        if tok.kind == "name":
            if tok.text in _KEYWORDS:
                return Lit("bool", _KEYWORDS[tok.text], tok.line, tok.line)
            if tok.text in _NULLS:
                return Lit("null", None, tok.line, tok.line)
            if tok.text == "new" and (nxt := self.peek()) is not None and nxt.kind == "name":
                return self._primary()
            return self._name(tok)
        if tok.kind == "op" and tok.text == "...":  # `...base`: spread, kept as its text
            inner = self._primary()
            return Lit("expr", f"...{inner.value if inner.kind in ('ref', 'expr') else ''}", tok.line, inner.end_line)
        raise LiteralError(tok.line, f"'{tok.text[:20]}' does not start a value")

    _had_comma = False

    def _seq(self, open_: Tok, close: str) -> Lit:
        items: list[Lit] = []
        comma = False
        while (nxt := self.peek()) is not None and nxt.text != close:
            items.append(self.expr())
            if (nxt := self.peek()) is not None and nxt.text == ",":
                self.take()
                comma = True
            elif nxt is not None and nxt.text != close:
                raise LiteralError(nxt.line, f"expected ',' or '{close}' here, found '{nxt.text[:20]}'")
        end = self.take(close)
        self._had_comma = comma
        return Lit("seq", None, open_.line, end.line, items=items)

    def _map(self, open_: Tok) -> Lit:
        pairs: list[tuple[str, int, Lit]] = []
        while (nxt := self.peek()) is not None and nxt.text != "}":
            key = self.take()
            if key.kind == "op" and key.text == "...":
                value = self._primary()
                pairs.append(("...", key.line, value))
            elif key.kind == "op" and key.text == "[":  # `[COMPUTED]: v`
                name = self.expr()
                self.take("]")
                self.take(":")
                pairs.append((str(name.value), key.line, self.expr()))
            else:
                if key.kind not in ("str", "name", "num"):
                    raise LiteralError(key.line, f"'{key.text[:20]}' is not a key")
                if (sep := self.peek()) is not None and sep.text in (",", "}") and key.kind == "name":
                    pairs.append((key.text, key.line, Lit("ref", key.text, key.line, key.line)))  # `{ skill }`
                else:
                    self.take(":")
                    pairs.append((key.text, key.line, self.expr()))
            if (nxt := self.peek()) is not None and nxt.text == ",":
                self.take()
            elif nxt is not None and nxt.text != "}":
                raise LiteralError(nxt.line, f"expected ',' or '}}' here, found '{nxt.text[:20]}'")
        end = self.take("}")
        return Lit("map", None, open_.line, end.line, pairs=pairs)

    def _name(self, tok: Tok) -> Lit:
        """`a`, `a.b`, `a['b']`, `a?.b`, a call `f(x, k=v)` (a mapping of its keyword arguments)."""
        parts = tok.text
        end_line = tok.line
        while (nxt := self.peek()) is not None:
            if nxt.text in (".", "?.") and (after := self.peek(1)) is not None and after.kind == "name":
                self.i += 2
                parts += f".{after.text}"
            elif nxt.text == "[" and nxt.line == end_line and (key := self.peek(1)) is not None and key.kind in (
                    "str", "num") and (close := self.peek(2)) is not None and close.text == "]":
                self.i += 3
                parts += f"[{key.text!r}]" if key.kind == "str" else f"[{key.text}]"
            elif nxt.text == "(":
                self.take()
                return self._call(parts, tok)
            else:
                break
        return Lit("ref", parts, tok.line, end_line)

    def _call(self, name: str, tok: Tok) -> Lit:
        pairs: list[tuple[str, int, Lit]] = []
        positional: list[Lit] = []
        while (nxt := self.peek()) is not None and nxt.text != ")":
            after = self.peek(1)
            if nxt.kind == "name" and after is not None and after.text == "=" :
                self.i += 2
                pairs.append((nxt.text, nxt.line, self.expr()))
            elif nxt.text == "**":
                self.take()
                value = self.expr()
                pairs.append(("**", nxt.line, value))
            else:
                positional.append(self.expr())
            if (sep := self.peek()) is not None and sep.text == ",":
                self.take()
            elif sep is not None and sep.text != ")":
                raise LiteralError(sep.line, f"expected ',' or ')' here, found '{sep.text[:20]}'")
        end = self.take(")")
        if not pairs and len(positional) == 1 and positional[0].kind == "map":  # `Step({...})`, `defineStep({...})`
            inner = positional[0]
            return Lit("map", None, tok.line, end.line, pairs=inner.pairs, call=name)
        if not pairs and name in ("list", "tuple") and len(positional) == 1:
            return positional[0]
        if not pairs:
            return Lit("expr", " ".join(self.text[tok.start:end.end].split()), tok.line, end.line)
        return Lit("map", None, tok.line, end.line, pairs=[*(("", p.line, p) for p in positional), *pairs], call=name)


def _closes(tok: Tok) -> bool:
    return tok.kind == "op" and tok.text in (")", "]", "}")


def _indented(text: str, tok: Tok) -> bool:
    start = text.rfind("\n", 0, tok.start) + 1
    return tok.start > start and text[start] in " \t"


def _number(text: str) -> int | float | str:
    clean = text.replace("_", "")
    try:
        return int(clean, 0) if not any(c in clean for c in ".eE") or clean.lower().startswith("0x") else float(clean)
    except ValueError:
        return text


def parse_module(text: str, language: str) -> tuple[list[Tok], Parser]:
    """The comments and the parsed top-level assignments of `text`; `LiteralError` at the line a
    value cannot be read."""
    toks = tokens(text, language)
    parser = Parser(toks, text, language)
    parser.module()
    return [t for t in toks if t.kind == "comment"], parser
