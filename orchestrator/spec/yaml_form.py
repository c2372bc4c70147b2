"""The YAML form of a spec (seed 001) into the same parts as the markdown form.

    name: data-pipeline
    inputs: {source: {type: string, default: database}}
    steps:
      - id: extract
        skill: data-extractor            # `agent:` is read as `skill:`
        input: {rows: "{{ steps.load.output.rows }}", mode: full}
        depends_on: [other]              # or a single id
        retry: {max_attempts: 3, backoff: exponential}   # or [1, 2, 4], or fixed + delay
        timeout: 30s                     # or seconds
        on_error: continue               # continue | fail
        for_each: "item in steps.list.output.items"
        when: "inputs.mode == 'full'"
        approval: {required: true, timeout: 1h, on_timeout: reject}
        compensation: undo-extract
        regenerate: 1
        fallback: continue               # fail | escalate | continue | default | {default: v} | {skill: x}
        feedback: {step: producer, max_attempts: 2}
        recovery: [{on: timeout, retry: 2, fallback: continue}]
    retry: ...; timeout: 3600; limits: {max_total_attempts: 20, wall_time: 10m}
    scenarios: [{name: Happy path, description: ..., kind: happy}]

References: `{{ steps.<id>.output.<field> }}`, `{{ inputs.<name> }}` and `{{ item }}`
(`${...}` is read the same). An `input` value that is exactly one reference
becomes the field's `source`; any other string with `{{` is a Jinja2 template
kept in `input_values`. Inside a `for_each`, `{{ item }}` or `{{ <its variable> }}`
alone is the item itself, with its JSON type (an integer stays an integer). `retry.max_attempts` counts the first attempt
(`max_attempts: 3` = 2 retries); `retry: 3` and `max_retries: 3` count retries.
Every step, key and error keeps its line (node marks from `yaml.compose`).
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator import yamlsafe
from orchestrator.policy import ErrorClass, Limits, RecoveryRule
from orchestrator.spec.check import SpecParts
from orchestrator.spec.model import (
    ContractSpec,
    ConvergenceSpec,
    FieldSpec,
    Reading,
    RecoveryRowSpec,
    ScenarioSpec,
    StepSpec,
)
from orchestrator.spec.source import Source
from orchestrator.spec.step import read_for_each, read_when
from orchestrator.spec.step_prose import is_root_value, read_step_list
from orchestrator.spec.yaml_node import NodeReader

_ID = re.compile(r"^[A-Za-z0-9_][\w-]*$")
_TOP = {"name", "title", "description", "intent", "inputs", "steps", "retry", "timeout", "limits",
        "convergence", "fallback", "scenarios", "tests", "state", "version"}
_LIMIT_ALIASES = {"token_budget": "max_llm_tokens", "tokens": "max_llm_tokens",
                  "wall_time": "wall_time_s", "max_regenerations": "max_regenerations_total",
                  "max_attempts": "max_total_attempts", "total_attempts": "max_total_attempts"}
_CLASSES = {c.value: c for c in ErrorClass}


_STEP_KEYS = {"id", "name", "description", "skill", "agent", "depends_on", "input", "output",
              "outputs", "output_schema", "on_error", "retry", "retries", "timeout", "for_each",
              "when", "approval", "compensation", "compensate", "routes", "regenerate",
              "otherwise", "fallback", "feedback", "recovery", "success", "failure_modes", "join", "route_on"}
_DOTTED = re.compile(r"^([A-Za-z0-9_][\w-]*)\.([A-Za-z_][\w.]*)$")


def _dotted(text: str, ids: set[str] | None) -> str | None:
    """`normalise.amount` (an earlier step's id, then a field) → `steps.normalise.output.amount`;
    `inputs.x` → `inputs.x`. Without `ids` only `inputs.x` is read."""
    m = _DOTTED.match(text.strip())
    if not m:
        return None
    if m.group(1) == "inputs":
        return text.strip()
    if ids is not None and m.group(1) in ids:
        return f"steps.{m.group(1)}.output.{m.group(2)}"
    return None


def _resolve_steps(steps: list[StepSpec]) -> list[StepSpec]:
    """`depends_on` and route targets that name a step by its name, or by its position (`2`)
    when no step has that id."""
    from orchestrator.spec.structure import StepIndex, resolve_references

    ids = {s.id for s in steps}
    positional = [s.model_copy(update={"number": i}) if s.number is None and str(i) not in ids else s
                  for i, s in enumerate(steps, start=1)]
    resolved = resolve_references(positional, StepIndex(positional))
    return [r.model_copy(update={"number": s.number}) for s, r in zip(steps, resolved, strict=True)]


def _step_references(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """An `input:` value written `<step id>.<field>` is a reference to that step's output, as
    `{{ steps.<id>.output.<field> }}` is; each is kept as a reading with its line."""
    ids = {s.id for s in steps}
    out: list[StepSpec] = []
    for step in steps:
        values = dict(step.input_values)
        fields = list(step.inputs)
        readings = list(step.readings)
        for i, field in enumerate(fields):
            value = values.get(field.name)
            ref = _dotted(value, ids) if isinstance(value, str) else None
            if ref is None:
                continue
            del values[field.name]
            fields[i] = field.model_copy(update={"source": ref})
            readings.append(Reading(what="input", where=field.where, text=f"{field.name}: {value}",
                                    note=f"read as a reference to {ref}"))
        if values != step.input_values:
            step = step.model_copy(update={"inputs": tuple(fields), "input_values": values,
                                           "readings": tuple(readings)})
        out.append(step)
    return out


def _rule(
    r: NodeReader,
    sid: str,
    node: Node,
    base: dict[str, tuple[Node, Node]] | None = None,
    on: ErrorClass | str = "any",
) -> RecoveryRowSpec | None:
    """A `recovery:` entry (or the step's own regenerate/fallback/feedback keys) as a row."""
    keys = r.mapping(node, f"{sid}: recovery entry") if base is None else None
    if base is None and keys is None:
        return None
    parts: dict[str, tuple[Node, Node]] = keys if keys is not None else base or {}
    if "on" in parts:
        word = str(r.value(parts["on"][1])).lower().replace(" ", "_")
        if word in _CLASSES:
            on = _CLASSES[word]
        elif word != "any":
            r.src.warn(r.line(parts["on"][1]), f"{sid}: error class '{word}' must be one of "
                                                f"{', '.join(_CLASSES)} or any", "spec.unread")
    retry = r.retry(parts["retry"][1]) if "retry" in parts else None
    regenerate = r.count(parts["regenerate"][1], f"{sid}: regenerate") if "regenerate" in parts else None
    fallback = r.fallback(parts["fallback"][1]) if "fallback" in parts else None
    feedback_to: str | None = None
    attempts: int | None = None
    if "feedback" in parts:
        fnode = parts["feedback"][1]
        fb = r.value(fnode)
        if isinstance(fb, str):
            feedback_to = fb
        elif isinstance(fb, dict) and isinstance(fb.get("step"), str):
            feedback_to = fb["step"]
            n = fb.get("max_attempts")
            attempts = n if isinstance(n, int) and not isinstance(n, bool) and n >= 1 else None
        else:
            r.src.warn(r.line(fnode), f"{sid}: feedback must be a step id or {{step, max_attempts}}",
                       "spec.unread")
    if keys is not None:
        for key in set(keys) - {"on", "retry", "regenerate", "fallback", "feedback"}:
            r.src.warn(r.line(keys[key][0]), f"{sid}: recovery.{key} not understood", "spec.unread")
    line = r.line(node)
    return RecoveryRowSpec(
        step=sid,
        rule=RecoveryRule(on=on, retry=retry, regenerate=regenerate,  # type: ignore[arg-type]
                          fallback=fallback, where=r.src.where(line)),
        feedback_to=feedback_to,
        feedback_attempts=attempts,
        where=r.src.where(line),
    )


_ALIASES = {
    "depends_on": ("needs", "after", "depends", "requires", "dependencies", "depends-on", "dependsOn"),
    "skill": ("uses", "tool"),
    "input": ("with", "inputs", "params", "args", "arguments"),
    "when": ("condition", "if", "only_if", "run_if"),
    "otherwise": ("else", "unless_step"),
}


def _aliases(keys: dict[str, tuple[Node, Node]], r: NodeReader) -> tuple[dict[str, tuple[Node, Node]], list[Reading]]:
    """Keys people bring from other tools (`needs`, `uses`, `with`) under their own name."""
    out = dict(keys)
    read: list[Reading] = []
    for canonical, aliases in _ALIASES.items():
        for alias in aliases:
            if alias in out and canonical not in out and not (canonical == "skill" and "agent" in out):
                out[canonical] = out.pop(alias)
                read.append(Reading(what="key", where=r.src.where(r.line(out[canonical][0])), text=alias,
                                    note=f"`{alias}:` read as `{canonical}:`"))
    return out, read


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _step(r: NodeReader, node: Node, index: int, key_id: str | None = None) -> tuple[
        StepSpec | None, list[RecoveryRowSpec], list[ContractSpec]]:
    keys = r.mapping(node, f"steps[{index}]")
    if keys is None:
        return None, [], []
    line = r.line(node)
    keys, read = _aliases(keys, r)
    sid = r.text(keys["id"][1], "id") if "id" in keys else key_id
    if sid is None and "id" not in keys:
        name = r.value(keys["name"][1]) if "name" in keys else None
        sid = _slug(name) if isinstance(name, str) and _slug(name) else f"step-{index + 1}"
        read.append(Reading(what="step", where=r.src.where(line), text=str(name or f"steps[{index}]"),
                            note=f"a step without an id: read as `{sid}`"))
    if sid is None:
        return None, [], []
    if not _ID.match(sid):
        r.src.error(r.line(keys["id"][1]), f"step id '{sid}' must start with an ASCII letter, digit or _ "
                    "and hold only letters, digits, _ and -",
                    "spec.bad-id")
    v: dict[str, Any] = {}
    if "skill" in keys and "agent" in keys:
        r.src.warn(r.line(keys["agent"][0]), f"{sid}: both skill and agent; skill is used",
                   "spec.duplicate-label")
    for key in ("agent", "skill"):
        if key in keys:
            v["skill_where"] = r.src.where(r.line(keys[key][1]))
            v["skill"] = r.text(keys[key][1], key)
    if "depends_on" in keys:
        dnode = keys["depends_on"][1]
        deps = r.value(dnode)
        if isinstance(deps, dict) and set(deps) <= {"any", "all"} and len(deps) == 1:
            v["join"] = "any" if "any" in deps else "all"  # `depends_on: {any: [a, b]}`: whichever ran
            deps = next(iter(deps.values()))
        if deps is None or (isinstance(deps, str) and is_root_value(deps)):
            deps = []  # `depends_on: none` / `~`: a root
        elif isinstance(deps, str) and re.search(r"[,;]|\s(?:and|or)\s", deps):
            found = read_step_list(deps, bare_digits=True)  # "extract, transform" / "2 or 3 (whichever ran)"
            deps = [*found.ids, *found.names]
            if found.any:
                v["join"] = "any"
        deps = [deps] if isinstance(deps, str | int) and not isinstance(deps, bool) else deps
        if isinstance(deps, list) and all(isinstance(d, int) and not isinstance(d, bool) for d in deps if
                                          not isinstance(d, str)):
            deps = [str(d) for d in deps]  # `id: 1` is the step id "1": so is `depends_on: [1]`
        if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
            r.src.error(r.line(dnode), f"{sid}: depends_on must be a step id or a list of them",
                        "spec.yaml")
        else:
            v["depends_on"], v["depends_where"] = tuple(deps), r.src.where(r.line(dnode))
    if "input" in keys and isinstance(keys["input"][1], SequenceNode):
        names = r.value(keys["input"][1])  # `input: [vendor, amount]`: the names, sources found by the planner
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            at = r.src.where(r.line(keys["input"][1]))
            v["inputs"] = tuple(FieldSpec(name=n, source=_dotted(n, None), where=at) for n in names)
        else:
            r.src.error(r.line(keys["input"][1]), f"{sid}: input must be a mapping or a list of names",
                        "spec.yaml")
    elif "input" in keys:
        v["inputs"], v["input_values"] = r.step_inputs(keys["input"][1], sid)
    for key in ("output", "outputs"):
        if key in keys:
            v["outputs"] = r.outputs(keys[key][1], sid)
    for key, target in (("name", "name"), ("description", "description"), ("success", "success")):
        if key in keys:
            v[target] = r.text(keys[key][1], key)
    if "on_error" in keys:
        word = r.value(keys["on_error"][1])
        if word in ("continue", "fail"):
            v["on_error"] = word
        else:
            r.src.warn(r.line(keys["on_error"][1]), f"{sid}: on_error must be continue or fail",
                       "spec.unread")
    if "retry" in keys:
        v["retry"] = r.retry(keys["retry"][1])
        v["retries"] = v["retry"].max_retries if v["retry"] else None
    if "retries" in keys:
        v["retries"] = r.count(keys["retries"][1], f"{sid}: retries")
    if "timeout" in keys:
        v["timeout_s"] = r.seconds(keys["timeout"][1], f"{sid}: timeout")
    if "for_each" in keys and (t := r.text(keys["for_each"][1], "for_each")) is not None:
        v["for_each"] = read_for_each(t, r.src, r.line(keys["for_each"][1]))
    if "when" in keys and (t := r.text(keys["when"][1], "when")) is not None:
        v["when"] = read_when(t, r.src, r.line(keys["when"][1]))
    if "otherwise" in keys:  # `otherwise: check` (that step's condition was false) or `otherwise: true` (the nearest)
        said = r.value(keys["otherwise"][1])
        v["otherwise_where"] = r.src.where(r.line(keys["otherwise"][1]))
        if isinstance(said, str | int) and not isinstance(said, bool) and str(said).strip():
            v["otherwise_of"] = str(said).strip()
        elif said is not True:
            r.src.error(r.line(keys["otherwise"][1]), f"{sid}: otherwise: name the step whose condition must be "
                                                      "false (`otherwise: check`), or write `otherwise: true`",
                        "spec.when")
    if "approval" in keys:
        v["approval"] = r.approval(keys["approval"][1])
    for key in ("compensation", "compensate"):
        if key in keys:
            v["compensation"] = r.text(keys[key][1], key)
    if "join" in keys:
        word = str(r.value(keys["join"][1])).strip().lower()
        if word in ("any", "all"):
            v["join"] = word
        else:
            r.src.warn(r.line(keys["join"][1]), f"{sid}: join must be any (whichever ran) or all",
                       "spec.unread")
    if "route_on" in keys:
        v["route_on"] = r.text(keys["route_on"][1], "route_on")
    if "routes" in keys:
        routes = r.value(keys["routes"][1])
        if isinstance(routes, dict) and all(isinstance(t, str) for t in routes.values()):
            branches = {str(k): t for k, t in routes.items()}
            for word in ("default", "*", "else", "otherwise"):
                if word in branches:
                    v["route_default"] = branches.pop(word)
            v["routes"] = branches
            v["routes_where"] = r.src.where(r.line(keys["routes"][1]))
        else:
            r.src.error(r.line(keys["routes"][1]), f"{sid}: routes must map names to step ids",
                        "spec.route")
    if "failure_modes" in keys:
        modes = r.value(keys["failure_modes"][1])
        v["failure_modes"] = tuple(str(m) for m in (modes if isinstance(modes, list) else [modes]))
    extra = {k: str(r.value(keys[k][1])) for k in set(keys) - _STEP_KEYS}
    for k in sorted(extra):
        r.src.warn(r.line(keys[k][0]), f"{sid}: key '{k}' not understood; kept for review",
                   "spec.unknown-label")
    rows: list[RecoveryRowSpec] = []
    own: dict[str, tuple[Node, Node]] = {k: keys[k] for k in ("regenerate", "fallback", "feedback") if k in keys}
    # step-level keys: `regenerate` is for code errors; fallback and feedback for any failure
    regen = {k: v for k, v in own.items() if k in ("regenerate", "fallback")}
    if "regenerate" in own and (row := _rule(r, sid, node, regen, on=ErrorClass.CODE_ERROR)):
        rows.append(row)
    rest = {k: v for k, v in own.items() if k != "regenerate"}
    if rest and (row := _rule(r, sid, node, rest)) is not None:
        rows.append(row)
    if "recovery" in keys:
        rnode = keys["recovery"][1]
        if isinstance(rnode, SequenceNode):
            rows += [row for item in rnode.value if (row := _rule(r, sid, item)) is not None]
        else:
            r.src.error(r.line(rnode), f"{sid}: recovery must be a list of rules", "spec.yaml")
    contracts: list[ContractSpec] = []
    if "output_schema" in keys:
        schema = r.value(keys["output_schema"][1])
        if isinstance(schema, dict):
            contracts.append(ContractSpec(producer=sid, consumer=None, json_schema=schema,
                                          where=r.src.where(r.line(keys["output_schema"][1]))))
        else:
            r.src.error(r.line(keys["output_schema"][1]), f"{sid}: output_schema must be a "
                                                          "JSON Schema mapping", "spec.schema")
    v["field_where"] = {
        name: r.src.where(r.line(keys[key][0]))
        for key, name in (("timeout", "timeout"), ("retry", "retries"), ("retries", "retries"),
                          ("on_error", "on_error"), ("approval", "approval"),
                          ("compensation", "compensation"), ("otherwise", "when"), ("when", "when"),
                          ("for_each", "for_each"))
        if key in keys
    }
    step = StepSpec(id=sid, name=v.pop("name", None) or sid, where=r.src.where(line), extra=extra,
                    form="yaml", readings=tuple(read), **{k: val for k, val in v.items() if val is not None})
    return step, rows, contracts


def _limits(r: NodeReader, node: Node) -> tuple[ConvergenceSpec, dict[str, float]]:
    keys = r.mapping(node, "limits") or {}
    values: dict[str, float] = {}
    where: dict[str, str] = {}
    for name, (knode, vnode) in keys.items():
        field = _LIMIT_ALIASES.get(name, name)
        if field.endswith("_s") or field == "wall_time_s":
            value = r.seconds(vnode, f"limits.{name}")
        else:
            count = r.value(vnode)
            value = count if isinstance(count, int) and not isinstance(count, bool) else None
        if field not in Limits.model_fields or value is None:
            r.src.warn(r.line(knode), f"limit '{name}' not understood; ignored", "spec.unread")
            continue
        try:
            Limits.model_validate({field: value})
        except ValueError:
            r.src.warn(r.line(vnode), f"limit '{name}: {value}' is out of range; ignored",
                       "spec.limit")
            continue
        values[field] = value
        where[field] = r.src.where(r.line(knode))
    return ConvergenceSpec(limits=Limits.model_validate(values), limit_where=where), values


def _scenarios(r: NodeReader, node: Node) -> tuple[ScenarioSpec, ...]:
    if not isinstance(node, SequenceNode):
        r.src.warn(r.line(node), "scenarios must be a list; not read", "spec.unread")
        return ()
    out: list[ScenarioSpec] = []
    kinds = ("happy", "degradation", "recovery", "escalation", "edge", "other")
    for item in node.value:
        value = r.value(item)
        if not isinstance(value, dict) or not isinstance(value.get("name"), str):
            r.src.warn(r.line(item), "a scenario needs a name; not read", "spec.unread")
            continue
        kind = value.get("kind", "other")
        out.append(ScenarioSpec(name=value["name"], description=str(value.get("description", "")),
                                kind=kind if kind in kinds else "other",
                                where=r.src.where(r.line(item))))
    return tuple(out)


_SURROGATE_ESCAPE = re.compile(r"\\[uU]0{0,4}[dD][89a-fA-F]")


def _mend_surrogates(root: Node, src: Source) -> None:
    """YAML's `\\ud83d\\udea6` escapes give two surrogates, not the character they encode:
    join each pair into its character; a lone one is an error at its line (it is not Unicode)."""
    seen: set[int] = set()
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            if isinstance(node.value, str) and not node.value.isascii():
                joined = node.value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
                if joined != node.value and "\ufffd" in joined and "\ufffd" not in node.value:
                    src.error(int(node.start_mark.line) + 1, "a lone surrogate escape (\\uD800-\\uDFFF) is not "
                              "valid Unicode; write the character itself or both halves of its pair", "spec.yaml")
                node.value = joined
        elif isinstance(node, MappingNode):
            todo.extend(n for pair in node.value for n in pair)
        elif isinstance(node, SequenceNode):
            todo.extend(node.value)


def read_yaml(src: Source) -> SpecParts:
    """Read the YAML form; findings go to `src` (a YAML syntax error stops here)."""
    try:
        root = yamlsafe.compose(src.text)  # aliases and integers bounded
    except yamlsafe.AliasBoundError as exc:
        src.error(int(exc.problem_mark.line) + 1, exc.problem, "spec.yaml")
        src.raise_if_errors()
        raise  # unreachable: raise_if_errors raised
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = int(mark.line) + 1 if mark is not None else 1
        message = f"YAML syntax: {exc.problem or exc.context}"
        if exc.context and exc.context_mark is not None and exc.context_mark.line + 1 != line:
            message += f" ({exc.context} at line {exc.context_mark.line + 1})"
        src.error(line, message, "spec.yaml")
        src.raise_if_errors()
        raise  # unreachable: raise_if_errors raised
    except yaml.YAMLError as exc:
        src.error(1, f"YAML cannot be read: {exc}", "spec.yaml")
        src.raise_if_errors()
        raise
    r = NodeReader(src)
    if root is None:
        src.error(1, "the YAML document is empty", "spec.no-steps")
        src.raise_if_errors()
    if _SURROGATE_ESCAPE.search(src.text):
        _mend_surrogates(root, src)
    top = r.mapping(root, "the spec")
    src.raise_if_errors()
    assert top is not None
    for key in sorted(set(top) - _TOP):
        src.warn(r.line(top[key][0]), f"key '{key}' not understood", "spec.unread")
    steps: list[StepSpec] = []
    rows: list[RecoveryRowSpec] = []
    contracts: list[ContractSpec] = []
    steps_line = 1
    if "steps" not in top:
        src.error(1, "the spec has no steps (a `steps:` list)", "spec.no-steps")
    elif not isinstance(top["steps"][1], SequenceNode | MappingNode):
        src.error(r.line(top["steps"][1]), "steps must be a list (or a map of id: step)", "spec.yaml")
    else:
        steps_line = r.line(top["steps"][0])
        items: list[tuple[Node, str | None]] = (
            [(item, None) for item in top["steps"][1].value] if isinstance(top["steps"][1], SequenceNode)
            else [(value, str(r.value(key))) for key, value in top["steps"][1].value])  # `steps: {id: {...}}`
        for i, (item, key_id) in enumerate(items):
            step, step_rows, step_contracts = _step(r, item, i, key_id)
            if step is not None:
                steps.append(step)
            rows += step_rows
            contracts += step_contracts
    steps = _resolve_steps(_step_references(steps, src))
    name = r.text(top["name"][1], "name") if "name" in top else None
    convergence, limits = _limits(r, top["limits"][1]) if "limits" in top else (ConvergenceSpec(), {})
    if "convergence" in top:
        convergence, limits = _limits(r, top["convergence"][1])
    timeout = r.seconds(top["timeout"][1], "timeout") if "timeout" in top else None
    if timeout is not None and "wall_time_s" not in limits:
        limits = {**limits, "wall_time_s": timeout}
        convergence = convergence.model_copy(update={
            "limits": Limits.model_validate(limits),
            "limit_where": {**convergence.limit_where,
                            "wall_time_s": src.where(r.line(top["timeout"][0]))},
        })
    scenario_key = "scenarios" if "scenarios" in top else "tests" if "tests" in top else None
    intent_key = "description" if "description" in top else "intent" if "intent" in top else None
    return SpecParts(
        name=name or re.sub(r"[^a-z0-9]+", "-", PurePath(src.path).stem.lower()).strip("-"),
        title=(r.text(top["title"][1], "title") or "") if "title" in top else "",
        intent=(r.text(top[intent_key][1], intent_key) or "") if intent_key else "",
        inputs=r.inputs(top["inputs"][1]) if "inputs" in top else None,
        steps=tuple(steps),
        steps_line=steps_line,
        contracts=tuple(contracts),
        state=(r.text(top["state"][1], "state") or "") if "state" in top else "",
        convergence=convergence,
        recovery=tuple(rows),
        scenarios=_scenarios(r, top[scenario_key][1]) if scenario_key else (),
        fallback=r.fallback(top["fallback"][1]) if "fallback" in top else None,
        retry=r.retry(top["retry"][1]) if "retry" in top else None,
        retry_where=r.src.where(r.line(top["retry"][1])) if "retry" in top else None,
        timeout_s=timeout,
    )
