"""A Perl script (`.pl`, `#!/usr/bin/perl`) read as a script runbook (`spec.script_runbook`).

Each statement is put in the words the Python script reader already reads (`perl_code_lines`), as an R
script's (`spec.rscript47`) and a VBA module's (`spec.vba49`) are, so a Perl runbook is read field by
field, never run:

    # 2) check each tray                       a comment: a step's header or its rules (a trailing ` #` too;
                                               POD `=head1 ... =cut` too)
    my $x = run_skill('skill', { k => $v })    a call (`x = run_skill("skill", k=v)`); a flat list
    run_skill("skill", k => $v, j => 'w')      `k => v, ...` too; any `run_skill` / `call_skill` / `skill`
    $r->{f}   $r{f}   $$r{f}                   the output `f` of the step whose result is `$r`
    my $day = shift @ARGV   my $d = $ARGV[0]   an argument: a workflow input named as the variable
    my ($a, $b) = @ARGV;   $ENV{DAY}           (`sys.argv[n]`); `$ENV{X}` the environment
    my $n = 3;   my $t = 'RPV-2';              a literal
    for my $t (@{ $r->{items} }) { ... }       the calls in it run once per item of `$r`'s `items`
    foreach my $t (@list) { ... }              (`for t in r.items:`); `$t->{f}` the item's field
    push @all, run_skill(...)                  the call, its results gathered in `@all` (`all = ...`)
    if (...) { } elsif (...) { } else { }      a branch (`eq` is `==`, `ne` `!=`, `&&` `and`, `||` `or`)
    use, sub NAME { ... }, print, die, my @x;  setup: no step, no warning (a `sub`'s body is not read)

A statement goes on until its `;` (or its block's `{`), at most 200 lines; `__END__` ends the code.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.script_flow import END, NEXT
from orchestrator.spec.script_join import joined_lines

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COMMENT = _rx(r"^#++\s*+(?P<text>.*+)$")
_POD = _rx(r"^=(?P<kw>[a-z]\w*+)\s*+(?P<text>.*+)$")
_SUB = _rx(r"^sub\s++\w++")
_SETUP = _rx(r"^(?:use|no|require|package|print|printf|say|die|warn|exit|return|open|close|binmode|local|our\s++\$VERSION|"
             r"BEGIN|END|1\s*+;|chomp|sleep|select)\b")
_DECLARE = _rx(r"^(?:my|our)\s++[@%$][A-Za-z_]\w{0,60}+\s*+;?$")
_ASSIGN = _rx(r"^(?:(?:my|our|local)\s++)?\$(?P<var>[A-Za-z_]\w{0,60}+)\s*+=(?![=~])\s*+(?P<value>.++)$")
_ARGV_LIST = _rx(r"^(?:my\s++)?\(\s*+(?P<vars>\$\w++(?:\s*+,\s*+\$\w++)*+)\s*+\)\s*+=\s*+@ARGV$")
_SHIFT = _rx(r"^shift(?:\s*+\(\s*+@ARGV\s*+\)|\s++@ARGV|\s*+\(\s*+\))?(?:\s++or\s.*+|\s*+(?:\|\||//).*+)?$")
_ARGV_N = _rx(r"^\$ARGV\s*+\[\s*+(?P<n>\d)\s*+\](?:\s++or\s.*+|\s*+(?:\|\||//).*+)?$")
_ENV = _rx(r"^\$ENV\s*+\{\s*+[\"']?(?P<name>\w{1,60}+)[\"']?\s*+\}")
_PUSH = _rx(r"^push\s*+(?P<paren>\()?\s*+@(?P<var>[A-Za-z_]\w{0,60}+)\s*+,\s*+(?P<value>.++)$")
_CALL = _rx(r"^(?:&?[A-Za-z_][\w:]{0,60}+::)?&?(?:run_skill|call_skill|invoke_skill|runskill|skill)\s*+\(\s*+"
            r"[\"'](?P<name>[A-Za-z0-9][\w-]{0,80}+)[\"']\s*+(?:,(?P<rest>.*))?\)$")
_FOR = _rx(r"^(?:for|foreach)\s++(?:my\s++)?\$(?P<item>[A-Za-z_]\w{0,60}+)\s*+\((?P<list>.+)\)\s*+\{$")
_LOOP = _rx(r"^(?:for|foreach|while|until)\b.*\{$")
_IF = _rx(r"^\}?\s*+(?P<kw>if|elsif|unless)\s*+\((?P<cond>.+)\)\s*+\{$")
_ELSE = _rx(r"^\}?\s*+else\s*+\{$")
_DEREF = _rx(r"^@\{\s*+(?P<inner>.+?)\s*+\}$|^@\$(?P<var>\w++)$|^@(?P<arr>\w++)$")
_FIELD = _rx(r"\$\$?(?P<var>[A-Za-z_]\w{0,60}+)(?:->)?\{\s*+[\"']?(?P<field>[A-Za-z_]\w{0,60}+)[\"']?\s*+\}")
_SCALAR = _rx(r"[\\]?[$@%](?P<var>[A-Za-z_]\w{0,60}+)")
_OPS = ((" eq ", " == "), (" ne ", " != "), (" gt ", " > "), (" lt ", " < "), (" ge ", " >= "), (" le ", " <= "),
        ("&&", " and "), ("||", " or "))


def _cut(text: str) -> tuple[str, str]:
    """(code, trailing ` #` comment) of a line (a `#` in quotes or `$#x` is code)."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip(), text[i + 1:].strip()
    return text.rstrip(), ""


def _depth(text: str) -> int:
    """How many `(`, `[` and `{` of `text` are not closed (quotes skipped)."""
    depth, quote = 0, ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        else:
            depth += (ch in "([{") - (ch in ")]}")
    return depth


def _split(body: str) -> list[str]:
    """A list cut at commas (and `=>`) outside quotes and brackets."""
    parts, quote, depth, last, i = [], "", 0, 0, 0
    while i < len(body):
        ch = body[i]
        if quote:
            quote = "" if ch == quote and body[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and (ch == "," or body.startswith("=>", i)):
            parts.append(body[last:i].strip())
            i += 2 if ch == "=" else 1
            last = i
            continue
        i += 1
    tail = body[last:].strip()
    return [p for p in [*parts, tail] if p] if tail or parts else []


def words(value: str) -> str:
    """A Perl value in Python's words: `$r->{f}` / `$r{f}` is `r.f`, `$x` / `\\@x` is `x`, `'a'` `"a"`."""
    text = value.strip()
    if (env := _ENV.match(text)) is not None and env.end() == len(text):
        return f'os.environ.get("{env.group("name")}")'
    if (each := _DEREF.match(text)) is not None:
        text = each.group("inner") or each.group("var") or each.group("arr")
    text = _FIELD.sub(lambda m: f"{m.group('var')}.{m.group('field')}", text)
    text = _SCALAR.sub(lambda m: m.group("var"), text)
    if len(text) > 1 and text[0] == "'" and text[-1] == "'":
        text = '"' + text[1:-1] + '"'
    return text


def _call(code: str) -> str | None:
    """`run_skill("skill", k=v, ...)` of a call of a skill with a hash (or a flat list) of arguments, or None."""
    m = _CALL.match(code.strip())
    if m is None:
        return None
    rest = (m.group("rest") or "").strip().rstrip(",").strip()  # a trailing comma before the `)`
    if rest.startswith("{") and rest.endswith("}"):
        rest = rest[1:-1]
    args = _split(rest)
    pairs = [f"{k.strip(chr(34) + chr(39))}={words(v)}" for k, v in zip(args[::2], args[1::2], strict=False)]
    return f'run_skill("{m.group("name")}"{"".join(", " + p for p in pairs)})'


def _condition(cond: str) -> str:
    """A Perl condition in Python's words (`$r->{f}` is `r["f"]`, which the condition reader reads as `f`)."""
    text = _FIELD.sub(lambda m: f"{m.group('var')}[{m.group('field')!r}]", f" {cond} ")
    text = _SCALAR.sub(lambda m: m.group("var"), text)
    for perl, py in _OPS:
        text = text.replace(perl, py)
    text = text.replace("!", "not ").replace("not =", "!=")
    return " ".join(text.split())


class _Statements:
    def __init__(self) -> None:
        self.args = 0  # the arguments read so far
        self.blocks: list[str] = []  # each open `{`: "loop", "if", "skip" (a sub, any other block)

    def _argument(self, var: str) -> list[tuple[str, str]]:
        self.args += 1
        return [("code", f"{var} = sys.argv[{self.args}]")]

    def statement(self, code: str) -> list[tuple[str, str]]:
        """What one Perl statement is, as (kind, text) lines in Python's words (module docstring)."""
        code = code.strip()
        if self.blocks and self.blocks[-1] == "skip":  # inside a sub or a block not read: only its braces count
            self._braces(code)
            return []
        if (m := _IF.match(code)) is not None:
            closing = self._close() if code.startswith("}") else []
            kw = {"if": "if", "elsif": "elif", "unless": "if not"}[m.group("kw")]
            self.blocks.append("if")
            return [*closing, ("code", f"{kw} {_condition(m.group('cond'))}:")]
        if _ELSE.match(code):
            if self.blocks and self.blocks[-1] == "if":
                self.blocks.pop()
            self.blocks.append("if")
            return [("code", "else:")]
        if code in ("}", "};"):
            return self._close()
        if (each := _FOR.match(code)) is not None:
            self.blocks.append("loop")
            return [("code", f"for {each.group('item')} in {words(each.group('list'))}:")]
        if _LOOP.match(code):
            self.blocks.append("loop")
            return [("code", f"{code[:-1].strip()}:")]
        if _SUB.match(code) or (code.endswith("{") and not _CALL.search(code)):
            self.blocks.append("skip")
            self._braces(code[code.index("{") + 1:] if "{" in code else "")
            return []
        code = code.rstrip(";").strip()
        if _SETUP.match(code) or _DECLARE.match(code):
            return []
        if (many := _ARGV_LIST.match(code)) is not None:
            return [line for var in many.group("vars").split(",") for line in self._argument(var.strip().lstrip("$"))]
        var, value = "", code
        if (m := _PUSH.match(code)) is not None or (m := _ASSIGN.match(code)) is not None:
            var, value = m.group("var"), m.group("value").strip()
            if m.groupdict().get("paren") and value.endswith(")"):  # `push(@all, x)`
                value = value[:-1].strip()
        if var and _SHIFT.match(value):
            return self._argument(var)
        if var and (n := _ARGV_N.match(value)) is not None:
            self.args = max(self.args, int(n.group("n")) + 1)
            return [("code", f"{var} = sys.argv[{int(n.group('n')) + 1}]")]
        lead = f"{var} = " if var else ""
        if (call := _call(value)) is not None:
            return [("code", lead + call)]
        return [("code", lead + words(value))]

    def _close(self) -> list[tuple[str, str]]:
        kind = self.blocks.pop() if self.blocks else ""
        return [("code", NEXT)] if kind == "loop" else [("code", END)] if kind == "if" else []

    def _braces(self, code: str) -> None:
        """A skipped block's braces: the block ends where its `{` closes."""
        depth = _depth(code)
        while depth < 0 and self.blocks:
            self.blocks.pop()
            depth += 1
        self.blocks.extend(["skip"] * max(depth, 0))


def _complete(text: str) -> bool:
    """A statement is whole at its `;`, its block's `{` or a `}`, with no `(` left open."""
    depth = _depth(text)
    if text.endswith("{"):
        return _depth(text[:-1]) == 0 or depth <= 0
    return depth <= 0 and (text.endswith((";", "}")) or depth < 0)


def perl_code_lines(lines: list[str]) -> list[tuple[str, int, str]]:
    """(kind, line, text) of each line of a Perl script, its code in Python's words (module docstring)."""
    said = _Statements()
    pod = False

    def before(number: int, raw: str, stripped: str, out: list[tuple[str, int, str]]) -> str | None:
        nonlocal pod  # POD (`=head1` .. `=cut`) is text; `__END__` / `__DATA__` ends the code
        if pod or (raw.startswith("=") and _POD.match(stripped)):
            heading = _POD.match(stripped)
            pod = not (heading is not None and heading.group("kw") == "cut")
            text = heading.group("text") if heading is not None else stripped
            out.append(("comment", number, text.strip()) if pod and text.strip() else ("blank", number, ""))
            return "taken"
        if stripped in ("__END__", "__DATA__"):
            out.extend(("blank", n, "") for n in range(number, len(lines) + 1))
            return "stop"
        return None

    def statements(joined: str) -> list[tuple[str, str]]:
        got: list[tuple[str, str]] = []
        for piece in _pieces(joined):
            got += said.statement(piece)
        return got

    return joined_lines(lines, comment=_COMMENT, cut=_cut, goes_on=lambda joined: bool(joined) and not _complete(joined),
                        statements=statements, before=before)


def _pieces(text: str) -> list[str]:
    """A joined line cut into statements at `;` outside brackets and quotes, a leading `}` its own."""
    out: list[str] = []
    while text.startswith("}") and not _IF.match(text) and not _ELSE.match(text):
        out.append("}")
        text = text[1:].lstrip(" ;")
    parts, quote, depth, last = [], "", 0, 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth <= 0:
            parts.append(text[last:i + 1].strip())
            last = i + 1
    return out + [p for p in [*parts, text[last:].strip()] if p]


_rx.save()
