"""The PowerShell constructions a script runbook (`spec.script_runbook`) reads beyond one-line calls.

    param(                                          the run's inputs: each `$Name` one, named as
        [Parameter(Mandatory = $true)][string]$Day,  written; `= value` its default (then it is not
        [int]$Copies = 2                             required), `Mandatory` required; a `.PARAMETER
    )                                                Name` paragraph of the help comment its description
    $r = Invoke-Skill 'tally' @{                    a hashtable argument: each `key = value` an input
        rows  = $rows.items                         (one a line, or `;` between them on one line)
        limit = 40
    }
    $p = @{ day = $Day }; Invoke-Skill x @p         splatting: the hashtable set to `$p` earlier
    try { $r = Invoke-Skill a ... }                 a skill called in a `catch` block is the fallback of
    catch { $r = Invoke-Skill b ... }               the step in its `try` (no step of its own); a `catch`
                                                    that calls none and does not `throw` goes on (the
                                                    error is swallowed), one that throws fails the run

A line whose `(` or `@{` is not closed goes on at the next (`still_open`), so a call or a param
block written over several lines is read as one. `$true`, `$false` are the literals true, false.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PARAM = _rx(r"(?i)^\s*+(?:\[cmdletbinding\([^)]{0,200}+\)\]\s*+)?param\s*+\(")
_PARAM_VAR = _rx(r"\$(?P<name>[A-Za-z_]\w{0,60}+)\s*+(?:=\s*+(?P<default>\S.*+))?$", re.S)
_MANDATORY = _rx(r"(?i)\bmandatory\b(?!\s*+=\s*+\$false)")
_TYPE = _rx(r"(?i)\[(?P<type>string|int|int32|int64|long|double|decimal|float|bool|boolean|switch|datetime|"
            r"string\[\]|int\[\]|hashtable|object)\]")
_HELP_PARAM = _rx(r"(?i)^\.parameter\s++(?P<name>[A-Za-z_]\w{0,60}+)\s*+$")
_HELP_KEY = _rx(r"^\.[A-Za-z]++\b")
_KEY = _rx(r"^\s*+(?:[\"'](?P<q>[A-Za-z_][\w-]{0,60}+)[\"']|(?P<k>[A-Za-z_][\w-]{0,60}+))\s*+=(?!=)\s*+(?P<v>.*+)$",
           re.S)
_TRY = _rx(r"(?i)^(?P<kw>try|catch)\b\s*+(?:\[[\w.]{1,200}+\](?:\s*+,\s*+\[[\w.]{1,200}+\])*+\s*+)?\{(?P<rest>.*+)$")
_SPLAT = _rx(r"(?<![\w$])@(?P<name>[A-Za-z_]\w{0,60}+)\b")
_TYPES = {"string": "string", "int": "integer", "int32": "integer", "int64": "integer", "long": "integer",
          "double": "number", "decimal": "number", "float": "number", "bool": "boolean", "boolean": "boolean",
          "switch": "boolean", "string[]": "array", "int[]": "array", "hashtable": "object", "object": None,
          "datetime": "string"}


def try_catch(text: str) -> tuple[str, str] | None:
    """("try", rest) for `try {`, ("catch", rest) for `catch {` / `catch [System.Net.WebException] {`, rest the
    code after the brace on the same line; None for any other code."""
    m = _TRY.match(text)
    return (m.group("kw").lower(), m.group("rest").strip()) if m else None


def closed_at(rest: str) -> int | None:
    """Where the `}` that closes a block opened just before `rest` is in it (outside quotes), or None."""
    depth, quote = 0, ""
    for i, ch in enumerate(rest):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return i
            depth -= 1
    return None


def still_open(text: str) -> str | None:
    """"h" when a hashtable `@{` of the code is not closed, "p" when a `(` is not, else None (a block's
    own `{` does not count)."""
    stack: list[str] = []
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            break
        elif ch == "@" and text[i + 1:i + 2] in ("{", "("):
            stack.append("h" if text[i + 1] == "{" else "p")
            i += 1
        elif ch == "{":
            stack.append("b")
        elif ch == "(":
            stack.append("p")
        elif (ch == "}" and stack and stack[-1] in "hb") or (ch == ")" and stack and stack[-1] == "p"):
            stack.pop()
        i += 1
    for kind in reversed(stack):
        if kind in "hp":
            return kind
    return None


def split_outside(body: str, seps: str) -> list[str]:
    """`body` cut at `seps` outside quotes, brackets and braces, each part stripped, empty ones dropped (also
    `spec.code_flow54`'s statements of a line)."""
    parts, quote, depth, last = [], "", 0, 0
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch in seps and depth <= 0:
            parts.append(body[last:i])
            last = i + 1
    parts.append(body[last:])
    return [p.strip() for p in parts if p.strip()]


def _inside(text: str, start: int) -> str | None:
    """The text between the bracket at `start` and the one that closes it, or None."""
    depth, quote = 0, ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return None


def hashtable(text: str) -> list[tuple[str, str]] | None:
    """The `key = value` pairs of the first `@{ ... }` in `text` (values as written), or None when
    it has none."""
    at = text.find("@{")
    if at < 0:
        return None
    body = _inside(text, at + 1)
    if body is None:
        return None
    out = []
    for part in split_outside(body, ";\n"):
        m = _KEY.match(part)
        if m:
            out.append(((m.group("q") or m.group("k")).replace("-", "_"), m.group("v").strip()))
    return out


def splatted(call: str) -> str | None:
    """The variable a call splats (`Invoke-Skill x @p`: `p`), or None."""
    m = _SPLAT.search(call)
    return m.group("name") if m else None


def literal(value: str) -> tuple[bool, object]:
    """(True, value) for PowerShell's `$true` / `$false`, else (False, None)."""
    word = value.strip().lower()
    if word in ("$true", "$false"):
        return True, word == "$true"
    return False, None


def is_param(text: str) -> bool:
    return _PARAM.match(text) is not None


def param_block(text: str) -> list[tuple[str, bool, object, str | None]]:
    """(name, required, default, type) of each parameter of a `param(...)` block: required when it is
    `Mandatory` and has no default (PowerShell gives any other one not passed `$null`)."""
    opening = _PARAM.match(text)
    at = opening.end() - 1 if opening is not None else -1
    body = _inside(text, at) if at >= 0 else None
    out: list[tuple[str, bool, object, str | None]] = []
    for part in split_outside(body or "", ",;\n"):
        var = next(reversed(list(_PARAM_VAR.finditer(part))), None)  # the last `$Name`: `[Attr($x)]` goes before it
        if var is None:
            continue
        default = var.group("default")
        head = part[:var.start()]
        kind = _TYPE.search(head)
        type_ = _TYPES.get(kind.group("type").lower()) if kind else None
        value: object = None
        if default is not None:
            from orchestrator.spec.script_names import (
                word_value,  # it reads this module's hashtables
            )

            ok, value = literal(default)
            if not ok:
                value = word_value(default)
        required = default is None and _MANDATORY.search(head) is not None
        if type_ == "boolean" and default is None and not required:  # a [switch] not given is false
            value = False
        out.append((var.group("name"), required, value, type_))
    return out


def help_parameters(comments: list[tuple[int, str]]) -> dict[str, str]:
    """The description of each `.PARAMETER Name` paragraph of a comment-based help block."""
    out: dict[str, str] = {}
    name = None
    for _, text in comments:
        m = _HELP_PARAM.match(text.strip())
        if m:
            name = m.group("name")
            out[name] = ""
        elif _HELP_KEY.match(text.strip()):
            name = None
        elif name is not None and text.strip():
            out[name] = f"{out[name]} {text.strip()}".strip()
    return out


_rx.save()
