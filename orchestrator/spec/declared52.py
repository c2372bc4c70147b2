"""The run inputs a spec declares in its own syntax, read without knowing the syntax (round 52).

    declared_inputs(lines) -> [DeclaredInput(name, line, default, type, container), ...]

Three constructions, each read the same in any language:

(a) A group whose name says it holds the run's inputs: a block, object, type, struct, message, section or
    argument list whose opening line has a word `input(s)`, `arg(s)`/`argv`/`argument(s)`, `param(s)`/
    `parameter(s)`, `request`, `run`, `kickoff` or `given` (any case, as a word or a part of a
    camel/snake name: `ResetKickoff`, `RunRequest`, `run_args`). It opens with `{`, `(`, `[`, `do`,
    `begin`, a trailing `:` (an indented body), `&name` (a namelist, up to `/` or `&end`) or `[name]` (an
    INI section, up to the next section) and its members are its names: `name: Type`, `name = ''`,
    `Type name = 1;`, `name Type`, `[type]$name = "x"`, `name: nil`, a bare `name`; the value a default
    unless it is a type word or a placeholder. A group most of whose lines are no such member (code) is
    not read.
(b) Two or more declarations side by side, outside any group, whose value is empty or a placeholder
    (`''`, `""`, `None`, `null`, `nil`, `undef`, `?`, `<...>`, `TBD`, `____`): `SET WARD=`,
    `#define SITE ""`, `set site ""`, `%let site=;`, `site := ""`, `my $x = undef;`.
(c) A command-line or environment declaration: `my $ward = shift @ARGV;`, `site = ARGV[0]`, `REGION ?= north`,
    `SITE=$1`, `SET SITE=%1`, `set site [lindex $argv 0]`, `add_argument("--site", default="x")`,
    `val site: String by project`, `${SITE:?}` / `${SITE:-x}`, `read -p "..." SITE`, `site = input(...)`,
    `os.environ["SITE"]`, `os.getenv("SITE")`, `ENV["SITE"]`, `process.env.SITE`, `$env:SITE`,
    `X=$OPTARG` (getopts).

Pure: lines in, declarations out, each at its 1-based line. Nothing here knows the catalog; the caller
(`spec.declared_use52`) keeps the names the steps use. Every pattern is anchored or bounded.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.regex_cache import Patterns

__all__ = ["DeclaredInput", "declared_inputs", "name_key", "reference_names"]

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)


class DeclaredInput(BaseModel):
    """One run input as the spec declares it."""

    model_config = ConfigDict(frozen=True)

    name: str
    line: int  # 1-based
    default: str | None = None  # the value as written (quotes off); None: none, or a placeholder
    type: str | None = None  # the type word as written (`String!`, `str`, `[string]`)
    container: str | None = None  # the group or mechanism: 'ResetKickoff', 'run', 'ARGV', 'env', 'argparse'


_INPUTISH = frozenset({"input", "inputs", "arg", "args", "argv", "argument", "arguments", "param", "params",
                       "parameter", "parameters", "request", "run", "kickoff", "given", "givens"})
_NOT_MEMBERS = _INPUTISH | {"self", "cls", "kwargs", "ctx", "context", "this", "end", "do", "begin", "return",
                            "if", "else", "for", "while", "def", "function", "func", "fn", "let", "var", "val",
                            "const", "my", "our", "local", "set", "export", "string", "int", "integer", "str",
                            "bool", "boolean", "float", "number", "list", "dict", "map", "true", "false"}
_KINDS = frozenset({"struct", "class", "record", "message", "type", "input", "interface", "object", "section",
                    "module", "data", "enum", "defmodule", "schema", "table", "def", "function", "func", "fn", "sub",
                    "proc", "procedure", "macro", "let", "var", "val", "const", "my", "local", "set", "public",
                    "private", "static", "export", "extend"})
_TYPE_WORDS = frozenset({"string", "str", "int", "integer", "int32", "int64", "uint32", "uint64", "float", "double",
                         "float32", "float64", "number", "bool", "boolean", "date", "datetime", "time", "char",
                         "text", "id", "long", "short", "decimal", "real", "any", "object", "list", "array",
                         "dict", "map", "bytes", "byte", "numeric", "character", "logical", "varchar"})
_PLACEHOLDER = _rx(r"^(?:''|\"\"|``|\[\]|\{\}|None|none|NONE|null|NULL|Null|nil|NIL|undef|undefined|\?++|<[^<>\n]{0,60}+>"
                   r"|TBD|tbd|TODO|todo|_{2,60}+|\.{3}|…|-{2,10}+"
                   r"|([\"']?+)(?:Y{2,4}+|M{2}+|D{2}+|N{2,9}+|X{2,20}+|9{2,20}+|#{2,20}+)(?:[-/.:][YMDNX9#]{1,4}+){0,3}+\1)?+$")
_LITERAL = _rx(r"^(?:\"([^\"\n]{0,200}+)\"|'([^'\n]{0,200}+)'|(-?\d{1,20}+(?:\.\d{1,20}+)?+)|(true|false|True|False|"
               r"TRUE|FALSE|yes|no)|([A-Za-z0-9][\w.@#/+:-]{0,80}+))$")
_IDENT = _rx(r"[A-Za-z_][A-Za-z0-9_]{0,80}+")
_PARTS = _rx(r"[A-Z]{2,}+(?![a-z])|[A-Z]?+[a-z]++|\d++")
_MARK = _rx(r"(?:#|//|--|;|!|%|'|::|(?i:REM))(?:[ \t]|$)")

# a group opening: what precedes the bracket (its kind and name words), then `{`, `(`, `[`, do/begin, `:`
_OPEN = _rx(r"^(?P<indent>[ \t]{0,40}+)(?P<head>[A-Za-z_%@.:$\"'][\w.:$\"' \t<>-]{0,160}?)[ \t]*+"
            r"(?P<open>\{|\(|\[|=[ \t]*+\{|=[ \t]*+\(|:[ \t]*+\{|\bdo\b|\bbegin\b|:(?=[ \t]*+$)|=[ \t]*+\[)"
            r"(?P<rest>[^\n]{0,2000}+)$")
_NAMELIST = _rx(r"^[ \t]{0,40}+[&$](?P<name>[A-Za-z_]\w{0,60}+)\b(?P<rest>[^\n]{0,2000}+)$")
_SECTION = _rx(r"^[ \t]{0,8}+\[[ \t]*+(?P<name>[A-Za-z_][\w.-]{0,60}+)[ \t]*+\][ \t]*+$")
_GAP = _rx(r"[ \t]{2,}+")  # a wide gap: what follows a value is a note (`SET RUNMON='YYYY-MM'    <== MONTH`)
_TAG = _rx(r"`[^`\n]{0,200}+`[ \t]*+$")  # a Go struct tag
_BTYPE = _rx(r"^\[(?P<type>[^\[\]\n]{1,40}+)\][ \t]*+(?P<rest>[^\n]{0,200}+)$")  # `[string]$Site`
# (b) a single declaration of a placeholder or value at the top level
_DECL = _rx(r"^[ \t]{0,40}+(?:(?P<kw>(?i:set|let|%let|my|our|local|var|const|val|export|declare|global|#define|define|"
            r"dim))[ \t]++)?+[$@%&]?+(?P<name>[A-Za-z_][A-Za-z0-9_]{0,60}+)"
            r"(?:[ \t]*+(?P<sep>:=|=|:)[ \t]*+|[ \t]++)(?P<value>[^\n]{0,200}+)$")
# (c) a variable assigned from the command line, stdin or the environment
_ASSIGN = _rx(r"^[ \t]{0,40}+(?:[\w|*-]{1,20}+\)[ \t]*+)?+(?:(?i:set|let|%let|my|our|local|var|const|val|export|"
              r"declare|dim)[ \t]++)?+(?P<names>\([ \t$@%&\w,]{1,200}+\)|[$@%&]?+[A-Za-z_][A-Za-z0-9_]{0,60}+)"
              r"[ \t]*+(?::=|=|:(?!:))[ \t]*+(?P<value>[^\n]{1,300}+)$")
_CMDLINE = _rx(r"^[\"'(\[ \t]{0,3}+(?:[A-Za-z_.]{1,20}+\([ \t]*+)?@?+(?:shift\b(?=[ \t]*+(?:@ARGV|@_|;|\)|\|\||or\b|//|$))|"
               r"(?:\$?+ARGV|argv|sys\.argv|os\.Args|process\.argv|commandArgs|A_Args|&?+sysparm|\$?+args)\b|\$\{?+[1-9]\}?+(?!\w)|"
               r"%[1-9](?!\d)|\$OPTARG\b|(?:Read-Host|InputBox|readline|raw_input|input|prompt)\b(?=[ \t]*+[(\"'-]|[ \t]*+$)|"
               r"(?:STDIN\.|\$stdin\.)?+gets\b(?=[.(]|[ \t]*+$))")
_DIGIT = _rx(r"[1-9]")
_ENV_USE = _rx(r"(?:\bos\.environ\[|\bos\.environ\.get\(|\b(?:os\.)?+getenv\(|\bENV\[|\bENV\.fetch\(|"
               r"\bSys\.getenv\(|\bSystem\.getenv\(|\bos\.Getenv\(|\bEnvironment\.GetEnvironmentVariable\()"
               r"[ \t]*+[\"'](?P<name>[A-Za-z_][A-Za-z0-9_]{0,60}+)[\"'](?:[ \t]*+,[ \t]*+(?P<default>\"[^\"\n]{0,80}+\""
               r"|'[^'\n]{0,80}+'|[\w.-]{1,40}+))?+|\bprocess\.env\.(?P<js>[A-Za-z_][A-Za-z0-9_]{0,60}+)"
               r"|\$env:(?P<ps>[A-Za-z_][A-Za-z0-9_]{0,60}+)")
_EXPANSION = _rx(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]{0,60}+)(?P<op>:[?-]|\?)(?P<default>[^{}\n]{0,80}+)\}")
_READ = _rx(r"^[ \t]{0,40}+read\b(?:[ \t]++-[a-z]{1,3}+(?:[ \t]++(?:\"[^\"\n]{0,120}+\"|'[^'\n]{0,120}+'|\S{1,40}+))?+)"
            r"{0,4}+(?P<names>(?:[ \t]++[A-Za-z_][A-Za-z0-9_]{0,60}+){1,8}+)[ \t]*+;?+[ \t]*+$")
_ARGPARSE = _rx(r"\badd_argument\([ \t]*+[\"'](?:-[A-Za-z][\"'][ \t]*+,[ \t]*+[\"'])?+-{0,2}+"
                r"(?P<name>[A-Za-z_][\w-]{0,60}+)[\"'](?P<rest>[^\n]{0,400}+)$")
_OPTION = _rx(r"\.(?:option|requiredOption)\([ \t]*+[\"'](?:-[A-Za-z],[ \t]*+)?+--(?P<name>[A-Za-z][\w-]{0,60}+)")
_KW = _rx(r"\b(?P<key>default|type)[ \t]*+=[ \t]*+(?P<value>\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|[\w.]{1,40}+)")
_BY_PROJECT = _rx(r"^[ \t]{0,40}+(?:val|var)[ \t]++(?P<name>[A-Za-z_]\w{0,60}+)[ \t]*+(?::[ \t]*+(?P<type>[\w?]{1,40}+)"
                  r")?+[ \t]++by[ \t]++project\b")
_PROPERTY = _rx(r"\b(?:findProperty|property|getProperty)\([ \t]*+[\"'](?P<name>[A-Za-z_][\w.-]{0,60}+)[\"']")
_OVERRIDE = _rx(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]{0,60}+)[ \t]*+\?=[ \t]*+(?P<value>[^\n]{0,200}+)$")  # make's `X ?= d`
_TCL_ARGV = _rx(r"^[ \t]{0,40}+set[ \t]++(?P<name>[A-Za-z_]\w{0,60}+)[ \t]++\[lindex[ \t]++\$argv[ \t]++\d++\]")


def name_key(name: str) -> str:
    """`siteCode`, `site_code`, `SITE-CODE` and `site code` alike: the name's letters, folded."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _words(text: str) -> list[str]:
    return [w.lower() for ident in _IDENT.findall(text) for w in [ident, *_PARTS.findall(ident)]]


def _inputish(head: str) -> bool:
    return any(w in _INPUTISH for w in _words(head))


def _uncomment(line: str) -> str:
    """`line` without a trailing comment (`#`, `//`, `--`, `;`, `!`, `%`, `'`, `::`, `REM` at the start or after
    a blank, then a blank or the end); a mark inside double quotes is text."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif not quoted and (i == 0 or line[i - 1] in " \t") and _MARK.match(line, i) is not None:
            return line[:i].rstrip()
    return line.rstrip()


def _split(body: str) -> list[str]:
    """`a: 1, b: "x, y"; c` -> its members, on `,` / `;` outside quotes and brackets."""
    out, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch in ",;" and depth == 0:
            out.append(body[start:i])
            start = i + 1
    out.append(body[start:])
    return [p.strip() for p in out if p.strip()]


def _value(raw: str | None, assigned: bool = False) -> tuple[bool, str | None, str | None]:
    """(a member's value is a placeholder, type or literal, its default, its type word); `assigned` (after `=`):
    a bare lower-case name is a reference to something else (`date = night`), no literal."""
    raw = (raw or "").strip().rstrip(",;").strip()
    if assigned and _IDENT.fullmatch(raw) is not None and raw.islower() and raw not in ("true", "false", "yes", "no") \
            and raw.lower() not in _TYPE_WORDS:
        return False, None, None
    if _PLACEHOLDER.match(raw):
        return True, None, None
    bare = raw.strip("[]!?*").split("[")[0].split("<")[0].lower()
    word = raw.strip("[]!?")
    if bare in _TYPE_WORDS or (word[:1].isupper() and _IDENT.fullmatch(word) is not None
                               and (raw != word or len(_PARTS.findall(word)) >= 2) and not word.isupper()):
        return True, None, raw  # `String!`, `[Int]`, `PropCount`: a type, no default
    m = _LITERAL.match(raw)
    if m is None:
        return False, None, None
    text = next((g for g in m.groups() if g is not None), raw)
    return True, text, None


def _cut(text: str) -> tuple[str, str | None]:
    """(what is left of the first separator `:=`, `=>`, `<-`, `=`, `:` outside quotes and brackets, what is right
    of it or None)."""
    quote, depth = "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith((":=", "=>", "<-"), i):
            return text[:i], text[i + 2:]
        elif depth == 0 and (ch == "=" or (ch == ":" and not text.startswith("::", i)
                                           and (i == 0 or text[i - 1] != ":"))):
            return text[:i], text[i + 1:]
    return text, None


def _bare(word: str) -> str:
    return word.strip("*&").lstrip("$@%:").strip("\"'")


def _typeword(word: str) -> bool:
    return word.lower().strip("[]?!*").split("[")[0].split("<")[0] in _TYPE_WORDS


def _typed_value(raw: str) -> tuple[str, str] | None:
    """(type, value) of a member's `Type = value`, or None."""
    left, right = _cut(raw)
    if right is None or raw[len(left):len(left) + 1] != "=" or not left.strip():
        return None
    ok, _, word = _value(left)
    return (word, right) if ok and word is not None else None


def _member(text: str, container: str | None, line: int, ini: bool = False) -> DeclaredInput | None:
    """A group's member as a declaration (module docstring (a)), or None when it is none (code, a call)."""
    cut = _TAG.sub("", text)
    left, raw = _cut(cut)
    assigned = raw is not None and cut[len(left):len(left) + 1] == "=" and not ini
    left = left.strip()
    typed = None
    while (b := _BTYPE.match(left)) is not None:  # `[Parameter(Mandatory)][string]$Site`: the last is the type
        typed, left = b.group("type"), b.group("rest")
    if left[:1] in "\"'" and raw is None:
        return None  # a quoted text alone: an argument, not a name
    words = [_bare(w) for w in left.split()]
    if not words or len(words) > 3 or any(_IDENT.fullmatch(w.replace("-", "_")) is None for w in words):
        return None
    name = words[-1]
    if len(words) >= 2 and _typeword(name) and raw is None:  # Go's `Site string`
        typed, name = typed or name, words[-2]
    elif len(words) >= 2 and _typeword(words[-2]):  # `string site = 1;` (a field number), `char *site;`
        typed = typed or words[-2]
        raw = None if raw is not None and raw.strip().strip(";").strip().isdigit() else raw
    if name.lower() in _NOT_MEMBERS:
        return None
    if raw is not None and (both := _typed_value(raw)) is not None:  # `week: Int = 14`, `site: str = "x"`
        typed, raw = both
    ok, default, word = _value(raw, assigned)
    if not ok:
        return None
    return DeclaredInput(name=name, line=line, default=default, type=typed or word, container=container)


def _in_item(lines: list[str], k: int) -> bool:
    """The line is a list item's or inside one (`- input: ...`, `  - id: x` / `    input:`): a step's, not the run's."""
    indent = len(lines[k]) - len(lines[k].lstrip())
    if lines[k].lstrip().startswith(("- ", "-\t")):
        return True
    for j in range(k - 1, max(-1, k - 60), -1):
        text = lines[j]
        if text.strip() and len(text) - len(text.lstrip()) < indent:
            return text.lstrip().startswith(("- ", "-\t"))
    return False


def _group(lines: list[str], k: int) -> tuple[str, list[tuple[int, str]], int] | None:
    """(container name, [(line, member text)], the line after the group) of a group opening at line k."""
    raw = _uncomment(lines[k])
    if (nl := _NAMELIST.match(raw)) is not None and not raw.lstrip().startswith(("&&", "$$")):
        name, rest = nl.group("name"), nl.group("rest")
        if not _inputish(name) or name.lower() == "end":
            return None
        members: list[tuple[int, str]] = []
        j = k
        body = rest
        while True:
            stop = re.search(r"(?:^|[ \t,])(?:/|&end|\$end)[ \t]*+$", body)
            members += [(j + 1, p) for p in _split(body[:stop.start()] if stop else body)]
            if stop or j + 1 >= len(lines):
                return name, members, j + 1
            j += 1
            body = _uncomment(lines[j])
    if (sec := _SECTION.match(raw)) is not None:
        name = sec.group("name")
        if not _inputish(name):
            return None
        members, j = [], k + 1
        while j < len(lines) and _SECTION.match(lines[j]) is None:
            members += [(j + 1, p) for p in _split(_uncomment(lines[j]))]
            j += 1
        return name, members, j
    m = _OPEN.match(raw)
    if m is None or not _inputish(m.group("head")) or _in_item(lines, k) or len(m.group("head").split()) > 4:
        return None  # "Fill in before each run: TANK (t)": a sentence, not a declaration
    head = m.group("head")
    idents = [w for w in _IDENT.findall(head) if w.lower() not in _KINDS]
    name = idents[-1] if idents else head.strip()
    if re.search(r"\.[ \t]*+[A-Za-z_]\w*+[ \t]*+$", head) and m.group("open") == "(":
        return None  # `p.add_argument(...)`: a method's call, not a group
    opened = m.group("open").lstrip("=:").strip()
    rest = m.group("rest")
    if opened == "" or opened == ":":  # an indented body
        indent = len(m.group("indent").expandtabs())
        members, j, child = [], k + 1, None
        while j < len(lines):
            text = _uncomment(lines[j]).expandtabs()
            at = len(text) - len(text.lstrip())
            if text.strip() and at <= indent:
                break
            if text.strip() and (child is None or at == child):  # a member's own keys (`required: true`) are not
                child = at
                members += [(j + 1, p) for p in _split(text)]
            j += 1
        return name, members, j
    close = {"{": "}", "(": ")", "[": "]", "do": "end", "begin": "end"}[opened]
    members, j, body = [], k, rest
    while True:
        depth, cut = 0, None
        for i, ch in enumerate(body):
            if close in "})]" and ch == opened:
                depth += 1
            elif close in "})]" and ch == close:
                if depth == 0:
                    cut = i
                    break
                depth -= 1
        if close == "end" and re.match(r"^[ \t]*+end\b", body):
            cut = 0
        members += [(j + 1, p) for p in _split(body if cut is None else body[:cut])]
        if cut is not None and close != "end" and body[cut + 1:].strip()[:1] not in ("", ";", ",", "/", "{", ":", "=", ")", "}", "]"):
            return None  # `run <- function(skill) invisible(NULL)`, "Inputs (sheet B2) -> ...": code or prose after it
        if cut is not None or j + 1 >= len(lines) or j - k > 200:
            return name, members, j + 1
        j += 1
        body = _uncomment(lines[j])


def _groups(lines: list[str]) -> tuple[list[DeclaredInput], set[int]]:
    opened: dict[str, int] = {}
    found: list[DeclaredInput] = []
    inside: set[int] = set()
    k = 0
    while k < len(lines):
        got = _group(lines, k)
        if got is None:
            k += 1
            continue
        name, members, after = got
        ini = _SECTION.match(lines[k]) is not None  # an INI value is written bare
        read = [d for at, text in members if (d := _member(text, name, at, ini)) is not None]
        called = any(text[:1] in "\"'" and _cut(text)[1] is None for _, text in members)  # `f("x", a=1)`
        if read and not called and len(read) * 2 >= len(members):  # mostly declarations: a group of inputs, not code
            opened[name] = opened.get(name, 0) + 1
            found += read
            inside.update(range(k, after))
            k = after
        else:
            k += 1
    # `inputs = { ... }` in every step: each step's own, not the run's
    return [d for d in found if opened.get(d.container or "", 0) < 2], inside


def _sections(lines: list[str]) -> set[int]:
    """Lines inside a named group that is not an input group (an INI `[database]`, a `config {` block)."""
    out: set[int] = set()
    current = False
    for k, line in enumerate(lines):
        if _SECTION.match(line) is not None:
            current = True
        elif current:
            out.add(k)
    depth = 0
    for k, line in enumerate(lines):
        if depth > 0:
            out.add(k)
        depth = max(0, depth + line.count("{") - line.count("}"))
    return out


def _placeholders(lines: list[str], skip: set[int]) -> list[DeclaredInput]:
    runs: list[list[DeclaredInput]] = [[]]
    for k, raw in enumerate(lines):
        text = _uncomment(raw)
        if not text.strip():
            continue  # a blank or comment line keeps a run going
        m = _DECL.match(text) if k not in skip else None
        value = _GAP.split((m.group("value") if m else "").strip(), maxsplit=1)[0].strip(";").strip()  # a note after
        if m is not None and _PLACEHOLDER.match(value) and m.group("name").lower() not in _NOT_MEMBERS \
                and (value or m.group("sep") == "=") and (m.group("sep") or m.group("kw")):
            # `name:` alone opens a block; `SET WARD=` is empty; `TITLE  ...` (no `set`, `#define`) is a form's blank
            runs[-1].append(DeclaredInput(name=m.group("name"), line=k + 1, container=None))
        elif runs[-1]:
            runs.append([])
    return [d for run in runs if len(run) >= 2 for d in run]


def _command_line(lines: list[str]) -> list[DeclaredInput]:
    out: list[DeclaredInput] = []
    for k, raw in enumerate(lines):
        text, at = _uncomment(raw), k + 1
        if (m := _OVERRIDE.match(text)) is not None:  # a value the command line may set, else its default
            value = _GAP.split(m.group("value").strip(), maxsplit=1)[0]
            ok, default, _ = _value(value)
            out.append(DeclaredInput(name=m.group("name"), line=at, default=default if ok else None,
                                     container="command line"))
            continue
        if (m := _TCL_ARGV.match(text)) is not None:
            out.append(DeclaredInput(name=m.group("name"), line=at, container="argv"))
            continue
        if (m := _BY_PROJECT.match(text)) is not None:
            out.append(DeclaredInput(name=m.group("name"), line=at, type=m.group("type"), container="project"))
            continue
        if (m := _ARGPARSE.search(text)) is not None:
            kw = {g.group("key"): g.group("value").strip("\"'") for g in _KW.finditer(m.group("rest"))}
            out.append(DeclaredInput(name=m.group("name").replace("-", "_"), line=at, default=kw.get("default"),
                                     type=kw.get("type"), container="argparse"))
            continue
        if (m := _OPTION.search(text)) is not None:
            out.append(DeclaredInput(name=m.group("name"), line=at, container="options"))
            continue
        if (m := _READ.match(text)) is not None:
            out += [DeclaredInput(name=n, line=at, container="stdin") for n in m.group("names").split()]
            continue
        envs = [(g.group("name") or g.group("js") or g.group("ps"), g.group("default")) for g in _ENV_USE.finditer(text)]
        envs += [(g.group("name"), g.group("default") if "-" in g.group("op") else None)
                 for g in _EXPANSION.finditer(text)]
        if envs:
            out += [DeclaredInput(name=n, line=at, default=(d or "").strip("\"'") or None, container="env")
                    for n, d in envs]
            continue
        if (p := _PROPERTY.search(text)) is not None and "project" in text:
            out.append(DeclaredInput(name=p.group("name"), line=at, container="project"))
            continue
        m = _ASSIGN.match(text)
        if m is not None and (c := _CMDLINE.match(m.group("value"))) is not None:
            said = _IDENT.search(c.group(0).split("(")[-1]) or _DIGIT.search(c.group(0))
            word = said.group(0) if said else "ARGV"
            container = "ARGV" if word in ("shift", "ARGV", "argv", "sys", "os", "process", "commandArgs", "A_Args",
                                           "sysparm", "args") or word.isdigit() else word
            names = [_bare(n.strip()) for n in m.group("names").strip("()").split(",")]  # `my ($site, $day) = @ARGV;`
            out += [DeclaredInput(name=n, line=at, container=container) for n in names
                    if _IDENT.fullmatch(n) is not None and n.lower() not in _NOT_MEMBERS]
    return out


def declared_inputs(lines: list[str]) -> list[DeclaredInput]:
    """The run inputs `lines` declare (module docstring), in line order, each name once (its first)."""
    slashed = [line for line in lines if line.startswith("//")]
    if len(slashed) >= 3 and sum(line[2:3].isalpha() or line[2:3] == "*" for line in slashed) * 2 >= len(slashed):
        # statements behind `//` (`//STEP01 EXEC`, a JCL deck), not `// a comment`: read without it
        lines = [line[2:] if line.startswith("//") and not line.startswith("//*") else line for line in lines]
    groups, inside = _groups(lines)
    found = [*groups, *_placeholders(lines, inside | _sections(lines)), *_command_line(lines)]
    seen: dict[str, DeclaredInput] = {}
    for d in sorted(found, key=lambda d: d.line):
        seen.setdefault(d.name, d)
    return list(seen.values())


_REF = _rx(r"(?:[$&%@]\{?+|\b(?:inputs?|args|params|argv|run|ctx|ARGV|ENV|env)(?:\.|%|::|->\{?+|\[[\"']?+))"
           r"(?P<name>[A-Za-z_][A-Za-z0-9_]{0,60}+)")


def reference_names(text: str) -> list[str]:
    """The names `text` refers to as inputs in any notation: `$siteCode`, `${SITE}`, `&WARD`, `%site%`,
    `run%catchment`, `inputs.wall`, `args.site`, `params['x']`, `$ARGV{x}`."""
    return [m.group("name") for m in _REF.finditer(text)]


_rx.save()
