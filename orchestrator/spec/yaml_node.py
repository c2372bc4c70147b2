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
from orchestrator.spec.condition import read_approval_text, read_condition
from orchestrator.spec.fields import parse_fields, type_of
from orchestrator.spec.model import (
    FieldSpec,
    InputSpec,
)
from orchestrator.spec.source import Source
from orchestrator.yamlsafe import BoundedLoader

_REF = re.compile(r"^\s*(?:\{\{|\$\{\{?)\s*(.*?)\s*\}\}?\s*$", re.S)
_REF_PATH = re.compile(r"^(?:steps\.[\w-]+\.output(?:\.[\w.]+)?|inputs\.[\w.]+|item(?:\.[\w.]+)?)$")
_DOLLAR = re.compile(r"\$\{\{?\s*(.*?)\s*\}\}?")


class NodeReader:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.loader = BoundedLoader("")

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
                   else pt.parse_duration(value) if isinstance(value, str) else None)
        if seconds is None or not math.isfinite(seconds) or seconds <= 0:
            self.src.warn(self.line(node), f"{what} '{value}' is not a duration (30, 30s, 2 min); "
                                           "ignored", "spec.unread")
            return None
        return seconds

    def count(self, node: Node, what: str) -> int | None:
        value = self.value(node)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.src.warn(self.line(node), f"{what} must be a whole number ≥ 0; ignored",
                          "spec.unread")
            return None
        return min(value, 1000)

    def retry(self, node: Node) -> RetryPolicy | None:
        value = self.value(node)
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 0:
                self.src.warn(self.line(node), f"retry '{value}' must be a whole number ≥ 0; ignored",
                              "spec.unread")
                return None
            return RetryPolicy(max_retries=min(value, 1000))
        if not isinstance(node, MappingNode):
            self.src.error(self.line(node), "retry must be a number of retries (retry: 3) or a mapping "
                                            "(retry: {max_attempts: 3, backoff: exponential})", "spec.yaml")
            return None
        keys = self.mapping(node, "retry")
        if keys is None:
            return None
        fields: dict[str, Any] = {}
        if "max_attempts" in keys:
            n = self.count(keys["max_attempts"][1], "retry.max_attempts")
            fields["max_retries"] = max((n or 1) - 1, 0)
        for alias in ("max_retries", "times", "retries", "count"):  # `times: 3` counts retries too
            if alias in keys:
                fields["max_retries"] = self.count(keys[alias][1], f"retry.{alias}") or 0
        for key, target in (("delay", "initial_s"), ("initial", "initial_s"),
                            ("max_delay", "max_delay_s")):
            if key in keys and (s := self.seconds(keys[key][1], f"retry.{key}")) is not None:
                fields[target] = s
        if "jitter" in keys:
            fields["jitter"] = bool(self.value(keys["jitter"][1]))
        if "backoff" in keys:
            bnode = keys["backoff"][1]
            backoff = self.value(bnode)
            if isinstance(backoff, list):
                delays = [pt.parse_duration(str(d)) for d in backoff]
                if delays and all(d is not None for d in delays):
                    fields["delays_s"] = tuple(d for d in delays if d is not None)
                    fields.setdefault("max_retries", len(delays))
                    fields["jitter"] = False
                else:
                    self.src.warn(self.line(bnode), "retry.backoff list must hold durations; "
                                                    "ignored", "spec.unread")
            elif backoff in ("fixed", "constant"):
                fields["delays_s"] = (fields.pop("initial_s", 1.0),)
                fields["jitter"] = False
            elif backoff in ("none", "immediate", False):
                fields["delays_s"] = (0.0,)
                fields["jitter"] = False
            elif backoff != "exponential":
                self.src.warn(self.line(bnode), f"retry.backoff '{backoff}' must be exponential, "
                                                "fixed or a list of waits", "spec.unread")
        if "delay" in keys and "backoff" not in keys and "initial_s" in fields:
            # `delay: 2s` without a backoff is the wait between tries, every time
            fields["delays_s"] = (fields.pop("initial_s"),)
            fields["jitter"] = False
        for key in set(keys) - {"max_attempts", "max_retries", "times", "retries", "count", "delay", "initial",
                                "max_delay", "jitter", "backoff", "multiplier"}:
            self.src.warn(self.line(keys[key][0]), f"retry.{key} not understood", "spec.unread")
        if "multiplier" in keys:
            m = self.value(keys["multiplier"][1])
            if isinstance(m, int | float) and not isinstance(m, bool) and m >= 1:
                fields["multiplier"] = float(m)
        return RetryPolicy(**fields)

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
        value = self.value(node)
        if value is True:
            return ApprovalPolicy()
        if value in (False, None):
            return None
        if isinstance(value, str):
            return read_approval_text(value, self.src, self.line(node))
        keys = self.mapping(node, "approval")
        if keys is None:
            return None
        required = self.value(keys["required"][1]) if "required" in keys else True
        if not required:
            return None
        timeout = self.seconds(keys["timeout"][1], "approval.timeout") if "timeout" in keys else None
        on_timeout = self.value(keys["on_timeout"][1]) if "on_timeout" in keys else "reject"
        if on_timeout not in ("approve", "reject"):
            self.src.warn(self.line(keys["on_timeout"][1]), "approval.on_timeout must be approve "
                                                            "or reject; reject assumed", "spec.unread")
            on_timeout = "reject"
        # `when:` (also `condition:`, `if:`): the gate holds only when it is true
        said = next((k for k in ("when", "condition", "if") if k in keys), None)
        when = self.text(keys[said][1], f"approval.{said}") if said else None
        if when is not None and read_condition(when) is None:
            self.src.error(self.line(keys[said][1]) if said else 0,
                           f"approval.{said}: the condition '{when}' cannot be read: write a comparison such "
                           "as `amount > 1000` or `to-eur.amount_eur > 1000`", "spec.when")
            when = None
        for key in set(keys) - {"required", "timeout", "on_timeout", "when", "condition", "if"}:
            self.src.warn(self.line(keys[key][0]), f"approval.{key} not understood", "spec.unread")
        return ApprovalPolicy(required=True, timeout_s=timeout, when=when,
                              on_timeout="approve" if on_timeout == "approve" else "reject")

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
                if keys is not None and "name" in keys:
                    entries.append((str(self.value(keys["name"][1])), item, item))
                elif keys is not None:
                    self.src.error(self.line(item), "an inputs entry needs a name", "spec.yaml")
        else:
            keys = self.mapping(node, "inputs") or {}
            entries = [(name, k, v) for name, (k, v) in keys.items()]
        for name, key, val in entries:
            spec = self.value(val)
            if not isinstance(spec, dict):
                typ = str(spec) if isinstance(spec, str) and spec != name else None
                out.append(InputSpec(name=name, type=typ, where=where(self.line(key))))
                continue
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
            for extra in set(spec) - {"name", "type", "description", "required", "default", "format"}:
                self.src.warn(self.line(val), f"input '{name}': key '{extra}' not understood",
                              "spec.unread")
        return tuple(out)

    def step_inputs(self, node: Node, sid: str) -> tuple[tuple[FieldSpec, ...], dict[str, Any]]:
        keys = self.mapping(node, f"{sid}: input")
        fields: list[FieldSpec] = []
        literals: dict[str, Any] = {}
        for name, (key, val) in (keys or {}).items():
            value = self.value(val)
            at = self.src.where(self.line(key))
            ref = _REF.match(value) if isinstance(value, str) else None
            path = _canonical(ref.group(1)) if ref else None
            if path is not None and _REF_PATH.match(path):
                fields.append(FieldSpec(name=name, source=path, where=at))
                continue
            if isinstance(value, str) and ("${" in value or "{{" in value):
                value = _DOLLAR.sub(lambda m: "{{ " + m.group(1) + " }}", value)
            fields.append(FieldSpec(name=name, where=at))
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


def _canonical(expr: str) -> str:
    """`steps['a-b'].output.x` → `steps.a-b.output.x`."""
    return re.sub(r"""\[\s*['"]([\w-]+)['"]\s*\]""", r".\1", expr.strip())
