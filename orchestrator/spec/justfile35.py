"""A justfile's recipes (and a Makefile's or a Taskfile's, read by `spec.recipes`) whose skill is
the last command of a pipeline, and a justfile's variables, which the caller may set.

    as_of := "2026-11-30"                       a justfile variable: `just as_of=2026-12-07` sets it, so a
                                                skill argument that names it is a workflow input whose
                                                default is this value (not a constant)
    overdue: loans
        jq '{loans: .loans, as_of: "{{as_of}}", grace: 3}' {{out}}/loans.json \\
          | skill overdue-calc > {{out}}/overdue.json
                                                the skill piped into (`| skill <name>`, after `&&` or `;`
                                                too) makes the recipe a step of it; the `jq` object
                                                filter before it says what it reads: `.loans` of the file
                                                the recipe `loans` writes (`> {{out}}/loans.json`), the
                                                variable `as_of`, the literal 3
    notices: fines contacts
        jq -s '{per_patron: .[0].per_patron, contacts: .[1].contacts}' a.json b.json | skill x
                                                `-s` reads its files as one list: `.[1]` is the 2nd file

A key of the filter whose value is none of these (`.a + .b`, a function call) is not read: the caller
warns at its line. `piped_skill` finds the call, `skill_segment` its own command (so a `jq --arg`
is not the skill's argument), `written_file` the file a recipe line writes, and `piped_arguments` the
filter's keys.

The comments above such recipes say three more things the policy grammar (`spec.grammar_families8`)
reads through `EARLY` and `IGNORE` here: "DO NOT put a retry on this one" / "don't add retries to it"
is no retry; "grace is 3 days" / "a 5-day grace period" is the business's grace, not a time limit;
"(email if we have one, letter otherwise)" says what the step makes in each case, not a fallback;
"ran twice in oct" is a story, not a count of retries.
"""

from __future__ import annotations

import json
import re
import shlex

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.make_targets import unquoted
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# where a command starts after a pipe, `&&`, `||` or `;` (not the line's start: `spec.recipes` reads that)
_PIPED_START = _rx(r"(?:\|\|?+|&&|;)[ \t]*+")
# the skill called by its command word
_CALLS = _rx(r"(?:skillweave[ \t]++)?+(?:skill|run-skill|call-skill|skill-run|run_skill)[ \t]++"
             r"(?P<name>[a-z0-9][\w-]{0,80}+)(?![\w-])", re.I)
# a just interpolation, `{{ name }}` or `{{ a.b }}`
_INTERP = _rx(r"\{\{[ \t]*+[A-Za-z_][\w.-]{0,80}+[ \t]*+\}\}")
_ECHO_START = _rx(r"^[ \t]*+(?:echo|printf)[ \t]++(?:-[neE]{1,3}+[ \t]++)?+")
_JQ_START = _rx(r"(?:^|\|\|?+|&&|;)[ \t]*+jq(?=[ \t])")
_FIELD = _rx(r"(?:\.\[(?P<i>\d{1,2}+)\])?+\.(?P<f>[A-Za-z_]\w{0,63}+)")
_JQ_VAR = _rx(r"\$(?P<v>[A-Za-z_]\w{0,63}+)")
_LITERAL = _rx(r"-?\d{1,15}+(?:\.\d{1,15}+)?+|true|false|null|\"[^\"{}$\\]{0,200}+\"")
_KEY = _rx(r"[\"']?+(?P<k>[A-Za-z_]\w{0,63}+)[\"']?+")


def _call(command: str) -> re.Match[str] | None:
    plain = unquoted(command)
    for start in _PIPED_START.finditer(plain):
        m = _CALLS.match(plain, start.end())
        if m is not None:
            return m
    return None


def piped_skill(command: str) -> str | None:
    """The skill a recipe line pipes into (or runs after `&&`, `;`) by its command word, or None."""
    m = _call(command)
    return m.group("name") if m else None


def skill_segment(command: str) -> str | None:
    """The piped skill's own command (`skill x k=v`, up to the next pipe or redirection), or None."""
    m = _call(command)
    if m is None:
        return None
    plain = unquoted(command)
    end = next((i for i in range(m.end(), len(plain)) if plain[i] in "|>;&<"), len(plain))
    return command[m.start():end].strip()


def written_file(command: str) -> str | None:
    """The file a recipe line writes with `>` (the last one, outside quotes), as written; None if none."""
    plain = unquoted(command)
    at = plain.rfind(">")
    if at < 0 or plain[at - 1:at] in ("2", "&") or plain[at + 1:at + 2] == "&":
        return None
    rest = command[at + 1:].strip().split()
    return rest[0].strip("\"'") if rest else None


def is_justfile(info: str, lines: list[str]) -> bool:
    """Whether the recipe file is a justfile: its fence says `just`, or (no fence kind) its recipes
    interpolate `{{name}}` and nothing is written `$(NAME)` as in make."""
    if info:
        return info in ("just", "justfile")
    joined = "\n".join(lines)
    return _INTERP.search(joined) is not None and "$(" not in joined


def just_default(value: str) -> object:
    """A justfile variable's value as its default: a quoted value is a string, as written."""
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    try:
        return int(text) if re.fullmatch(r"-?\d{1,15}", text) else float(text)
    except ValueError:
        return text


class PipedArgument(BaseModel):
    """What one key of a `jq` object filter piped into the skill gives it (module docstring)."""

    model_config = ConfigDict(frozen=True)

    key: str
    value: str | None = None  # "{{as_of}}" (a reference) or "3" (a literal as written)
    file: str | None = None  # the file the field is read from, as written
    field: str | None = None
    unread: str | None = None  # the expression, when it is none of these


def _split_top(body: str) -> list[str]:
    """`body` split at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return parts


def piped_arguments(command: str) -> list[PipedArgument]:
    """The keys of the `jq` object filter whose output is piped into the skill (module docstring);
    [] when there is no such filter."""
    call = _call(command) or _script_call(command)
    jq = _JQ_START.search(unquoted(command))
    if call is not None and jq is None and (echo := _ECHO_START.match(unquoted(command))) is not None \
            and echo.end() < call.start():  # `echo '{"id":"{{ITEM}}"}' | python3 skills/x/main.py`
        return _echoed(command[echo.end():call.start()].rstrip().rstrip("|").strip())
    if call is None or jq is None or jq.end() > call.start():
        return []
    head = command[jq.end():call.start()].rstrip().rstrip("|").rstrip()
    marks = {m.group(0): f"__ref{i}__" for i, m in enumerate(_INTERP.finditer(head))}
    masked = head
    for ref, mark in marks.items():
        masked = masked.replace(ref, mark)
    try:
        words = shlex.split(masked)
    except ValueError:
        return []
    args: dict[str, str] = {}
    slurp, filt, files = False, None, []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("--arg", "--argjson") and i + 2 < len(words):
            args[words[i + 1]] = words[i + 2]
            i += 3
            continue
        if w.startswith("-"):
            slurp = slurp or (not w.startswith("--") and "s" in w) or w == "--slurp"
        elif filt is None:
            filt = w
        else:
            files.append(w)
        i += 1
    back = {mark: ref for ref, mark in marks.items()}

    def unmask(text: str) -> str:
        for mark, ref in back.items():
            text = text.replace(mark, ref)
        return text

    if filt is None or not (filt.strip().startswith("{") and filt.strip().endswith("}")):
        return []
    files = [unmask(f) for f in files]
    out: list[PipedArgument] = []
    for part in _split_top(filt.strip()[1:-1]):
        key, colon, expr = part.partition(":")
        k = _KEY.fullmatch(key.strip())
        expr = expr.strip()
        if not colon and k is not None and files:  # `{mean, band}`: jq's shorthand for `{mean: .mean, band: .band}`
            out.append(PipedArgument(key=k.group("k"), file=files[0], field=k.group("k")))
            continue
        if colon and k is not None and expr == "." and slurp and len(files) == 1:  # `jq -s '{rows: .}' a.jsonl`: all of it
            out.append(PipedArgument(key=k.group("k"), file=files[0], field=""))
            continue
        if not colon or k is None:
            if part.strip():
                out.append(PipedArgument(key=part.strip()[:40], unread=part.strip()))
            continue
        name = k.group("k")
        if (got := _FIELD.fullmatch(expr)) is not None:
            index = int(got.group("i") or 0)
            if (got.group("i") is not None and not slurp) or index >= len(files):
                out.append(PipedArgument(key=name, unread=expr))
            else:
                out.append(PipedArgument(key=name, file=files[index], field=got.group("f")))
        elif expr.strip("\"") in back:
            out.append(PipedArgument(key=name, value=back[expr.strip("\"")]))
        elif (var := _JQ_VAR.fullmatch(expr)) is not None and var.group("v") in args:
            out.append(PipedArgument(key=name, value=unmask(args[var.group("v")])))
        elif _LITERAL.fullmatch(expr):
            out.append(PipedArgument(key=name, value=expr))
        else:
            out.append(PipedArgument(key=name, unread=unmask(expr)))
    return out


def _script_call(command: str) -> re.Match[str] | None:
    """Where a piped command runs a skill's script (`| python3 skills/x/scripts/main.py`), or None."""
    from orchestrator.spec.make_targets import script_call

    return script_call(command)


def _echoed(text: str) -> list[PipedArgument]:
    """The keys of a JSON object echoed into the skill: a `{{ref}}` string is that reference, any other
    value a literal as written; [] when the text is no JSON object."""
    body = text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text
    try:
        data = json.loads(body)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    out = []
    for key, value in data.items():
        if not isinstance(key, str) or _KEY.fullmatch(key) is None:
            continue
        if isinstance(value, str) and _INTERP.fullmatch(value.strip()):
            out.append(PipedArgument(key=key, value=value.strip()))
        elif isinstance(value, str) and "{{" in value:
            out.append(PipedArgument(key=key, unread=value))
        else:
            out.append(PipedArgument(key=key, value=json.dumps(value)))
    return out


EARLY: tuple[Row, ...] = (
    # "DO NOT put a retry on this one", "don't add retries to it", "never set up a retry for the send"
    Row("no_retry", r"(?<![\w-])(?:do\s++not|don'?t|never|must\s++not|mustn'?t|should\s++not|shouldn'?t)\s++"
        r"(?:put|add|set(?:\s++up)?+|configure|attach|stick|give\s++it|wire\s++up)\s++(?:a\s++|any\s++)?+"
        r"(?:re-?tr(?:y|ies)|retr(?:y|ies)|auto-?retr(?:y|ies))(?:\s++policy)?+\b"),
)

IGNORE: tuple[Row, ...] = (
    # "grace is 3 days", "grace period of 5 days", "a 2-day grace period": the business's grace, no time limit
    Row("ignore", r"(?<![\w-])grace(?:\s++period)?+\s++(?:is|of|=|:|was|stays)\s++(?:\d{1,4}+|one|two|three|five|seven|ten)"
        r"[\s-]*+(?:days?|hours?|weeks?|minutes?|mins?|h|d)\b"),
    Row("ignore", r"(?<![\w-])(?:\d{1,4}+|one|two|three|five|seven|ten)[\s-]*+(?:days?|hours?|weeks?|minutes?|mins?)"
        r"(?:'s)?+\s++(?:of\s++)?+grace(?:\s++period)?+\b"),
    # "ran twice in oct", "went out twice last week": what happened once, not a count of retries
    Row("ignore", r"(?<![\w-])(?:ran|went(?:\s++out)?+|fired|got\s++sent|was\s++sent|were\s++sent|got\s++posted|happened)\s++"
        r"(?:twice|2\s++times|three\s++times|3\s++times)\s++(?:in|on|last|this|yesterday|back\s++in|before)\b"),
    # "(email if we have one, letter otherwise)": what the step makes in each case, not a fallback
    Row("ignore", r"(?<![\w-])[\w-]{1,30}+(?:\s++(?!if\b)[\w-]{1,30}+)?+\s++if\s++(?:we|you|they|there|the\s++[\w-]{1,30}+|it)\s++"
        r"(?:have|has|got|is|are|'s)\s++(?:one|any|an?\s++[\w-]{1,30}+|it|them|some)\s*+,\s*+[\w-]{1,30}+(?:\s++(?!otherwise\b)[\w-]{1,30}+)?+"
        r"\s++otherwise\b"),
)

GATES = {
    "EARLY": r"|put|add|configure|attach|stick|wire",
    "IGNORE": r"|grace|otherwise|twice|times",
}


_rx.save()
