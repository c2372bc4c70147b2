"""Command-shaped code read by its words (round 54), for the reader of code by its skill calls (`spec.wired52`).

Some languages write a call as a command: the skill's name, then its fields and values as words, no `=` or `:`
between them (Tcl, a shell, PowerShell without dashes, a Lisp with keywords):

    set pnl [skill load-panel panel_id $panel]          `panel_id` <- `$panel`: a key that is an input of the
    sw-call aoi-inspect serial "$sn" threshold 0.85     skill, then the word after it (`word_pairs`); `:key v`
    (skill 'grade-bin :bin b :kg 20)                    is the same pair

and read a field the same way: `[dict get $sum yield_pct]`, `(get x :f)`, `(:f x)`, `x.fetch(:f)`, `x.dig(:a, :b)`
are `x.f` (`command_getter`). Before the first call, a name set to a positional argument of the program is a run
input (`set panel [lindex $argv 0]`, `panel = sys.argv[1]`, `PANEL=$1`, `panel := os.Args[1]`, `ARGV[0]`,
`args[0]`, `process.argv[2]`) and a name set to a literal is a constant (`set LINE "SMT-2"`, `set PASSMARK 0.85`):
`assignment` reads both, with the command keyword (`set`, `local`, `declare`, `my`) and a space for its `=`.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a name set by a command keyword and a space (`set x v`, `local x v`): the keyword is needed, a bare `x v` is
# any command (`if [ -z "$1" ]`, `puts "hi"`)
_SET_WORDS = _rx(r"^\s*+(?:#\s*+define|set|SET|Set|local|declare|typeset|my|our|variable|global|define|setq|setf|def)\s++"
                 r"[$@%&]?(?P<name>[A-Za-z_]\w{0,60}+)\s++(?P<value>\S[^\n]{0,400}+)$")
# a positional argument of the program: `[lindex $argv 0]`, `sys.argv[1]`, `$1`, `${1:-x}`, `"$2"`, `ARGV[0]`,
# `$ARGV[0]`, `args[0]`, `$args[0]`, `os.Args[1]`, `process.argv[2]`, `commandArgs(TRUE)[1]`, `%1`, `argv[1]`,
# `shift @ARGV`, `(nth 1 *command-line-args*)`
_POSITIONAL = _rx(r"(?:\[\s*+lindex\s++\$argv\s++\d{1,3}+\s*+\]|\b(?:sys\.argv|os\.Args|process\.argv|ARGV|argv|args|"
                  r"Args|arguments|commandArgs\s*+\([^()\n]{0,20}+\))\s*+\[\s*+\d{1,3}+\s*+\]|"
                  r"^[\"']?\$\{?[1-9]\b|^%[1-9]\b|\bshift\s*+\(?\s*+@ARGV|\bnth\s++\d{1,3}+\s++\*command-line-args\*)")
_LITERAL = _rx(r"^(?:\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|\{[^{}\[\]$\n]{0,200}+\}|-?\d{1,15}+(?:\.\d{1,6}+)?)$")


def positional(value: str) -> bool:
    """Whether a value reads a positional argument of the program (`_POSITIONAL`)."""
    return _POSITIONAL.search(value.strip()) is not None


def assignment(code: str) -> tuple[str, str, object] | None:
    """("input", name, None) for `set NAME <positional argument>`, ("constant", name, value) for `set NAME
    <literal>`, written with a command keyword and a space (`_SET_WORDS`); None for anything else (a `=`
    assignment is read by the caller)."""
    m = _SET_WORDS.match(code)
    if m is None:
        return None
    name, value = m.group("name"), m.group("value").strip().rstrip(";").strip()
    if positional(value):
        return "input", name, None
    if _LITERAL.match(value) and value != "{}":
        if value[:1] in "\"'{":
            return "constant", name, value[1:-1].strip() if value[0] == "{" else value[1:-1]
        return "constant", name, float(value) if "." in value else int(value)
    return None


# -- words after the skill's name ----------------------------------------------------------------------------------

_CLOSE = {"[": "]", "{": "}", "(": ")"}


def _word_end(code: str, i: int) -> int:
    """The index after the word starting at `i`: a bracketed group, a quoted string, else up to a space or a
    closing bracket."""
    ch = code[i]
    if ch in "\"'":
        j = i + 1
        while j < len(code):
            if code[j] == "\\":
                j += 2
                continue
            if code[j] == ch:
                return j + 1
            j += 1
        return len(code)
    if ch in _CLOSE:
        depth, j = 0, i
        while j < len(code):
            if code[j] in _CLOSE:
                depth += 1
            elif code[j] in _CLOSE.values():
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return len(code)
    j = i
    depth = 0
    while j < len(code) and not (code[j] in " \t" and depth == 0):
        if code[j] in "[{(":
            depth += 1
        elif code[j] in "]})":
            if depth == 0:
                break
            depth -= 1
        j += 1
    return j


def words(code: str, start: int) -> list[tuple[int, str]]:
    """(column, word) of the command words from `start` up to the end of the command (a closing bracket, `;`)."""
    out: list[tuple[int, str]] = []
    i = start
    while i < len(code) and len(out) < 80:
        while i < len(code) and code[i] in " \t":
            i += 1
        if i >= len(code) or code[i] in ")]};|":
            break
        end = max(_word_end(code, i), i + 1)
        out.append((i, code[i:end]))
        i = end
    return out


def word_pairs(code: str, after: int, fields: set[str]) -> list[tuple[str, int, str]]:
    """(key, column, value text) of the `key value` words right after a skill's name (ending at `after`): each key
    an input of the skill as `fields` holds them folded (`_fold`), optionally `:key`; the pairs stop at the first word
    that is no such key. Nothing when the name is not followed by a space (`name(`, `name,`)."""
    if after >= len(code) or code[after:after + 1] not in (" ", "\t", "\"", "'"):
        return []
    at = after + 1 if code[after] in "\"'" else after  # the skill name's own closing quote
    said = words(code, at)
    out: list[tuple[str, int, str]] = []
    k = 0
    while k + 1 < len(said):
        col, key = said[k]
        bare = key.removeprefix(":")
        if not re.fullmatch(r"[A-Za-z_][\w-]{0,60}+", bare) or _fold(bare) not in fields:
            break
        out.append((bare, col, said[k + 1][1]))
        k += 2
    return out


def _fold(name: str) -> str:
    return re.sub(r"[\W_]++", "", name).lower()


# -- getters written as commands -----------------------------------------------------------------------------------

_TCL_GET = _rx(r"^\[\s*+dict\s++get\s++\$?(?P<obj>[A-Za-z_]\w{0,60}+)(?P<fs>(?:\s++[A-Za-z_][\w-]{0,60}+){1,4}+)\s*+\]$")
_LISP_GET = _rx(r"^\(\s*+(?:get|gethash|get-in|plist-get|assoc-default)\s++(?P<obj>[A-Za-z_][\w-]{0,60}+)\s++"
                r"[:']?(?P<f>[A-Za-z_][\w-]{0,60}+)\s*+\)$")
_LISP_KEY = _rx(r"^\(\s*+:(?P<f>[A-Za-z_][\w-]{0,60}+)\s++(?P<obj>[A-Za-z_][\w-]{0,60}+)\s*+\)$")
_RUBY_GET = _rx(r"^@?(?P<obj>[A-Za-z_]\w{0,60}+)\.(?:fetch|dig)\s*+\(\s*+(?P<fs>[:\"'][\w-]{1,60}+[\"']?"
                r"(?:\s*+,\s*+[:\"'][\w-]{1,60}+[\"']?){0,3}+)\s*+\)$")


def command_getter(text: str) -> str | None:
    """`x.f` (`x.f.g`) for a field read by a command or a keyword getter (module docstring), else None."""
    said = text.strip()
    if (m := _TCL_GET.match(said)) is not None:
        return ".".join([m.group("obj"), *m.group("fs").split()])
    if (m := _LISP_GET.match(said) or _LISP_KEY.match(said)) is not None:
        return f"{m.group('obj')}.{m.group('f')}"
    if (m := _RUBY_GET.match(said)) is not None:
        return ".".join([m.group("obj"), *(f.strip(" :\"'") for f in m.group("fs").split(","))])
    return None



def indented_under(lines: list[Any], index: int) -> int | None:
    """The index of the line a call's line is indented under when that line ends with `:` (`for sn in xs:`, a
    Python or Nim loop head), else None; `lines` are `spec.wired52.Line`s (`indent`, `code`)."""
    own = lines[index].indent
    for j in range(index - 1, max(-1, index - 200), -1):
        code = lines[j].code
        if not code.strip():
            continue
        if lines[j].indent < own:
            return j if code.rstrip().endswith(":") else None
    return None



def same_named(fields: frozenset[str] | None, bound: set[str], inputs: dict[str, int],
               earlier: set[str]) -> dict[str, str]:
    """{field: input} for each field of a step's skill that no value names, that differs from a run input the code
    declares (`inputs`: name -> line, 0 for one only referred to) only by case and separators (`kennel_code` ~
    `kennelCode`), and that no earlier step's skill outputs (`earlier`, folded), as `spec.declared_use52` binds."""
    out: dict[str, str] = {}
    by_fold = {_fold(name): name for name, line in inputs.items() if line}
    for name in sorted(fields or ()):
        if name in bound or _fold(name) in earlier:
            continue
        if (said := by_fold.get(_fold(name))) is not None:
            out[name] = said
    return out


_rx.save()
