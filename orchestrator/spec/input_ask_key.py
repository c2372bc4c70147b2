"""A line of the author's own `key = names` that says what the run asks for, outside YAML: an INI
section's `ask_for = crane_id, telemetry, work_orders`, a notes line `prompt_for: date, room`, a
`user_inputs = batch, shift` in a config-like text file read as prose.

The key (made plain: `Ask for` → `ask_for`) holds a word that says the person who runs it is
asked (ask, asks, asked, prompt, prompts, from_user, from_you, user_input(s), fill_in, at_run_time,
type_in, enter), and the value is nothing but names split at commas (a comment after `;` or `#`
aside). Each name is a workflow input under the author's own name, so the planner does not make
names up from what the skills read. Keys that also mean a step's order (`needs`, `requires`) or
its outputs (`provides`) are not read here: they are a step's own words in these files.
"""

from __future__ import annotations

from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LINE = _rx(r"^[ \t]*+(?:\*\*|__)?+([A-Za-z][A-Za-z0-9_ -]{0,40}+)(?:\*\*|__)?+[ \t]*+(?:=|:)[ \t]*+([^;#\n]{1,400}+)")
_ASKING = _rx(r"(?:^|_)(?:ask|asks|asked|prompt|prompts|from_user|from_the_user|from_you|user_inputs?|fill_in|"
              r"fills_in|at_run_time|at_runtime|type_in|to_enter|enter)(?:_|$)")
_NAME = _rx(r"^[A-Za-z_][A-Za-z0-9_]{0,63}+$")
_PLAIN = _rx(r"[\s-]++")


def asked_inputs(line: str, src: Source, number: int) -> list[InputSpec] | None:
    """The inputs `line` (at line `number`) says are asked for, or None when it is no such line."""
    m = _LINE.match(line)
    if m is None:
        return None
    key = _PLAIN.sub("_", m.group(1).strip()).lower()
    if not _ASKING.search(key):
        return None
    names = [part.strip().strip("`") for part in m.group(2).split(",")]
    if not names or not all(_NAME.match(n) for n in names):
        return None
    where = src.where(number)
    return [InputSpec(name=n, where=where, description=f"asked for by `{m.group(1).strip()}`") for n in
            dict.fromkeys(names)]


def asked_anywhere(lines: list[str], src: Source) -> tuple[InputSpec, ...] | None:
    """The inputs every such line of the document says are asked for (the first line to name one
    keeps it), or None when no line does: for a document whose steps were found by the skills they
    name, where the line may sit in a block read with a step (an INI file's `[general]` section)."""
    found: list[InputSpec] = []
    for number, line in enumerate(lines, 1):
        if "=" in line or ":" in line:
            found += asked_inputs(line, src, number) or []
    unique = {i.name: i for i in reversed(found)}
    return tuple(unique[n] for n in dict.fromkeys(i.name for i in found)) or None


_rx.save()
