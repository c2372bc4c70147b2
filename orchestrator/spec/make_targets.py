"""A Makefile written as make is written: file targets, their prerequisites, and a skill run inside a
pipeline (`spec.recipes` reads the rest of a recipe file).

    build/prices.json:   ## pull-prices: flaky! retry 3x       a file target: a recipe named by its path;
        jq -n ... | $(PY) skills/pull-prices/scripts/main.py > $@     the `##` comment is its text
    build/margins.json: build/prices.json build/costs.json     its prerequisites: the targets it waits for
        jq -s ... $^ | $(PY) skills/margin-check/scripts/main.py > $@
    nightly: build/posted.json                                  no body: not a step (a phony goal)
    clean:   ## not part of the run                             a body that calls no skill: not a step

`file_header` reads a rule line whose target is a path (`build/x.json`, `out/report.csv`, `%.o` is not
taken: a pattern rule makes no one file) or a plain name, with its prerequisites and its comment.
`pipeline_skill` finds the skill a recipe line runs anywhere in it: a path `skills/<name>/...` after
the start, a pipe `|`, `&&` or `;` (or the interpreter that runs it: `$(PY) skills/<name>/main.py`),
not inside quotes. A `jq` object filter piped into the skill gives its inputs (`jq_arguments`); a
Makefile that is the whole spec keeps its upper-case variables' names as inputs (`FEED_DATE`, as
`make FEED_DATE=...` is given them). A target with no prerequisite is a root: two such targets start together, as
`make -j` runs them.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a rule whose target is a path: "build/prices.json:  ## comment", "out/a.csv: in/b.csv"
_FILE_HEADER = _rx(r"^(?P<name>[A-Za-z0-9_.][\w.-]*+(?:/[\w.-]++)++|[A-Za-z_][\w-]*+\.[A-Za-z0-9]{1,8}+)"
                   r"(?P<params>)[ \t]*+:(?![=:])(?P<deps>[^#=;]*+)(?:#++[ \t]?(?P<comment>.*+))?$")
# where a command starts in a line: its start, or after a pipe, `&&`, `||` or `;`
_COMMAND_START = _rx(r"(?:^|\|\|?|&&|;)[ \t]*+")
# a command that runs a skill's script: words before it (an interpreter, `env X=1`), then skills/<name>/
_RUNS_SKILL = _rx(r"(?:(?:\$\(\w++\)|\$\{\w++\}|[\w.=/-]++)[ \t]++){0,3}(?:\./)?skills/(?P<name>[a-z0-9][a-z0-9_-]*+)/")


def file_header(line: str) -> re.Match[str] | None:
    """The rule line `line` is when its target is a path (module docstring), as a match with the
    groups `name`, `params` (empty), `deps` and `comment`; None otherwise."""
    if line[:1] in (" ", "\t", "#") or "%" in line.split(":", 1)[0]:
        return None
    return _FILE_HEADER.match(line.rstrip())


def unquoted(command: str) -> str:
    """`command` with what is inside quotes blanked, the quotes kept (same length: a jq filter, an echo's
    text); `spec.justfile35` reads its pipelines with it too."""
    out = []
    quote = ""
    for ch in command:
        if quote:
            out.append(" " if ch != quote else ch)
            if ch == quote:
                quote = ""
        else:
            if ch in "'\"":
                quote = ch
            out.append(ch)
    return "".join(out)


def pipeline_skill(command: str) -> str | None:
    """The skill a recipe line runs in one of its commands (module docstring), or None."""
    plain = unquoted(command)
    for start in _COMMAND_START.finditer(plain):
        m = _RUNS_SKILL.match(plain, start.end())
        if m is not None:
            return m.group("name")
    return None


def script_call(command: str) -> re.Match[str] | None:
    """The piped command (after a `|`, `&&`, `;`, not the line's start) that runs a skill's script, or None."""
    plain = unquoted(command)
    for start in _COMMAND_START.finditer(plain):
        m = _RUNS_SKILL.match(plain, start.end())
        if m is not None and start.start() > 0:
            return m
    return None


def skill_command(command: str) -> str:
    """The command of a recipe line that runs its skill: the line itself when the skill is called at its
    start (`skill load-rows n=3`), else the piped command that runs `skills/<name>/...` up to the next pipe
    or redirection (so the `--arg d` of a `jq` before it is no argument of the skill)."""
    plain = unquoted(command)
    for start in _COMMAND_START.finditer(plain):
        m = _RUNS_SKILL.match(plain, start.end())
        if m is not None and start.end() > 0:
            end = next((i for i in range(m.end(), len(plain)) if plain[i] in "|>;&<"), len(plain))
            return command[start.end():end].strip()
    return command


def whole_file(text: str, first: int, last: int) -> bool:
    """Whether the recipe file on lines `first`..`last` is all of `text` but blank lines: a Makefile
    that is the spec, run as `make NAME=value`, whose upper-case variables keep their names as inputs."""
    lines = text.split("\n")
    return not any(x.strip() for x in lines[: first - 1]) and not any(x.strip() for x in lines[last:])


def assigned_value(line: str, value: str) -> str:
    """A variable's value as make reads it: `\\#` is a `#` of the value, not a comment's start
    (`CHANNEL := \\#pricing-alerts` is "#pricing-alerts"); `value` as read when it has none."""
    if "\\#" not in line:
        return value
    m = _ESCAPED_VALUE.match(line)
    return m.group("v").replace("\\#", "#").strip() if m else value


_ESCAPED_VALUE = _rx(r"^[^=]*+=[ \t]*+(?P<v>(?:[^#\\]|\\.)*+)")


class JqArgument(BaseModel):
    """What one key of a `jq` object filter piped into the skill gives it: a make variable's reference
    as written (`$(FEED_DATE)`), or a field of the prerequisite target it reads (`.below_floor` of `$<`)."""

    model_config = ConfigDict(frozen=True)

    key: str
    value: str | None = None  # "$(FEED_DATE)", "0.12" as written
    target: str | None = None  # the prerequisite the field is read from
    field: str | None = None


def jq_arguments(command: str, deps: tuple[str, ...]) -> list[JqArgument]:
    """The skill's inputs a `jq` object filter before the skill in the pipeline builds (module docstring):

        jq -n --arg d $(FEED_DATE) '{date:$$d}'                 date <- the variable FEED_DATE
        jq -s --argjson f $(FLOOR) '{prices: .[0].prices, floor: $$f}' $^   prices <- .prices of the 1st prerequisite
        jq '{squeezed: .below_floor}' $<                         squeezed <- .below_floor of the 1st prerequisite

    A key whose expression is none of these (`.a + .b`, a function) gives nothing; [] when no such filter."""
    first = _JQ.search(command)
    if first is None or pipeline_skill(command) is None:
        return []
    args = {m.group("name"): m.group("value").strip("'\"") for m in _JQ_ARG.finditer(command, first.end())}
    body = _JQ_OBJECT.search(command, first.end())
    if body is None:
        return []
    slurped = "$^" in command
    out: list[JqArgument] = []
    for part in body.group("body").split(","):
        key, colon, expr = part.partition(":")
        key, expr = key.strip().strip("\"'"), expr.strip()
        if not colon or not re.fullmatch(r"[A-Za-z_]\w{0,63}+", key):
            continue
        if (var := _JQ_VAR.fullmatch(expr)) is not None and var.group("v") in args:
            out.append(JqArgument(key=key, value=args[var.group("v")]))
        elif (got := _JQ_FIELD.fullmatch(expr)) is not None and deps:
            index = int(got.group("i") or 0) if slurped else 0
            if (got.group("i") is not None and not slurped) or index >= len(deps):
                continue
            out.append(JqArgument(key=key, target=deps[index], field=got.group("f")))
    return out


_JQ = _rx(r"(?:^|\|)[ \t]*+jq(?=[ \t])")
_JQ_ARG = _rx(r"--arg(?:json)?+[ \t]++(?P<name>[A-Za-z_]\w*+)[ \t]++(?P<value>'[^']*+'|\"[^\"]*+\"|\S++)")
_JQ_OBJECT = _rx(r"'[ \t]*+\{(?P<body>[^{}']*+)\}[ \t]*+'")
_JQ_VAR = _rx(r"\$?+\$(?P<v>[A-Za-z_]\w*+)")
_JQ_FIELD = _rx(r"(?:\.\[(?P<i>\d)\])?+\.(?P<f>[A-Za-z_]\w*+)")


_rx.save()
