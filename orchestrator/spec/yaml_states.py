"""AWS Step Functions (Amazon States Language) in YAML, as the form's steps.

    StartAt: Lint
    States:
      Lint:   {Type: Task, Resource: check-links, Parameters: {pages.$: $.pages}, ResultPath: $.lint, Next: Render}
      Render: {Type: Map, ItemsPath: $.lint.pages, ItemProcessor: {StartAt: P, States: {P: {Type: Task,
               Resource: render-page, Parameters: {slug.$: $.slug}, End: true}}}, Next: Where}
      Where:  {Type: Choice, Choices: [{Variable: $.target, StringEquals: prod, Next: Prod}], Default: Staging}

A `Task` state is a step (its `Resource`'s last part is the skill); a `Map` state is a step
that loops over `ItemsPath` with the one Task state of its processor; `Next` is the next
state's dependency; a `Choice` state is no step: each rule is the condition of the state
it names, and `Default` runs when no rule held. `Pass`, `Succeed` and `Wait` pass through.
A path `$.x.y` in `Parameters` or a rule names the output `y` of the step whose `ResultPath`
is `$.x`; else the field `x` of the step before, when that step's result replaced the state
(no `ResultPath`); else the workflow input `x` (declared here, with a reading). A `Catch`
to a `Succeed` state is `continue`; to any other state it is a warning (not read).
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.yaml_dialect import MAP, SEQ, by_name, note, pairs, scalar
from orchestrator.spec.yaml_node import NodeReader

# a Choice rule's comparison key -> the operator
OPERATORS: dict[str, str] = {
    "equals": "==", "less_than": "<", "greater_than": ">", "less_than_equals": "<=", "greater_than_equals": ">=",
}
_KINDS = ("string", "numeric", "boolean", "timestamp")
_PASS_THROUGH = ("pass", "succeed", "wait")
_STATE_KEYS_USED = {"type", "next", "end", "resource", "parameters", "items_path", "item_processor", "iterator",
                    "result_path", "catch", "item_selector"}
_PATH = re.compile(r"^\$((?:\.[\w-]+)*)$")
_NULL = "tag:yaml.org,2002:null"


def is_states(top: dict[str, tuple[Node, Node]]) -> bool:
    names = {yk.key_name(k) for k in top}
    return "states" in names and "start_at" in names


class _Flow:
    def __init__(self, r: NodeReader, states: dict[str, tuple[Node, Node]]) -> None:
        self.r = r
        self.states = states
        self.kind = {n: str(by_name(v).get("type", (v, scalar("Task", v)))[1].value).lower()
                     for n, (_, v) in states.items()}
        self.preds: dict[str, list[str]] = {n: [] for n in states}  # the steps each state runs after
        self.when: dict[str, list[str]] = {}
        self.result: dict[str, str] = {}  # ResultPath's first field -> the step
        self.replaces: set[str] = set()  # steps whose result replaced the state
        self.inputs: dict[str, Node] = {}

    def is_step(self, name: str) -> bool:
        return self.kind.get(name) in ("task", "map")

    def link(self) -> None:
        """Each state's step predecessors, through the states that are no step (bounded: one pass
        per state, as a chain of pass-through states is at most that long)."""
        for _ in range(len(self.states) + 1):
            before = {k: list(v) for k, v in self.preds.items()}
            self.when = {}  # the rules again, with the predecessors found so far
            for name, (_, node) in self.states.items():
                own = by_name(node)
                came = [name] if self.is_step(name) else self.preds[name]
                targets = [str(own["next"][1].value)] if "next" in own else []
                if self.kind[name] == "choice":
                    targets += self._choices(name, own)
                for target in targets:
                    if target in self.preds:
                        self.preds[target] = list(dict.fromkeys([*self.preds[target], *came]))
            if before == self.preds:
                return

    def _choices(self, name: str, own: dict[str, tuple[Node, Node]]) -> list[str]:
        rules = own["choices"][1].value if "choices" in own and isinstance(own["choices"][1], SequenceNode) else []
        targets: list[str] = []
        held: list[str] = []
        for rule in rules:
            target = by_name(rule).get("next")
            text = self.condition(rule, self.preds[name])
            if target is None or text is None:
                continue
            targets.append(str(target[1].value))
            self.when.setdefault(str(target[1].value), []).append(text)
            held.append(text)
        if "default" in own:
            default = str(own["default"][1].value)
            targets.append(default)
            if held:
                self.when.setdefault(default, []).append(" and ".join(f"not ({t})" for t in held))
        return targets

    def ref(self, path: str, before: list[str], condition: bool = False) -> str | None:
        m = _PATH.match(path.strip())
        if m is None:
            return None
        parts = [p for p in m.group(1).split(".") if p]
        if not parts:
            return None
        if parts[0] in self.result and len(parts) >= 1:
            step, rest = self.result[parts[0]], parts[1:]
        elif (last := [b for b in before if b in self.replaces]) and len(before) == 1:
            step, rest = last[0], parts
        else:
            self.inputs.setdefault(parts[0], self.states[next(iter(self.states))][0])
            return ".".join(["inputs", *parts])
        if condition:
            return ".".join([f"steps['{step}'].output", *rest])
        return ".".join([f"steps.{step}.output", *rest])

    def condition(self, rule: Node, before: list[str]) -> str | None:
        own = by_name(rule)
        for joiner in ("and", "or"):
            if joiner in own and isinstance(own[joiner][1], SequenceNode):
                parts = [self.condition(n, before) for n in own[joiner][1].value]
                if None in parts:
                    return None
                return f" {joiner} ".join(f"({p})" for p in parts)
        if "not" in own:
            inner = self.condition(own["not"][1], before)
            return f"not ({inner})" if inner is not None else None
        variable = own.get("variable")
        left = self.ref(str(variable[1].value), before, condition=True) if variable else None
        for key, (_, value) in own.items():
            kind = next((k for k in _KINDS if key.startswith(k + "_")), None)
            op_word = key[len(kind) + 1:] if kind else ""
            is_path = op_word.endswith("_path")
            op = OPERATORS.get(op_word.removesuffix("_path"))
            if kind is None or op is None or left is None:
                continue
            said = self.r.value(value)
            right = self.ref(str(said), before, condition=True) if is_path else repr(said)
            return f"{left} {op} {right}" if right is not None else None
        self.r.src.warn(self.r.line(rule), "a Choice rule that cannot be read (write Variable and a comparison "
                                           "such as StringEquals or NumericGreaterThan); not read", "spec.when")
        return None


def reshape_states(r: NodeReader, top: dict[str, tuple[Node, Node]]) -> tuple[
        dict[str, tuple[Node, Node]], list[Reading]]:
    """The `States` of a state machine as `steps`, with the inputs its paths read (module docstring)."""
    raw = {yk.key_name(k): (k, p) for k, p in top.items()}
    skey, (sknode, snode) = raw["states"]
    flow = _Flow(r, pairs(snode))
    for name, (_, node) in flow.states.items():
        result = by_name(node).get("result_path")
        if flow.is_step(name) and result is None:
            flow.replaces.add(name)
        elif flow.is_step(name) and result is not None and (m := _PATH.match(str(result[1].value))) and m.group(1):
            flow.result[m.group(1).split(".")[1]] = name
    flow.link()
    notes: list[Reading] = []
    steps: list[tuple[Node, Node]] = []
    for name, (knode, node) in flow.states.items():
        kind = flow.kind[name]
        if not flow.is_step(name):
            if kind in _PASS_THROUGH or kind == "choice":
                notes.append(note(r, knode, f"{name}: Type {kind}", "a state with no skill: passes on to the next"
                                  if kind != "choice" else "a choice: read as the conditions of the states it names"))
            else:
                r.src.warn(r.line(knode), f"{name}: a {kind} state is not read (Task, Map, Choice, Pass, Succeed "
                                          "and Wait are)", "spec.unread")
            continue
        steps.append((knode, _step(flow, name, node, notes)))
    out = {k: p for k, p in top.items() if k not in (skey, raw["start_at"][0])}
    out["steps"] = (sknode, MappingNode(MAP, steps, snode.start_mark, snode.end_mark))
    if flow.inputs and not any(yk.top_key(k) == "inputs" for k in out):
        entries = [(scalar(n, at), ScalarNode(_NULL, "", at.start_mark, at.end_mark)) for n, at in flow.inputs.items()]
        out["inputs"] = (sknode, MappingNode(MAP, entries, snode.start_mark, snode.end_mark))
        notes.append(note(r, sknode, ", ".join(flow.inputs), "read by a `$.` path no state writes: the workflow's "
                                                              "inputs"))
    notes.append(note(r, raw["start_at"][1][0], "StartAt", "the first state: the order is the states' Next"))
    return out, notes


def _step(flow: _Flow, name: str, node: Node, notes: list[Reading]) -> MappingNode:
    r = flow.r
    own = by_name(node)
    before = flow.preds[name]
    keys: list[tuple[Node, Node]] = []
    at = node
    task = own
    if flow.kind[name] == "map":
        items = own.get("items_path")
        proc = own.get("item_processor") or own.get("iterator")
        inner = pairs(by_name(proc[1]).get("states", (node, node))[1]) if proc else {}
        tasks = [v for _, v in inner.values() if str(by_name(v).get("type", (v, scalar("Task", v)))[1].value) == "Task"]
        if items is None or len(tasks) != 1:
            r.src.error(r.line(node), f"{name}: a Map state needs ItemsPath and a processor of one Task state",
                        "spec.for-each")
        else:
            source = flow.ref(str(items[1].value), before)
            keys.append((scalar("for_each", items[0]), scalar(f"item in {source}", items[1])))
            task = by_name(tasks[0])
    resource = task.get("resource")
    if resource is not None:
        keys.append((scalar("skill", resource[0]), resource[1]))
    params = task.get("parameters") or own.get("item_selector")
    if params is not None:
        entries = []
        for k, (kn, vn) in pairs(params[1]).items():
            if k.endswith(".$") and isinstance(vn, ScalarNode):
                path = str(vn.value).replace("$$.Map.Item.Value", "$")
                ref = ("item" + path[1:]) if task is not own else flow.ref(path, before)
                entries.append((scalar(k[:-2], kn), scalar("{{ " + (ref or path) + " }}", vn)))
            else:
                entries.append((kn, vn))
        keys.append((scalar("input", params[0]), MappingNode(MAP, entries, params[1].start_mark, params[1].end_mark)))
    if before:
        keys.append((scalar("depends_on", at), SequenceNode(SEQ, [scalar(b, at) for b in before], at.start_mark,
                                                              at.end_mark)))
    if name in flow.when:
        text = " or ".join(f"({t})" for t in flow.when[name]) if len(flow.when[name]) > 1 else flow.when[name][0]
        keys.append((scalar("when", at), scalar(text, at)))
    if "catch" in own:
        _catch(flow, name, own["catch"], keys)
    for k, (kn, vn) in pairs(node).items():
        if yk.key_name(k) not in _STATE_KEYS_USED:
            keys.append((kn, vn))
        elif yk.key_name(k) in ("type", "result_path", "end", "next"):
            notes.append(note(r, kn, f"{name}.{k}: {r.value(vn)}", "read for the order and the data flow"))
    return MappingNode(MAP, keys, node.start_mark, node.end_mark)


def _catch(flow: _Flow, name: str, pair: tuple[Node, Node], keys: list[tuple[Node, Node]]) -> None:
    r = flow.r
    knode, vnode = pair
    for rule in vnode.value if isinstance(vnode, SequenceNode) else [vnode]:
        target = by_name(rule).get("next")
        errors = by_name(rule).get("error_equals")
        kind = flow.kind.get(str(target[1].value)) if target else None
        if kind == "succeed" and errors is not None and yk.is_catch_all(r.value(errors[1])):
            keys.append((scalar("on_error", knode), scalar("continue", rule)))
        elif kind == "fail":
            keys.append((scalar("on_error", knode), scalar("fail", rule)))
        else:
            r.src.warn(r.line(rule), f"{name}: a Catch to the state '{target[1].value if target else '?'}' is not "
                                     "read (to a Succeed state it is continue); a failure fails the run",
                       "spec.unread")
