"""Where other tools put a workflow's steps and inputs (`yaml_step_shape` reads each step's keys).

    on: {workflow_dispatch: {inputs: {...}}}                → inputs         (GitHub Actions)
    spec: {entrypoint: e, arguments: {parameters: [...]},
           templates: [{name: e, dag: {tasks: [...]}}]}     → inputs, steps  (Argo Workflows)
    spec: {params: [...], tasks: [...]}                      → inputs, steps  (Tekton)
    stages: [...]; variables: {...}; job-a: {stage: ...}     → inputs, steps  (GitLab CI: a job
                                         with no `needs:` runs after the stages before its own)
    default_args: {retries: 2, retry_delay: 30}              → retry for every step (Airflow)

The tables below say which path of which tool holds what; the rewriting works on YAML
nodes, so every value keeps its line. A key known to mean nothing for a run (`apiVersion:`,
`on:` once its inputs are read) is a reading shown in the plan with the first step; one
that matters and is not read (`include:`, `onExit:`, `finally:`) is a warning at its line.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.yaml_node import NodeReader

if TYPE_CHECKING:
    from orchestrator.spec.compose_profiles import Profiles

STR = "tag:yaml.org,2002:str"
MAP = "tag:yaml.org,2002:map"
SEQ = "tag:yaml.org,2002:seq"

# where the workflow's inputs are, as (path of keys) -> how its entries are written
INPUT_PATHS: tuple[tuple[str, ...], ...] = (
    ("on", "workflow_dispatch", "inputs"), ("on", "workflow_call", "inputs"),  # GitHub Actions
    ("spec", "arguments", "parameters"), ("arguments", "parameters"),  # Argo
    ("spec", "params"),  # Tekton
    ("variables",),  # GitLab CI
    ("spec", "inputs"),  # GitLab CI/CD components (`spec: inputs:`)
)
# constants beside the inputs, each with its value as the default (GitHub `env:`): read with them
CONSTANT_PATHS: tuple[tuple[str, ...], ...] = (("env",), ("vars",))
# where the steps are when not under a `steps:`-like key
STEP_PATHS: tuple[tuple[str, ...], ...] = (("spec", "tasks"), ("spec", "pipelineSpec", "tasks"))
# Argo: the entrypoint template's `dag.tasks`, or its `steps` (a list of parallel groups)
ARGO_STEPS = (("dag", "tasks"), ("steps",))

# top-level keys that say nothing a run uses: a reading, never a warning
TOP_IGNORED: dict[str, str] = {
    "api_version": "the resource's API version", "kind": "the resource's kind", "metadata": "the resource's metadata",
    "on": "the events that start the workflow", "permissions": "the token's permissions",
    "concurrency": "concurrency groups", "defaults": "shell defaults",
    "stages": "the stage order (read with each job's `stage:`)", "image": "the container image",
    "services": "service containers", "cache": "the cache", "before_script": "shell commands",
    "after_script": "shell commands", "entrypoint": "the entrypoint template", "templates": "the templates",
    "comment": "a comment", "start_at": "the first state", "schedule": "the schedule", "schedule_interval":
    "the schedule", "catchup": "catch-up runs", "tags": "runner tags", "run_name": "the run's display name",
    "service_account_name": "the service account", "workspaces": "workspaces",
}
# top-level keys that matter and are not read: a warning each
TOP_UNREAD: dict[str, str] = {
    "include": "included files are not followed: their jobs are not steps here",
    "workflow": "the pipeline's `workflow:` rules (whether it runs at all) are not read",
    "on_exit": "an exit handler is not run", "finally": "`finally` tasks are not run",
}


def scalar(text: str, like: Node) -> ScalarNode:
    return ScalarNode(STR, text, like.start_mark, like.end_mark)


def pairs(node: Node) -> dict[str, tuple[Node, Node]]:
    return {str(k.value): (k, v) for k, v in node.value} if isinstance(node, MappingNode) else {}


def by_name(node: Node) -> dict[str, tuple[Node, Node]]:
    return {yk.key_name(k): pair for k, pair in pairs(node).items()}


def _at(node: Node, path: tuple[str, ...]) -> tuple[Node, Node] | None:
    pair: tuple[Node, Node] | None = None
    for part in path:
        pair = by_name(node).get(yk.key_name(part))
        if pair is None:
            return None
        node = pair[1]
    return pair


def note(r: NodeReader, node: Node, text: str, note: str, what: str = "key") -> Reading:
    return Reading(what=what, where=r.src.where(r.line(node)), text=text, note=note)


# -- the document ----------------------------------------------------------------------------


def reshape_top(r: NodeReader, top: dict[str, tuple[Node, Node]]) -> tuple[dict[str, tuple[Node, Node]], list[Reading]]:
    """Steps and inputs where other tools put them, as `steps` and `inputs` (module docstring)."""
    from orchestrator.spec.yaml_states import is_states, reshape_states

    notes: list[Reading] = []
    if is_states(top):  # a Step Functions state machine
        top, notes = reshape_states(r, top)
    names = {yk.top_key(k) for k in top if not _names_only(k, top[k][1])
             and (yk.key_name(k) != "stages" or _stage_list(k, top[k][1]))}
    top = _default_args(r, top, notes)
    used: set[str] = set()  # the keys under `spec:` read as the inputs or the steps
    if "inputs" not in names:
        for path in INPUT_PATHS:
            if (pair := _at(_mapping_node(top), path)) is not None and isinstance(pair[1], MappingNode | SequenceNode):
                if path == ("variables",) and "steps" in names:
                    break
                top = {k: p for k, p in top.items() if len(path) > 1 or yk.key_name(k) != yk.key_name(path[0])}
                top["inputs"] = pair
                notes.append(note(r, pair[0], ".".join(path), "read as the workflow's inputs"))
                used.update(path[1:2] if path[0] == "spec" else ())
                break
    top = _constants(r, top, notes)
    if "steps" not in names:
        found = _argo_steps(r, top, notes) or next(
            (pair for path in STEP_PATHS if (pair := _at(_mapping_node(top), path)) is not None), None)
        if found is None:
            found = _compose_services(r, top, notes)
        if found is None:
            found = _gitlab_jobs(r, top, notes)
        nested = [k for k, (_, v) in top.items() if isinstance(v, MappingNode) and yk.key_name(k) not in TOP_IGNORED]
        if found is None and len(nested) == 1:  # `pipeline: {a: {skill: ...}, b: {...}}`: jobs one level down
            inner = pairs(top[nested[0]][1])
            found = _gitlab_jobs(r, inner, notes)
            if found is not None:
                top = {k: p for k, p in top.items() if k != nested[0]}
                top.update({k: p for k, p in inner.items() if k not in top})
        if found is None and r.src.vocabulary:  # no dialect's: the items that name catalog skills
            from orchestrator.spec.yaml_anchored import anchored_steps

            rescued = anchored_steps(r, top, notes)
            if rescued is not None:
                top, found = rescued
                top = _constants(r, top, notes, found[1])
        if found is not None:
            top = {**top, "steps": found}
    steps = next((k for k in top if yk.top_key(k) == "steps"), None)
    if steps is not None:  # GitHub jobs of several skill steps: a step each
        from orchestrator.spec.yaml_jobs import flatten_jobs

        flat, more = flatten_jobs(r, top[steps][1])
        top[steps] = (top[steps][0], flat)
        notes += more
    spec = next((k for k, p in top.items() if yk.key_name(k) == "spec" and isinstance(p[1], MappingNode)), None)
    if spec is not None and "steps" in top:  # what else Argo's `spec:` says, read as a top-level key would be
        notes.append(note(r, top[spec][0], spec, "the resource's spec: read for its steps and inputs"))
        inner = {k: p for k, p in pairs(top.pop(spec)[1]).items()
                 if yk.key_name(k) not in used | {"templates", "tasks", "entrypoint"}}
        top = {**{k: p for k, p in inner.items() if k not in top}, **top}
    for key in list(top):
        if key in ("steps", "inputs"):
            continue
        name = yk.key_name(key)
        if yk.top_key(key) != name and isinstance(top[key][1], ScalarNode):
            continue  # `workflow: claims` is the name; GitLab's `workflow: {rules: ...}` is not read
        if name in TOP_UNREAD:
            r.src.warn(r.line(top[key][0]), f"{key}: {TOP_UNREAD[name]}", "spec.unread")
            del top[key]
            continue
        if name in TOP_IGNORED and not (_stage_list(key, top[key][1]) and "steps" not in top):
            # `stages:` that is a list of steps is not GitLab's stage order
            notes.append(note(r, top[key][0], key, f"{TOP_IGNORED[name]}: not used when the workflow runs"))
            del top[key]
    return top, notes


def _constants(r: NodeReader, top: dict[str, tuple[Node, Node]], notes: list[Reading],
               steps: Node | None = None) -> dict[str, tuple[Node, Node]]:
    """GitHub's top-level `env: {SITE: https://...}`: the literal value of the steps that read it
    (`${{ env.SITE }}`, `spec.env_literals48`, under `top` or the `steps` found apart); one that is
    empty or read otherwise is an input with that default, beside the inputs a mapping of `inputs` declares."""
    for path in CONSTANT_PATHS:
        key = next((k for k in top if yk.key_name(k) == path[0]), None)
        if key is None or not isinstance(top[key][1], MappingNode):
            continue
        knode, vnode = top.pop(key)
        from orchestrator.spec.env_literals48 import literal_constants

        kept, literal = literal_constants(vnode, [*(v for _, v in top.values()), *([steps] if steps else [])])
        if literal:  # `${{ env.RACE }}`, `{{ sms_sender }}`: the value the file sets (`spec.env_literals48`)
            notes.append(note(r, knode, key, f"constants {', '.join(literal)}: the literal value of the steps "
                                             "that read them"))
        if kept is None:
            continue
        vnode = kept
        name = next((k for k in top if yk.top_key(k) == "inputs"), None)
        inputs = top[name] if name is not None else None
        from orchestrator.spec.ansible28 import constants_beside

        if inputs is not None and name is not None and (listed := constants_beside(inputs[1], vnode)) is not None:
            top[name] = (inputs[0], listed)  # beside `vars_prompt: [{name: ...}]` (`ansible28`)
            notes.append(note(r, knode, key, "constants: read as workflow inputs with these defaults"))
            continue
        if inputs is not None and not isinstance(inputs[1], MappingNode):
            r.src.warn(r.line(knode), f"{key}: read only beside inputs written as a mapping; not read", "spec.unread")
            continue
        entries = [(k, MappingNode(MAP, [(scalar("default", v), v)], v.start_mark, v.end_mark)) for k, v in vnode.value]
        if name is None or inputs is None:
            top["inputs"] = (knode, MappingNode(MAP, entries, vnode.start_mark, vnode.end_mark))
        else:
            have = {str(k.value) for k, _ in inputs[1].value}
            merged = [*inputs[1].value, *[(k, v) for k, v in entries if str(k.value) not in have]]
            top[name] = (inputs[0], MappingNode(MAP, merged, inputs[1].start_mark, inputs[1].end_mark))
        notes.append(note(r, knode, key, "constants: read as workflow inputs with these defaults"))
    return top


def _stage_list(key: str, node: Node) -> bool:
    """`stages: [{name: a, uses: x}, ...]`: a list of steps (a mapping of stage groups is not)."""
    return yk.key_name(key) == "stages" and isinstance(node, SequenceNode) and bool(node.value) and all(
        isinstance(n, MappingNode) for n in node.value)


def _names_only(key: str, node: Node) -> bool:
    """GitLab's `stages: [build, test]` names stages; it is not a list of steps."""
    return yk.key_name(key) == "stages" and isinstance(node, SequenceNode) and all(
        isinstance(n, ScalarNode) for n in node.value)


_MATTERS = re.compile(r"retr|timeout|attempt|delay|backoff|deadline|fail|approv")  # a key that matters if unread
# Airflow's `default_args`: what is for every task, by the form's own top-level key
DEFAULT_ARGS: dict[str, str] = {"retries": "retry", "retry": "retry", "attempts": "retry", "retry_delay": "retry",
                                "timeout": "timeout"}


def _default_args(r: NodeReader, top: dict[str, tuple[Node, Node]], notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    """`default_args: {retries: 2, retry_delay: 30, execution_timeout: 60, owner: x}` → a workflow
    `retry: {retries: 2, delay: 30}` and `timeout: 60`; the rest are readings."""
    pair = next(((k, p) for k, p in top.items() if yk.key_name(k) in ("default_args", "defaults", "default")
                 and isinstance(p[1], MappingNode)), None)
    if pair is None:
        return top
    raw, (knode, vnode) = pair
    retry: list[tuple[Node, Node]] = []
    out = {k: p for k, p in top.items() if k != raw}
    for k, (kn, vn) in pairs(vnode).items():
        target = DEFAULT_ARGS.get(yk.step_key(k))
        if target == "retry":
            word = {"retry_delay": "delay", "retries": "retries", "retry": "retries"}.get(yk.step_key(k), k)
            suffix = "_ms" if yk.unit_of(k) == 0.001 else "_minutes" if yk.unit_of(k) == 60.0 else ""
            retry.append((scalar(word + suffix, kn), vn))
        elif target == "timeout":
            r.src.warn(r.line(kn), f"{raw}.{k}: a timeout for every task is not read (a workflow `timeout:` is the "
                                   "whole run's); give each task its own", "spec.unread")
        elif _MATTERS.search(yk.key_name(k)):
            r.src.warn(r.line(kn), f"{raw}.{k} not understood", "spec.unread")
        else:
            notes.append(note(r, kn, f"{raw}.{k}: {short(r.value(vn))}", "not used when the workflow runs"))
    if retry:
        out["retry"] = (knode, MappingNode(MAP, retry, vnode.start_mark, vnode.end_mark))
    return out


def _mapping_node(top: dict[str, tuple[Node, Node]]) -> MappingNode:
    first = next(iter(top.values()))[0]
    return MappingNode(MAP, [pair for pair in top.values()], first.start_mark, first.end_mark)


def _argo_steps(r: NodeReader, top: dict[str, tuple[Node, Node]], notes: list[Reading]) -> tuple[Node, Node] | None:
    spec = _at(_mapping_node(top), ("spec",))
    root = spec[1] if spec is not None else _mapping_node(top)
    templates = by_name(root).get("templates")
    if templates is None or not isinstance(templates[1], SequenceNode):
        return None
    entry = by_name(root).get("entrypoint")
    wanted = str(entry[1].value) if entry is not None and isinstance(entry[1], ScalarNode) else None
    for template in templates[1].value:
        own = by_name(template)
        name = str(own["name"][1].value) if "name" in own and isinstance(own["name"][1], ScalarNode) else None
        if wanted is not None and name != wanted:
            continue
        for path in ARGO_STEPS:
            if (pair := _at(template, path)) is None:
                continue
            notes.append(note(r, pair[0], f"templates[{name}].{'.'.join(path)}", "read as the workflow's steps"))
            if path == ("steps",):
                return pair[0], _argo_groups(pair[1])
            return pair
    return None


def _argo_groups(node: Node) -> Node:
    """Argo `steps: [[a, b], [c]]`: each group after the whole group before it."""
    if not isinstance(node, SequenceNode):
        return node
    out: list[Node] = []
    before: list[str] = []
    for group in node.value:
        items = group.value if isinstance(group, SequenceNode) else [group]
        names = []
        for item in items:
            pairs = list(item.value) if isinstance(item, MappingNode) else []
            own = by_name(item)
            if before and "dependencies" not in own and "depends" not in own and pairs:
                key = scalar("dependencies", pairs[0][0])
                seq = SequenceNode(SEQ, [scalar(b, pairs[0][0]) for b in before], key.start_mark, key.end_mark)
                pairs.append((key, seq))
            if "name" in own:
                names.append(str(own["name"][1].value))
            out.append(MappingNode(MAP, pairs, item.start_mark, item.end_mark) if pairs else item)
        before = names or before
    return SequenceNode(SEQ, out, node.start_mark, node.end_mark)


_JOB_KEYS = {"stage", "script", "needs", "uses", "skill", "rules", "extends", "trigger", "dependencies", "agent",
             "depends_on", "task"}


def _compose_services(r: NodeReader, top: dict[str, tuple[Node, Node]], notes: list[Reading]) -> tuple[
        Node, Node] | None:
    """docker-compose: `services:` whose entries carry job keys (`skill:`, `depends_on:`) are the
    steps, a service a step; compose's own top-level keys (`networks:`, `volumes:`, `x-...`
    anchors) are set aside. None when `services:` holds no such entry (GitLab's service
    containers)."""
    key = next((k for k in top if yk.key_name(k) == "services"), None)
    if key is None or not isinstance(top[key][1], MappingNode):
        return None
    services = pairs(top[key][1])
    if not any(set(by_name(v)) & _JOB_KEYS for _, v in services.values()):
        return None
    knode, vnode = top.pop(key)
    for other in [k for k in list(top) if yk.key_name(k) in COMPOSE_KEYS or k.startswith("x-")]:
        plain = other[2:] if other.startswith("x-") else other
        if other.startswith("x-") and yk.top_key(plain) in ("timeout", "retry", "name", "description", "inputs"):
            top[plain] = top.pop(other)  # `x-deadline: 25m`: an extension key that names a key the form reads
        elif isinstance(top[other][1], ScalarNode) and other.startswith("x-"):
            continue  # an `x-` value the form does not know: "not understood" at its line, never dropped
        else:
            notes.append(note(r, top[other][0], other, "a compose key: not used when the workflow runs"))
            del top[other]
    from orchestrator.spec.compose_profiles import Profiles

    profiles = Profiles(r, notes)
    out = [(name, _compose_service(r, name, service, notes, profiles)) for name, service in vnode.value]
    said = [ev for _, service in out if isinstance(service, MappingNode) for k, v in service.value
            if str(k.value) == "input" and isinstance(v, MappingNode) for _, ev in v.value
            if isinstance(ev, ScalarNode) and str(ev.value).startswith("${inputs.")]
    if said and not any(yk.top_key(k) == "inputs" for k in top):  # the job's variables, set when it starts
        names = {str(ev.value)[9:-1]: ev for ev in said}
        top["inputs"] = (scalar("inputs", said[0]), SequenceNode(SEQ, [scalar(n, ev) for n, ev in names.items()],
                                                                 said[0].start_mark, said[0].end_mark))
        notes.append(note(r, said[0], "${...}", f"the variables {', '.join(names)} read as the workflow's inputs"))
    notes.append(note(r, knode, key, f"{len(services)} compose services read as the steps"))
    return scalar("steps", knode), MappingNode(MAP, out, vnode.start_mark, vnode.end_mark)


_COMPOSE_VAR = re.compile(r"^\$\{([A-Za-z_][\w.-]*)(?::?-([^}]*))?\}$")


def _compose_value(r: NodeReader, service: Node, key: Node, value: Node, notes: list[Reading]) -> Node:
    """`${APP_LOG}` (a variable set when the job starts) is the workflow input APP_LOG;
    `${step.field:-}` is that step's output, its default said in a reading (not applied)."""
    m = _COMPOSE_VAR.match(str(value.value)) if isinstance(value, ScalarNode) else None
    if m is None:
        return value
    path = m.group(1) if "." in m.group(1) else f"inputs.{m.group(1)}"
    if m.group(2) is not None and "." in m.group(1):  # a step's output that may not be there: optional
        said = f"; the default '{m.group(2)}' is not applied" if m.group(2) else ""
        notes.append(note(r, value, f"{service.value}: {key.value}", f"`:-` makes the input optional: left out "
                                                                      f"when {m.group(1)} has no value{said}"))
        return ScalarNode(STR, "${" + path + ":-" + m.group(2) + "}", value.start_mark, value.end_mark)
    if m.group(2) is not None:
        notes.append(note(r, value, f"{service.value}: {key.value}", f"the default '{m.group(2)}' after `:-` is "
                                                                      "not applied: the reference is read without it"))
    return ScalarNode(STR, "${" + path + "}", value.start_mark, value.end_mark)


def _compose_service(r: NodeReader, name: Node, service: Node, notes: list[Reading], profiles: Profiles) -> Node:
    """A compose service as a step: `environment:` is its inputs, an `x-` key names a step key
    (`x-fallback:`), `profiles:` a condition or an otherwise as its comment says
    (`compose_profiles`), `<<:` (a shared anchor: image, networks) is set aside, and a service
    with no `depends_on:` starts with the others (a root, not after the service before it)."""
    if not isinstance(service, MappingNode):
        return service
    out: list[tuple[Node, Node]] = []
    for k, v in service.value:
        raw = str(k.value)
        if raw == "<<":
            notes.append(note(r, k, f"{name.value}: <<", "a shared compose anchor (image, networks): not used"))
            continue
        if yk.key_name(raw) == "environment" and isinstance(v, MappingNode):
            k = scalar("input", k)
            v = MappingNode(MAP, [(ek, _compose_value(r, name, ek, ev, notes)) for ek, ev in v.value],
                            v.start_mark, v.end_mark)
        elif raw.startswith("x-"):
            k = scalar(raw[2:], k)
        elif raw == "profiles":
            read = profiles.read(str(name.value), k, v)
            if read is None:
                continue  # warned at its line: the service always runs
            k, v = read
        out.append((k, v))
    if not any(yk.step_key(str(k.value)) == "depends_on" for k, _ in out):
        out.append((scalar("depends_on", name), SequenceNode(SEQ, [], name.start_mark, name.end_mark)))
    return MappingNode(MAP, out, service.start_mark, service.end_mark)


COMPOSE_KEYS = {"networks", "volumes", "configs", "secrets", "version"}


def _gitlab_jobs(r: NodeReader, top: dict[str, tuple[Node, Node]], notes: list[Reading]) -> tuple[Node, Node] | None:
    """GitLab CI: every top-level mapping with job keys is a job; `.hidden` ones are templates.
    A job with no `needs:` runs after every job of the stages before its own."""
    jobs: list[tuple[Node, Node]] = []
    for key, (knode, vnode) in top.items():
        own = by_name(vnode)
        if not own or yk.key_name(key) in TOP_IGNORED or not (set(own) & _JOB_KEYS):
            continue
        if key.startswith("."):
            r.src.warn(r.line(knode), f"'{key}' is a hidden job (a template for `extends:`); it is not run and "
                                      "`extends:` is not followed", "spec.unread")
            continue
        jobs.append((knode, vnode))
    if not jobs:
        return None
    for knode, _ in jobs:
        del top[str(knode.value)]
    stages = _at(_mapping_node(top), ("stages",)) if top else None
    order = [str(s.value) for s in stages[1].value] if stages and isinstance(stages[1], SequenceNode) else [
        ".pre", "build", "test", "deploy", ".post"]
    by_stage: dict[str, list[str]] = {}
    for knode, vnode in jobs:
        said = by_name(vnode).get("stage")
        by_stage.setdefault(str(said[1].value) if said else "test", []).append(str(knode.value))
    out: list[tuple[Node, Node]] = []
    for knode, vnode in jobs:
        own = by_name(vnode)
        stage_pair = own.get("stage")
        stage = str(stage_pair[1].value) if stage_pair else "test"
        if stage not in order:
            r.src.warn(r.line(stage_pair[0] if stage_pair else knode), f"{knode.value}: stage '{stage}' is not in "
                       "`stages:`; the job is read with no stage order", "spec.unread")
        elif "needs" not in own and "dependencies" not in own:
            earlier = [j for s in order[: order.index(stage)] for j in by_stage.get(s, [])]
            if earlier:
                key = scalar("needs", (stage_pair or (knode, vnode))[0])
                seq = SequenceNode(SEQ, [scalar(j, key) for j in earlier], key.start_mark, key.end_mark)
                vnode = MappingNode(MAP, [*vnode.value, (key, seq)], vnode.start_mark, vnode.end_mark)
        out.append((knode, vnode))
    first = jobs[0][0]
    notes.append(note(r, first, "top-level jobs", f"{len(jobs)} GitLab-style jobs read as the steps"))
    return scalar("jobs", first), MappingNode(MAP, out, first.start_mark, first.end_mark)


def short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:59] + "…"


def exponential_backoff(r: NodeReader, sid: str, keys: dict[str, tuple[Node, Node]], v: dict[str, Any]) -> None:
    """Airflow's `retry_exponential_backoff: true` (and Prefect's `exponential_backoff`) beside a
    one-value `retry_delay: 20s`: waits of 20, 40, 80 s, capped by `max_retry_delay` when given
    (else not capped within the retries). Read into `v["retry"]`; a flag that cannot apply
    (no retries, a list of waits) is a warning at its line, never dropped silently."""
    if "backoff" not in keys:
        if "max_delay" in keys:
            r.src.warn(r.line(keys["max_delay"][0]), f"{sid}: {r.said.get('max_delay', 'max_delay')} caps an "
                       "exponential wait, and this step has none (retry_exponential_backoff: true); ignored",
                       "spec.unread")
        return
    key, node = keys["backoff"]
    flag = r.value(node)
    flag = flag.strip().lower() in ("true", "yes", "on") if isinstance(flag, str) else flag
    if flag is not True:
        return
    retry = v.get("retry")
    if retry is None or retry.max_retries == 0 or len(retry.delays_s) > 1:
        why = "there are no retries" if retry is None or retry.max_retries == 0 else "the waits are listed"
        r.src.warn(r.line(key), f"{sid}: {r.said.get('backoff', 'backoff')}: true is not applied: {why}",
                   "spec.unread")
        return
    start = retry.delays_s[0] if retry.delays_s else retry.initial_s
    if not retry.delays_s:
        r.src.warn(r.line(key), f"{sid}: {r.said.get('backoff', 'backoff')} without a retry_delay: the waits "
                   f"start at {start:g} s", "spec.default")
    cap = start * 2 ** max(retry.max_retries - 1, 0)
    if "max_delay" in keys and (m := r.seconds(keys["max_delay"][1], f"{sid}: max_retry_delay")) is not None:
        cap = m
    v["retry"] = retry.model_copy(update={"delays_s": (), "initial_s": start, "multiplier": 2.0,
                                          "max_delay_s": cap, "jitter": False})
