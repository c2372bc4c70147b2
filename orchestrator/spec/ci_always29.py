"""CI files' status functions in a job's `if:` (GitHub / Forgejo / Gitea Actions): `always()` on a join, `failure()`.

    ticker:
      needs: [too-close, call-it]
      if: always()           # whichever of the two ran    → the join over the branches: runs once after
                                                              too-close and call-it, whichever of them ran
    notify:
      needs: build
      if: ${{ failure() }}                                 → runs only when build failed: no step here runs
                                                              on a failure, so it is warned and never run

`always()` (also `!cancelled()`, `success() || failure()`) on a job that needs two or more jobs is the way
Actions writes a join after branches: it runs after its needs whether they ran or were skipped. Here every
step already runs after a branch not taken, so it is read as the join (`join: any`, "whichever ran"), with
what it keeps said in the reading: a need that fails still stops the run. `always() && x` is the join with
the condition `x`. On a job with one need or none it has no join to say: warned as a status not read.

`failure()` (also `failed()`) is a condition on a failure, not a join: the job is meant to run only when a
job it needs failed. A run here stops at a failure (or recovers it by the failing step's own policy), so the
job would never be reached as the author meant; it is warned and given a condition that never holds, never
run on success (write a `fallback:` or `compensation:` on the job it watches to say what should happen).
Ansible's `async: N` with `poll: 0` on a task (not in an `async_group`) starts it in the background: the
next task starts together with it (`StepSpec.starts_with`), the tasks after that follow in their order; a
task that reads its registered output waits for it as any reader does. `async: N` is the task's longest run
(its timeout, N seconds, unless it says one). `async: N` with `poll: 5` (or no `poll:`) waits for the task:
only the timeout is read. An async task with no task after it has nothing to start beside: said so.
"""

from __future__ import annotations

from yaml.nodes import Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.yaml_dialect import note, scalar
from orchestrator.spec.yaml_node import NodeReader

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `always()`, `!cancelled()`, `success() || failure()`: runs whatever its needs did
_ALWAYS = _rx(r"(?i)^(?:always\(\s*+\)|!\s*+cancell?ed\(\s*+\)|success\(\s*+\)\s*+\|\|\s*+failure\(\s*+\)|"
              r"failure\(\s*+\)\s*+\|\|\s*+success\(\s*+\))")
_FAILURE = _rx(r"(?i)(?<![\w.])(?:failure|failed)\(\s*+\)")
_AND = _rx(r"^\s*+&&\s*+(?P<rest>\S.*+)$")
_WRAP = _rx(r"^\s*+\$\{\{(?P<inner>[^{}]*+)\}\}\s*+$")


def needs_of(keys: dict[str, tuple[Node, Node]]) -> list[str]:
    """The job ids its `needs:` / `depends_on:` names (one or a list)."""
    node = next((v for raw, (_, v) in keys.items() if yk.step_key(raw) == "depends_on"), None)
    if isinstance(node, ScalarNode) and str(node.value).strip():
        return [str(node.value).strip()]
    if isinstance(node, SequenceNode):
        return [str(n.value).strip() for n in node.value if isinstance(n, ScalarNode) and str(n.value).strip()]
    return []


def status_when(r: NodeReader, node: ScalarNode, sid: str, needs: list[str],
                notes: list[Reading]) -> tuple[str | None, bool] | None:
    """(the condition left, whether the job is a join) for `always()` on a join or `failure()` (module
    docstring); None when the `if:` is neither (the caller reads it as before)."""
    text = str(node.value).strip()
    wrapped = _WRAP.match(text)
    inner = wrapped.group("inner").strip() if wrapped else text
    if _FAILURE.search(inner) and not _ALWAYS.match(inner):
        r.src.warn(r.line(node), f"{sid}: `if: {text}` runs only when a job it needs failed: a condition on a "
                                 "failure, which no step here has (a run stops at a failure, or its failing step's "
                                 "own policy recovers it); never run: write `fallback:` or `compensation:` on the "
                                 "job it watches to say what should happen then", "spec.when")
        notes.append(note(r, node, text, "runs only after a failure: never run here (warned)", what="when"))
        return "false", False
    m = _ALWAYS.match(inner)
    if m is None:
        return None
    rest = inner[m.end():]
    cond: str | None = None
    if rest.strip():
        tail = _AND.match(rest)
        if tail is None:
            return None
        cond = yk.condition_text(tail.group("rest"))
    if len(needs) < 2:
        r.src.warn(r.line(node), f"{sid}: `{m.group(0)}` runs after {needs[0] if needs else 'the jobs before'} "
                                 "whatever it did: after a branch not taken it runs, as every step here does; "
                                 "after a failure the run stops (that part is not read)", "spec.when")
        return cond, False
    notes.append(note(r, node, text, f"`{m.group(0)}` after {', '.join(needs)}: read as the join over them (runs "
                                     "once after them, whichever ran; a need that fails still stops the run)"
                      + (f", when {cond}" if cond else ""), what="join"))
    return cond, True



ASYNC_MARK = "async_background"  # the step key (kept in `extra`) that says a task started in the background


def async_task(src: Source, keys: dict[str, tuple[Node, Node]]) -> tuple[dict[str, tuple[Node, Node]], list[Reading]]:
    """The task's keys with `async:` / `poll:` read (module docstring): `timeout` from `async: N` and, with
    `poll: 0`, the background mark; unchanged without an `async:` number."""
    if "async" not in keys or not isinstance(keys["async"][1], ScalarNode):
        return keys, []
    knode, anode = keys["async"]
    try:
        seconds = float(str(anode.value))
    except ValueError:
        return keys, []
    poll = keys.get("poll")
    background = poll is not None and isinstance(poll[1], ScalarNode) and str(poll[1].value).strip() in ("0", "0.0")
    keys = {k: v for k, v in keys.items() if k not in ("async", "poll")}
    line = int(knode.start_mark.line) + 1
    said = f"async: {anode.value}" + (f", poll: {poll[1].value}" if poll is not None else "")
    if seconds > 0 and "timeout" not in keys:
        keys["timeout"] = (knode, scalar(f"{seconds:g}s", anode))
    if not background:
        return keys, [Reading(what="key", where=src.where(line), text=said,
                              note=f"runs at most {seconds:g}s (its timeout); the next task waits for it")]
    keys[ASYNC_MARK] = (knode, scalar("true", anode))
    return keys, [Reading(what="depends_on", where=src.where(line), text=said,
                          note=f"started in the background (at most {seconds:g}s): the next task starts "
                               "together with it; a task reading its output waits for it")]


def async_starts(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """Each task after a background one started together with it (module docstring)."""
    out = list(steps)
    for i, step in enumerate(steps):
        if ASYNC_MARK not in step.extra:
            continue
        out[i] = out[i].model_copy(update={"extra": {k: v for k, v in step.extra.items() if k != ASYNC_MARK}})
        nxt = out[i + 1] if i + 1 < len(out) else None
        if nxt is None:
            src.warn(_line(step.where), f"{step.id}: `poll: 0` starts it in the background, but no task comes "
                                        "after it: it runs as any task does", "spec.reading")
            continue
        if nxt.starts_with is not None or nxt.depends_where is not None or nxt.depends_on:
            continue  # it says what it waits for
        out[i + 1] = nxt.model_copy(update={"starts_with": step.id, "readings": (*nxt.readings, Reading(
            what="depends_on", where=nxt.where, text=f"after {step.id} (async, poll: 0)",
            note=f"starts together with {step.id}, which runs in the background: waits for what {step.id} "
                 "waits for (and the steps whose outputs it reads), not for it"))})
    return out


def _line(where: str) -> int:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 1


_rx.save()
