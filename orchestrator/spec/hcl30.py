"""A spec written as HCL (Terraform-, Nomad- or Packer-like blocks), read natively and handed to the YAML
form's readers as nodes with their lines, as `toml_form` does for TOML.

    variable "month" { description = "YYYY-MM" }     → the workflow input `month` (also `input`, `param`)
    locals { sign = "Priya" }                        → constants: `local.sign` is the literal "Priya"
    job "rollup" {                                   → a step, `rollup` (any block that says which skill it
      skill  = "yield-rollup"                           runs: `skill`, `uses`, `tool` = "...", itself or in a
      yields = job.per_site_yield[*]                    `config { }` block; `task`, `step`, `resource` alike)
      # on error 3 more goes, 10s apart              → the step's words (its comments, as in YAML)
    }
    check "finished" { condition = job.a.sent == true } → the run's success check (also `assert { condition }`)
    postcondition { condition = self.ok == true }    → inside a step (or its `lifecycle`): its own success check

A step's attributes that name a step key of the form (`depends_on`, `for_each`, `when`, `timeout`, `retries`,
`on_error`, ...) are those keys; every other attribute is one of its inputs (`month = var.month`,
`sign_off = "Priya"`: a quoted string is a literal). In values, `var.x` is the workflow input `x`, `each.value`
(`each.key`, `count.index`) the loop's item, `job.a.f` / `a.f` (any block type before the label) step `a`'s
output `f`, `job.a[*]` every result of step `a` gathered, `self.f` the step's own output, `&&` / `||` `and` /
`or`. Blocks that hold steps (Nomad's `job` / `group`) are read for them in document order. `output`,
`provider`, `terraform` and any other block that runs nothing are warned at their line and not read. A file in
which no block says which skill it runs is refused with one error: it is not a workflow. An HCL syntax error
is an error at its line. The plan's spec format is `yaml` (the form that reads it); the path keeps its suffix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.check import SpecParts
from orchestrator.spec.h24_left31 import otherwise_targets, skill_variables
from orchestrator.spec.source import Source
from orchestrator.spec.text_cursor import Cursor, LineError

_TAG = "tag:yaml.org,2002:"
SUFFIXES = (".hcl", ".tf", ".nomad")
_INPUT_BLOCKS = frozenset({"variable", "variables", "input", "inputs", "param", "params", "parameter", "arg"})
_LOCAL_BLOCKS = frozenset({"locals", "local", "constants", "defaults"})
_CHECK_BLOCKS = frozenset({"check", "assert", "success", "done", "done_when", "finished"})
_STEP_CHECKS = frozenset({"postcondition", "assert", "check", "success"})
_INPUT_MAPS = frozenset({"config", "with", "args", "params", "parameters", "inputs", "input", "env", "vars"})
_SKILL_WORDS = frozenset({"skill", "uses", "tool", "run_skill", "skill_name", "skill_ref", "does", "performs"})
# step keys of the form that an HCL author writes as the step's own settings, not as data for the skill
_FLOW = frozenset({"depends_on", "for_each", "when", "otherwise", "approval", "on_error", "if_still_failing",
                   "retry", "retries", "attempts", "timeout", "retry_for", "backoff", "max_delay", "retry_delay",
                   "success", "compensation", "continue_on_error", "notes", "description", "name", "input"})
# words the form's tables take for a step key that HCL authors use as data (`sign_off = "Priya"`, `label`)
_DATA_WORDS = frozenset({"sign_off", "signoff", "key", "job", "task", "resource", "template", "action", "function",
                         "label", "title", "called", "about", "doc", "docs", "details", "comment", "comments",
                         "env", "variables", "given", "give", "feed", "fed", "expand", "over", "each", "cutoff"})
_REF = re.compile(r"(?<![\w.\"'])([A-Za-z_][\w-]*+)((?:\.[A-Za-z_][\w-]*+|\[\*\]|\[\d++\])++)")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_CLAUSE = re.compile(r"""^(?P<step>[\w-]++)\.(?P<field>[\w.-]++)\s*+(?P<op>==|!=|>=|<=|>|<)\s*+"""
                     r"""(?:(?P<value>"[^"]*+"|-?\d++(?:\.\d++)?|true|false|null)|[\w.\[\]*-]++)$""")
_ONE_INTERP = re.compile(r"^\$\{([^{}]*+)\}$")


@dataclass
class _Expr:
    kind: str  # str, tmpl, num, bool, null, ref, list, obj
    line: int
    col: int
    text: str = ""
    items: list[_Expr] = field(default_factory=list)
    pairs: list[tuple[str, int, int, _Expr]] = field(default_factory=list)


@dataclass
class _Attr:
    name: str
    line: int
    col: int
    expr: _Expr


@dataclass
class _Block:
    type: str
    labels: list[str]
    line: int
    col: int
    body: list[_Attr | _Block] = field(default_factory=list)

    @property
    def attrs(self) -> list[_Attr]:
        return [a for a in self.body if isinstance(a, _Attr)]

    @property
    def blocks(self) -> list[_Block]:
        return [b for b in self.body if isinstance(b, _Block)]


class HclSyntax(LineError):
    """A syntax error in an HCL file, at its line."""


def is_hcl(path: str) -> bool:
    """Whether the file's name says HCL (`.hcl`, `.tf`, `.nomad`, `x.pkr.hcl`)."""
    return Path(path).suffix.lower() in SUFFIXES


class _Scan(Cursor):
    """One pass over HCL text: blocks, attributes and their expressions, with lines and columns."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.comments: list[int] = []  # where each `//` comment starts

    def to_eol(self) -> None:
        while self.i < len(self.t) and self.t[self.i] != "\n":
            self.i += 1

    def blank(self, newlines: bool) -> None:
        while self.i < len(self.t):
            c = self.t[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.step()
            elif c == "#" or (c == "/" and self.peek(1) == "/"):
                if c == "/":
                    self.comments.append(self.i)
                self.to_eol()
            elif c == "/" and self.peek(1) == "*":
                end = self.t.find("*/", self.i + 2)
                end = len(self.t) if end < 0 else end + 2
                while self.i < end:
                    self.step()
            else:
                return

    def ident(self) -> str:
        start = self.i
        while self.i < len(self.t) and (self.t[self.i].isalnum() or self.t[self.i] in "_-"):
            self.i += 1
        return self.t[start:self.i]

    def string(self) -> str:
        """A quoted string from its opening quote; its text (escapes undone, `${...}` kept)."""
        start_line = self.line
        self.step()
        out: list[str] = []
        depth = 0
        while True:
            c = self.peek()
            if c == "" or (c == "\n" and depth == 0):
                raise HclSyntax(start_line, "a quoted string is not closed on its line")
            if c == "\\" and depth == 0:
                nxt = self.peek(1)
                out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, "\\" + nxt))
                self.step()
                self.step()
                continue
            if c == '"' and depth == 0:
                self.step()
                return "".join(out)
            if c == "$" and self.peek(1) == "{":
                depth += 1
            elif c == "}" and depth:
                depth -= 1
            out.append(c)
            self.step()

    def heredoc(self) -> str:
        self.i += 2
        if self.peek() == "-":
            self.i += 1
        marker = self.ident()
        self.to_eol()
        self.step()
        lines: list[str] = []
        while self.i < len(self.t):
            start = self.i
            self.to_eol()
            row = self.t[start:self.i]
            self.step()
            if row.strip() == marker:
                return "\n".join(lines)
            lines.append(row.strip())
        raise HclSyntax(self.line, f"the heredoc `<<{marker}` is not closed")

    def expr(self, inside: bool) -> _Expr:
        """An expression; `inside` a list or object, it also ends at `,`, `]` or `}`."""
        self.blank(inside)
        line, col, c = self.line, self.col(), self.peek()
        if c == '"':
            text = self.string()
            return _Expr("tmpl" if "${" in text else "str", line, col, text)
        if c == "<" and self.peek(1) == "<":
            return _Expr("str", line, col, self.heredoc())
        if c == "[":
            self.step()
            items: list[_Expr] = []
            while True:
                self.blank(True)
                if self.peek() in ("]", ""):
                    break
                if self.peek() == "*":  # `x[*]` handled in a reference; a bare `[*` is no list
                    break
                before = self.i
                items.append(self.expr(True))
                self.blank(True)
                if self.peek() == ",":
                    self.step()
                elif self.i == before:
                    raise HclSyntax(self.line, f"'{self.peek()}' cannot start a value in this list")
            if self.peek() != "]":
                raise HclSyntax(line, "a list `[` is not closed")
            self.step()
            return _Expr("list", line, col, items=items)
        if c == "{":
            self.step()
            pairs: list[tuple[str, int, int, _Expr]] = []
            while True:
                self.blank(True)
                if self.peek() in ("}", ""):
                    break
                kline, kcol = self.line, self.col()
                key = self.string() if self.peek() == '"' else self.ident()
                if not key:
                    raise HclSyntax(self.line, f"'{self.peek()}' cannot start a key in this object")
                self.blank(False)
                if self.peek() not in ("=", ":"):
                    raise HclSyntax(kline, f"the key '{key}' has no `=` after it")
                self.step()
                pairs.append((key, kline, kcol, self.expr(True)))
                self.blank(True)
                if self.peek() == ",":
                    self.step()
            if self.peek() != "}":
                raise HclSyntax(line, "an object `{` is not closed")
            self.step()
            return _Expr("obj", line, col, pairs=pairs)
        return self.raw(line, col, inside)

    def raw(self, line: int, col: int, inside: bool) -> _Expr:
        start, depth = self.i, 0
        while self.i < len(self.t):
            c = self.t[self.i]
            if c == '"':
                self.string()
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (c == "\n" or c == "#" or (c == "/" and self.peek(1) in "/*")
                                 or (inside and c == ",")):
                break
            self.step()
        text = self.t[start:self.i].strip()
        if not text:
            raise HclSyntax(line, "an attribute has no value after its `=`")
        if _NUMBER.fullmatch(text):
            return _Expr("num", line, col, text)
        if text in ("true", "false"):
            return _Expr("bool", line, col, text)
        if text == "null":
            return _Expr("null", line, col, text)
        return _Expr("ref", line, col, text)

    def body(self, top: bool) -> list[_Attr | _Block]:
        out: list[_Attr | _Block] = []
        while True:
            self.blank(True)
            c = self.peek()
            if c == "":
                if not top:
                    raise HclSyntax(self.line, "a block `{` is not closed before the end of the file")
                return out
            if c == "}":
                if top:
                    raise HclSyntax(self.line, "a `}` closes no block")
                self.step()
                return out
            line, col = self.line, self.col()
            name = self.ident()
            if not name:
                raise HclSyntax(line, f"'{c}' cannot start an attribute or a block here")
            self.blank(False)
            if self.peek() == "=" and self.peek(1) != "=":
                self.step()
                out.append(_Attr(name, line, col, self.expr(False)))
                continue
            labels: list[str] = []
            while self.peek() not in ("{", ""):
                if self.peek() == '"':
                    labels.append(self.string())
                elif (word := self.ident()):
                    labels.append(word)
                else:
                    raise HclSyntax(line, f"`{name}` is neither `{name} = value` nor a block `{name} \"label\" {{`")
                self.blank(False)
            if self.peek() != "{":
                raise HclSyntax(line, f"the block `{name}` has no `{{`")
            self.step()
            out.append(_Block(name, labels, line, col, self.body(False)))


def _mark(path: str, line: int, col: int) -> Mark:
    return Mark(path, 0, line - 1, col, None, None)


def _s(path: str, text: str, line: int, col: int, tag: str = "str") -> ScalarNode:
    m = _mark(path, line, col)
    return ScalarNode(f"{_TAG}{tag}", text, m, m, style='"' if tag == "str" else None)


def _plain(name: str) -> str:
    return re.sub(r"[^\w-]+", "-", name.strip()).strip("-") or "step"


class _Reader:
    def __init__(self, src: Source, top: list[_Attr | _Block]) -> None:
        self.src = src
        self.path = src.path
        self.top = top
        self.locals: dict[str, _Expr] = {}
        self.step_ids: dict[str, str] = {}  # a block's label -> its step id
        self.kinds: set[str] = set()  # block types that are steps
        self.inputs: list[str] = []
        self.skill_vars: dict[str, str] = {}  # `skill = var.x`: x -> its default, the skill (`spec.h24_left31`)
        self.flips: dict[str, str] = {}  # `otherwise = job.b` on a step with a `when`: b -> that step

    # -- references --------------------------------------------------------------------

    def ref_text(self, text: str, own: str | None = None, condition: bool = False) -> str:
        """An HCL expression's references in the form's words (module docstring)."""

        def one(m: re.Match[str]) -> str:
            head, rest = m.group(1), m.group(2)
            parts = re.findall(r"\.[A-Za-z_][\w-]*|\[\*\]|\[\d+\]", rest)
            if head in ("var", "variable", "input", "inputs", "param") and parts and parts[0].startswith("."):
                return "inputs" + rest
            if head in ("local", "locals") and parts and (e := self.locals.get(parts[0][1:])) is not None:
                if e.kind == "str":
                    return f'"{e.text}"' if condition else e.text
                return e.text
            if head in ("each", "count") and parts:
                tail = "".join(parts[1:])
                return "item" + tail
            if head == "self" and parts:
                return "".join(parts)[1:] if own is None else own + rest
            if head in self.step_ids:
                return self.step_ids[head] + rest
            if parts and parts[0].startswith(".") and parts[0][1:] in self.step_ids and (
                    head in self.kinds or head in ("module", "data", "job", "task", "step", "steps", "resource")):
                return self.step_ids[parts[0][1:]] + "".join(parts[1:])
            return m.group(0)

        out = _REF.sub(one, text)
        if condition:
            out = out.replace("&&", " and ").replace("||", " or ")
            out = re.sub(r"\s{2,}", " ", out)
        return out.strip()

    def value(self, e: _Expr, own: str | None = None) -> Node:
        path = self.path
        if e.kind == "str":
            return _s(path, e.text, e.line, e.col)
        if e.kind == "tmpl":
            whole = _ONE_INTERP.match(e.text)
            if whole is not None:
                return _s(path, self.ref_text(whole.group(1), own), e.line, e.col)
            text = re.sub(r"\$\{([^{}]*+)\}", lambda m: "${" + self.ref_text(m.group(1), own) + "}", e.text)
            return _s(path, text, e.line, e.col)
        if e.kind == "num":
            return _s(path, e.text, e.line, e.col, "float" if "." in e.text or "e" in e.text.lower() else "int")
        if e.kind == "bool":
            return _s(path, e.text, e.line, e.col, "bool")
        if e.kind == "null":
            return _s(path, "null", e.line, e.col, "null")
        m = _mark(path, e.line, e.col)
        if e.kind == "list":
            return SequenceNode(f"{_TAG}seq", [self.value(i, own) for i in e.items], m, m)
        if e.kind == "obj":
            return MappingNode(f"{_TAG}map", [(_s(path, k, kl, kc), self.value(v, own)) for k, kl, kc, v in e.pairs],
                               m, m)
        text = self.ref_text(e.text, own)
        local = re.fullmatch(r"locals?\.([A-Za-z_][\w-]*+)((?:\.[A-Za-z_][\w-]*+)*+)", e.text.strip())
        lit = self.locals.get(local.group(1)) if local is not None else None
        for key in local.group(2).split(".")[1:] if local is not None else ():  # `local.site.name`: its field
            lit = next((v for k, _l, _c, v in lit.pairs if k == key), None) if lit is not None else None
        if lit is not None:
            return self.value(lit, own)
        return _s(path, text, e.line, e.col)

    # -- blocks --------------------------------------------------------------------------

    def skill_attr(self, block: _Block) -> _Attr | None:
        for a in block.attrs:
            if yk.key_name(a.name) in _SKILL_WORDS:
                return a
        for inner in block.blocks:
            if yk.key_name(inner.type) in _INPUT_MAPS:
                for a in inner.attrs:
                    if yk.key_name(a.name) in _SKILL_WORDS:
                        return a
        return None

    def find_steps(self, body: list[_Attr | _Block], out: list[_Block]) -> None:
        for b in body:
            if not isinstance(b, _Block) or b.type in _INPUT_BLOCKS or b.type in _LOCAL_BLOCKS:
                continue
            if self.skill_attr(b) is not None:
                out.append(b)
            elif b.type not in _CHECK_BLOCKS:
                self.find_steps(b.body, out)

    def read(self) -> Node:
        path = self.path
        for b in self.outer(self.top):
            if b.type in _LOCAL_BLOCKS:
                for a in b.attrs:
                    self.locals[a.name] = a.expr
        steps: list[_Block] = []
        self.find_steps(self.top, steps)
        if not steps:
            kinds = sorted({" ".join([b.type, *(f'"{x}"' for x in b.labels[:1])]) for b in self.outer(self.top)})
            said = f" (its blocks: {', '.join(kinds)})" if kinds else ""
            if self.path.lower().endswith(".nix"):  # `spec.nix45`: the sets of the set it returns
                self.src.error(1, "this Nix file is not read as a workflow: no attribute set in the set it returns "
                                  "says which skill it runs (`name = { skill = \"...\"; };`)", "spec.no-steps")
            else:
                self.src.error(1, "this HCL file is not read as a workflow: no block in it says which skill it runs "
                                  f"(`skill = \"name\"` in a `job`, `task` or `step` block){said}", "spec.no-steps")
            self.src.raise_if_errors()
        for b in steps:
            label = b.labels[-1] if b.labels else b.type
            self.step_ids[label] = _plain(label)
            self.kinds.add(b.type)
        self.branches(steps)
        items: list[tuple[Node, Node]] = []
        top_col = 0
        inputs = self.input_nodes()
        if inputs:
            items.append((_s(path, "inputs", inputs[0][0].start_mark.line + 1, top_col),
                          MappingNode(f"{_TAG}map", inputs, inputs[0][0].start_mark, inputs[0][0].start_mark)))
        for a in (x for x in self.top if isinstance(x, _Attr)):  # `name = ...`, `timeout = "1h"` at the top
            items.append((_s(path, a.name, a.line, a.col), self.value(a.expr)))
        step_nodes = [self.step_node(b) for b in steps]
        first = steps[0]
        items.append((_s(path, "steps", first.line, top_col),
                      SequenceNode(f"{_TAG}seq", step_nodes, _mark(path, first.line, 0), _mark(path, first.line, 0))))
        # `check { condition = a.sent == true }`, `done_when $a.sent = true;`: the run's success check, on step a's
        # output, judged once the run has ended (`yaml_top.run_success`); a part said twice (`assert` in `check`) once
        checks: list[tuple[str, str, int]] = []
        for sid, said, n in self.run_checks():
            if not any(c[:2] == (sid, said) for c in checks):
                checks.append((sid, said, n))
        if checks:
            line = checks[0][2]
            items.append((_s(path, "success", line, top_col),
                          _s(path, " and ".join(f"steps.{sid}.output.{said}" for sid, said, _ in checks), line, 0)))
        self.warn_unread(self.top, steps)
        m = _mark(path, 1, 0)
        return MappingNode(f"{_TAG}map", items, m, m)

    def branches(self, steps: list[_Block]) -> None:
        """The skills named by a variable's default and the otherwise branches named on a conditional step
        (`spec.h24_left31`)."""
        defaults = {b.labels[0]: a.expr.text for b in self.outer(self.top) if b.type in _INPUT_BLOCKS and b.labels
                    for a in b.attrs if a.name == "default" and a.expr.kind == "str"}
        said = [sa.expr.text for b in steps if (sa := self.skill_attr(b)) is not None and sa.expr.kind == "ref"]
        self.skill_vars = skill_variables(said, defaults)
        order = [self.step_ids[b.labels[-1] if b.labels else b.type] for b in steps]
        has_when, named = set(), {}
        for sid, b in zip(order, steps, strict=True):
            for a in b.attrs:
                if yk.step_key(a.name) == "when":
                    has_when.add(sid)
                elif yk.step_key(a.name) == "otherwise" and a.expr.kind == "ref":
                    named[sid] = self.dep_id(a.expr)
        self.flips = otherwise_targets(order, named, has_when)

    def outer(self, body: list[_Attr | _Block]) -> list[_Block]:
        """The blocks of `body` and of the blocks holding steps in it (a Nomad `job { variable ... }`), not the
        steps' own blocks."""
        out: list[_Block] = []
        for b in body:
            if isinstance(b, _Block):
                out.append(b)
                if self.skill_attr(b) is None and b.type not in _INPUT_BLOCKS and b.type not in _LOCAL_BLOCKS:
                    out.extend(self.outer(b.body))
        return out

    def input_nodes(self) -> list[tuple[Node, Node]]:
        path = self.path
        out: list[tuple[Node, Node]] = []
        for b in self.outer(self.top):
            if b.type not in _INPUT_BLOCKS:
                continue
            if not b.labels:  # `variables { region = "North" }`: each attribute an input, its value the default
                for a in b.attrs:
                    entry = [(_s(path, "default", a.line, a.col), self.value(a.expr))]
                    out.append((_s(path, a.name, a.line, a.col),
                                MappingNode(f"{_TAG}map", entry, _mark(path, a.line, a.col), _mark(path, a.line, a.col))))
                    self.inputs.append(a.name)
                continue
            name = b.labels[0]
            if name in self.skill_vars:  # `skill = var.name`: the skill its default names, no input of the run
                self.src.warn(b.line, f"input '{name}' names a step's skill: read as its default, skill "
                                      f"`{self.skill_vars[name]}`; a plan names its skills, so a run cannot change it "
                                      "and it is no input of the run", "spec.read")
                continue
            self.inputs.append(name)
            entry = []
            for a in b.attrs:
                key = yk.key_name(a.name)
                if key in ("description", "default", "help", "about"):
                    entry.append((_s(path, key, a.line, a.col), self.value(a.expr)))
                elif key == "type" and a.expr.kind == "ref":
                    kind = a.expr.text.split("(")[0].strip()
                    kind = {"list": "array", "set": "array", "tuple": "array", "map": "object"}.get(kind, kind)
                    if kind in ("string", "number", "bool", "array", "object"):
                        entry.append((_s(path, "type", a.line, a.col), _s(path, kind, a.expr.line, a.expr.col)))
                elif key not in ("nullable", "sensitive", "type"):
                    self.src.warn(a.line, f"input '{name}': `{a.name}` is not read", "spec.unread")
            for inner in b.blocks:
                self.src.warn(inner.line, f"input '{name}': the `{inner.type}` block is not read", "spec.unread")
            m = _mark(path, b.line, b.col)
            out.append((_s(path, name, b.line, b.col), MappingNode(f"{_TAG}map", entry, m, m)))
        return out

    def step_node(self, b: _Block) -> Node:
        path = self.path
        label = b.labels[-1] if b.labels else b.type
        sid = self.step_ids[label]
        keys = [a for a in b.attrs]
        col = min((a.col for a in b.body), default=b.col + 2)
        items: list[tuple[Node, Node]] = [(_s(path, "id", b.line, col), _s(path, sid, b.line, col))]
        inputs: list[tuple[Node, Node]] = []
        checks: list[str] = []
        check_line = 0
        for inner in b.blocks:
            kind = yk.key_name(inner.type)
            if kind in _INPUT_MAPS:
                keys.extend(inner.attrs)  # `config { skill = ..., url = ... }`: the step's own
            elif kind == "lifecycle" or kind in _STEP_CHECKS:
                for c in [inner] if kind in _STEP_CHECKS else [x for x in inner.blocks if x.type in _STEP_CHECKS]:
                    for a in c.attrs:
                        if a.name == "condition":
                            checks.append(self.ref_text(a.expr.text, None, condition=True))
                            check_line = check_line or a.line
                for x in inner.blocks:
                    if x.type not in _STEP_CHECKS:
                        self.src.warn(x.line, f"{sid}: the `{x.type}` block is not read", "spec.unread")
            else:  # `retry { attempts = 3 }`: a mapping of the step's, read by the form
                node = MappingNode(f"{_TAG}map", [(_s(path, a.name, a.line, a.col), self.value(a.expr, sid))
                                                  for a in inner.attrs], _mark(path, inner.line, inner.col),
                                   _mark(path, inner.line, inner.col))
                items.append((_s(path, inner.type, inner.line, inner.col), node))
        for a in keys:
            name = yk.key_name(a.name)
            canonical = yk.step_key(a.name)
            if name in _SKILL_WORDS and a.expr.kind == "ref" and (var := a.expr.text.strip().partition(".")[2]) in (
                    self.skill_vars):
                items.append((_s(path, "skill", a.line, a.col), _s(path, self.skill_vars[var], a.expr.line, a.expr.col)))
            elif name in _SKILL_WORDS:
                items.append((_s(path, "skill", a.line, a.col), self.value(a.expr, sid)))
            elif canonical == "otherwise" and sid in self.flips.values():
                continue  # it names its otherwise branch: said on that step (`branches`)
            elif canonical == "depends_on":
                deps = a.expr.items if a.expr.kind == "list" else [a.expr]
                seq = [_s(path, self.dep_id(d), d.line, d.col) for d in deps]
                items.append((_s(path, "depends_on", a.line, a.col),
                              SequenceNode(f"{_TAG}seq", seq, _mark(path, a.line, a.col), _mark(path, a.line, a.col))))
            elif canonical == "for_each":
                over = self.value(a.expr, sid)
                text = over.value if isinstance(over, ScalarNode) else ""
                items.append((_s(path, "for_each", a.line, a.col),
                              _s(path, f"item in {text}", a.expr.line, a.expr.col) if text else over))
            elif canonical == "when":
                text = a.expr.text if a.expr.kind in ("ref", "bool") else (a.expr.text or "")
                items.append((_s(path, "when", a.line, a.col),
                              _s(path, self.ref_text(text, None, condition=True), a.expr.line, a.expr.col)))
            elif canonical in _FLOW and name not in _DATA_WORDS and canonical != "input":
                items.append((_s(path, a.name, a.line, a.col), self.value(a.expr, sid)))
            elif canonical == "input" and a.expr.kind == "obj":
                inputs.extend((_s(path, k, kl, kc), self.value(v, sid)) for k, kl, kc, v in a.expr.pairs)
            elif name in ("driver", "provider", "count", "version", "source", "type"):
                self.src.warn(a.line, f"{sid}: `{a.name} = ...` says how the block is run, not what the skill "
                                      "takes: not read", "spec.unread")
            else:
                inputs.append((_s(path, a.name, a.line, a.col), self.value(a.expr, sid)))
        if sid in self.flips:  # the otherwise branch another step named
            items.append((_s(path, "otherwise", b.line, col), _s(path, self.flips[sid], b.line, col)))
        if inputs:
            first = inputs[0][0].start_mark
            items.append((_s(path, "input", first.line + 1, col),
                          MappingNode(f"{_TAG}map", inputs, first, first)))
        if checks:
            items.append((_s(path, "success", check_line, col), _s(path, " and ".join(checks), check_line, col)))
        m = _mark(path, b.line, b.col)
        end = _mark(path, b.line, b.col)
        return MappingNode(f"{_TAG}map", items, m, end)

    def dep_id(self, e: _Expr) -> str:
        text = e.text.strip()
        for part in reversed(re.split(r"[.\[\]]", text)):
            if part in self.step_ids:
                return self.step_ids[part]
        return text

    def run_checks(self) -> list[tuple[str, str, int]]:
        """The `check` blocks' conditions split at `and`: (step id, `field op value`, line) for each part that
        compares one step's output with a value; any other part is warned at its line as not checked."""
        out: list[tuple[str, str, int]] = []
        for b in self.outer(self.top):
            if b.type not in _CHECK_BLOCKS:
                continue
            for c in [b, *(x for x in b.blocks if x.type in ("assert", "condition"))]:
                for a in c.attrs:
                    if a.name in ("condition", "when", "that", "expect"):
                        out.extend(self.check_parts(a))
            for x in b.blocks:
                if x.type not in ("assert", "condition"):
                    self.src.warn(x.line, f"check: the `{x.type}` block is not read", "spec.unread")
        return out

    def check_parts(self, a: _Attr) -> list[tuple[str, str, int]]:
        out: list[tuple[str, str, int]] = []
        for part in re.split(r"&&|\band\b", a.expr.text):
            text = self.ref_text(part, None, condition=True)
            m = _CLAUSE.match(text.strip())
            if m is not None and m.group("value") is None:  # `a.f == b.g`: two values of the run
                self.src.warn(a.line, f"the success check's part '{text}' compares two values of the run, not an "
                                      "output with a value: not checked", "spec.success")
                continue
            if m is None or m.group("step") not in self.step_ids.values():
                self.src.warn(a.line, f"the success check's part '{text}' does not compare one step's output "
                                      "with a value: not checked", "spec.success")
                continue
            out.append((m.group("step"), f"{m.group('field')} {m.group('op')} {m.group('value')}", a.line))
        return out

    def warn_unread(self, body: list[_Attr | _Block], steps: list[_Block], holding: set[int] | None = None) -> None:
        taken = {id(b) for b in steps}
        if holding is None:  # the blocks that hold a step, found in one pass
            holding = set()
            self.holders(self.top, taken, holding)
        for b in body:
            if not isinstance(b, _Block) or id(b) in taken:
                continue
            if b.type in _INPUT_BLOCKS or b.type in _LOCAL_BLOCKS or b.type in _CHECK_BLOCKS:
                continue
            if id(b) in holding:
                self.warn_unread(b.body, steps, holding)
                for a in b.attrs:
                    self.src.warn(a.line, f"`{a.name}` of the `{b.type}` block that holds steps is not read",
                                  "spec.unread")
                continue
            what = " ".join([b.type, *(f'"{x}"' for x in b.labels)])
            self.src.warn(b.line, f"the block `{what}` runs no skill (no `skill = ...`): not read", "spec.unread")

    def holders(self, body: list[_Attr | _Block], taken: set[int], out: set[int]) -> bool:
        """Whether `body` holds a step; each block that does goes into `out`."""
        found = False
        for b in body:
            if isinstance(b, _Block) and id(b) not in taken and self.holders(b.body, taken, out):
                out.add(id(b))
                found = True
            found = found or (isinstance(b, _Block) and id(b) in taken)
        return found


def read_hcl(src: Source) -> SpecParts:
    """Read an HCL spec (module docstring); a syntax error or a file with no step stops here, at its line."""
    from orchestrator.spec.jcl50 import is_jcl, jcl_top
    from orchestrator.spec.key_comments27 import read_whole_run_comments
    from orchestrator.spec.namelist50 import is_namelist, namelist_top
    from orchestrator.spec.nginx49 import NginxSyntax, is_nginx, nginx_top
    from orchestrator.spec.nix45 import is_nix, nix_top
    from orchestrator.spec.yaml_form import read_yaml

    nix = is_nix(src.path)  # a `.nix` file: its function's arguments, `let` and set read as blocks (`spec.nix45`)
    jcl = not nix and not is_hcl(src.path) and is_jcl(src.path, src.text)  # a JCL job deck (`spec.jcl50`)
    nginx = not nix and not jcl and not is_hcl(src.path) and is_nginx(src.path, src.text)  # `key value;` blocks (`spec.nginx49`)
    nml = not nix and not jcl and not nginx and not is_hcl(src.path) and is_namelist(src.path, src.text)  # `spec.namelist50`
    scan = _Scan(src.text)
    try:
        top = jcl_top(src) if jcl else namelist_top(src) if nml else nix_top(src) if nix else nginx_top(src) if nginx else scan.body(True)
    except NginxSyntax as exc:
        src.error(exc.line, f"block config syntax: {exc}", "spec.nginx")
        src.raise_if_errors()
        raise
    except HclSyntax as exc:
        src.error(exc.line, f"{'Nix' if nix else 'HCL'} syntax: {exc}", "spec.nix" if nix else "spec.hcl")
        src.raise_if_errors()
        raise
    if scan.comments:  # `// note` read as the `# note` the comment readers know (same columns)
        chars = list(src.text)
        for at in scan.comments:
            chars[at:at + 2] = ["#", " "]
        src.text = "".join(chars)
        src.lines = src.text.splitlines()
    root = _Reader(src, top).read()
    read_whole_run_comments(src)  # the head's comments speak for the whole run (`key_comments27`)
    return read_yaml(src, root)
