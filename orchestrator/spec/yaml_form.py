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

Keys, references and values in other tools' words (`needs`, `uses`, `with`, `foreach`,
`approve`, `on_fail`, `$input.x`, `${{ needs.a.outputs.n }}`, `retry: 3x, 2s apart`) are
read as the form's own: `yaml_keys` holds the vocabulary, `yaml_policy` reads values in
words through the phrase reader (cited at their line) and resolves references once every
step is known; a key in no table is a warning at its line. References:
`{{ steps.<id>.output.<field> }}`, `{{ inputs.<name> }}`, `{{ item }}` and their other
spellings (`yaml_keys.canonical_path`). An `input` value that is exactly one reference
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
from orchestrator.policy import ErrorClass, FallbackAction, Limits, RecoveryRule, RetryPolicy
from orchestrator.spec import linecap
from orchestrator.spec import policy_text as pt
from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.ansible28 import GROUP_KEYS, loop_named, loose_comments, start_groups
from orchestrator.spec.async_status31 import Wait, apply_waits, take_waits
from orchestrator.spec.check import SpecParts
from orchestrator.spec.ci_always29 import ASYNC_MARK, async_starts, async_task
from orchestrator.spec.comment_starts46 import comment_starts
from orchestrator.spec.gha28 import run_limit_node
from orchestrator.spec.key_comments27 import (
    key_comments,
    read_whole_run_comments,
    switched_off_keys,
)
from orchestrator.spec.model import (
    ContractSpec,
    ConvergenceSpec,
    FieldSpec,
    Reading,
    RecoveryRowSpec,
    StepSpec,
)
from orchestrator.spec.own_schema import comment_on, own_success, read_own_top
from orchestrator.spec.policy_yaml_keys import give_up_alone
from orchestrator.spec.source import Source
from orchestrator.spec.step import read_for_each, read_when
from orchestrator.spec.step_prose import is_root_value, read_step_list
from orchestrator.spec.yaml38 import apply, loop_phrase, own_words, pair_starts, possessive_handoffs
from orchestrator.spec.yaml_alias import anchor_readings, expand, shared_block
from orchestrator.spec.yaml_bare import skill_keys
from orchestrator.spec.yaml_dialect import COMPOSE_KEYS, exponential_backoff, reshape_top
from orchestrator.spec.yaml_grouped import read_grouped
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_one_key import read_one_key_top
from orchestrator.spec.yaml_policy import (
    PolicyText,
    channel_after,
    read_policy_texts,
    resolve_references,
    warn_summary_policies,
)
from orchestrator.spec.yaml_policy_block import read_policy_block
from orchestrator.spec.yaml_sigils import loop_key
from orchestrator.spec.yaml_step_shape import reshape_step
from orchestrator.spec.yaml_top import (
    SURROGATE_ESCAPE,
    json_inputs,
    mend_surrogates,
    read_limits,
    read_scenarios,
    run_limit_key,
    run_limit_name,
    run_limit_words,
    step_success,
)

_ID = re.compile(r"^[A-Za-z0-9_][\w-]*$")
_TOP = {"name", "title", "description", "intent", "inputs", "steps", "retry", "timeout", "limits",
        "convergence", "fallback", "scenarios", "tests", "state", "version", "success"}
_LIMIT_ALIASES = {"token_budget": "max_llm_tokens", "tokens": "max_llm_tokens",
                  "wall_time": "wall_time_s", "max_regenerations": "max_regenerations_total",
                  "max_attempts": "max_total_attempts", "total_attempts": "max_total_attempts"}
_CLASSES = {c.value: c for c in ErrorClass}


_STEP_KEYS = {"id", "name", "description", "skill", "agent", "depends_on", "input", "output",
              "outputs", "output_schema", "on_error", "retry", "retries", "timeout", "for_each",
              "when", "approval", "compensation", "compensate", "routes", "regenerate",
              "otherwise", "fallback", "feedback", "recovery", "success", "failure_modes", "join", "route_on",
              "attempts", "retry_delay", "if_still_failing", "notes", "continue_on_error", "backoff",
              "max_delay", "retry_for"}
_WORDS = {"retry", "retries", "attempts", "timeout", "retry_delay", "on_error", "if_still_failing", "fallback",
          "notes", "retry_for"}  # keys whose value may be a sentence


def _structured(key: str, value: str) -> bool:
    """A value the form reads itself: `on_error: continue`, `timeout: 30s`, `fallback: escalate`."""
    word = value.strip().lower()
    if key == "on_error":
        return word in ("continue", "fail")
    if key in ("timeout", "retry_delay"):
        return pt.parse_duration(word) is not None or yk.iso_duration(word) is not None
    if key == "fallback":
        return word in {a.value for a in FallbackAction}
    return False


_LOOP_VAR = ("as", "var", "item", "item_name", "loop_var", "variable", "name", "each")
_LOOP_SOURCE = ("in", "over", "items", "from", "source", "list", "of", "values")


def _list_ref(text: str) -> str:
    """`{{ steps.a.outputs.rows }}`, `$input.rows` → `steps.a.output.rows`, `inputs.rows`."""
    inner = yk.unwrap(text)
    return yk.canonical_path(inner) if inner is not None else text.strip()


def _loop_text(r: NodeReader, node: Node) -> str | None:
    """`row in a.rows`; `{as: row, in: a.rows}`; a matrix `{row: a.rows}`; `{{ a.rows }}` alone
    (the item is `item`) → `var in source`; a literal list is an error at its line."""
    value = r.value(node)
    if isinstance(value, dict):
        said = {yk.key_name(str(k)): v for k, v in value.items()}
        var = next((said[k] for k in _LOOP_VAR if k in said), None)
        source = next((said[k] for k in _LOOP_SOURCE if k in said), None)
        if var is None and source is None and len(value) == 1:
            var, source = next(iter(value.items()))
        if isinstance(var, str) and isinstance(source, str):
            return f"{var} in {_list_ref(source)}"
    elif isinstance(value, str) and (m := re.match(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+)$", value, re.S)):
        return f"{m.group(1)} in {_list_ref(m.group(2))}"
    elif isinstance(value, str) and yk.unwrap(value) is not None:
        return f"item in {_list_ref(value)}"
    elif isinstance(value, str):
        return loop_phrase(value) or value  # `every bed in beds` (`yaml38`)
    r.src.error(r.line(node), "for_each must name a list to loop over: `row in a.rows`, `{as: row, in: a.rows}` "
                              "or `{{ a.rows }}` (a list written in the spec is not read)", "spec.for-each")
    return None


def _pause(r: NodeReader, keys: dict[str, tuple[Node, Node]]) -> tuple[str, Node] | None:
    """A step's one wait between tries (`pause_between: 10s`) when it gives no count of its own, to be
    read with its time budget (`keep_trying_for: 3m`) as one retry; else None."""
    if {"retry", "retries", "attempts"} & set(keys) or "retry_delay" not in keys:
        return None
    node = keys["retry_delay"][1]
    value = r.value(node) if isinstance(node, ScalarNode) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return f"{value * yk.unit_of(r.said.get('retry_delay', '')):g}s", node
    if isinstance(value, str) and (iso := yk.iso_duration(value)) is not None:
        return f"{iso:g}s", node
    if isinstance(value, str) and pt.parse_duration(value.strip().lower()) is not None:
        return value.strip(), node
    return None


def _retry_keys(r: NodeReader, sid: str, keys: dict[str, tuple[Node, Node]], v: dict[str, Any],
                rows: list[RecoveryRowSpec]) -> None:
    """`retry` (a count or a mapping), `retries`, `attempts` (the first one counted), `retry_delay`
    (Airflow, Prefect) and `timeout` (in the unit its key names: `timeout-minutes: 10`)."""
    said = r.said.get
    if "retry" in keys:
        node = keys["retry"][1]
        entries = node.value if isinstance(node, SequenceNode) and all(
            isinstance(n, MappingNode) for n in node.value) else [node]
        for entry in entries:  # Step Functions: `Retry: [{ErrorEquals: [...], MaxAttempts: 2}, ...]`
            on = next((val for k, (_, val) in (r.mapping(entry, "retry") or {}).items() if yk.retry_key(k) == "on"),
                      None) if isinstance(entry, MappingNode) else None
            policy = r.retry(entry)
            if on is None or yk.is_catch_all(r.value(on)):
                v["retry"] = v.get("retry") or policy
                continue
            for group in yk.error_groups(r.value(on)):  # GitLab `when: [a, b]`: a rule per class they name
                klass = pt.classify(yk.error_words(group))
                if klass is None:
                    r.src.warn(r.line(on), f"{sid}: the errors '{group}' name no failure class skillweave knows "
                                           "(timeout, transient, invalid input, code error); the retry is for any "
                                           "failure", "spec.unclassified")
                where = r.src.where(r.line(entry))
                rows.append(RecoveryRowSpec(step=sid, rule=RecoveryRule(on=klass or "any", retry=policy, where=where),
                                            where=where))
        v["retries"] = v["retry"].max_retries if v.get("retry") else None
    if "retries" in keys:
        v["retries"] = r.count(keys["retries"][1], f"{sid}: {said('retries', 'retries')}")
    if "attempts" in keys and v.get("retries") is None:
        n = r.count(keys["attempts"][1], f"{sid}: {said('attempts', 'attempts')}")
        v["retries"] = max(n - 1, 0) if n is not None else None
    if "retry_delay" in keys and isinstance(keys["retry_delay"][1], SequenceNode):  # Prefect: `[1, 10, 100]`
        waits = r.waits(keys["retry_delay"][1], f"{sid}: {said('retry_delay', 'retry_delay')}",
                        yk.unit_of(said("retry_delay", "")))
        if waits:
            base = v.get("retry") or RetryPolicy(max_retries=v.get("retries") or len(waits))
            v["retry"] = base.model_copy(update={"delays_s": waits, "jitter": False})
    elif "retry_delay" in keys and (d := r.seconds(keys["retry_delay"][1], f"{sid}: retry_delay")) is not None:
        base = v.get("retry") or RetryPolicy(max_retries=v.get("retries") or 0)
        v["retry"] = base.model_copy(update={"delays_s": (d * yk.unit_of(said("retry_delay", "")),), "jitter": False})
    if "timeout" in keys and (t := r.seconds(keys["timeout"][1], f"{sid}: {said('timeout', 'timeout')}")):
        number = isinstance(r.value(keys["timeout"][1]), int | float)
        v["timeout_s"] = t * (yk.unit_of(said("timeout", "")) if number else 1.0)
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
    # a step's own keys: the line of the first of them (`fallback:`, the value inside a failure block)
    line = r.line(next(iter(parts.values()))[0]) if base else r.line(node)
    return RecoveryRowSpec(
        step=sid,
        rule=RecoveryRule(on=on, retry=retry, regenerate=regenerate,  # type: ignore[arg-type]
                          fallback=fallback, where=r.src.where(line)),
        feedback_to=feedback_to,
        feedback_attempts=attempts,
        where=r.src.where(line),
    )


def _aliases(keys: dict[str, tuple[Node, Node]], r: NodeReader) -> tuple[dict[str, tuple[Node, Node]], list[Reading]]:
    """Keys under their canonical name (`yaml_keys.step_key`: `needs`, `uses`, `with`,
    `foreach`, `on_fail`, `continue-on-error` ...); a second key for the same thing stays
    under its own name and is reported. The key as written is kept in `r.said`."""
    out: dict[str, tuple[Node, Node]] = {}
    read: list[Reading] = []
    for raw, pair in keys.items():
        canonical = yk.step_key(raw)
        if canonical not in _STEP_KEYS and loop_key(yk.key_name(raw)):  # `for_each_of:` (`yaml_sigils`)
            canonical = "for_each"
        if canonical not in _STEP_KEYS or raw == "agent":
            canonical = raw
        if canonical in out or (canonical in keys and canonical != raw):
            canonical = raw  # `needs:` beside `depends_on:`: reported as not understood
        out[canonical] = pair
        r.said[canonical] = raw
        if canonical != raw:
            read.append(Reading(what="key", where=r.src.where(r.line(pair[0])), text=raw,
                                note=f"`{raw}:` read as `{canonical}:`"))
    return out, read


_KEYED = re.compile(r"step-(\d{1,6})")


def _keyed_id(key: str) -> str:
    """A step keyed by a number (`"10":`, as steps numbered in tens are) is `step-10`, so "step 10" in the
    text names it; any other key is the step's id as written."""
    return f"step-{int(key)}" if key.isdigit() and len(key) <= 6 else key


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _step(r: NodeReader, node: Node, index: int, words: list[PolicyText], key_id: str | None = None,
          until: int | None = None) -> tuple[
        StepSpec | None, list[RecoveryRowSpec], list[ContractSpec]]:
    keys = r.mapping(node, f"steps[{index}]")
    if keys is None:
        return None, [], []
    r.said = {}
    line = r.line(node)
    named = next((n for k, (_, n) in keys.items() if k in ("id", "name") and isinstance(n, ScalarNode)), None)
    keys, started = async_task(r.src, keys)  # `async: 600` + `poll: 0` (`ci_always29`)
    keys, shaped = reshape_step(r, keys, key_id or (_slug(str(named.value)) if named else "") or f"step-{index + 1}")
    keys, looped = loop_named(r.src, keys)  # `loop_control: {loop_var: appt}` (`ansible28`)
    keys, own38 = own_words(r, keys)  # `machine:`, `eats:`, `per:`, `goes_with:` (`yaml38`)
    keys, read = _aliases(keys, r)
    read = [*looped, *started, *read]
    keys = give_up_alone(keys, r.said, lambda k: comment_on(r.src.line_text(int(k.start_mark.line) + 1)))  # `give_up_after: 45s`
    read = [*r.item_readings.pop(id(node), []), *shaped, *read,
            *anchor_readings(r.src, r.anchors, line, int(node.end_mark.line) + 1)]
    sid = r.text(keys["id"][1], "id") if "id" in keys else key_id
    if sid is None and "id" not in keys:
        name = r.value(keys["name"][1]) if "name" in keys else None
        sid = _slug(name) if isinstance(name, str) and _slug(name) else f"step-{index + 1}"
        read.append(Reading(what="step", where=r.src.where(line), text=str(name or f"steps[{index}]"),
                            note=f"a step without an id: read as `{sid}`"))
    if sid is None:
        return None, [], []
    if not _ID.match(sid):
        r.src.error(r.line(keys["id"][1]) if "id" in keys else line, f"step id '{sid}' must start with an ASCII letter, digit or _ "
                    "and hold only letters, digits, _ and -",
                    "spec.bad-id")
    taken: set[int] = set()
    for key, c_line, c_text in key_comments(r.src, node):  # `# 3 more goes, 20s / 40s` on `retry:` (`key_comments27`)
        words.append(PolicyText(step=sid, key=f"{key} # comment", canonical="notes", text=c_text, line=c_line))
        taken.add(c_line)
    for c_line, c_text in loose_comments(r.src, node, taken, until):  # `# give up after 15 seconds` in a task (`ansible28`)
        words.append(PolicyText(step=sid, key="# comment", canonical="notes", text=c_text, line=c_line))
    read += switched_off_keys(r.src, node)
    for key, (_, vnode) in list(keys.items()):  # values in words: the phrase reader's (`yaml_policy`)
        said = r.value(vnode) if isinstance(vnode, ScalarNode) and key in _WORDS else None
        said = str(vnode.value) if isinstance(said, bool) else said  # `retry: no` is YAML's false: the word
        if key == "retry_for" and isinstance(said, int | float) and said > 0:  # `keep_trying_for: 180`: seconds
            said = f"{said * yk.unit_of(r.said.get(key, key)):g}s"
        also = ""
        if key == "retry_for" and isinstance(said, str) and (pause := _pause(r, keys)) is not None:
            also = f"{r.said.get('retry_delay', 'retry_delay')}: {pause[0]}"  # one retry: its budget and its wait
            read.append(Reading(what="key", where=r.src.where(r.line(pause[1])), text=also,
                                note=f"the wait between the tries of `{r.said.get(key, key)}:`"))
            del keys["retry_delay"]
        if isinstance(said, str) and not _structured(key, said):
            channel = channel_after(r.src.text, int(vnode.end_mark.line) + 1, int(vnode.end_mark.column)) if (
                isinstance(vnode, ScalarNode) and not vnode.style) else ""  # plain: None, or "" from libyaml
            words.append(PolicyText(step=sid, key=r.said.get(key, key), canonical=key, text=said, line=r.line(vnode),
                                    channel=channel, also=also))
            del keys[key]
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
        elif isinstance(deps, dict) and deps and all(isinstance(c, dict) for c in deps.values()):
            # compose's long form `{a: {condition: ..., required: false}}`: the keys are the steps;
            # when every one is not required, whichever of them ran
            if all(c.get("required") is False for c in deps.values()):
                v["join"] = "any"
            deps = [str(d) for d in deps]
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
    if "input" not in keys and v.get("skill") and (flat := skill_keys(r.src, keys, _STEP_KEYS, v["skill"], sid)):
        keys["input"] = flat  # `source: ...` beside `skill: fetch-leads`, which takes `source`
    if "input" in keys and r.named_list(keys["input"][1]) is not None:  # `[{name: x, value: ...}]`
        v["inputs"], v["input_values"] = r.step_inputs(keys["input"][1], sid)
    elif "input" in keys and isinstance(keys["input"][1], SequenceNode):
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
        if isinstance(word, str) and word.strip().lower() in ("continue", "fail"):
            v["on_error"] = word.strip().lower()
        else:
            r.src.warn(r.line(keys["on_error"][1]), f"{sid}: {r.said.get('on_error', 'on_error')} must be "
                       "continue, fail or a sentence (page the on-call, regenerate once)", "spec.unread")
    if "continue_on_error" in keys and "on_error" not in v:  # GitHub Actions' `continue-on-error: true`
        flag = r.value(keys["continue_on_error"][1])
        flag = flag.strip().lower() in ("true", "yes") if isinstance(flag, str) else flag
        v["on_error"] = "continue" if flag is True else "fail"
    rows: list[RecoveryRowSpec] = []
    _retry_keys(r, sid, keys, v, rows)
    exponential_backoff(r, sid, keys, v)
    if "for_each" in keys and (t := _loop_text(r, keys["for_each"][1])) is not None:
        v["for_each"] = read_for_each(t, r.src, r.line(keys["for_each"][1]))
    if "when" in keys and (t := r.text(keys["when"][1], "when")) is not None:
        v["when"] = read_when(yk.condition_text(t), r.src, r.line(keys["when"][1]))
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
        read += [Reading(what="approval", where=r.src.where(n), text=t, note=note) for n, t, note in r.notes]
        r.notes.clear()
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
    for k in sorted(set(extra) - GROUP_KEYS - {ASYNC_MARK}):  # `async_group: morning` is read across the steps (`ansible28`)
        r.src.warn(r.line(keys[k][0]), f"{sid}: key '{k}' not understood; kept for review",
                   "spec.unknown-label")
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
    return apply(step, own38), rows, contracts


def _unwrap_top(r: NodeReader, top: dict[str, tuple[Node, Node]]) -> dict[str, tuple[Node, Node]]:
    """`workflow: {name: x, steps: [...]}`, `dag: {tasks: [...]}`, `spec: {...}`: without steps of its
    own, the spec is the one mapping under it that holds them (the keys beside it kept)."""
    if any(yk.top_key(k) == "steps" for k in top):
        return top
    inner = [(k, n) for k, (_, n) in top.items()  # (compose's `networks: {jobs: ...}` names a network)
             if isinstance(n, MappingNode) and yk.key_name(k) not in COMPOSE_KEYS and any(yk.top_key(str(key.value)) == "steps" for key, _ in n.value)]
    if len(inner) != 1:
        return top
    outer, node = inner[0]
    nested = r.mapping(node, outer) or {}
    return {**{k: v for k, v in top.items() if k != outer}, **nested}


def read_yaml(src: Source, root: Node | None = None) -> SpecParts:
    """Read the YAML form; findings go to `src` (a YAML syntax error stops here). `root`: the
    document already read into nodes (a TOML spec, `toml_form`), else composed from `src`."""
    composed = root is None
    root = _compose(src) if root is None else root
    linecap.yaml_scalars(root, src)  # a text on a line too long to read: emptied, and a warning
    r = NodeReader(src)
    if root is None:
        src.error(1, "the YAML document is empty", "spec.no-steps")
        src.raise_if_errors()
    assert root is not None  # raise_if_errors raised
    if SURROGATE_ESCAPE.search(src.text):
        mend_surrogates(root, src)
    if composed:  # a YAML file's own comments: the head's speak for the whole run (`key_comments27`)
        read_whole_run_comments(src)
    r.anchors = expand(src, root)  # each alias a copy at its own line, merge keys merged (`yaml_alias`)
    if isinstance(root, SequenceNode) and src.vocabulary:  # a list (a playbook): the anchored reading's, if
        from orchestrator.spec.yaml_anchored import list_document  # its items name catalog skills

        root = list_document(src.vocabulary, root)
    manifest = None
    if composed and isinstance(root, MappingNode):  # a Kubernetes manifest's annotations (`k8s_manifest32`)
        from orchestrator.spec.k8s_manifest32 import looked_at, lower_manifest

        root = lower_manifest(root, src, r.item_readings)
        manifest = looked_at(root)
    return _read_top(r, root, manifest)


def _compose(src: Source) -> Node | None:
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
    return root


def _read_top(r: NodeReader, root: Node, manifest: str | None = None) -> SpecParts:
    src = r.src
    top = r.mapping(root, "the spec")
    src.raise_if_errors()
    assert top is not None
    top = _unwrap_top(r, top)
    shared = [Reading(what="key", where=src.where(r.line(k)), text=raw, note="shared settings (YAML anchors), read where "
                      "their aliases use them") for raw, (k, v) in list(top.items()) if shared_block(r.anchors, v)]
    top = {raw: pair for raw, pair in top.items() if not shared_block(r.anchors, pair[1])}
    top, shaped = read_one_key_top(r, top)  # one-key steps, a one-value limit, a wiring block (`yaml_one_key`)
    top, grouped = read_grouped(r, top)  # steps keyed by name under stages, phases, lanes (`yaml_grouped`)
    own = read_own_top(r, top)  # the author's own schema: `about:` blocks, placeholders, `[[stage]]` (`own_schema`)
    top, top_notes = reshape_top(r, own.top) if own.top else (own.top, [])
    top_notes = [*shared, *shaped, *grouped, *own.notes, *top_notes]
    for raw in list(top):  # `workflow:`, `summary:`, `input:`, `tasks:` / `jobs:` under the form's own names
        if (canonical := yk.top_key(raw)) in _TOP and canonical not in top and not (
                canonical == "timeout" and run_limit_words(raw, top[raw][1])):
            top[canonical] = top.pop(raw)
    for raw in list(top):  # `give_up_after: 3h`, `max_total: 3h`: the whole run's, never each step's retries
        if raw not in _TOP and "timeout" not in top and run_limit_key(raw, top[raw][1]):
            top_notes.append(Reading(what="key", where=src.where(r.line(top[raw][0])), text=f"{raw}: {top[raw][1].value}",
                                     note="the whole run's time limit (timeout:)"))
            top["timeout"] = top.pop(raw)
        elif raw not in _TOP and "timeout" not in top and (limit := run_limit_node(raw, top[raw][1])) is not None:
            top_notes.append(Reading(what="key", where=src.where(r.line(top[raw][0])), text=f"{raw}: {top[raw][1].value}",
                                     note=f"the whole run's time limit (timeout: {limit.value}; `gha28`)"))
            top["timeout"] = (top.pop(raw)[0], limit)
    top, block_notes = read_policy_block(r, top)  # `policies:` apart from the steps, keyed by their names
    top_notes += block_notes
    words: list[PolicyText] = []
    for raw, (_, vnode) in list(top.items()):  # a workflow-wide policy in words: for every step
        key = yk.step_key(raw)  # (top-level notes are an aside: reported as not understood, never a policy)
        if raw not in _TOP and run_limit_name(raw):  # `give_up_after: 3 hours or so`: the run's, in words
            key = "whole_run"
        said = r.value(vnode) if isinstance(vnode, ScalarNode) and key in _WORDS - {"notes"} | {"whole_run"} else None
        said = str(vnode.value) if isinstance(said, bool) else said
        if isinstance(said, str) and not _structured(key, said):
            channel = channel_after(src.text, int(vnode.end_mark.line) + 1, int(vnode.end_mark.column)) if (
                isinstance(vnode, ScalarNode) and not vnode.style) else ""  # plain: None, or "" from libyaml
            words.append(PolicyText(step="", key=raw, canonical=key, text=said, line=r.line(vnode), channel=channel))
            del top[raw]
    for key in sorted(set(top) - _TOP):
        src.warn(r.line(top[key][0]), f"key '{key}' not understood", "spec.unread")
    steps: list[StepSpec] = []
    rows: list[RecoveryRowSpec] = []
    contracts: list[ContractSpec] = []
    waits: list[Wait] = []
    item_lines: list[int] = []  # each step's first line, for the comment above it (`comment_starts46`)
    steps_line = 1
    if "steps" not in top:
        src.error(1, "the spec has no steps: write a `steps:` list (or `jobs:` / `tasks:`, a list or a map of "
                     "id: step); GitLab-style top-level jobs, an Argo `spec.templates` dag, a Tekton `spec.tasks` "
                     "and Step Functions `States` are read too" + (f"; {manifest}" if manifest else ""), "spec.no-steps")
    elif not isinstance(top["steps"][1], SequenceNode | MappingNode):
        src.error(r.line(top["steps"][1]), "steps must be a list (or a map of id: step)", "spec.yaml")
    else:
        steps_line = r.line(top["steps"][0])
        items: list[tuple[Node, str | None]] = (
            [(item, None) for item in top["steps"][1].value] if isinstance(top["steps"][1], SequenceNode)
            else [(value, _keyed_id(str(r.value(key)))) for key, value in top["steps"][1].value])  # `steps: {id: {...}}`
        items, waits = take_waits(items, src)  # `async_status:` polling an `async:` job: a wait (`async_status31`)
        for i, (item, key_id) in enumerate(items):
            until = int(items[i + 1][0].start_mark.line) + 1 if i + 1 < len(items) else None  # the next step's line
            step, step_rows, step_contracts = _step(r, item, i, words, key_id, until)
            if step is not None and step.number is None and key_id and (n := _KEYED.fullmatch(key_id)) is not None \
                    and isinstance(top["steps"][1], MappingNode):
                step = step.model_copy(update={"number": int(n.group(1))})  # `after: ["20"]` names it too
            if step is not None:
                steps.append(step)
                item_lines.append(int(item.start_mark.line) + 1)
            rows += step_rows
            contracts += step_contracts
    steps = comment_starts(steps, item_lines, src)  # `# these two go at the same time` over a step (`comment_starts46`)
    inputs = r.inputs(top["inputs"][1]) if "inputs" in top else None
    if r.implicit_inputs:  # lists written in the spec to loop over
        inputs = (*(inputs or ()), *r.implicit_inputs)
    if inputs is not None:
        inputs = json_inputs(inputs, src, top_notes)
    if steps and top_notes:  # where the steps and inputs were found: shown with the first step
        steps[0] = steps[0].model_copy(update={"readings": (*top_notes, *steps[0].readings)})
    steps = possessive_handoffs(pair_starts(steps, src))  # `goes_with:`, `forecast's frost_flag` (`yaml38`)
    resolved, inputs_said = resolve_references(steps, inputs, src)
    steps = start_groups(_resolve_steps(resolved), src)  # `async_group: morning`: they start together (`ansible28`)
    steps = apply_waits(steps, waits, src)  # the task after an `async_status` waits for its job (`async_status31`)
    steps = async_starts(steps, src)  # `poll: 0`: the next task starts beside it (`ci_always29`)
    steps = step_success(r, top.get("success"), steps)  # each step's `success:`, then the run's (`yaml_top`)
    steps, own_checks = own_success(r, own.checks, steps)  # a check said in words (`finished_if:`)
    contracts += own_checks
    read_policy_texts(words, tuple(steps), src)
    name = r.text(top["name"][1], "name") if "name" in top else None
    convergence, limits = read_limits(r, top["limits"][1]) if "limits" in top else (ConvergenceSpec(), {})
    if "convergence" in top:
        convergence, limits = read_limits(r, top["convergence"][1])
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
    if intent_key and isinstance(top[intent_key][1], ScalarNode) and isinstance(said := r.value(top[intent_key][1]), str):
        body = r.line(top[intent_key][1]) + (1 if top[intent_key][1].style in ("|", ">") else 0)
        warn_summary_policies(said, body, str(top[intent_key][0].value), src)
    return SpecParts(
        name=name or re.sub(r"[^a-z0-9]+", "-", PurePath(src.path).stem.lower()).strip("-"),
        title=(r.text(top["title"][1], "title") or "") if "title" in top else "",
        intent=(r.text(top[intent_key][1], intent_key) or "") if intent_key else "",
        inputs=inputs,
        steps=tuple(steps),
        steps_line=steps_line,
        contracts=tuple(contracts),
        state=(r.text(top["state"][1], "state") or "") if "state" in top else "",
        convergence=convergence,
        recovery=tuple(rows),
        scenarios=read_scenarios(r, top[scenario_key][1]) if scenario_key else (),
        fallback=r.fallback(top["fallback"][1]) if "fallback" in top else None,
        retry=r.retry(top["retry"][1]) if "retry" in top else None,
        retry_where=r.src.where(r.line(top["retry"][1])) if "retry" in top else None,
        timeout_s=timeout,
        inputs_said=inputs_said,
    )
