"""The keyword arguments of a command line that calls a skill, for the readers of recipe files
(`spec.recipes`: a Makefile or justfile target) and of script runbooks (`spec.script_code`).

`key=value` and `--key=value` give `key`; `--key value` gives `key` when the next word is no flag.
With `single_dash` (a script: PowerShell's `-Key $x`, `-k=v`) one dash counts as well, and the
flags in `not_keys` (`-m` of `python -m`, `-Name` of `Invoke-Skill -Name`) take no value.
"""

from __future__ import annotations

import re
import shlex


def call_arguments(command: str, *, posix: bool = True, single_dash: bool = False,
                   not_keys: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(key, value) per keyword argument of `command`, in order; dashes in keys become `_`."""
    try:
        words = shlex.split(command, posix=posix)
    except ValueError:
        words = command.split()
    assigned = re.compile(r"^(?:--?)?([A-Za-z_][\w-]*+)=(.*+)$" if single_dash
                          else r"^(?:--)?([A-Za-z_][\w-]*+)=(.*+)$", re.S)
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        m = assigned.match(w)
        flag = (re.match(r"^--?[A-Za-z][\w-]*+$", w) is not None and w.lower() not in not_keys) if single_dash \
            else w.startswith("--")
        if m:
            out.append((m.group(1).replace("-", "_"), m.group(2)))
        elif flag and i + 1 < len(words) and not words[i + 1].startswith("-"):
            out.append(((w.lstrip("-") if single_dash else w[2:]).replace("-", "_"), words[i + 1]))
            i += 1
        i += 1
    return out
