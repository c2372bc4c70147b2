"""A YAML step's "when this fails" block, read as its fallback, whatever the block is called.

    rescue: {skill: renew-internal-ca}          → fallback: {skill: renew-internal-ca}
    on_failure: {use: cached-rates}             → fallback: {skill: cached-rates}
    plan_b: [{name: Fallback, run: geo-lite}]   → fallback: {skill: geo-lite} (a list of one task)
    catch: {geo-lite: {}}                       → fallback: {skill: geo-lite} (the key is the skill)
    onError: {continueWith: {rows: []}}         → fallback: {default: {rows: []}}
    except: {action: continue}                  → on_error: continue

A key means "when this fails" when a table says so (`yaml_keys.STEP_SYNONYMS["on_error"]`),
or, for a key no table knows, when its words say so (`FAILURE_WORDS`: `if_it_breaks`,
`when_acme_fails`, `error_handler`) and its block names a catalog skill. A block's inner
keys are read by `ON_ERROR_MEANINGS`; a fallback skill runs with the step's own inputs, so
arguments given inside the block are warned as not read, and so is every other key.
A step's own skill is never taken from such a block (`yaml_anchored_item.runs_of`).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.policy_yaml_keys import retry_block
from orchestrator.spec.yaml_dialect import MAP, note, scalar, short
from orchestrator.spec.yaml_node import NodeReader

# keys inside a failure block -> what they say
ON_ERROR_MEANINGS: dict[str, tuple[str, ...]] = {
    "default": ("continue_with", "default", "default_value", "use_value", "value", "return", "substitute",
                "continue_with_value", "fallback_value", "result", "output", "with_value", "return_value"),
    "skill": ("fallback_skill_ref", "fallback_skill", "fallback", "skill", "skill_ref", "use_skill", "run",
              "then_run", "instead", "fallback_ref", "uses", "call", "use", "try", "run_skill", "switch_to",
              "then_use", "invoke", "delegate_to", "hand_to", "hand_off_to", "run_instead", "use_instead"),
    "action": ("action", "policy", "then", "do", "strategy", "mode"),
}
# the words of a key, after `yaml_keys.key_name`, that say it is about a failure
FAILURE_WORDS = frozenset({"rescue", "fallback", "failover", "fail", "fails", "failed", "failing", "failure",
                           "failures", "error", "errors", "except", "exception", "exceptions", "catch", "backup",
                           "contingency", "breaks", "broken", "crash", "crashes", "recover", "recovery"})
# words that make such a key something else: a count, a flag, a retry
_NOT_A_BLOCK = frozenset({"max", "count", "limit", "rate", "threshold", "retry", "retries", "ignore", "allow",
                          "allowed", "continue", "code", "codes", "message", "notify", "alert"})
# inner keys that pass arguments: a fallback skill takes the step's own inputs instead
_ARGUMENT_KEYS = frozenset({"input", "inputs", "args", "arguments", "with", "params", "parameters", "vars",
                            "kwargs", "env", "values", "config"})
_ON_ERROR = {name: kind for kind, names in ON_ERROR_MEANINGS.items() for name in names}


def failure_words(raw: str) -> bool:
    """Whether a key no table knows says, in its words, that it is about a failure."""
    words = set(yk.key_name(raw).split("_"))
    return bool(words & FAILURE_WORDS) and not words & _NOT_A_BLOCK


def _skill_key(inner: str) -> bool:
    return yk.step_key(inner) == "skill"


def _one(node: Node) -> Node:
    """A list of one task (`rescue: [{skill: x}]`) is that task; a list of one name is that name."""
    if isinstance(node, SequenceNode) and node.value:
        return node.value[0]
    return node


def failure_block(r: NodeReader, raw: str, k: Node, v: Node, notes: list[Reading]) -> list[tuple[Node, Node]]:
    """The block `raw: v` as the form's `fallback:` (and `on_error:`) keys (module docstring);
    what it cannot read is warned at its line."""
    if isinstance(v, SequenceNode) and len(v.value) > 1:
        r.src.warn(r.line(v.value[1]), f"{raw}: a step has one fallback; only the first entry of the list is read",
                   "spec.unread")
    block = _one(v)
    if (retry := retry_block(k, block)) is not None:  # `when_it_breaks: {again: 4, gap: 20s}`: a retry
        notes.append(note(r, k, f"{raw}: {short(r.value(block))}", f"the step's retry: '{retry[0][1].value}'"))
        return retry
    vocab = r.src.vocabulary
    if isinstance(block, ScalarNode):  # `rescue: [geo-lite]`: the skill
        return _skill(r, raw, k, block, v, notes)
    if not isinstance(block, MappingNode):
        r.src.warn(r.line(v), f"{raw}: a fallback is a skill (`{raw}: {{skill: NAME}}`), a value "
                              f"(`{raw}: {{value: VALUE}}`) or `{raw}: {{action: continue}}`; not read", "spec.unread")
        return []
    said: dict[str, tuple[Node, Node]] = {}
    for ik, iv in block.value:
        inner = str(ik.value) if isinstance(ik, ScalarNode) else ""
        kind = _ON_ERROR.get(yk.key_name(inner)) or ("skill" if _skill_key(inner) else None)
        if kind is None and vocab and vocab.skill_for(inner.strip()) is not None:  # `catch: {geo-lite: {}}`
            kind, iv = "skill", ik
        if yk.key_name(inner) in ("name", "id", "title") and kind is None:
            continue  # a task's display name: said nowhere else
        if kind == "skill" and "skill" in said and said["skill"][1] is not iv:
            r.src.warn(r.line(ik), f"{raw}.{inner}: a second skill in one fallback; the first is read", "spec.unread")
            continue
        if kind is None or kind in said or ("default" in said and kind == "skill") or (
                "skill" in said and kind == "default"):
            why = ("a fallback skill runs with the step's own inputs" if yk.key_name(inner) in _ARGUMENT_KEYS
                   else "one of: skill: NAME, value: VALUE, action: continue")
            r.src.warn(r.line(ik), f"{raw}.{inner} not understood ({why}); not read", "spec.unread")
            continue
        said[kind] = (ik, iv)
    out: list[tuple[Node, Node]] = []
    if "default" in said:
        ik, iv = said["default"]
        out.append((scalar("fallback", ik), MappingNode(MAP, [(scalar("default", ik), iv)], v.start_mark, v.end_mark)))
        notes.append(note(r, ik, f"{raw}.{ik.value}: {short(r.value(iv))}", "on failure, continue with this value"))
    if "skill" in said:
        ik, iv = said["skill"]
        node = iv
        if isinstance(iv, MappingNode):
            node = next((n for kk, n in iv.value if yk.key_name(str(kk.value)) in ("name", "ref", "id", "skill")), iv)
        if isinstance(node, ScalarNode):
            out += _skill(r, f"{raw}.{ik.value}" if ik is not iv else raw, ik, node, v, notes)
        else:
            r.src.warn(r.line(iv), f"{raw}.{ik.value}: name the fallback skill (`NAME` or `{{name: NAME}}`); not read",
                       "spec.unread")
    if "action" in said:
        out.append((scalar("on_error", k), said["action"][1]))
    return out


def _skill(r: NodeReader, said: str, k: Node, node: ScalarNode, whole: Node, notes: list[Reading]) -> list[
        tuple[Node, Node]]:
    from orchestrator.spec.yaml_step_shape import skill_name

    name = skill_name(str(node.value))
    name = r.src.vocabulary.skill_for(name) or name
    notes.append(note(r, k, f"{said}: {node.value}", f"on failure, the skill `{name}` instead, with the step's inputs"))
    return [(scalar("fallback", k), MappingNode(MAP, [(scalar("skill", node), scalar(name, node))],
                                                whole.start_mark, whole.end_mark))]
