"""A Windows batch file (`.bat`, `.cmd`) read as a script runbook (`spec.script_runbook`).

Each line is put in the words the script reader already reads (`bat_line`), so a batch file is read
like a shell script:

    REM 2. fees / :: 2. fees                a comment (`@REM` too); `REM` alone is a blank line
    set DAY=%1   set "MODE=fast"            a variable: `%1`..`%9` (`%~1`) an argument (`$1`), the
    set /p DAY=Which day?   set /a N=3      rest a literal; `set /p` asks for it: a workflow input
    call skill fee-calc day=%DAY%           a call (`call` and a leading `@` taken off); `%DAY%` is `$DAY`
    if %total% GTR 500 (                    a branch (`bat_pieces`): `if [/i] [not] A OP B (`, `) else (`,
    ) else if "%x%"=="y" (   ) else (   )   `) else if ... (`, `)`; `if A OP B command` on one line;
                                            GTR GEQ LSS LEQ EQU NEQ `==` are > >= < <= == != == (`condition`)
    :label   goto label                     not read: a warning at its line (a jump is no step order)
    @echo off   setlocal   pause   exit /b  setup: no step, no warning

A line ending in `^` goes on at the next. `%X%` that no `set` gave, where an earlier step's skill outputs
`X`, is that step's output (`spec.script_names`).
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_REM = _rx(r"(?i)^@?(?:rem(?:\s++(?P<a>.*+)|$)|::\s*+(?P<b>.*+))$")
_SETUP = _rx(r"(?i)^@?(?:echo\s++(?:off|on)|setlocal|endlocal|pause|cls|title|color|chcp|exit(?:\s++/b)?)\b")
_LABEL = _rx(r"^:(?P<name>[A-Za-z_][\w.-]{0,60}+)\s*+$")
_GOTO = _rx(r"(?i)^goto\s++:?(?P<name>\S{1,60}+)")
_SET = _rx(r"(?i)^set\s++(?P<flag>/[ap]\s++)?(?P<q>\"?)(?P<var>[A-Za-z_]\w{0,60}+)\s*+=(?P<value>[^\"]*+)(?P=q)\s*+$")
_CALL = _rx(r"(?i)^call\s++(?!:)")
_ARG = _rx(r"%~?(?P<n>[1-9])")
_VAR = _rx(r"%(?P<name>[A-Za-z_]\w{0,60}+)%")
_IF = _rx(r"(?i)^(?:\)\s*+else\s++)?if\s++(?:/i\s++)?(?P<not>not\s++)?(?P<cond>.+?)\s*+(?P<open>\()?\s*+$")
_ELSE = _rx(r"(?i)^\)\s*+else\s*+\(\s*+$")
_COMPARE = _rx(r"(?i)^(?P<a>\"[^\"]{0,200}+\"|\S++)\s*+(?P<op>==|\bEQU\b|\bNEQ\b|\bGTR\b|\bGEQ\b|\bLSS\b|\bLEQ\b)"
               r"\s*+(?P<b>\"[^\"]{0,200}+\"|\S++)(?:\s++(?P<rest>\S.*+))?$")
_OPS = {"==": "==", "equ": "==", "neq": "!=", "gtr": ">", "geq": ">=", "lss": "<", "leq": "<="}
_FLIP = {"==": "!=", "!=": "==", ">": "<=", "<=": ">", "<": ">=", ">=": "<"}


def bat_line(text: str) -> tuple[str, str]:
    """("comment", its text), ("blank", ""), ("label", name), ("goto", name) or ("code", the line in a shell's
    words: `%1` is `$1`, `%X%` is `$X`, `set X=v` is `X=v`, `call ` taken off)."""
    stripped = text.strip()
    if not stripped:
        return "blank", ""
    if (rem := _REM.match(stripped)) is not None:
        said = (rem.group("a") or rem.group("b") or "").strip()
        return ("comment", said) if said else ("blank", "")
    if _SETUP.match(stripped):
        return "blank", ""
    if (label := _LABEL.match(stripped)) is not None:
        return "label", label.group("name")
    if (goto := _GOTO.match(stripped)) is not None:
        return "goto", goto.group("name")
    code = _CALL.sub("", stripped.lstrip("@"))
    if (set_ := _SET.match(code)) is not None:
        value = set_.group("value").strip()
        if (set_.group("flag") or "").strip().lower() == "/p":  # `set /p X=prompt`: asked for when it runs
            value = ""
        code = f"{set_.group('var')}={value}"
    code = _ARG.sub(lambda m: f"${m.group('n')}", code)
    return "code", _VAR.sub(lambda m: f"${m.group('name')}", code)


def condition(raw: str, negated: bool = False) -> str:
    """A batch `if` condition (`$x GTR 0`, `"$m"=="fast"`, `not ...`) in the condition reader's words, or the
    text as written when it is not a comparison (`exist f`, `defined X`, `errorlevel 1`)."""
    m = _COMPARE.match(raw.strip())
    if m is None:
        return ("not " if negated else "") + raw.strip()
    op = _OPS[m.group("op").lower()]
    op = _FLIP[op] if negated else op

    def side(value: str) -> str:
        text = value.strip('"')
        if text.startswith("$"):
            return text[1:].lower()
        return text if re.fullmatch(r"-?\d++(?:\.\d++)?", text) else f"'{text}'"

    return f"{side(m.group('a'))} {op} {side(m.group('b'))}"


def bat_pieces(text: str) -> list[tuple[str, str]]:
    """What a code line of a batch file does: [("if"/"elif", condition), ("else", ""), ("end", ""),
    ("code", command)] (module docstring)."""
    out: list[tuple[str, str]] = []
    if _ELSE.match(text):
        return [("else", "")]
    m = _IF.match(text)
    if m is not None:
        kind = "elif" if text.startswith(")") else "if"
        cond = m.group("cond")
        if m.group("open"):
            return [(kind, condition(cond, bool(m.group("not"))))]
        one = _COMPARE.match(cond)
        rest = one.group("rest") if one is not None else None
        if one is not None and rest:  # `if %x% GTR 0 call skill y`: a one-line if
            head = cond[:one.start("rest")].strip()
            return [("if", condition(head, bool(m.group("not")))), ("code", _CALL.sub("", rest)), ("end", "")]
        return [("code", text)]
    if text == ")":
        return [("end", "")]
    if text.startswith(")"):
        out.append(("end", ""))
        text = text[1:].strip()
    return [*out, ("code", text)] if text else out


_rx.save()
