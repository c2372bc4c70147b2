"""Ansible-style playbooks read as specs: the loop item's own name, `vars:` constants beside prompted
inputs, and a task's comments that state a policy on no key of their own.

    vars_prompt: [{name: day_sheet, prompt: ...}]
    vars: {sender: BrightSmile}                 → the workflow input `sender`, default "BrightSmile",
                                                  beside the prompted ones (a list of inputs)
    tasks:
      - skill: format-note
        loop: "{{ cleaned.rows }}"
        loop_control: {loop_var: row}           → the loop's item is called `row` (`{{ row }}`)
        # the mailer is slow: give up on one after 15 seconds      → this task's policy
        register: notes

`loop_named`: a step with a loop key and `loop_control: {loop_var: X}` (Ansible; also `loop_control:
{item: X}` / `{as: X}`) loops with the item named X; the `loop_control` key is consumed with a
reading (its other keys, `label`, `pause`, are said not read). `constants_beside`: a `vars:` /
`env:` mapping of constants beside inputs declared as a list of `{name: ...}` entries joins that
list as inputs with defaults (as it does beside a mapping, `yaml_dialect`). `loose_comments`: a
comment line inside a task (or right after its last key, as indented as its keys) that sits on no
policy key (`key_comments27` reads those) and states a policy is read as the task's own words; a
comment that states none stays an aside; a skill in it named as `uses:` names it (`skills/x`) is that skill.
`start_groups`: tasks that share a group key's value (`async_group: morning`, `parallel_group: a`) start
together: each later one starts with the first of its group (`StepSpec.starts_with`), waiting for what it
waits for and reads; a group of one is said to have no partner.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.key_comments27 import _joined, _own_comment, _states, switched_off
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `skills/call-plain`, `./skills/call-plain`: a skill named the way `uses:` names it (a catalog skill's name)
_SKILL_PATH = _rx(r"(?<![\w/.-])(?:\./)?+skills/([A-Za-z0-9][\w-]*+)")
GROUP_KEYS = frozenset({"async_group", "parallel_group"})
_CONTROL = frozenset({"loop_control", "loopcontrol"})
_VAR_KEYS = ("loop_var", "item", "as", "var", "item_name")
MAP = "tag:yaml.org,2002:map"
SEQ = "tag:yaml.org,2002:seq"
STR = "tag:yaml.org,2002:str"


def loop_named(src: Source, keys: dict[str, tuple[Node, Node]]) -> tuple[dict[str, tuple[Node, Node]], list[Reading]]:
    """The step's keys with `loop: X` + `loop_control: {loop_var: v}` as `loop: {as: v, in: X}` (module
    docstring); unchanged without both."""
    control = next((k for k in keys if yk.key_name(k) in _CONTROL), None)
    loop = next((k for k in keys if yk.step_key(k) == "for_each" and k != control), None)
    if control is None or loop is None or not isinstance(keys[control][1], MappingNode):
        return keys, []
    own = {yk.key_name(str(k.value)): v for k, v in keys[control][1].value if isinstance(k, ScalarNode)}
    var = next((own[k] for k in _VAR_KEYS if k in own and isinstance(own[k], ScalarNode)), None)
    lnode = keys[loop][1]
    if var is None or not isinstance(lnode, ScalarNode):
        return keys, []
    name = str(var.value).strip()
    knode, _ = keys.pop(control)
    items = [(ScalarNode(STR, "as", var.start_mark, var.end_mark), var), (ScalarNode(STR, "in", lnode.start_mark,
                                                                                     lnode.end_mark), lnode)]
    keys[loop] = (keys[loop][0], MappingNode(MAP, items, lnode.start_mark, lnode.end_mark))
    read = [Reading(what="for_each", where=src.where(int(knode.start_mark.line) + 1), text=f"{control}: loop_var {name}",
                    note=f"the loop's item is named `{name}`")]
    rest = sorted(set(own) - set(_VAR_KEYS))
    if rest:
        src.warn(int(knode.start_mark.line) + 1, f"{control}: {', '.join(rest)} not read (only the loop's item name "
                                                 "is)", "spec.unread")
    return keys, read


def constants_beside(inputs: Node, constants: MappingNode) -> SequenceNode | None:
    """Inputs declared as a list of `{name: ...}` with the constants added as `{name: k, default: v}` (module
    docstring); None when the inputs are not such a list."""
    if not isinstance(inputs, SequenceNode) or not inputs.value or not all(
            isinstance(n, MappingNode) and any(isinstance(k, ScalarNode) and k.value == "name" for k, _ in n.value)
            for n in inputs.value):
        return None
    have = {str(v.value) for n in inputs.value for k, v in n.value if k.value == "name" and isinstance(v, ScalarNode)}
    added = [MappingNode(MAP, [(ScalarNode(STR, "name", k.start_mark, k.end_mark), k),
                               (ScalarNode(STR, "default", v.start_mark, v.end_mark), v)], k.start_mark, v.end_mark)
             for k, v in constants.value if isinstance(k, ScalarNode) and str(k.value) not in have]
    return SequenceNode(SEQ, [*inputs.value, *added], inputs.start_mark, inputs.end_mark)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def loose_comments(src: Source, node: Node, taken: set[int], until: int | None = None) -> list[tuple[int, str]]:
    """(line, text) of each comment inside the task `node` (or right after it, as indented as its keys) on
    no policy key (`taken`: the lines `key_comments27` read) that states a policy (module docstring); never
    at or past line `until`, where the next task starts (a node made from another kind of file, a
    Dockerfile's or HCL's, has no indentation that ends it)."""
    if not isinstance(node, MappingNode) or not node.value:
        return []
    first = int(node.start_mark.line) + 1
    column = min(int(k.start_mark.column) for k, _ in node.value)
    said: list[tuple[int, str]] = []
    at = first
    last = len(src.lines) if until is None or until <= first else until - 1
    while at <= last:
        raw = src.line_text(at)
        text = _own_comment(raw)
        if text is None and raw.strip() and at > first and _indent(raw) < column:
            break  # the next task or the end of the list
        if text is None and not raw.strip() and at > int(node.end_mark.line) + 1:
            break
        if text is not None and _indent(raw) >= column and at not in taken and not switched_off(text):
            said.append((at, text))
        at += 1
    names = src.vocabulary.skills if src.vocabulary else frozenset()
    plain = [(line, _SKILL_PATH.sub(lambda m: m.group(1) if m.group(1) in names else m.group(0), text))
             for line, text in _joined(said)]
    return [(line, text) for line, text in plain if _states(text, src, "")]


def start_groups(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """Steps with a group key (`extra`) started together with the first of their group (module docstring)."""
    first: dict[str, str] = {}
    out: list[StepSpec] = []
    for step in steps:
        key = next((k for k in step.extra if k in GROUP_KEYS), None)
        if key is None:
            out.append(step)
            continue
        group = step.extra[key]
        extra = {k: v for k, v in step.extra.items() if k != key}
        update: dict[str, object] = {"extra": extra}
        lead = first.setdefault(group, step.id)
        if lead != step.id:
            if step.starts_with is None and step.depends_where is None:
                update["starts_with"] = lead
            update["readings"] = (*step.readings, Reading(what="depends_on", where=step.where, text=f"{key}: {group}",
                                  note=f"starts together with {lead} (group '{group}'): waits for what {lead} waits "
                                       "for (and the steps whose outputs it reads), not for it"))
        elif lead == step.id and sum(1 for s in steps if s.extra.get(key) == group) < 2:
            src.warn(_line(step.where), f"{step.id}: {key}: '{group}' names no other step; read as no group",
                     "spec.unread")
        else:
            update["readings"] = (*step.readings, Reading(what="depends_on", where=step.where, text=f"{key}: {group}",
                                  note=f"the first of group '{group}': the others start together with it"))
        out.append(step.model_copy(update=update))
    return out


def _line(where: str) -> int:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 1


_rx.save()
