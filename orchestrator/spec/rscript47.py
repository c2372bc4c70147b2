"""An R script (`.R`, `.r`, `#!/usr/bin/env Rscript`) read as a script runbook (`spec.script_runbook`).

Each statement is put in the words the Python script reader already reads (`r_code_lines`), so an R
script is read like a Python one, field by field, never run:

    # 2) pool them / ## step 2: ...          a comment (any number of `#`): a step's header or its rules
    x <- run("skill-name", a = 1, b = y$f)  a call (`x = run_skill("skill-name", ...)`); `y$f` is `y.f`,
                                            the output `f` of the step whose result is `y`
    AREA <- "IVb"   n <- 3                  a literal
    day <- ""   hauls <- list()   x <- NULL a value given from outside: a workflow input
    day <- commandArgs(TRUE)[1]             an argument (`sys.argv[1]`); `Sys.getenv("DAY")` the environment
    library(x)   run <- function(...) ...   setup: no step, no warning
    lapply(xs, function(h) run(...))        the call once per item of `xs` (`sapply`, `purrr::map`, `Map` too):
                                            a loop `for h in xs:` before it: the step runs once per item of
                                            `xs` (a workflow input or a step's output), `h$f` the item's field

A statement whose `(` is not closed goes on at the next line (at most 200 lines).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.script_join import joined_lines

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COMMENT = _rx(r"^#++'?\s*+(?P<text>.*+)$")
_ASSIGN = _rx(r"^(?P<var>[A-Za-z.][\w.]{0,60}+)\s*+(?:<<?-|=(?!=))\s*+(?P<value>.*+)$")
_EMPTY = _rx(r"^(?:\"\"|''|NULL|NA(?:_character_)?|list\(\s*+\)|c\(\s*+\)|character\(\s*+0?\s*+\))$")
_SETUP = _rx(r"^(?:library|require|requireNamespace|suppressMessages|suppressWarnings|options|set\.seed|source|"
             r"setwd|rm|invisible|message|cat|print|stopifnot|Sys\.setenv)\s*+\(")
_FUNCTION = _rx(r"^function\s*+\(")
_ARG = _rx(r"^commandArgs\s*+\([^()]{0,60}+\)\s*+\[\s*+(?P<n>[1-9])\s*+\]$")
_ENV = _rx(r"^Sys\.getenv\s*+\(\s*+[\"'](?P<name>\w{1,60}+)[\"']")
_MAP = _rx(r"^(?:purrr::)?(?:lapply|sapply|vapply|map|map_dfr|walk)\s*+\(\s*+(?P<list>[A-Za-z.][\w.$]{0,60}+)\s*+,\s*+"
           r"(?:function\s*+\(\s*+(?P<item>[A-Za-z.]\w{0,60}+)\s*+\)|~)\s*+")
_RUN = _rx(r"\brun\s*+\(\s*+(?=[\"'])")
_FIELD = _rx(r"\b(?P<var>[A-Za-z.][\w.]{0,60}+)\$(?P<field>[A-Za-z_][\w.]{0,60}+)")


def is_r(path: str, first_line: str) -> bool:
    """An R script by its suffix or `#!` line."""
    return path.lower().endswith(".r") or (first_line.startswith("#!") and "Rscript" in first_line)


def _open(text: str) -> int:
    """How many `(` of `text` are not closed (quotes and a trailing `#` comment skipped)."""
    depth, quote = 0, ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        else:
            depth += (ch == "(") - (ch == ")")
    return depth


def _cut(text: str) -> tuple[str, str]:
    """(code, trailing comment) of a line."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return text[:i].rstrip(), text[i + 1:].strip()
    return text.rstrip(), ""


def _words(code: str) -> str:
    """An R expression in Python's words: `run("x", ...)` is `run_skill("x", ...)`, `a$f` is `a.f`."""
    return _FIELD.sub(lambda m: f"{m.group('var')}.{m.group('field')}", _RUN.sub("run_skill(", code))


def _value(value: str) -> str:
    if _EMPTY.match(value):
        return '""'
    if (arg := _ARG.match(value)) is not None:
        return f"sys.argv[{arg.group('n')}]"
    if (env := _ENV.match(value)) is not None:
        return f'os.environ.get("{env.group("name")}")'
    return _words(value)


def statement(code: str) -> list[tuple[str, str]]:
    """What one R statement is, as (kind, text) lines in Python's words (module docstring)."""
    code = code.strip().rstrip(";")
    var, value = "", code
    if (m := _ASSIGN.match(code)) is not None:
        var, value = m.group("var"), m.group("value").strip()
    if _SETUP.match(value) or _FUNCTION.match(value):
        return []
    lead = f"{var} = " if var else ""
    if (each := _MAP.match(value)) is not None and value.endswith(")"):
        item = each.group("item") or "x"
        body = value[each.end():-1].strip()
        body = body.replace(".x$", f"{item}$") if each.group("item") is None else body
        return [("code", f"for {item} in {each.group('list').replace('$', '.')}:"), ("code", lead + _words(body))]
    return [("code", lead + _value(value))]


def r_code_lines(lines: list[str]) -> list[tuple[str, int, str]]:
    """(kind, line, text) of each line of an R script, its code in Python's words (module docstring)."""
    return joined_lines(lines, comment=_COMMENT, cut=_cut, goes_on=lambda joined: _open(joined) > 0,
                        statements=statement)


_rx.save()
