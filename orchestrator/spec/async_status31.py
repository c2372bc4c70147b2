"""Ansible's `async_status:` task: a wait for an earlier `async:` job, not a step of its own.

    - name: kick off the export
      skill: export-ledger
      async: 900
      poll: 0
      register: export_job
    - name: pull the rates meanwhile              → starts together with export_job (`ci_always29`)
      skill: fetch-rates
    - name: wait for the export
      async_status: {jid: "{{ export_job.ansible_job_id }}"}
      register: export_result                     → `export_result.x` in a later task reads export_job's `x`
      until: export_result.finished
      retries: 30
      delay: 10                                   → export_job waited for at most 30 x 10 s = 300 s
    - name: post the totals                       → waits for export_job (and for the task before the wait)
      skill: post-totals

A playbook that starts a long job in the background polls it later with `async_status` (`jid:` naming
the job's `register:`), `until:` it is finished, `retries:` times, `delay:` seconds apart (Ansible's
defaults: 3 and 5). That task runs no skill: `take_waits` takes it out of the task list (no "names no
catalog skill" warning), its `register:` becomes another name of the job's (a later task's
`{{ export_result.rc }}` reads the job's `rc`), and `apply_waits` makes the next task wait for the job
(and for the task before the wait, as the order said), the wait's bound (retries x delay, when shorter
than the job's own `async:` limit) the job's timeout; each a reading at the wait's line. A wait whose job
no step runs (its skill not in the catalog, or no task registers that name) is warned and not read; one
with no `until:` looks only once: read as the wait, said so. Keys of the wait other than these are said
not read.
"""

from __future__ import annotations

from typing import NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

WAIT_KEYS = frozenset({"async_status", "ansible.builtin.async_status", "ansible.legacy.async_status"})
_KNOWN = frozenset({"name", "register", "until", "retries", "delay", "changed_when", "failed_when", "tags", "when",
                    "no_log", "ignore_errors"}) | WAIT_KEYS
_JOB = _rx(r"(?<![\w.])([A-Za-z_]\w{0,60}+)\.(?:ansible_job_id|results_file|jid)(?![\w])")
_NAME = _rx(r"(?<![\w.])([A-Za-z_]\w{0,60}+)")
_DEFAULT_RETRIES = 3
_DEFAULT_DELAY = 5.0


class Wait(NamedTuple):
    line: int  # the async_status task's line
    job: str | None  # the job's registered name its `jid:` names
    alias: str | None  # the wait's own `register:`
    retries: int
    delay: float
    until: bool
    before: int | None  # the line of the task before the wait (not the job), if any
    after: int | None  # the line of the task after it, if any


def _keys(item: Node) -> dict[str, tuple[Node, Node]]:
    return {str(k.value): (k, v) for k, v in item.value if isinstance(k, ScalarNode)} if isinstance(
        item, MappingNode) else {}


def is_wait(item: Node) -> bool:
    """The item is an `async_status:` task (module docstring)."""
    return any(k in WAIT_KEYS for k in _keys(item))


def _number(node: Node, default: float) -> float:
    if isinstance(node, ScalarNode):
        try:
            return float(str(node.value).strip())
        except ValueError:
            return default
    return default


def _jid(node: Node) -> str | None:
    """The job's registered name the `async_status:` value names."""
    texts: list[str] = []
    if isinstance(node, ScalarNode):
        texts.append(str(node.value))
    elif isinstance(node, MappingNode):
        texts += [str(v.value) for k, v in node.value if isinstance(v, ScalarNode) and str(k.value) in ("jid", "id")]
    for text in texts:
        m = _JOB.search(text) or _NAME.search(text.replace("{{", " ").replace("}}", " "))
        if m is not None:
            return m.group(1)
    return None


def _rename(node: Node, alias: str, job: str) -> None:
    """Each `alias.` in the node's scalars (not after a word or a dot) written `job.`."""
    if isinstance(node, ScalarNode) and isinstance(node.value, str) and f"{alias}." in node.value:
        text, out, start = node.value, [], 0
        while (at := text.find(f"{alias}.", start)) >= 0:
            keep = at > 0 and (text[at - 1].isalnum() or text[at - 1] in "_.")
            out.append(text[start:at] + (alias if keep else job) + ".")
            start = at + len(alias) + 1
        node.value = "".join(out) + text[start:]
    elif isinstance(node, MappingNode):
        for k, v in node.value:
            _rename(k, alias, job)
            _rename(v, alias, job)
    elif isinstance(node, SequenceNode):
        for v in node.value:
            _rename(v, alias, job)


def take_waits(items: list[tuple[Node, str | None]], src: Source) -> tuple[list[tuple[Node, str | None]], list[Wait]]:
    """The task list without its `async_status` tasks, and those waits (module docstring)."""
    if not any(is_wait(item) for item, _ in items):
        return items, []
    waits: list[Wait] = []
    kept: list[tuple[Node, str | None]] = []
    for i, (item, key) in enumerate(items):
        if not is_wait(item):
            kept.append((item, key))
            continue
        keys = _keys(item)
        line = int(item.start_mark.line) + 1
        status = next(v for k, (_, v) in keys.items() if k in WAIT_KEYS)
        job = _jid(status)
        alias = str(keys["register"][1].value).strip() if "register" in keys and isinstance(
            keys["register"][1], ScalarNode) else None
        rest = sorted(set(keys) - _KNOWN)
        if rest:
            src.warn(line, f"async_status: {', '.join(rest)} not read (only the wait for the job is)", "spec.unread")
        later = [it for it, _ in items[i + 1:] if not is_wait(it)]
        last = kept[-1][0] if kept else None
        registered = _keys(last).get("register") if last is not None else None
        is_job = registered is not None and isinstance(registered[1], ScalarNode) and str(registered[1].value).strip() == job
        before = int(last.start_mark.line) + 1 if last is not None and not is_job else None
        if alias and job and alias != job:
            for it in later:
                _rename(it, alias, job)
        waits.append(Wait(line=line, job=job, alias=alias,
                          retries=int(_number(keys["retries"][1], _DEFAULT_RETRIES)) if "retries" in keys else _DEFAULT_RETRIES,
                          delay=_number(keys["delay"][1], _DEFAULT_DELAY) if "delay" in keys else _DEFAULT_DELAY,
                          until="until" in keys, before=before,
                          after=int(later[0].start_mark.line) + 1 if later else None))
    return kept, waits


def _line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def apply_waits(steps: list[StepSpec], waits: list[Wait], src: Source) -> list[StepSpec]:
    """The steps with each wait read: the next task waits for the job, the job bounded (module docstring)."""
    if not waits:
        return steps
    out = list(steps)
    at = {_line(s): i for i, s in enumerate(out)}
    ids = {s.extra["register"]: i for i, s in enumerate(out) if s.extra.get("register")}  # a bare `tasks:` list
    ids.update({s.id: i for i, s in enumerate(out)})
    for wait in waits:
        where = src.where(wait.line)
        if wait.job is None or wait.job not in ids:
            said = f"`{wait.job}`" if wait.job else "no job it names"
            src.warn(wait.line, f"async_status waits for {said}, but no step runs that job (no task registering it "
                                "names a catalog skill): the wait is not read", "spec.unread")
            continue
        j = ids[wait.job]
        job_id = out[j].id
        bound = wait.retries * wait.delay
        job = out[j]
        looks = (f"polled every {wait.delay:g}s, {wait.retries} times" if wait.until
                 else "with no `until:` it looks once; read as the wait all the same")
        if bound > 0 and (job.timeout_s is None or bound < job.timeout_s):
            out[j] = job.model_copy(update={"timeout_s": bound, "readings": (*job.readings, Reading(
                what="key", where=where, text=f"async_status: retries {wait.retries} x delay {wait.delay:g}s",
                note=f"waited for at most {bound:g}s ({looks}): its timeout"))})
        else:
            out[j] = job.model_copy(update={"readings": (*job.readings, Reading(
                what="key", where=where, text=f"async_status: retries {wait.retries} x delay {wait.delay:g}s",
                note=f"waited for up to {bound:g}s ({looks}); its own limit is shorter"))})
        if not wait.until:
            src.warn(wait.line, f"async_status on {wait.job} has no `until:`, so it looks once; read as waiting "
                                f"for {wait.job}", "spec.reading")
        k = at.get(wait.after or -1)
        if k is None:
            src.warn(wait.line, f"async_status waits for {wait.job}, but no task comes after it: nothing waits",
                     "spec.reading")
            continue
        later = out[k]
        if later.depends_on or later.depends_where is not None:
            deps = tuple(dict.fromkeys((*later.depends_on, job_id)))
        else:
            prev = at.get(wait.before or -1)
            deps = tuple(dict.fromkeys((*([out[prev].id] if prev is not None and prev < k else []), job_id)))
        deps = tuple(d for d in deps if d != later.id)
        out[k] = later.model_copy(update={"depends_on": deps, "depends_where": later.depends_where or where,
                                          "starts_with": None, "readings": (*later.readings, Reading(
                                              what="depends_on", where=where, text=f"async_status on {wait.job}",
                                              note=f"waits for {job_id} (the async job the wait polls)"
                                                   + (f" and {', '.join(d for d in deps if d != job_id)}, the "
                                                      "task before the wait" if len(deps) > 1 else "")))})
    return out


_rx.save()
