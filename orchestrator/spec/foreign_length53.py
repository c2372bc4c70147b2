"""How long a file that is not a spec may be and still be read as a workflow (round 53).

A markdown or YAML spec (`.md`, `.markdown`, `.yaml`, `.yml`, `.json`, `.toml`) is read up to its step and field
caps (`spec.check`). Any other file - a script, a config, a build file, a chat or notes (`.pl`, `.sieve`, `.conf`,
`.kts`, `.txt`, ...) - is read line by line for what each line says of its steps, by readers much slower per line
than a spec's: such a file over `MAX_LINES` lines is refused at once, with its length and the limit, instead of
being read for minutes (never cut short silently). Such a file that gives more than `MAX_STEPS` steps (a call
line repeated thousands of times) is refused too, at its first step too many, before they are planned."""

from __future__ import annotations

from pathlib import Path

from orchestrator.errors import Diagnostic

MAX_LINES = 5_000  # a file read by the script, config or text readers; a spec's own formats are not limited here
MAX_STEPS = 1_000  # the steps such a file may give (a spec's own formats: `spec.check.MAX_STEPS`, 10 000)
SPEC_SUFFIXES = frozenset({".md", ".markdown", ".yaml", ".yml", ".json", ".toml"})
CODE = "spec.too-long"


def too_long(path: str, text: str) -> Diagnostic | None:
    """The error for a file not written as a spec that has more than `MAX_LINES` lines; None otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix in SPEC_SUFFIXES:
        return None
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines <= MAX_LINES:
        return None
    kind = f"a `{suffix}` file" if suffix else f"`{Path(path).name}`"
    return Diagnostic(file=path, line=MAX_LINES + 1, code=CODE,
                      message=f"the file is too long to read: {lines:,} lines, limit {MAX_LINES:,} for {kind}, which "
                              "is not a markdown or YAML spec (each of its lines is read for what it says of the "
                              "steps): split it, or write its steps as a markdown or YAML spec")


def too_many_steps(path: str, count: int) -> str | None:
    """What to say of a file not written as a spec that gives more than `MAX_STEPS` steps; None otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix in SPEC_SUFFIXES or count <= MAX_STEPS:
        return None
    kind = f"a `{suffix}` file" if suffix else f"`{Path(path).name}`"
    return (f"the file gives {count:,} steps, too many to plan: limit {MAX_STEPS:,} for {kind}, which is not a "
            "markdown or YAML spec: split it into several workflows, or write its steps as a markdown or YAML spec")
