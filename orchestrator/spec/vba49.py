"""An Excel VBA module (`.bas`, `.vba`, `.vbs`) read as a script runbook (`spec.script_runbook`).

Each statement is put in the words the Python script reader already reads (`vba_code_lines`), as an R
script's are (`spec.rscript47`), so a macro is read field by field, never run:

    ' 2) price each job / Rem ...              a comment: a step's header or its rules (a trailing `'` too)
    Set x = RunSkill("skill", "a", 1, "b", y("f"))
                                               a call (`x = run_skill("skill", a=1, b=y.f)`): after the
                                               skill, name / value pairs; `y("f")` / `y!f` / `y.f` is the
                                               output `f` of the step whose result is `y`; `CallSkill`,
                                               `InvokeSkill`, `Call RunSkill(...)`, `RunSkill "s", ...` too
    coll.Add RunSkill(...)                     the call, its results gathered in `coll` (`coll = ...`)
    Const RATE As Double = 4.2   n = 3         a literal
    x = Range("B2").Value   x = InputBox(...)  a value given from outside (a cell, `Cells(2, 2)`, `[B2]`,
                                               an input box): a workflow input, named as the first call
                                               passes it (`sys.argv[n]`)
    For Each j In y("jobs") ... Next           the calls between run once per item of `y`'s `jobs`
                                               (`for j in y.jobs:`); any other loop is warned
    If a > 0 Then / ElseIf / Else / End If     a branch (`if a > 0:`, `elif`, `else:`, its end); a
                                               one-line `If c Then x Else y` too; `<>` is `!=`, `=` `==`
    Dim, Sub, End Sub, Option, MsgBox, a cell written (`Range("B6").Value = ...`), `New Collection`
                                               setup: no step, no warning

A line ending in ` _` goes on at the next (at most 200 lines).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.script_flow import END, NEXT

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_REM = _rx(r"(?i)^rem(?:\s++(?P<text>.*+))?$")
_CONST = _rx(r"(?i)^(?:(?:public|private|global)\s++)?const\s++(?P<var>[A-Za-z]\w{0,60}+)"
             r"(?:\s++as\s++\w++)?\s*+=\s*+(?P<value>.++)$")
_SET = _rx(r"(?i)^(?:set\s++|let\s++)?(?P<var>[A-Za-z]\w{0,60}+)\s*+=(?!=)\s*+(?P<value>.++)$")
_ADD = _rx(r"(?i)^(?P<var>[A-Za-z]\w{0,60}+)\.add\s*+\(?\s*+(?P<value>.++)$")
_CALL = _rx(r"(?i)^(?:call\s++)?(?:[A-Za-z]\w{0,60}+\.)?(?:run|call|invoke)_?skill\b\s*+(?P<paren>\()?")
_CELL = _rx(r"(?i)^(?:(?:(?:thisworkbook|activeworkbook)\.)?(?:sheets|worksheets)\s*+\(\s*+[^()]{1,80}+\)\s*+|activesheet\s*+)?"
            r"\.?(?:range\s*+\(\s*+\"[A-Z]{1,3}\d{1,7}\"\s*+\)|cells\s*+\(\s*+\d{1,7}\s*+,\s*+\d{1,7}\s*+\)|"
            r"\[[A-Z]{1,3}\d{1,7}\])(?:\.(?:value2?|text))?$")
_INPUTBOX = _rx(r"(?i)^(?:application\.)?inputbox\s*+\(")
_WRITE = _rx(r"(?i)^(?:(?:thisworkbook|activeworkbook)\.)?(?:sheets|worksheets|range|cells|activesheet|\[[A-Z])")
_SETUP = _rx(r"(?i)^(?:attribute|option|dim|redim|static|(?:public|private|global|friend)\s++(?!const\b)|"
             r"(?:sub|function|property)\s|end\s++(?:sub|function|property|with)\b|exit\s++(?:sub|function|for|do)\b|"
             r"msgbox|debug\.print|doevents|with\s|application\.(?!inputbox)|beep\b)")
_NEW = _rx(r"(?i)^new\s++\w++")
_FOR_EACH = _rx(r"(?i)^for\s++each\s++(?P<item>[A-Za-z]\w{0,60}+)\s++in\s++(?P<list>.++)$")
_LOOP = _rx(r"(?i)^(?:for|do|while)\b")
_END_LOOP = _rx(r"(?i)^(?:next|loop|wend)\b")
_IF = _rx(r"(?i)^(?P<kw>if|elseif)\s++(?P<cond>.+?)\s++then(?:\s++(?P<rest>.*+))?$")
_ELSE = _rx(r"(?i)^else\b\s*+(?P<rest>.*+)$")
_END_IF = _rx(r"(?i)^end\s*+if\b")
_INDEX = _rx(r"\b(?P<var>[A-Za-z]\w{0,60}+)\s*+(?:\(\s*+\"(?P<f1>[A-Za-z_]\w{0,60}+)\"\s*+\)|!(?P<f2>[A-Za-z_]\w{0,60}+))")
_EQUALS = _rx(r"(?<![<>=!])=(?!=)")  # VBA's `=` in a condition: equal
_OPS = (("<>", " != "), (" And ", " and "), (" Or ", " or "), ("Not ", "not "), ("&", "+"))
_MAX_JOINED = 200


def _cut(text: str) -> tuple[str, str]:
    """(code, trailing `'` comment) of a line (`""` inside a string is a quote)."""
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == "'" and not quoted:
            return text[:i].rstrip(), text[i + 1:].strip()
    return text.rstrip(), ""


def _split(body: str) -> list[str]:
    """The arguments of a call, cut at commas outside quotes and brackets."""
    parts, quoted, depth, last = [], False, 0, 0
    for i, ch in enumerate(body):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[last:i].strip())
            last = i + 1
    return [*parts, body[last:].strip()]


def _words(value: str) -> str:
    """A VBA value in Python's words: `y("f")` / `y!f` is `y.f`, `True` `true`."""
    return _INDEX.sub(lambda m: f"{m.group('var')}.{m.group('f1') or m.group('f2')}", value.strip())


def _call(code: str) -> str | None:
    """`run_skill("skill", a=v, ...)` of a call of a skill with name / value pairs, or None."""
    m = _CALL.match(code)
    if m is None:
        return None
    rest = code[m.end():].strip()
    if m.group("paren") is not None:
        rest = rest[:-1] if rest.endswith(")") else rest
    args = _split(rest)
    if not args or not (args[0].startswith('"') and args[0].endswith('"')):
        return None
    pairs = [f"{k.strip(chr(34))}={_words(v)}" for k, v in zip(args[1::2], args[2::2], strict=False)
             if k.startswith('"') and k.endswith('"')]
    return f"run_skill({args[0]}{''.join(', ' + p for p in pairs)})"


def _condition(cond: str) -> str:
    """A VBA condition in Python's words (`y("f")` is `y["f"]`, which the condition reader reads as `f`)."""
    text = f" {_INDEX.sub(lambda m: m.group('var') + chr(91) + repr(m.group('f1') or m.group('f2')) + chr(93), cond)} "
    for vba, py in _OPS:
        text = text.replace(vba, py)
    return " ".join(_EQUALS.sub(" == ", text).split())


class _Statements:
    def __init__(self) -> None:
        self.cells = 0  # the values read from the sheet so far

    def statement(self, code: str) -> list[tuple[str, str]]:
        """What one VBA statement is, as (kind, text) lines in Python's words (module docstring)."""
        code = code.strip()
        if (m := _IF.match(code)) is not None:
            head = [("code", f"{m.group('kw').lower().replace('elseif', 'elif')} {_condition(m.group('cond'))}:")]
            rest = (m.group("rest") or "").strip()
            if not rest or m.group("kw").lower() == "elseif":  # a block `If ... Then`
                return head + (self.statement(rest) if rest else [])
            then, _, other = rest.partition(" Else ")
            out = head + self.statement(then)
            if other.strip():
                out += [("code", "else:"), *self.statement(other)]
            return [*out, ("code", END)]
        if (e := _ELSE.match(code)) is not None:
            return [("code", "else:"), *(self.statement(e.group("rest")) if e.group("rest") else [])]
        if _END_IF.match(code):
            return [("code", END)]
        if (each := _FOR_EACH.match(code)) is not None:
            return [("code", f"for {each.group('item')} in {_words(each.group('list'))}:")]
        if _END_LOOP.match(code):
            return [("code", NEXT)]
        if _LOOP.match(code):
            return [("code", f"{code}:")]
        if _SETUP.match(code):
            return []
        if (const := _CONST.match(code)) is not None:
            return [("code", f"{const.group('var')} = {const.group('value').strip()}")]
        var, value = "", code
        if (m := _ADD.match(code)) is not None or (m := _SET.match(code)) is not None:
            var, value = m.group("var"), m.group("value").strip()
            value = value[:-1] if code[m.start("value") - 1:m.start("value")] == "(" and value.endswith(")") else value
        elif _WRITE.match(code):  # a cell written: the macro's own output
            return []
        lead = f"{var} = " if var else ""
        if (call := _call(value)) is not None:
            return [("code", lead + call)]
        if _CALL.match(value):  # a skill named by a variable: the call as written, which the reader warns of
            return [("code", value)]
        if var and (_CELL.match(value) or _INPUTBOX.match(value)):
            self.cells += 1
            return [("code", f"{var} = sys.argv[{self.cells}]")]
        if var and _NEW.match(value):
            return []
        return [("code", lead + _words(value))]


def vba_code_lines(lines: list[str]) -> list[tuple[str, int, str]]:
    """(kind, line, text) of each line of a VBA module, its code in Python's words (module docstring)."""
    out: list[tuple[str, int, str]] = []
    said = _Statements()
    joined, start = "", 0
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not joined and stripped.startswith("'"):
            out.append(("comment", number, stripped.lstrip("'").strip()))
            continue
        if not joined and (rem := _REM.match(stripped)) is not None:
            out.append(("comment", number, (rem.group("text") or "").strip()))
            continue
        if not joined and not stripped:
            out.append(("blank", number, ""))
            continue
        code, trailing = _cut(stripped)
        start = start if joined else number
        if code.endswith(" _") and number < len(lines) and number - start < _MAX_JOINED:
            joined = f"{joined} {code[:-2]}".strip()
            if trailing:
                out.append(("comment", number, trailing))
            continue
        whole = f"{joined} {code}".strip()
        joined = ""
        got = said.statement(whole) if whole else []
        out.extend((kind, start, text) for kind, text in got)
        if not got:
            out.append(("blank", start, ""))
        if trailing:
            out.append(("comment", number, trailing))
    return out


_rx.save()
