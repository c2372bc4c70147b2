"""A block of policies kept apart from the steps, keyed by each step's label, name, id or skill.

    steps:
      "10": {label: chart, tool: berth-chart}
      "20": {label: fit each boat, tool: fit-boat}
    policies:                       # also `recovery:`, `error_handling:`, `when_things_go_wrong:` ...
      chart:   {on_hiccup: try again 3 more times, 5s apart}
      fit each boat: {cutoff: 15s a boat}
      berth-chart: retry twice      # by the skill: the step that runs it (when only one does)

Authors who keep "what if it breaks" apart from the steps write one mapping at the top level keyed by
the steps as they call them. Each entry is moved into its step, as if written there: its keys are
read by the step's reader (`yaml_form._step`, with `yaml_own_keys` for the author's own names), a
one-line value as the step's policy in words. A key the step already says is not replaced (warned).
An entry that names no step, or more than one, is warned at its line and not read; the block's
reading is shown with each step that got an entry. TOML and JSON specs read through `yaml_form`
get the same. Runs once over the steps (no walk back per step).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.yaml_dialect import note, scalar, short
from orchestrator.spec.yaml_node import NodeReader

_rx = Patterns(__name__)

# top-level names of a block of policies kept apart from the steps
_BLOCK = _rx(r"^(?:step_|per_step_|by_step_)?+(?:polic(?:y|ies)|recovery|resilience|reliability|error_handling|"
             r"failure_handling|failures|on_failure|on_trouble|on_error|errors|when_things_go_wrong|"
             r"if_things_go_wrong|what_if|if_it_breaks|when_it_breaks|fault_tolerance|retries|timeouts|"
             r"rules|handling)(?:_by_step|_per_step)?+$")
# a step's keys that name it as people call it
_NAMES = frozenset({"id", "name", "label", "title", "called", "step", "task", "skill", "tool", "agent", "uses",
                    "action", "runs", "run"})
# step keys an entry's one-line value goes in, whichever the step does not use already
_SLOTS = ("policy", "resilience", "reliability", "robustness")
_WORD = _rx(r"[a-z0-9]++")


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def _step_items(node: Node) -> list[tuple[str | None, MappingNode]]:
    if isinstance(node, SequenceNode):
        return [(None, item) for item in node.value if isinstance(item, MappingNode)]
    if isinstance(node, MappingNode):
        return [(str(k.value) if isinstance(k, ScalarNode) else None, v) for k, v in node.value
                if isinstance(v, MappingNode)]
    return []


def _names(key: str | None, item: MappingNode) -> set[str]:
    out = set()
    if key:
        out |= {_norm(key), _norm(f"step {key}")}
    for k, v in item.value:
        if isinstance(k, ScalarNode) and isinstance(v, ScalarNode) and yk.key_name(str(k.value)) in _NAMES and (
                str(v.value).strip() and len(str(v.value)) <= 120):
            out.add(_norm(str(v.value)))
    out.discard("")
    return out


def _index(items: list[tuple[str | None, MappingNode]]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    for i, (key, item) in enumerate(items):
        for name in _names(key, item):
            index.setdefault(name, []).append(i)
    return index


def _is_block(raw: str, node: Node, index: dict[str, list[int]]) -> bool:
    """A mapping under a policy-ish name whose keys name steps (at least one of them)."""
    if not isinstance(node, MappingNode) or _BLOCK.match(yk.key_name(raw)) is None:
        return False
    return any(isinstance(k, ScalarNode) and _norm(str(k.value)) in index for k, _ in node.value)


def _slots(raw: str) -> tuple[str, ...]:
    """Where a one-line entry goes: `retries: {chart: 3}` is the retry, `timeouts: {chart: 30s}` the timeout."""
    name = yk.key_name(raw)
    return ("retry",) if "retr" in name else ("timeout",) if "timeout" in name else _SLOTS


def _merge(r: NodeReader, raw: str, knode: Node, vnode: Node, item: MappingNode, label: str) -> Reading | None:
    """The entry's keys into the step's mapping (a key it has already: warned, the step's kept)."""
    have = {yk.step_key(str(k.value)) for k, _ in item.value if isinstance(k, ScalarNode)}
    if isinstance(vnode, MappingNode):
        moved: list[str] = []
        for ik, iv in vnode.value:
            inner = str(ik.value) if isinstance(ik, ScalarNode) else ""
            if not inner or yk.step_key(inner) in have:
                r.src.warn(r.line(ik), f"{raw}.{label}.{inner or '?'} says again what the step's own key says; the "
                                       "step's is read", "spec.unread")
                continue
            item.value.append((ik, iv))
            have.add(yk.step_key(inner))
            moved.append(inner)
        return note(r, knode, f"{raw}: {label}: {short(', '.join(moved))}",
                    f"the step's policies, kept apart in `{raw}:` and keyed by the step's name, read as its own keys") \
            if moved else None
    if isinstance(vnode, ScalarNode) and str(vnode.value).strip():
        used = {yk.key_name(str(k.value)) for k, _ in item.value} | {yk.step_key(str(k.value)) for k, _ in item.value}
        slot = next((s for s in _slots(raw) if s not in used), None)
        if slot is None:
            r.src.warn(r.line(knode), f"{raw}.{label}: the step has its own policy blocks already; not read", "spec.unread")
            return None
        item.value.append((scalar(slot, knode), vnode))
        return note(r, knode, f"{raw}: {label}: {short(vnode.value)}",
                    f"the step's policy in words, kept apart in `{raw}:` and keyed by the step's name")
    r.src.warn(r.line(knode), f"{raw}.{label}: a list here is not read; write the step's policies as a mapping "
                              "(`retry: 2`, `timeout: 30s`) or a sentence", "spec.unread")
    return None


def read_policy_block(r: NodeReader, top: dict[str, tuple[Node, Node]]) -> tuple[
        dict[str, tuple[Node, Node]], list[Reading]]:
    """`top` without its policy blocks, their entries moved into the steps they name (module docstring);
    the readings to show with the first step."""
    if "steps" not in top:
        return top, []
    items = _step_items(top["steps"][1])
    index = _index(items)
    notes: list[Reading] = []
    out = dict(top)
    for raw, (bk, bnode) in top.items():
        if raw == "steps" or not _is_block(raw, bnode, index):
            continue
        assert isinstance(bnode, MappingNode)
        del out[raw]
        for knode, vnode in bnode.value:
            label = str(knode.value) if isinstance(knode, ScalarNode) else ""
            found = sorted(set(index.get(_norm(label), [])))
            if len(found) != 1:
                said = "names no step" if not found else "names more than one step"
                r.src.warn(r.line(knode), f"{raw}: entry '{short(label)}' {said} (by label, name, id or skill); not "
                                          "read: key it by one step's name, or write it in that step", "spec.unread")
                continue
            if (reading := _merge(r, raw, knode, vnode, items[found[0]][1], label)) is not None:
                notes.append(reading)
        notes.insert(0, note(r, bk, raw, "a block of policies apart from the steps, each entry keyed by a step's "
                                         "label, name, id or skill: read as that step's"))
    return out, notes

