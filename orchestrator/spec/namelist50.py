"""A spec written as a Fortran namelist file, read into the blocks `hcl30` reads (as `nginx49` and `jcl50` do).

    ! whole run inside 15 minutes                → a comment before the first group: the whole run's words
    &run                                         → a group no step: its keys the workflow inputs
      region = ''                                → the input `region` (an empty value: no default)
      days   = 7                                 → the input `days`, default 7
    /                                            → the group's end (also `&end`, `$end`)
    &fetch                                       → a step, `fetch` (a group with `skill = '...'`)
      skill  = 'load-rows'
      after  = 'prep', 'clean'                   → waits for steps `prep` and `clean` (also `depends_on`, `needs`)
      only_if = "prep%kind == 'big'"             → its condition (also `if`, `when`, `run_if`)
      region = 'run%region'                      → the workflow input `region` (`group%field` a group's field)
      rows   = 'prep%rows'                       → step `prep`'s output `rows`
      rows   = 'a%rows or b%rows'                → whichever of steps `a` and `b` ran gives it
      limit  = 60                                → a literal (a number, `.true.` / `.false.`, any other string)
      ! retry twice, 10 s apart                  → the step's words (its comments, as `#` comments)
    /
    &other  skill = 'x'  only_if = 'otherwise' / → the otherwise branch of the nearest conditional step above

Where some group says `after`, a group that says no `after`, has no condition, is no other branch and names no
step's field waits for nothing (a root: the file says its waits, so the step order is none). Fortran's `.true.` /
`.false.` in a comment read as `true` / `false` (a done check "issued = .true."). A value is one quoted string (`'...'` or `"..."`, a doubled quote inside it one quote), a number, a logical
(`.true.`, `T`) or several of them parted by commas (a list). `!` starts a comment outside quotes. A file is read
this way when it is named `.nml` / `.namelist` / `.nlist`, or when its first group opens with `&name` and some
group says `skill =`.
"""

from __future__ import annotations

import re
from pathlib import Path

from orchestrator.spec.hcl30 import _Attr, _Block, _Expr
from orchestrator.spec.source import Source

SUFFIXES = (".nml", ".namelist", ".nlist")
_AFTER = frozenset({"after", "depends_on", "depends", "needs", "requires", "wait_for", "waits_for"})
_WHEN = frozenset({"only_if", "if", "when", "run_if", "condition"})
_EACH = frozenset({"foreach", "for_each", "each", "over"})
_ELSE = frozenset({"otherwise", "else", "default"})
_GROUP = re.compile(r"[&$]([A-Za-z_]\w*+)")
_KEY = re.compile(r"(?<!\w)([A-Za-z_]\w*+)(?:\(\s*+\d++\s*+\))?+\s*+=(?!=)")
_TOKEN = re.compile(r"""'(?:[^']|'')*+'|"(?:[^"]|"")*+"|[^\s,'"=/!]++""")
_ACCESS = re.compile(r"(?<![\w%])([A-Za-z_]\w*+)%([A-Za-z_]\w*+)")
_NUMBER = re.compile(r"[-+]?\d++(?:\.\d*+)?+(?:[eEdD][-+]?\d++)?+")
_LOGICAL = re.compile(r"(?<![\w.])\.(true|false|TRUE|FALSE|True|False)\.(?!\w)")
_SKILL_RX = re.compile(r"(?<![\w%])skill[ \t]*+=(?!=)", re.IGNORECASE)


def strip_comment(line: str) -> tuple[str, int | None]:
    """The line up to its `!` comment (outside quotes), and the comment's column or None."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            return line[:i], i
    return line, None


def is_namelist(path: str, text: str) -> bool:
    """Whether the file is a namelist whose groups name skills."""
    if Path(path).suffix.lower() in SUFFIXES:
        return True
    for raw in text.splitlines():
        code = strip_comment(raw)[0].strip()
        if code:
            return bool(re.match(r"&[A-Za-z_]\w*+\s*+$|&[A-Za-z_]\w*+\s++\w", code)) and \
                _SKILL_RX.search(text) is not None
    return False


class _Token:
    def __init__(self, text: str, line: int, col: int) -> None:
        self.text, self.line, self.col = text, line, col


def _tokens(lines: list[str]) -> list[_Token]:
    """Every token of the file outside comments: `&name`, `/`, `key =`, values, each at its line and column."""
    out: list[_Token] = []
    for n, raw in enumerate(lines, 1):
        code = strip_comment(raw)[0]
        i = 0
        while i < len(code):
            ch = code[i]
            if ch in " \t,":
                i += 1
                continue
            if ch in "&$" and (g := _GROUP.match(code, i)):
                out.append(_Token(g.group(0), n, i))
                i = g.end()
                continue
            if ch == "/":
                out.append(_Token("/", n, i))
                i += 1
                continue
            if k := _KEY.match(code, i):
                out.append(_Token(k.group(1) + "=", n, i))
                i = k.end()
                continue
            t = _TOKEN.match(code, i)
            if t is None or not t.group(0):
                out.append(_Token(ch, n, i))
                i += 1
                continue
            out.append(_Token(t.group(0), n, i))
            i = t.end()
    return out


class _Group:
    def __init__(self, name: str, line: int) -> None:
        self.name, self.line = name, line
        self.pairs: list[tuple[str, int, int, list[_Token]]] = []


def _groups(src: Source) -> list[_Group]:
    out: list[_Group] = []
    group: _Group | None = None
    for t in _tokens(src.lines):
        low = t.text.lower()
        if group is None:
            if t.text[0] in "&$" and low not in ("&end", "$end"):
                group = _Group(t.text[1:], t.line)
                out.append(group)
            else:
                src.warn(t.line, f"{t.text!r} is outside any `&group ... /`: not read", code="spec.namelist")
        elif t.text == "/" or low in ("&end", "$end", "&", "$"):
            group = None
        elif t.text[0] in "&$" and _GROUP.fullmatch(t.text):
            src.warn(t.line, f"group `{group.name}` has no `/` before `{t.text}`: ended there", code="spec.namelist")
            group = _Group(t.text[1:], t.line)
            out.append(group)
        elif t.text.endswith("="):
            group.pairs.append((t.text[:-1], t.line, t.col, []))
        elif group.pairs:
            group.pairs[-1][3].append(t)
        else:
            src.warn(t.line, f"{t.text!r} in group `{group.name}` is not `key = value`: not read", code="spec.namelist")
    if group is not None:
        src.warn(group.line, f"group `{group.name}` has no `/` at its end: read to the end of the file",
                 code="spec.namelist")
    return out


def _unquote(text: str) -> tuple[str, bool]:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        q = text[0]
        return text[1:-1].replace(q + q, q), True
    return text, False


class _Reader:
    def __init__(self, src: Source, groups: list[_Group]) -> None:
        self.src = src
        self.groups = groups
        self.steps = {g.name.lower(): g.name for g in groups if any(k.lower() == "skill" for k, *_ in g.pairs)}
        self.inputs = {g.name.lower() for g in groups if g.name.lower() not in self.steps}

    def access(self, text: str) -> str:
        """`grp%field` in a text: `var.field` for an inputs group, `step.field` for a step's, else left."""

        def one(m: re.Match[str]) -> str:
            head, fld = m.group(1).lower(), m.group(2)
            if head in ("each", "item"):
                return f"each.value.{fld}"
            if head in self.steps:
                return f"{self.steps[head]}.{fld}"
            if head in self.inputs:
                return f"var.{fld}"
            return m.group(0)

        return _ACCESS.sub(one, text)

    def known(self, head: str) -> bool:
        return head.lower() in self.steps or head.lower() in self.inputs or head.lower() in ("each", "item")

    def one(self, t: _Token) -> _Expr:
        text, quoted = _unquote(t.text)
        whole = _ACCESS.fullmatch(text.strip())
        if whole and self.known(whole.group(1)):
            return _Expr("ref", t.line, t.col, self.access(text.strip()))
        alts = [_ACCESS.fullmatch(p.strip()) for p in re.split(r"(?<!\s)\s++or\s++|\|\|", text.strip())]
        if len(alts) >= 2 and all(a is not None and a.group(1).lower() in self.steps for a in alts):
            alts_text = [a.group(0) for a in alts if a is not None]
            return _Expr("ref", t.line, t.col, " || ".join(self.access(p) for p in alts_text))
        if quoted:
            return _Expr("str", t.line, t.col, text)
        low = text.lower()
        if low in (".true.", ".t.", "t", "true"):
            return _Expr("bool", t.line, t.col, "true")
        if low in (".false.", ".f.", "f", "false"):
            return _Expr("bool", t.line, t.col, "false")
        if _NUMBER.fullmatch(text):
            return _Expr("num", t.line, t.col, re.sub("[dD]", "e", text))
        return _Expr("str", t.line, t.col, text)

    def value(self, toks: list[_Token], line: int, col: int) -> _Expr:
        if not toks:
            return _Expr("str", line, col, "")
        if len(toks) == 1:
            return self.one(toks[0])
        return _Expr("list", toks[0].line, toks[0].col, items=[self.one(t) for t in toks])

    def read(self) -> list[_Attr | _Block]:
        out: list[_Attr | _Block] = []
        last_when: _Block | None = None
        for g in self.groups:
            if g.name.lower() not in self.steps:
                for key, line, col, toks in g.pairs:
                    attrs: list[_Attr | _Block] = []
                    val = self.value(toks, line, col)
                    if not (val.kind == "str" and not val.text):
                        attrs.append(_Attr("default", line, col, val))
                    out.append(_Block("variable", [key], line, col, attrs))
                continue
            body: list[_Attr | _Block] = []
            step = _Block("step", [g.name], g.line, 0, body)
            for key, line, col, toks in g.pairs:  # column 0: the comments under the group are the step's words
                k = key.lower()
                if k in _AFTER:
                    deps = [_Expr("ref", t.line, t.col, _unquote(t.text)[0]) for t in toks]
                    body.append(_Attr("depends_on", line, 0, _Expr("list", line, col, items=deps)))
                elif k in _WHEN:
                    text = " ".join(_unquote(t.text)[0] for t in toks).strip()
                    if text.lower() in _ELSE:
                        if last_when is None:
                            self.src.warn(line, f"`{key} = '{text}'`: no step above has a condition it could be the "
                                                "other branch of: not read", code="spec.namelist")
                            continue
                        last_when.body.append(_Attr("otherwise", line, 0, _Expr("ref", line, col, g.name)))
                        last_when = None
                        continue
                    body.append(_Attr("when", line, 0, _Expr("ref", line, col, self.access(text))))
                    last_when = step
                elif k in _EACH:
                    body.append(_Attr("for_each", line, 0, self.value(toks, line, col)))
                else:
                    body.append(_Attr(key, line, 0, self.value(toks, line, col)))
            out.append(step)
        self.roots([b for b in out if isinstance(b, _Block) and b.type == "step"])
        return out

    def roots(self, steps: list[_Block]) -> None:
        """Where some group says what it waits for (`after = ...`), a group that says no `after`, has no condition,
        is no other branch and names no step's field in its values waits for nothing (`depends_on = []`)."""
        if not any(a.name == "depends_on" for b in steps for a in b.attrs):
            return
        branches = {a.expr.text for b in steps for a in b.attrs if a.name == "otherwise"}
        for b in steps:
            if b.labels[0] in branches or any(a.name in ("depends_on", "when") for a in b.attrs):
                continue
            if any(self.names_step(a.expr) for a in b.attrs):
                continue
            b.body.append(_Attr("depends_on", b.line, 0, _Expr("list", b.line, 0)))

    def names_step(self, e: _Expr) -> bool:
        if e.kind == "ref":
            return any(m.group(1) in self.steps.values() for m in re.finditer(r"(?<!\w)([A-Za-z_]\w*+)\.", e.text))
        return any(self.names_step(i) for i in e.items)


def namelist_top(src: Source) -> list[_Attr | _Block]:
    """A namelist's groups as `hcl30`'s top-level blocks; its `!` comments become `#` comments in `src.text`
    (same lines and columns), which the comment readers take as the steps' and the run's words."""
    top = _Reader(src, _groups(src)).read()
    lines = []
    for raw in src.lines:
        _code, at = strip_comment(raw)
        if at is not None:  # Fortran's logicals in the words too: `issued = .true.` is `issued = true`
            raw = raw[:at] + "#" + _LOGICAL.sub(lambda m: m.group(1).lower(), raw[at + 1:])
        lines.append(raw)
    src.text = "\n".join(lines) + "\n"
    src.lines = src.text.splitlines()
    return top
