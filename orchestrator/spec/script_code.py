"""The code lines of a runbook written as a script (`spec.script_runbook`): what each one does.

A script runbook is a bash/sh script, a PowerShell script, a Python script or a Makefile whose
steps are said in comments. Its code is read only for what a runbook needs; each line is one of:

    if [ "$(jq .cost a.json)" -gt 500 ]; then     a branch: `if`, `elif`, `else`, `fi` (PowerShell
    if ($a.cost -gt 500) { ... } else { ... }      `if (...) {`, `} elseif (...) {`, `} else {`, `}`;
    if a["cost"] > 500: ... elif ...: else:        Python by its indentation)
    skill fetch-rows day=$DAY > rows.json         a call of a skill: `skill <name>`, `run-skill <name>`,
    $r = Invoke-Skill fetch-rows -Day $day         `Invoke-Skill <name>`, `python -m <module> <name>`,
    rows = run_skill("fetch-rows", day=day)        `run_skill("<name>", ...)`, a path into skills/, or
    fetch-rows --day "$DAY"                        the name of a catalog skill as the command
    APP="$1"   $app = $args[0]   app = sys.argv[1] a variable (`assigned`)
    jq -e '.sent == true' letter.json              a check of a step's output file (`file_check`)

and anything else (`set -e`, `echo`, `import sys`) is boilerplate or a command that calls no skill.
A condition is said in the words the condition reader reads (`condition_words`): `-gt` is `>`,
`||` is `or`, `$(jq .cost a.json)` / `$a.cost` / `a["cost"]` is `cost`.
"""

from __future__ import annotations

import re

from orchestrator.spec.call_args import call_arguments
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SKILL_NAME = r"(?P<name>[a-z0-9]++(?:[-_][a-z0-9]++)*+)"
CALLS: tuple[str, ...] = (
    r"^(?:skillweave\s++)?(?:skill|run-skill|call-skill|skill-run|run_skill|invoke-skill)\s++(?:-name\s++)?[\"']?"
    + _SKILL_NAME,
    r"^python3?+\s++-m\s++[\w.]++\s++(?:run\s++)?" + _SKILL_NAME,
    r"^(?:[\w.]++\.)?(?:run_skill|call_skill|skill|invoke_skill)\s*+\(\s*+[\"']" + _SKILL_NAME + "[\"']",
    r"^(?:\./)?skills/" + _SKILL_NAME + r"(?:/\S*+)?",
)
_CALL = tuple(_rx(p, re.I) for p in CALLS)
_SUBPROCESS = _rx(r"^(?:subprocess\.)?(?:run|check_call|check_output|call)\s*+\(\s*+\[\s*+[\"'](?:skill|run-skill)[\"']"
                  r"\s*+,\s*+[\"']" + _SKILL_NAME + "[\"']", re.I)
_COMMAND_WORD = _rx(r"^[\"']?([a-z0-9]++(?:-[a-z0-9]++)++)\b")
# `X=...`, `$X = ...`, `x = ...`, `export X=...`, `local X=...`, Make's `X ?= ...`
_ASSIGN = _rx(r"^(?:export\s++|local\s++|declare\s++(?:-\w++\s++)?|readonly\s++)?\$?(?P<var>[A-Za-z_]\w{0,60}+)"
              r"(?:\s*+:\s*+\w++)?(?P<op>\s*+(?:\?=|:=|::=|\+=)\s*+|\s*+=(?!=)\s*+)(?P<value>.*+)$")
_POSITIONAL = _rx(r"^[\"']?(?:\$\{?[1-9]|\$args\[\d\]|sys\.argv\[\d\]|\$\{[1-9]:[-?=])")
_ENVIRON = _rx(r"^[\"']?(?:\$env:(?P<ps>\w++)|os\.environ(?:\.get\(|\[)\s*+[\"'](?P<py>\w++)|os\.getenv\(\s*+[\"'](?P<gv>\w++)"
               r"|\$\{(?P<sh>\w++):-)")
_ARGS_ATTR = _rx(r"^args\.(?P<name>\w++)$")
_BOILERPLATE = _rx(r"(?i)^(?:set|shopt|trap|cd|pushd|popd|mkdir|echo|printf|log|logger|exit|return|source|\.|umask|"
                   r"write-host|write-output|write-verbose|write-information|write-warning|write-error|write-debug|set-strictmode|import|from|print|logging|"
                   r"log\.\w++|logger\.\w++|def|function|param|\[cmdletbinding|main|sys\.exit|raise|throw|try|except|"
                   r"finally|catch|pass|then|do|done|esac|\{|\}|\)|\]|\.phony|\$erroractionpreference|#|@echo)\b")
_MAKE_TARGET = _rx(r"^[A-Za-z_][\w.-]*+\s*+:(?!=)")
_JQ = _rx(r"\$\(\s*+jq\s++(?:-\w++\s++)*+[\"']?\.(?P<field>\w++)[\"']?\s++(?P<file>[\w./-]++)\s*+\)")
_PS_FIELD = _rx(r"\$(?P<var>\w++)\.(?P<field>\w++)")
_PY_FIELD = _rx(r"\b(?P<var>[A-Za-z_]\w*+)(?:\[\s*+[\"'](?P<f1>\w++)[\"']\s*+\]|\.get\(\s*+[\"'](?P<f2>\w++)[\"']\s*+\)|"
                r"\.(?P<f3>[A-Za-z_]\w*+))")
_DOTTED = _rx(r"^(?P<var>[A-Za-z_][\w-]*+)\.(?P<field>[A-Za-z_]\w*+)$")
_VAR = _rx(r"^\$(?:\{(?P<a>\w++)\}|\((?P<b>\w++)\)|(?P<c>\w++))$")
_CHECK = _rx(r"^jq\s++-e\s++[\"']\.(?P<expr>[^\"']{1,200}+)[\"']\s++(?P<file>[\w./-]++)\s*+$")
_REDIRECT = _rx(r"(?:>>?|\|\s*+tee(?:\s++-a)?)\s*+[\"']?(?P<file>[\w./$-]++)[\"']?\s*+$")
_QUOTED_REF = _rx(r"\"(\$\([^()\"]{1,200}+\)|\$\{?\w++\}?)\"")
_SHELL_OPS = (("-gt", ">"), ("-ge", ">="), ("-lt", "<"), ("-le", "<="), ("-eq", "=="), ("-ne", "!="),
              ("-and", "and"), ("-or", "or"), ("&&", "and"), ("||", "or"), ("-not", "not"))


def skill_called(command: str, vocabulary: Vocabulary) -> str | None:
    """The skill a command calls (module docstring), or None."""
    text = command.strip().lstrip("@-+ ")
    for regex in (*_CALL, _SUBPROCESS):
        m = regex.match(text)
        if m:
            return m.group("name")
    word = _COMMAND_WORD.match(text)
    if word and vocabulary.skill_for(word.group(1)):
        return vocabulary.skill_for(word.group(1))
    return None


def call_part(command: str) -> str:
    """The call with an assignment of its result (`x=$(...)`, `$x = ...`) and its redirect taken off."""
    text = command.strip()
    m = _ASSIGN.match(text)
    if m and m.group("var"):
        text = m.group("value").strip()
        if text.startswith("$(") and text.endswith(")"):
            text = text[2:-1]
    return _REDIRECT.sub("", text).strip()


def output_file(command: str) -> str | None:
    """The stem of the file a call's output is written to (`> intake.json`: `intake`)."""
    m = _REDIRECT.search(command.strip())
    if m is None:
        return None
    return m.group("file").rsplit("/", 1)[-1].split(".", 1)[0] or None


def assigned(command: str) -> tuple[str, str] | None:
    """(variable, value as written) of an assignment, or None."""
    m = _ASSIGN.match(command.strip())
    if m is None or m.group("var").lower() in ("if", "elif", "while", "for", "return"):
        return None
    return m.group("var"), m.group("value").strip().rstrip(";").strip()


def value_kind(value: str) -> tuple[str, str | None]:
    """What an assigned value is: ("positional", None), ("env", name), ("args", name) or ("other", None)."""
    if _POSITIONAL.match(value):
        return "positional", None
    env = _ENVIRON.match(value)
    if env:
        return "env", (env.group("ps") or env.group("py") or env.group("gv") or env.group("sh")).lower()
    attr = _ARGS_ATTR.match(value)
    if attr:
        return "args", attr.group("name")
    return "other", None


def arguments(call: str, language: str) -> list[tuple[str, str]]:
    """The `key=value` / `--key value` / `-Key value` / `key=value` keyword arguments of a call."""
    if language in ("py", "r", "sieve", "vba", "perl"):
        inner = call[call.find("(") + 1: call.rfind(")")] if "(" in call else call
        pairs = [(m.group(1), m.group(2).strip()) for m in re.finditer(r"(?<![\w\"'])([A-Za-z_]\w*+)\s*+=(?!=)\s*+"
                                                                       r"([^,()]++(?:\([^()]*+\))?[^,()]*+)", inner)]
        pairs += [(m.group(1), m.group(2)) for m in re.finditer(r"[\"']([A-Za-z_]\w*+)=([^\"']*+)[\"']", inner)]
        return pairs
    out = call_arguments(call, posix=language != "ps", single_dash=True, not_keys=frozenset({"-name", "-m"}))
    return [(k.lower() if language == "ps" else k, v) for k, v in out]


def reference(value: str) -> tuple[str, str | None] | None:
    """(name, field) a value refers to: `$(jq .f a.json)` (a, f), `$A` (A, None), `$a.f` / `a["f"]` /
    `a.f` (a, f); None for a literal."""
    value = value.strip()
    if value[:3] in ('f"{', "f'{"):  # an f-string of one value: the value
        value = value[1:]
    quoted = value[:1] in ("\"", "'")
    text = value.strip("\"'").strip()
    if quoted and not text.startswith(("$", "{")):  # "fast", 'eu-west': a string, however it looks
        return None
    if text.startswith("{") and text.endswith("}"):  # an f-string's `{a['f']}`
        text = text[1:-1]
    jq = _JQ.fullmatch(text)
    if jq:
        return jq.group("file").rsplit("/", 1)[-1].split(".", 1)[0], jq.group("field")
    var = _VAR.match(text)
    if var:
        return (var.group("a") or var.group("b") or var.group("c")), None
    ps = _PS_FIELD.fullmatch(text)
    if ps:
        return ps.group("var"), ps.group("field")
    py = _PY_FIELD.fullmatch(text)
    if py and not re.fullmatch(r"\d+(?:\.\d+)?", text):
        return py.group("var"), py.group("f1") or py.group("f2") or py.group("f3")
    if re.fullmatch(r"[A-Za-z_]\w*+", text):
        return text, None
    dotted = _DOTTED.fullmatch(text)  # `fetch-rows.rows`: a hyphened step or skill name and its field
    if dotted and "-" in dotted.group("var"):
        return dotted.group("var"), dotted.group("field")
    return None


def file_check(command: str) -> tuple[str, str] | None:
    """(file stem, check) of `jq -e '.sent == true' letter.json`: (`letter`, `sent == true`)."""
    m = _CHECK.match(command.strip())
    if m is None:
        return None
    return m.group("file").rsplit("/", 1)[-1].split(".", 1)[0], m.group("expr").strip()


def boilerplate(command: str) -> bool:
    """A line that sets the script up or talks (`set -e`, `echo`, `import`, `}`): no step, no warning."""
    text = command.strip()
    return not text or bool(_BOILERPLATE.match(text)) or bool(_MAKE_TARGET.match(text))


def condition_words(raw: str) -> str:
    """A shell, PowerShell or Python condition in the words the condition reader reads."""
    text = _QUOTED_REF.sub(lambda m: m.group(1), raw)  # `"$(jq .f a.json)"`, `"$X"`: the value, not a string
    text = _JQ.sub(lambda m: m.group("field"), text)
    text = _PS_FIELD.sub(lambda m: m.group("field"), text)
    text = re.sub(r"\b[A-Za-z_]\w*+\[\s*+[\"'](\w++)[\"']\s*+\]", r"\1", text)
    text = re.sub(r"\b[A-Za-z_]\w*+\.get\(\s*+[\"'](\w++)[\"']\s*+\)", r"\1", text)
    text = re.sub(r"\$\{?(\w++)\}?", lambda m: m.group(1).lower(), text)
    for shell, word in _SHELL_OPS:
        text = re.sub(rf"(?i)(?<![\w-]){re.escape(shell)}(?![\w-])", f" {word} ", text)
    text = re.sub(r"(?<![=!<>])=(?!=)", " == ", text)
    text = re.sub(r"\[\[|\]\]|(?<![\w\"'])\[|\](?![\w\"'])|\(\(|\)\)|\btest\b|\$true\b|\$false\b",
                  lambda m: {"$true": "true", "$false": "false"}.get(m.group(0).lower(), " "), text)
    text = text.replace('"', "'")
    text = re.sub(r"(?i)\bTrue\b", "true", re.sub(r"(?i)\bFalse\b", "false", text))
    return " ".join(text.replace("(", " ").replace(")", " ").split())


_rx.save()
