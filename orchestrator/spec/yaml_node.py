"""Reading YAML nodes with their lines: scalars, retry, fallback, approval, inputs.

`NodeReader` wraps the nodes `yaml.compose` returns so that every value read
keeps the line it came from; the YAML form (`yaml_form`) is built on it.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.policy import (
    ApprovalPolicy,
    Fallback,
    FallbackAction,
    RetryPolicy,
)
from orchestrator.spec import policy_text as pt
from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.condition import read_approval_text, read_condition
from orchestrator.spec.fields import parse_fields, type_of
from orchestrator.spec.model import (
    FieldSpec,
    InputSpec,
    Reading,
)
from orchestrator.spec.phrase import durations
from orchestrator.spec.source import Source
from orchestrator.spec.yaml_alias import Uses
from orchestrator.spec.yaml_keys import key_name
from orchestrator.yamlsafe import BoundedLoader

_ENTRY_NAMES = ("name", "id", "key", "param", "variable")  # what a list's input entry is called by
_CHOICE_TYPES = ("choice", "environment")  # GitHub's input types that are strings
_SHOWN = ("options", "enum", "expand", "label")  # an input's allowed values: for the person, not checked
_SHELL_DEFAULT = re.compile(r"^\$\{([A-Za-z_][\w.-]*\.[\w.-]+):-[^}]*\}$")  # `${merge.top_error:-none}`
_REF_PATH = re.compile(r"^(?:steps\.[\w-]+\.output(?:\.[\w.]+)?|inputs\.[\w.]+|item(?:\.[\w.]+)?)$")


class NodeReader:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.loader = BoundedLoader("")
        self.said: dict[str, str] = {}  # a step's canonical key -> the key as written
        self.notes: list[tuple[int, str, str]] = []  # (line, text, what it was read as): for the step's readings
        self.implicit_inputs: list[InputSpec] = []  # a list written in the spec to loop over, as an input
        self.item_readings: dict[int, list[Reading]] = {}  # id(step node) -> how `yaml_anchored` read its keys
        self.anchors = Uses([])  # where aliases and merge keys use anchors (`yaml_alias`)

    def line(self, node: Node) -> int:
        return int(node.start_mark.line) + 1

    def value(self, node: Node) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or exc
            self.src.error(self.line(node), f"YAML value cannot be read: {problem}", "spec.yaml")
            return None

    def mapping(self, node: Node, what: str) -> dict[str, tuple[Node, Node]] | None:
        if not isinstance(node, MappingNode):
            self.src.error(self.line(node), f"{what} must be a mapping", "spec.yaml")
            return None
        out: dict[str, tuple[Node, Node]] = {}
        for key, val in node.value:
            # the raw text: YAML 1.1 would read a key `on:` as the boolean true
            name = str(key.value) if isinstance(key, ScalarNode) else None
            if name is None:
                self.src.error(self.line(key), f"{what}: keys must be plain names", "spec.yaml")
            elif name in out:
                self.src.error(self.line(key), f"{what}: key '{name}' is given twice", "spec.yaml")
            else:
                out[name] = (key, val)
        return out

    def text(self, node: Node, what: str) -> str | None:
        value = self.value(node)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return str(value)
        self.src.error(self.line(node), f"{what} must be a string", "spec.yaml")
        return None

    def seconds(self, node: Node, what: str) -> float | None:
        value = self.value(node)
        seconds = (float(value) if isinstance(value, int | float) and not isinstance(value, bool)
                   else pt.parse_duration(value) or yk.iso_duration(value) if isinstance(value, str) else None)
        if seconds is None or not math.isfinite(seconds) or seconds <= 0:
            self.src.warn(self.line(node), f"{what} '{value}' is not a duration (30, 30s, 2 min); "
                                           "ignored", "spec.unread")
            return None
        return seconds

    def count(self, node: Node, what: str) -> int | None:
        value = self.value(node)
        if isinstance(value, str) and value.strip().isdigit():  # Argo quotes its numbers: `limit: "2"`
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.src.warn(self.line(node), f"{what} must be a whole number ≥ 0; ignored",
                          "spec.unread")
            return None
        return min(value, 1000)

    def retry(self, node: Node) -> RetryPolicy | None:
        """`retry: 3` (retries), or a mapping in any tool's words (`yaml_keys.RETRY_KEYS`):
        `{attempts: 3, wait: 5s then 15s}`, `{limit: 3, backoff: {duration: 10s, factor: 2}}`
        (Argo), `{MaxAttempts: 2, IntervalSeconds: 3, BackoffRate: 2}` (Step Functions)."""
        value = self.value(node)
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 0:
                self.src.warn(self.line(node), f"retry '{value}' must be a whole number ≥ 0; ignored",
                              "spec.unread")
                return None
            return RetryPolicy(max_retries=min(value, 1000))
        if isinstance(node, SequenceNode) and all(isinstance(n, ScalarNode) for n in node.value) and node.value:
            waits = self._waits(node, "retry")  # `retry: [1s, 2s, 4s]`: one retry per wait
            return RetryPolicy(max_retries=len(waits), delays_s=waits, jitter=False) if waits else None
        if not isinstance(node, MappingNode):
            self.src.error(self.line(node), "retry must be a number of retries (retry: 3), a sentence "
                                            "(retry: 3x, 2s apart) or a mapping (retry: {attempts: 3, wait: 2s})",
                           "spec.yaml")
            return None
        keys = self.mapping(node, "retry")
        if keys is None:
            return None
        fields: dict[str, Any] = {}
        kinds: dict[str, str] = {}
        # the backoff's kind last: `{type: constant, interval: 10s}` is the interval's wait, in any order
        for raw, (knode, vnode) in sorted(keys.items(), key=lambda kv: yk.retry_key(kv[0]) == "backoff"):
            kind = yk.retry_key(raw)
            if kind == "on":
                continue  # which failures: the rule's (`yaml_form`)
            if kind is None:
                self.src.warn(self.line(knode), f"retry.{raw} not understood", "spec.unread")
                continue
            kinds[kind] = raw
            self._retry_part(kind, raw, vnode, fields)
        if "delay" in kinds and "backoff" not in kinds and "multiplier" not in kinds and "initial_s" in fields:
            # a wait without a backoff is the wait between tries, every time
            fields["delays_s"] = (fields.pop("initial_s"),)
            fields["jitter"] = False
        if "delays_s" in fields and "retries" not in kinds and "attempts" not in kinds and len(fields["delays_s"]) > 1:
            fields.setdefault("max_retries", len(fields["delays_s"]))
        return RetryPolicy(**fields)

    def _retry_part(self, kind: str, raw: str, vnode: Node, fields: dict[str, Any]) -> None:
        what = f"retry.{raw}"
        value = self.value(vnode)
        if kind in ("attempts", "retries", "sfn_attempts"):
            n = self.count(vnode, what)
            if n is not None:
                fields["max_retries"] = max(n - 1, 0) if kind == "attempts" else n
        elif kind in ("delay", "max_delay_s", "budget_s"):
            waits = self._waits(vnode, what, yk.unit_of(raw))
            if waits and kind == "delay":
                if len(waits) > 1:
                    fields["delays_s"], fields["jitter"] = waits, False
                else:
                    fields["initial_s"] = waits[0]
            elif waits:
                fields[kind] = waits[0]
        elif kind == "multiplier":
            if isinstance(value, int | float) and not isinstance(value, bool) and value >= 1:
                fields["multiplier"] = float(value)
            else:
                self.src.warn(self.line(vnode), f"{what} must be a number ≥ 1; ignored", "spec.unread")
        elif kind == "jitter":
            fields["jitter"] = bool(value) and str(value).lower() not in ("none", "off", "no")
        elif kind == "backoff":
            self._backoff(vnode, fields)

    def waits(self, node: Node, what: str, unit: float = 1.0) -> tuple[float, ...]:
        return self._waits(node, what, unit)

    def _waits(self, node: Node, what: str, unit: float = 1.0) -> tuple[float, ...]:
        """`2`, `2s`, `5s then 15s`, `[1, 2, 4]` → the waits in seconds; else a warning."""
        value = self.value(node)
        items = value if isinstance(value, list) else [value]
        out: list[float] = []
        for item in items:
            if isinstance(item, int | float) and not isinstance(item, bool) and item >= 0:
                out.append(float(item) * unit)
            elif isinstance(item, str) and (iso := yk.iso_duration(item)) is not None:  # `PT10S`
                out.append(iso)
            elif isinstance(item, str) and (found := durations(item)):
                out += found
            else:
                self.src.warn(self.line(node), f"{what} '{value}' is not a wait (2s, 5s then 15s, [1, 2, 4]); "
                                                "ignored", "spec.unread")
                return ()
        return tuple(out)

    def _backoff(self, bnode: Node, fields: dict[str, Any]) -> None:
        backoff = self.value(bnode)
        if isinstance(bnode, MappingNode):  # Argo: {duration: 10s, factor: 2, maxDuration: 1m}
            for raw, (knode, vnode) in (self.mapping(bnode, "retry.backoff") or {}).items():
                kind = yk.retry_key(raw)
                if kind in ("delay", "max_delay_s", "budget_s", "multiplier", "jitter"):
                    self._retry_part(kind, raw, vnode, fields)
                elif key_name(raw) in ("type", "kind", "strategy"):
                    self._backoff(vnode, fields)
                else:
                    self.src.warn(self.line(knode), f"retry.backoff.{raw} not understood", "spec.unread")
            if "initial_s" in fields and "multiplier" not in fields:  # Argo: no factor, the same wait each time
                fields["delays_s"], fields["jitter"] = (fields.pop("initial_s"),), False
            return
        word = str(backoff).strip().lower() if isinstance(backoff, str | bool) else None
        if isinstance(backoff, list) or (word and durations(word) and not word.startswith("exp")):
            waits = self._waits(bnode, "retry.backoff")
            if waits:
                fields["delays_s"], fields["jitter"] = waits, False
                fields.setdefault("max_retries", len(waits))
        elif word in ("fixed", "constant", "linear", "flat"):
            fields["delays_s"] = (fields.pop("initial_s", 1.0),)
            fields["jitter"] = False
        elif word in ("none", "immediate", "no", "false", "off"):
            fields["delays_s"] = (0.0,)
            fields["jitter"] = False
        elif word is None or not word.startswith("exp"):
            self.src.warn(self.line(bnode), f"retry.backoff '{backoff}' must be exponential, "
                                            "fixed or a list of waits", "spec.unread")

    def fallback(self, node: Node) -> Fallback | None:
        value = self.value(node)
        if isinstance(value, dict) and len(value) == 1:
            (key, arg), = value.items()
            if key == "default":
                return Fallback(action=FallbackAction.DEFAULT, value=arg)
            if key == "skill" and isinstance(arg, str):
                return Fallback(action=FallbackAction.SKILL, skill=arg)
        if isinstance(value, str) and value in {a.value for a in FallbackAction}:
            return Fallback(action=FallbackAction(value))
        self.src.warn(self.line(node), f"fallback '{value}' must be fail, escalate, continue, "
                                       "default, {default: value} or {skill: name}", "spec.unread")
        return None

    def approval(self, node: Node) -> ApprovalPolicy | None:
        """`approval: true`, a sentence (`required if amount > 1000; wait up to 24h, then reject`)
        or a mapping in plain words: `{if: total > 1000, by: line manager, wait: 24h, then: reject}`."""
        value = self.value(node)
        from orchestrator.spec.approval_yaml_keys import own_approval_key

        if value is True:
            return ApprovalPolicy()
        if value in (False, None):
            return None
        if isinstance(value, str):
            return read_approval_text(value, self.src, self.line(node))
        raw_keys = self.mapping(node, "approval")
        if raw_keys is None:
            return None
        keys: dict[str, tuple[Node, Node]] = {}
        said: dict[str, str] = {}
        for raw, pair in raw_keys.items():
            kind = yk.approval_key(raw)
            if kind is None and (own := own_approval_key(raw, pair[1])) is not None:  # `hold_for: 90m`
                self.src.warn(self.line(pair[0]), own.said, "spec.approval-key")
                kind, pair = own.kind, (pair[0], own.node)
            if kind is None or kind in keys:
                self.src.warn(self.line(pair[0]), f"approval.{raw} not understood", "spec.unread")
                continue
            keys[kind], said[kind] = pair, raw
        required = self.value(keys["required"][1]) if "required" in keys else True
        if not required:
            return None
        timeout = self.seconds(keys["timeout"][1], f"approval.{said['timeout']}") if "timeout" in keys else None
        on_timeout = "reject"
        if "on_timeout" in keys:
            word = yk.approval_outcome(self.value(keys["on_timeout"][1]))
            if word is None:
                self.src.warn(self.line(keys["on_timeout"][1]), f"approval.{said['on_timeout']} must be approve, "
                                                                 "reject or skip; reject assumed", "spec.unread")
            on_timeout = word or "reject"
        when = self.text(keys["when"][1], f"approval.{said['when']}") if "when" in keys else None
        when = yk.condition_text(when) if when is not None else None
        if when is not None and read_condition(when) is None:
            self.src.error(self.line(keys["when"][1]),
                           f"approval.{said['when']}: the condition '{when}' cannot be read: write a comparison "
                           "such as `amount > 1000` or `to-eur.amount_eur > 1000`", "spec.when")
            when = None
        if "by" in keys:  # who signs off: shown with the gate, not enforced
            self.notes.append((self.line(keys["by"][0]), f"{said['by']}: {self.value(keys['by'][1])}",
                               "who approves: shown with the gate; the gate takes anyone's answer"))
        return ApprovalPolicy(required=True, timeout_s=timeout, when=when,
                              on_timeout="approve" if on_timeout == "approve" else
                              "skip" if on_timeout == "skip" else "reject")

    def inputs(self, node: Node) -> tuple[InputSpec, ...]:
        where = self.src.where
        out: list[InputSpec] = []
        if isinstance(node, SequenceNode):
            entries: list[tuple[str, Node, Node]] = []
            for item in node.value:
                if isinstance(item, ScalarNode):
                    entries.append((str(self.value(item)), item, item))
                    continue
                keys = self.mapping(item, "inputs entry")
                named = next((k for k in _ENTRY_NAMES if k in (keys or {})), None)  # Kestra's `- id: x`
                if keys is not None and named is not None:
                    entries.append((str(self.value(keys[named][1])), item, item))
                elif keys is not None:
                    self.src.error(self.line(item), "an inputs entry needs a name", "spec.yaml")
        else:
            keys = self.mapping(node, "inputs") or {}
            entries = [(name, k, v) for name, (k, v) in keys.items()]
        for name, key, val in entries:
            spec = self.value(val)
            if not isinstance(spec, dict):  # `name: string` is a type; `TARGET: staging` a default value
                typ = str(spec) if isinstance(spec, str) and spec != name and type_of(spec) is not None else None
                if typ is None and spec is not None and spec != name and not isinstance(val, SequenceNode | MappingNode):
                    out.append(InputSpec(name=name, required=False, default=spec, where=where(self.line(key))))
                    continue
                out.append(InputSpec(name=name, type=typ, where=where(self.line(key))))
                continue
            spec = {("default" if k in ("value", "defaults") and "default" not in spec else k): v
                    for k, v in spec.items() if not (k in _ENTRY_NAMES[1:] and v == name)}
            if "prompt" in spec and "description" not in spec:  # Ansible's `vars_prompt`: the question asked
                spec["description"] = spec.pop("prompt")
            for said in ("help", "doc", "about", "what", "note", "notes"):  # click's `help:`, own schemas' `about:`
                if said in spec and "description" not in spec:
                    spec["description"] = spec.pop(said)
            if isinstance(spec.get("optional"), bool) and "required" not in spec:  # `optional: true`
                spec["required"] = not spec.pop("optional")
            if str(spec.get("type")) in _CHOICE_TYPES:  # GitHub `type: choice`: a string of its options
                spec["type"] = "string"
            has_default = "default" in spec
            if spec.get("type") is not None and type_of(str(spec["type"])) is None:
                self.src.warn(self.line(val), f"input '{name}': type '{spec['type']}' is not a type skillweave "
                                              "knows (string, number, integer, boolean, array, object, ...); "
                                              "any value is accepted", "spec.unread")
            out.append(InputSpec(
                name=name,
                type=str(spec["type"]) if spec.get("type") is not None else None,
                description=str(spec.get("description", "")),
                required=bool(spec.get("required", not has_default)),
                default=spec.get("default"),
                where=where(self.line(key)),
                format=str(spec["format"]) if isinstance(spec.get("format"), str) else None,
            ))
            for extra in sorted(set(spec) - {"name", "type", "description", "required", "default", "format",
                                             *_SHOWN}, key=str):
                cut = spec[extra] is None and isinstance(val, MappingNode) and val.flow_style and " " in str(extra)
                self.src.warn(self.line(val), f"input '{name}': key '{extra}' not understood" + (
                    " (a `{...}` mapping ends a value at a comma: quote the value that holds it)" if cut else ""),
                              "spec.unread")
        return tuple(out)

    def named_list(self, node: Node) -> dict[str, tuple[Node, Node]] | None:
        """`[{name: x, value: 1}, ...]` (Argo, Tekton), also under `{parameters: [...]}`: as a
        mapping of name to value node; None for anything else."""
        if isinstance(node, MappingNode) and len(node.value) == 1 and str(node.value[0][0].value) in (
                "parameters", "params", "args"):
            node = node.value[0][1]
        if not isinstance(node, SequenceNode) or not node.value or not all(
                isinstance(n, MappingNode) for n in node.value):
            return None
        out: dict[str, tuple[Node, Node]] = {}
        for item in node.value:
            pairs = {str(k.value): v for k, v in item.value}
            name = pairs.get("name")
            value = next((pairs[k] for k in ("value", "default", "from", "valueFrom") if k in pairs), None)
            if not isinstance(name, ScalarNode) or value is None:
                return None
            out[str(name.value)] = (name, value)
        return out

    def step_inputs(self, node: Node, sid: str) -> tuple[tuple[FieldSpec, ...], dict[str, Any]]:
        keys = self.named_list(node) or self.mapping(node, f"{sid}: input")
        fields: list[FieldSpec] = []
        literals: dict[str, Any] = {}
        for name, (key, val) in (keys or {}).items():
            value = self.value(val)
            if isinstance(val, MappingNode) and (typed := _typed_value(val)) is not None:
                val, value = typed, self.value(typed)  # `{type: javascript, expr: results.a.x}`: the expression
            at = self.src.where(self.line(key))
            default = _SHELL_DEFAULT.match(value) if isinstance(value, str) else None
            if default is not None:  # `${step.field:-}`: that value when there is one, else left out
                value = "${" + default.group(1) + "}"
            inner = yk.unwrap(value) if isinstance(value, str) else None
            path = yk.canonical_path(inner) if inner is not None else None
            if path is not None and _REF_PATH.match(path):
                fields.append(FieldSpec(name=name, source=path, where=at, required=default is None))
                continue
            if isinstance(value, str) and inner is None:  # a reference inside a text: a template
                value = yk.inline_template(value)
            fields.append(FieldSpec(name=name, where=at, required=default is None))
            literals[name] = value
        return tuple(fields), literals

    def outputs(self, node: Node, sid: str) -> tuple[FieldSpec, ...]:
        value = self.value(node)
        at = self.line(node)
        if isinstance(value, str):
            return parse_fields(value, self.src, at, output=True)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(FieldSpec(name=v, where=self.src.where(at)) for v in value)
        if isinstance(value, dict):
            return tuple(FieldSpec(name=str(k), type=str(t) if isinstance(t, str) else None,
                                   where=self.src.where(at)) for k, t in value.items())
        self.src.warn(at, f"{sid}: output must be names, a mapping name: type or a line",
                      "spec.unread")
        return ()


_TYPED = ("value", "expr", "expression")  # a value wrapped with its kind: `{type: static, value: 3}`


def _typed_value(node: MappingNode) -> Node | None:
    """The value inside `{type: KIND, value|expr: X}` (Windmill's input transforms, a form builder's
    typed field); None for any other mapping."""
    said = {key_name(str(k.value)): v for k, v in node.value if isinstance(k, ScalarNode)}
    inner = [k for k in said if k in _TYPED]
    if len(inner) != 1 or set(said) - {*_TYPED, "type", "kind"} or ("type" not in said and "kind" not in said):
        return None
    return said[inner[0]]
