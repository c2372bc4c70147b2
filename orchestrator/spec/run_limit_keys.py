"""A YAML key of the author's own schema that names the whole run's time limit by what happens then.

People writing their own schema name the limit by the act it triggers, not by a word like
`timeout`: `stop_everything_after: 60m`, `kill_it_after: 2h`, `abort_the_run_after: 45m`,
`cancel_all_if_longer_than: 3h`, `halt_everything_at: 90m`, `pull_the_plug_after: 1h`. The name is
read by its words: a verb of stopping (stop, kill, abort, cancel, halt, end, terminate, quit, bail,
give up, pull the plug), at most four words of what is stopped, and a word of time at the end
(after, past, beyond, at, "longer than", "over"). Words that make it about a retry or a wait
(`stop_retrying_after`, `give_up_waiting_after`, `stop_polling_after`) or about one step
(`kill_each_task_after`) are not the run's. `yaml_top.run_limit_key` still asks that the value be a
duration with its unit (`60m`), so `stop_after_errors: 3` is never read as a limit.
"""

from __future__ import annotations

import re

_STOP = frozenset({"stop", "kill", "abort", "cancel", "halt", "end", "terminate", "quit", "bail", "scrap", "drop"})
_TWO = (("give", "up"), ("pull", "plug"), ("call", "off"), ("shut", "down"))
_TIME = frozenset({"after", "past", "beyond", "at", "over"})
_NOT_RUN = frozenset({"retry", "retrying", "retries", "attempt", "attempts", "trying", "try", "wait", "waiting",
                      "poll", "polling", "each", "every", "per", "step", "steps", "task", "tasks", "job_step",
                      "errors", "error", "failures", "failure", "fails", "item", "items", "request", "requests",
                      "call", "calls", "check", "checks"})


def stop_key(raw: str) -> bool:
    """Whether a key's name says the whole run is stopped after a time (module docstring)."""
    words = [w for w in re.sub(r"[\s\-.]+", "_", raw.strip()).lower().split("_") if w]
    if len(words) < 2 or len(words) > 8 or set(words) & _NOT_RUN:
        return False
    if words[-2:] == ["longer", "than"]:
        tail = 2
    elif words[-1] in _TIME:
        tail = 1
    else:
        return False
    head = 2 if tuple(words[:2]) in _TWO or (words[0] == "pull" and "plug" in words[:3]) else 1
    if head == 1 and words[0] not in _STOP:
        return False
    if words[0] == "pull":
        head = words.index("plug") + 1
    middle = words[head:len(words) - tail]
    return len(middle) <= 4
