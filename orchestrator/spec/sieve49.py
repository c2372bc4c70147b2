"""A Sieve mail filter (`.sieve`, `.siv`) read as a script runbook (`spec.script_runbook`).

Each statement is put in the words the Python script reader already reads (`sieve_code_lines`), so a
filter is read like a Python script, field by field, never run:

    # 2) look them up                         a comment (`/* ... */` too): a step's header or its rules
    execute :output "hist" "skill" ["k=${x}"];  a call (`pipe`, `filter` too): `hist = run_skill("skill", k=x)`;
                                              each "k=v" argument an input, `${x.f}` the output `f` of the
                                              step whose `:output` is `x`, `${x}` a variable, else a literal
    set "day" "${1}";   set "mode" "fast";    a value from the mail (a match group): a workflow input; a literal
    if string :is "${x.f}" "v" { } elsif ... { } else { }
                                              a branch on a variable: `:is` ==, `:contains` in, `:value "gt"`
                                              (> >= < <= == !=), `not`, `allof`/`anyof` and/or
    if header/address/envelope/exists/size/body ... { }
                                              a test of the mail itself: the mail the filter runs on, no
                                              branch; the statements inside are read as if outside it
    require, fileinto, keep, discard, stop, redirect, vacation, ...   setup: no step, no warning

A statement ends at `;`, `{` or `}` outside quotes and brackets, so it may go over several lines.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

END = "\x00end"  # `spec.script_flow.END`: the end of an `if` block
_CALL = _rx(r"^(?P<cmd>execute|pipe|filter)\b(?P<rest>.*+)$")
_TAG = _rx(r"^:(?P<tag>[a-z_]\w{0,30}+)\s*+")
_STRING = _rx(r"^\"(?P<s>(?:[^\"\\]|\\.){0,2000}+)\"\s*+")
_LIST = _rx(r"^\[(?P<l>(?:[^\]\"]|\"(?:[^\"\\]|\\.){0,2000}+\"){0,200}+)\]\s*+")
_ITEM = _rx(r"\"(?P<s>(?:[^\"\\]|\\.){0,2000}+)\"")
_SET = _rx(r"^set\b(?P<rest>.*+)$")
_VAR = _rx(r"\$\{(?P<name>[A-Za-z_][\w.]{0,120}+|\d{1,2}+)\}")
_ONLY_VAR = _rx(r"^\$\{(?P<name>[A-Za-z_][\w.]{0,120}+|\d{1,2}+)\}$")
_KEY = _rx(r"^(?P<k>[A-Za-z_][\w-]{0,60}+)\s*+=(?P<v>.*+)$")
_IF = _rx(r"^(?P<kw>if|elsif)\s++(?P<test>.+)$")
_ELSE = _rx(r"^else$")
_MAIL = _rx(r"^(?:header|address|envelope|exists|size|body|true|false|date|currentdate|hasflag|mailbox|metadata|"
            r"spamtest|virustest|environment|duplicate|ihave|valid_notify_method|notify_method_capability)\b")
_SETUP = _rx(r"^(?:require|fileinto|keep|discard|stop|redirect|reject|ereject|vacation|addflag|setflag|removeflag|"
             r"addheader|deleteheader|notify|return|break|global|include|error|debug_log)\b")
_VALUE_OPS = {"gt": ">", "ge": ">=", "lt": "<", "le": "<=", "eq": "==", "ne": "!="}
_VALUED = {"output", "input", "comparator", "value", "count", "from", "subject", "days", "handle", "message",
           "options", "importance", "zone", "index"}  # the tags that take a string after them
_FLIP = {"==": "!=", "!=": "==", ">": "<=", "<=": ">", "<": ">=", ">=": "<"}


def is_sieve(path: str) -> bool:
    """A Sieve filter by its suffix."""
    return path.lower().endswith((".sieve", ".siv"))


def _unquote(text: str) -> str:
    return text.replace('\\"', '"').replace("\\\\", "\\")


def _words(value: str) -> str:
    """One "k=v" argument's value in Python's words: `${x.f}` is `x.f`, a match group `${1}` an argument,
    anything else a quoted literal."""
    m = _ONLY_VAR.match(value.strip())
    if m is not None:
        name = m.group("name")
        return f"sys.argv[{name}]" if name.isdigit() else name
    return '"' + value.replace('"', "'") + '"'


def _args(rest: str) -> tuple[dict[str, str], list[str]]:
    """A command's tagged arguments (`:output "x"`, `:copy`) and its strings / string lists, in order."""
    tags: dict[str, str] = {}
    strings: list[str] = []
    text = rest.strip()
    tag = ""
    while text:
        if (t := _TAG.match(text)) is not None:
            tag = t.group("tag").lower()
            tags[tag] = ""
            text = text[t.end():]
            continue
        if (s := _STRING.match(text)) is not None:
            if tag in _VALUED:
                tags[tag] = _unquote(s.group("s"))
            else:
                strings.append(_unquote(s.group("s")))
            tag, text = "", text[s.end():]
            continue
        if (lst := _LIST.match(text)) is not None:
            strings.append("\x00" + "\x00".join(_unquote(i.group("s")) for i in _ITEM.finditer(lst.group("l"))))
            tag, text = "", text[lst.end():]
            continue
        break
    return tags, strings


def call(statement: str) -> str | None:
    """An `execute`/`pipe`/`filter` statement as `x = run_skill("skill", k=v)`, or None when it is none."""
    m = _CALL.match(statement)
    if m is None:
        return None
    tags, strings = _args(m.group("rest"))
    if not strings or strings[0].startswith("\x00"):
        return None
    pairs = []
    for arg in (strings[1].split("\x00")[1:] if len(strings) > 1 else []):
        kv = _KEY.match(arg.strip())
        if kv is not None:
            pairs.append(f"{kv.group('k').replace('-', '_')}={_words(kv.group('v').strip())}")
    lead = f"{tags['output']} = " if tags.get("output") else ""
    return f'{lead}run_skill("{strings[0]}"{"".join(", " + p for p in pairs)})'


def _assign(statement: str) -> str | None:
    """`set [:lower ...] "name" "value"` as `name = value` (a match group `${1}` given from outside: "")."""
    m = _SET.match(statement)
    if m is None:
        return None
    _, strings = _args(m.group("rest"))
    if len(strings) < 2 or any(s.startswith("\x00") for s in strings[:2]):
        return None
    name, value = strings[0], strings[1]
    only = _ONLY_VAR.match(value.strip())
    if only is not None and only.group("name").isdigit():
        return f'{name} = ""'
    return f"{name} = {_words(value)}"


def condition(test: str) -> str | None:
    """A Sieve test on variables in the condition reader's words; "" for a test of the mail itself; None
    when it is neither (read as written, warned by the branch reader)."""
    text = test.strip()
    if text.startswith("not ") or text.startswith("not("):
        inner = condition(text[3:].strip().removeprefix("(").removesuffix(")") if text[3:].strip().startswith("(")
                          and text.endswith(")") else text[3:].strip())
        if inner is None or inner == "":
            return inner
        for op in ("==", "!=", ">=", "<=", ">", "<"):
            if f" {op} " in inner:
                return inner.replace(f" {op} ", f" {_FLIP[op]} ", 1)
        return f"not ({inner})"
    for word, joint in (("allof", " and "), ("anyof", " or ")):
        if text.startswith(word) and text.endswith(")") and "(" in text:
            parts = [condition(p) for p in _split_commas(text[text.index("(") + 1:-1])]
            if any(p is None for p in parts):
                return None
            said = [p for p in parts if p]
            return joint.join(said) if said else ""
    if _MAIL.match(text):
        return ""
    if not text.startswith("string"):
        return None
    tags, strings = _args(text[len("string"):])
    if len(strings) != 2:
        return None
    left = _ONLY_VAR.match(strings[0].strip())
    if left is None:
        return None
    name = left.group("name").rsplit(".", 1)[-1]  # `${x.f}`: the field `f` (the condition reader finds its step)
    keys = [v for v in strings[1].split("\x00") if v] if strings[1].startswith("\x00") else [strings[1]]
    op = "=="
    if "value" in tags or "count" in tags:
        op = _VALUE_OPS.get(tags.get("value", "").lower(), "")
        if not op:
            return None
    elif "contains" in tags:
        return " or ".join(f"'{k}' in {name}" for k in keys)
    elif "matches" in tags or "regex" in tags:
        return None
    numeric = "comparator" in tags and "numeric" in tags["comparator"]
    said = [f"{name} {op} {k if numeric and k.isdigit() else repr(k)}" for k in keys]
    return " or ".join(said)


def _split_commas(text: str) -> list[str]:
    parts, depth, quote, last = [], 0, False, 0
    for i, ch in enumerate(text):
        if quote:
            quote = not (ch == '"' and text[i - 1] != "\\")
        elif ch == '"':
            quote = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[last:i].strip())
            last = i + 1
    return [*parts, text[last:].strip()]


class _Statements:
    """Cuts a filter's lines into statements (each ended by `;`, `{` or `}`) and comments, with their lines."""

    def __init__(self) -> None:
        self.buffer, self.start = "", 0
        self.quote, self.depth = False, 0
        self.out: list[tuple[str, int, str]] = []  # (kind, line, text): "comment", "stmt;", "stmt{", "}"

    def line(self, number: int, raw: str) -> None:
        comment = ""
        for i, ch in enumerate(raw):
            if self.quote:
                self.quote = not (ch == '"' and raw[i - 1:i] != "\\")
                self.buffer += ch
                continue
            if ch == "#":
                comment = raw[i + 1:].strip()
                break
            if ch == '"':
                self.quote = True
            elif ch in "[(":
                self.depth += 1
            elif ch in "])":
                self.depth = max(0, self.depth - 1)
            if ch in ";{}" and self.depth == 0:
                said = self.buffer.strip()
                if ch == "}":
                    if said:
                        self.out.append(("stmt;", self.start, said))
                    self.out.append(("}", number, ""))
                elif said or ch == "{":
                    self.out.append(("stmt" + ch, self.start or number, said))
                self.buffer, self.start = "", 0
                continue
            if not self.buffer.strip() and not ch.isspace():
                self.start = number
            self.buffer += ch
        if self.buffer.strip():
            self.buffer += " "
        if comment:
            self.out.append(("comment", number, comment))


def sieve_code_lines(lines: list[str]) -> list[tuple[str, int, str]]:
    """(kind, line, text) of each line of a Sieve filter, its code in Python's words (module docstring)."""
    cut = _Statements()
    in_block = False
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if in_block or (stripped.startswith("/*") and not cut.buffer.strip()):
            body = stripped.removeprefix("/*")
            in_block = "*/" not in body
            said = body.split("*/", 1)[0].strip().lstrip("*").strip()
            cut.out.append(("comment", number, said) if said else ("blank", number, ""))
            continue
        if stripped.startswith("#") and not cut.buffer.strip():
            cut.out.append(("comment", number, stripped.lstrip("#").strip()))
            continue
        if not stripped:
            cut.out.append(("blank", number, ""))
            continue
        cut.line(number, raw)
    out: list[tuple[str, int, str]] = []
    braces: list[str] = []  # "if" (a branch), "mail" (a test of the mail), "{" (anything else)
    closed: tuple[str, int, int] | None = None  # the block a `}` just closed: (kind, line, where in out)
    for kind, line, text in cut.out:
        if kind in ("comment", "blank"):
            out.append((kind, line, text))
            continue
        if closed is not None:
            again = kind == "stmt{" and (_ELSE.match(text) or text.startswith("elsif"))
            if again:
                braces.append(closed[0])
            elif closed[0] == "if":
                out.insert(closed[2], ("code", closed[1], END))
            closed = None
        if kind == "}":
            closed = (braces.pop() if braces else "{", line, len(out))
            continue
        if kind == "stmt{":
            out.extend(_opened(line, text, braces))
            continue
        words = call(text) or _assign(text)
        if words is not None:
            out.append(("code", line, words))
        elif not _SETUP.match(text):
            out.append(("code", line, text))
    if closed is not None and closed[0] == "if":
        out.insert(closed[2], ("code", closed[1], END))
    return out


def _opened(line: int, text: str, braces: list[str]) -> list[tuple[str, int, str]]:
    """An `if`/`elsif`/`else` (or other) statement opening a block, in Python's words; an `else`/`elsif` finds
    the kind of the block it goes on from on top of `braces`."""
    m = _IF.match(text)
    if _ELSE.match(text) or (m is not None and m.group("kw") == "elsif"):
        last = braces[-1] if braces else ""
        if last != "if":
            return [("code", line, f"{text} (after a test of the mail itself)")]
        if m is None:
            return [("code", line, "else:")]
    elif m is None:
        braces.append("{")
        return [("code", line, text)] if text else []
    else:
        cond = condition(m.group("test"))
        if cond == "":
            braces.append("mail")
            return []
        braces.append("if")
    cond = condition(m.group("test"))
    kw = "elif" if m.group("kw") == "elsif" else "if"
    return [("code", line, f"{kw} {cond if cond else m.group('test')}:")]


_rx.save()
