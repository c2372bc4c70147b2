"""A service unit (a systemd `.service` file, a supervisor-like `[program:x]` file) whose command
lines run the skills: each such line is a step, the `#` comment lines right above it its text.

    [Service]
    # what day to file for                      Environment= (or `environment=` in a [program:x]
    Environment=AIR_DATE=2026-11-28              section) sets a variable the commands use: a
    Environment="STUDIO=A" RATE=0.12             workflow input (`AIR_DATE`, as spelled), its value the default;
    EnvironmentFile=/etc/kxrw.env                an env file's variables are not here: each `$X` it
                                                 sets is a workflow input with no default (warned)
    TimeoutStartSec=40min                        the whole run's limit (RuntimeMaxSec= too)
    Restart=no                                   the unit's own settings: not read (said once)
    # (1) grab the log. 4 more goes, 20s apart   the step comment and its text, read for its policy
    ExecStartPre=/usr/local/bin/skill asrun-fetch day=${AIR_DATE} --out plays.json
                                                 as a script runbook's call (`spec.script_runbook`):
                                                 a runner path before the skill, `key=value` inputs,
                                                 `${X}` / `$X` the variable; `--out f.json` (`-o`,
                                                 `--output`) is the file the step writes
    ExecStart=... track-dedupe plays=@plays.json:plays   `@f.json:field` is that field of the step
                                                 that wrote f.json
    # ExecStartPost=/usr/bin/mail-dee ...        a command line commented out: no step (warned)

`ExecStartPre=`, `ExecStart=`, `ExecStartPost=` (and a supervisor `command=`) run top to bottom;
`ExecStop=`, `ExecReload=` and the like are not the run's steps (warned at the line). A file is a
unit by its suffix (`.service`, `.unit`) or, with no suffix another reader takes, when it has a
`[Unit]`/`[Service]`/`[program:...]` section and a command line that runs a skill. The INI shape
(sections, `key=value`, `#`/`;` comments) is read here line by line, linearly; the steps and their
wiring are the crontab reader's (`spec.crontab`), shared.
"""

from __future__ import annotations

import shlex
from pathlib import PurePath

from orchestrator.spec.check import SpecParts
from orchestrator.spec.crontab import command_call, read_jobs
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SECTION = _rx(r"^\[[ \t]*+(?P<name>[A-Za-z][\w:. -]{0,60}+)[ \t]*+\][ \t]*+$")
_UNIT_SECTION = _rx(r"(?im)^[ \t]*+\[[ \t]*+(?:Unit|Service|program:[\w.-]{1,60}+)[ \t]*+\][ \t]*+$")
_DIRECTIVE = _rx(r"^(?P<key>[A-Za-z][\w.-]{0,60}+)[ \t]*+=[ \t]*+(?P<value>.*+)$")
_RUN_KEYS = frozenset(("execstartpre", "execstart", "execstartpost", "command"))
_NOT_RUN_KEYS = frozenset(("execstop", "execstoppost", "execreload", "execcondition"))
_LIMIT_KEYS = frozenset(("timeoutstartsec", "runtimemaxsec", "timeoutsec"))
# a command line commented out: `# ExecStartPost=/usr/bin/x`, `;command=...`
_COMMENTED = _rx(r"(?i)^[#;]++[ \t]*+(?:Exec[A-Za-z]{0,12}+|command)[ \t]*+=")
_OUT = _rx(r"(?:^|(?<=\s))(?:--out(?:put)?+|-o)(?:[ \t]++|=)(?P<file>[\w./$-]++)")
_AT_FIELD = _rx(r"(?<![\w@])@(?P<file>[\w./-]{1,120}+):(?P<field>[A-Za-z_]\w{0,60}+)")
_SYSTEMD_SPAN = _rx(r"(?i)^(?P<n>\d{1,6}+(?:\.\d{1,3}+)?+)[ \t]*+(?P<unit>[a-z]{0,8}+)$")
_SUFFIXES = (".service", ".unit")
_REF = _rx(r"\$\{?([A-Za-z_]\w{0,60}+)")
_SUPERVISOR_ENV = _rx(r"%\(ENV_(?P<var>[A-Za-z_]\w{0,60}+)\)s")  # supervisor's `%(ENV_SHOP)s`: `${SHOP}`


def is_unit(path: str, text: str) -> bool:
    """The file is a service unit (module docstring)."""
    p = PurePath(path)
    if p.suffix.lower() in _SUFFIXES:
        return True
    if p.suffix.lower() in (".md", ".markdown", ".yaml", ".yml", ".json", ".toml", ".csv", ".tsv", ".txt"):
        return False
    if _UNIT_SECTION.search(text) is None:
        return False
    for raw in text.splitlines():
        d = _DIRECTIVE.match(raw.strip())
        if d is not None and d.group("key").lower() in _RUN_KEYS and "skill" in d.group("value"):
            return True
    return False


def _variables(key: str, value: str) -> list[tuple[str, str]]:
    """(name, value) of an `Environment=` line (`A=1 "B=two words"`) or a supervisor
    `environment=` (`A="1",B="2"`)."""
    text = value.replace('",', '" ') if key == "environment" else value
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        words = text.split()
    out = []
    for word in words:
        name, eq, val = word.rstrip(",").partition("=")
        if eq and name.replace("_", "a").isalnum() and not name[:1].isdigit():
            out.append((name, val))
    return out


def _limit(value: str) -> str | None:
    """A systemd time span (`40min`, `90`, `1h 30min`) as words the run-limit reader reads."""
    value = value.strip()
    if value.lower() in ("infinity", "0", ""):
        return None
    m = _SYSTEMD_SPAN.match(value)
    if m is not None and not m.group("unit"):
        return f"{m.group('n')} seconds"
    return value


def _command(text: str, skills: frozenset[str]) -> str:
    """An Exec line's command as a script's call: its `-@:+!` prefixes off, a runner path before the
    skill (`/usr/local/bin/skill x`) read as the crontab reader does, supervisor's `%(ENV_X)s` the
    variable `${X}`, `--out f.json` a redirect, `@f.json:field` the field `f.field` of the step that
    wrote f.json."""
    text = _SUPERVISOR_ENV.sub(lambda m: "${" + m.group("var") + "}", text)
    call = command_call(text, skills)
    if call is not None:
        text = f"skill {call[0]} {call[1]}".rstrip()
    out = _OUT.search(text)
    if out is not None:
        text = f"{text[:out.start()].rstrip()} {text[out.end():].strip()} > {out.group('file')}".replace("  ", " ")
    return _AT_FIELD.sub(lambda m: f"{m.group('file').rsplit('/', 1)[-1].split('.', 1)[0]}.{m.group('field')}", text)


def unit_lines(src: Source) -> tuple[list[str], list[tuple[int, str, str]]]:
    """The unit's lines as a script runbook reads them (a command line a call, an `Environment=`
    variable an assignment, the rest blank or the comment it is) and its variables (line, name, value)."""
    out: list[str] = []
    variables: list[tuple[int, str, str]] = []
    unread: list[tuple[int, str]] = []
    going_on = False  # the command line before ended in `\`
    skills = frozenset(src.vocabulary.skills) if src.vocabulary else frozenset()
    for number, raw in enumerate(src.lines, start=1):
        line = raw.strip()
        if going_on:
            going_on = line.endswith("\\")
            out.append(_command(line, skills))
            continue
        if _COMMENTED.match(line):
            src.warn(number, "a command line commented out: not read (no step)", "spec.reading")
            out.append("")
            continue
        if not line or line[0] in "#;":
            out.append("#" + line[1:] if line[:1] == ";" else raw)
            continue
        if _SECTION.match(line):
            out.append("")
            continue
        d = _DIRECTIVE.match(line)
        if d is None:
            out.append(raw)  # not the unit's shape: the script reader says what it is not
            continue
        key, value = d.group("key").lower(), d.group("value").strip()
        if key in _RUN_KEYS:
            going_on = value.endswith("\\")
            out.append(_command(value.lstrip("-@:+! \t"), skills))
        elif key == "environment":
            pairs = _variables(key, value)
            variables += [(number, name, val) for name, val in pairs]
            out.append(f"{pairs[0][0]}=" if pairs else "")
        elif key == "environmentfile":
            src.warn(number, f"`{d.group('key')}={value}`: the file is not read here; each `$X` the commands use "
                             "that no `Environment=` line sets is a workflow input with no default", "spec.reading")
            out.append("")
        elif key in _LIMIT_KEYS:
            said = _limit(value)
            if said is not None and read_run_limit(f"Whole run: {said} max.", number, src, who="whole run"):
                src.warn(number, f"`{d.group('key')}={value}` is not read as the whole run's limit: write "
                                 f"'Whole run: {said} max.' in a comment", "spec.reading")
            out.append("")
        elif key in _NOT_RUN_KEYS:
            src.warn(number, f"`{d.group('key')}=` runs when the unit stops or reloads, not in the run: not a step",
                     "spec.reading")
            out.append("")
        else:
            unread.append((number, d.group("key")))
            out.append("")
    keys = ", ".join(dict.fromkeys(k for _, k in unread))
    own = f"; the unit's own settings ({keys[:160]}) are not read" if keys else ""
    src.warn(unread[0][0] if unread else 1, "read as a service unit: each command line (`ExecStartPre=`, `ExecStart=`, "
                                            f"...) is a step, run top to bottom, the comment lines above it its text{own}",
             "spec.reading")
    return out, variables


def read_unit(src: Source) -> SpecParts | None:
    """The parts of a service unit (module docstring), read as the crontab reader reads its jobs."""
    lines, variables = unit_lines(src)
    named = {name for _, name, _ in variables}
    for number, text in enumerate(lines, start=1):  # `${ROOM}` an env file sets: named as spelled, no default
        if text.startswith("skill "):
            variables += [(number, m.group(1), "") for m in _REF.finditer(text) if m.group(1) not in named]
    return read_jobs(src, lines, {}, variables, as_written=True)


_rx.save()
