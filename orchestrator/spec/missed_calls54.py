"""A format reader that saw a skill call it could not read gives way to the reading by the calls (round 54).

A script's own reader (`spec.script_runbook`) reads a call written on a line of its own; a call inside an
expression (`rows.append(skill("weigh-item", ...))`, `res << call(...)`, a call in a pipe) it warns "calls `X` in
a way that is not read" and makes no step of it, and the loop around it is then warned not read too. The reader
of code by its skill calls (`spec.wired52`) reads such a call with its loop and the list its results are gathered
into. When the format's reader missed a call that way and the calls' reading finds more steps and binds at least
as many of their fields, the calls' reading is taken (`spec.wired52.code_first`); a format reader that missed
no call keeps its reading as before.
"""

from __future__ import annotations

from orchestrator.spec.source import Source

_MISSED = "` in a way that is not read"


def missed_calls(src: Source) -> int:
    """How many calls the format's own reader saw and warned it could not read."""
    return sum(1 for w in src.warnings if w.code == "spec.script-unread" and _MISSED in w.message)


def calls_instead(src: Source, steps: int, bound: int, wsteps: int, wbound: int) -> bool:
    """Whether the calls' reading (`wsteps` steps, `wbound` fields bound) replaces a format reader's (`steps`,
    `bound`) that missed a call (module docstring)."""
    return missed_calls(src) > 0 and wsteps > steps and wbound >= bound
