"""A settings section of a config-file spec (`[general]`, `[defaults]`, `[settings]`): the workflow's, no step's.

    [general]
    ask_for     = site, readings       ; typed in by the planner
    ; the whole check: 20 min max
    max_total   = 20min

An INI-like file read anchored on its skills (`spec.anchored`) has each `[section]` that names a
skill read as a step; a section headed by a word of the workflow's own settings ("general",
"defaults", "settings", "global", "workflow", "config", "options", "main", "common") names none,
and its lines were placed as notes said away from the steps on whichever step a word of them
named ("telemetry" in a list of inputs became the telemetry step's policy). Such a section is no
step's text: a line of it that limits the whole run ("max_total = 20min", "; hold the whole check
to 20 min") is that limit, read as the preamble's are (`spec.run_limit`); every other line is
warned at its line as a setting not read, with what to write instead.
"""

from __future__ import annotations

from orchestrator.spec.outline import Unit
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_HEAD = _rx(r"(?i)^[ \t]*+\[[ \t]*+(?:general|defaults?|settings|global|workflow|config|configuration|options|main|"
            r"common|run|pipeline|meta)[ \t]*+\][ \t]*+(?:[;#][^\n]*+)?+$")
_PAIR = _rx(r"^[ \t]*+(?P<key>[A-Za-z_][\w.-]{0,40}+)[ \t]*+[=:][ \t]*+(?P<value>[^;#\n]*+)(?:[;#][ \t]*+(?P<note>[^\n]*+))?+$")
_COMMENT = _rx(r"^[ \t]*+[;#][ \t]*+(?P<note>[^\n]*+)$")
_LIMIT_KEY = _rx(r"(?i)(?:max|limit|timeout|time|total|budget|deadline|wall)")
_INPUT_KEY = _rx(r"(?i)(?:ask|input|param|need|give|require)")
_DONE_KEY = _rx(r"(?i)(?:finish|done|success|pass|complete|check)")


def settings_unit(unit: Unit) -> bool:
    """Whether the unit is a settings section: its first line a `[general]`-like header."""
    return bool(unit.lines) and _HEAD.match(unit.lines[0][1]) is not None


def read_settings(unit: Unit, src: Source) -> set[int]:
    """Read a settings section (module docstring); the lines it covers."""
    covered = {ln for u in unit.walk() for ln in [*u.covers, *(n for n, _ in u.lines)]}
    header = unit.lines[0][1].strip()
    for line, text in [(n, t) for u in unit.walk() for n, t in u.lines][1:]:
        if not text.strip():
            continue
        pair, comment = _PAIR.match(text), _COMMENT.match(text)
        if pair is not None:
            key, value = pair.group("key").strip(), pair.group("value").strip()
            said = f"{key.replace('_', ' ')} {value}"
            if _LIMIT_KEY.search(key) and (value and not read_run_limit(f"Whole run: {value} max.", line, src,
                                                                          who="whole run")):
                src.warn(line, f"{header}: the setting '{key} = {value}' is read as the whole run's limit: check "
                               f"the plan, or write 'Whole run: {value} max.'", "spec.reading")
                continue
            advice = ("declare them as the workflow's inputs (`Inputs: a, b`)" if _INPUT_KEY.search(key) else
                      "write it as a `Success:` line on the step whose output it tests" if _DONE_KEY.search(key) else
                      "say it on the step it is about")
            src.warn(line, f"{header}: the setting '{said[:60]}' is the workflow's, no step's, and is not read: "
                           f"{advice}", "spec.unread")
        elif comment is not None:  # a remark; one that limits the whole run is that limit
            read_run_limit(comment.group("note"), line, src, who="whole run")
    return covered


_rx.save()
