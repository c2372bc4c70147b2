"""A YAML step's keys in a schema the author made up, read by what they mean.

    resilience: {attempts: 3, deadline: 20s}    → the step's own `attempts:` and `timeout:`
    reliability: {on_fail: continue}            → (a block of policy keys: each read on the step)
    gate: "fetch.ok == true"                    → when: fetch.ok == true (a condition)
    gate: manual / human / sign-off             → approval (a person says yes)
    degrade: {stars: 0}                         → on failure, continue with {stars: 0}
    degrade: skip                               → on failure, continue
    degrade: "carry on with hourly_usd = 0.0"   → on_error: (that sentence, read by the phrase reader)
    resilience: "3 attempts total, 15s apart"   → (the step's words, read by the phrase reader)
    resilience: none                            → retry: none
    gate: {who: "@leads", only_if: ..., expires: 30m}  → approval: {by, when, timeout}

A key inside a policy block that the form does not know is warned at its line and kept for
review, never dropped; a key the step already has is not replaced (warned at the block's).
`backoff: 5s` (a duration, not a flag) is the wait between tries.
`success_when:` and its kin are the step's `success:` (`yaml_keys.STEP_SYNONYMS`).
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode

from orchestrator.spec import policy_text as pt
from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.approval_ok import sign_off_block, sign_off_key
from orchestrator.spec.model import Reading
from orchestrator.spec.whole_approval import person_key
from orchestrator.spec.yaml_alias import retry_block, retry_keys
from orchestrator.spec.yaml_approval import person_approval
from orchestrator.spec.yaml_dialect import MAP, note, scalar, short
from orchestrator.spec.yaml_fallback import failure_words
from orchestrator.spec.yaml_node import NodeReader

# keys that hold a block of the step's policy keys (`resilience: {retries: 2, timeout: 30s}`)
POLICY_BLOCKS = frozenset({"resilience", "reliability", "robustness", "error_handling", "failure_policy",
                           "policy", "policies", "fault_tolerance", "hardening", "limits", "on_trouble",
                           "when_things_go_wrong"})
# keys that say whether the step may run: a condition, or a person's yes
GATE_KEYS = frozenset({"gate", "gated_by", "guard", "precondition", "pre_condition", "proceed_if", "go_if",
                       "allow_if", "enter_if", "entry_condition"})
# words of a gate that ask a person
_PERSON = re.compile(r"(?i)^\s*+(?:manual|human|person|approval|approve|review|reviewer|sign[\s_-]?+off|"
                     r"needs?[\s_-]++approval|click|operator|lead|manager|owner)\b")
# a gate that is a condition: a comparison, a reference, a truth word
_CONDITION = re.compile(r"==|!=|<=|>=|[<>]|\$\{|\{\{|(?<!\w)(?:and|or|not|is|in|true|false)(?!\w)|^\s*+[\w-]++\.[\w.-]++\s*+$")
# keys whose value is what the step hands on when it fails (its outputs as if it had run)
DEGRADE_KEYS = frozenset({"degrade", "degrade_to", "degraded", "degraded_output", "degraded_value",
                          "on_failure_value", "on_fail_value", "failure_value", "fallback_output", "if_down_use",
                          "when_down_use", "else_use", "otherwise_use", "placeholder", "stand_in"})
# `keep_going_with`, `carry_on_with`, `continue_with`, `press_on_using`: what the step hands on, and go on
_CARRY_ON = re.compile(r"^(?:keep_going|keep_on|carry_on|continue|go_on|press_on|move_on|soldier_on|proceed|fall_back)"
                       r"_(?:with|using|as)$")


def carry_on(name: str) -> bool:
    """Whether a key (made plain) holds the value a failed step hands on (`degrade:`, `keep_going_with:`)."""
    return name in DEGRADE_KEYS or bool(_CARRY_ON.match(name))


# the form's own step keys (`spec.yaml_form`): read there, never as a sentence here
_FORM_KEYS = frozenset({"id", "name", "description", "skill", "agent", "depends_on", "input", "output", "outputs",
                        "output_schema", "on_error", "retry", "retries", "timeout", "for_each", "when", "approval",
                        "compensation", "compensate", "routes", "regenerate", "otherwise", "fallback", "feedback",
                        "recovery", "success", "failure_modes", "join", "route_on", "attempts", "retry_delay",
                        "if_still_failing", "notes", "continue_on_error", "backoff", "max_delay", "retry_for"})
_SKIP_WORDS = frozenset({"skip", "continue", "ignore", "carry_on", "go_on", "proceed", "empty", "none", "null"})


def own_keys(r: NodeReader, keys: dict[str, tuple[Node, Node]], sid: str, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    """`keys` with the author's own policy blocks, gates and degraded values read as the form's
    keys (module docstring); each reading is a note shown in the plan."""
    out: dict[str, tuple[Node, Node]] = {}
    for raw, (knode, vnode) in keys.items():
        name = yk.key_name(raw)
        if yk.step_key(raw) == "backoff" and _duration(vnode):  # `backoff: 5s`: the wait, not a flag
            out.update(_wait(r, raw, knode, vnode, keys, sid, notes))
        elif yk.is_step_word(raw) and name not in GATE_KEYS and not carry_on(name):
            out[raw] = (knode, vnode)
        elif name in POLICY_BLOCKS and isinstance(vnode, MappingNode):
            _block(r, raw, vnode, keys, out, sid, notes)
        elif name in POLICY_BLOCKS and isinstance(vnode, ScalarNode) and not _has(keys, "retry", "retries", "attempts"):
            word = len(str(vnode.value).split()) == 1  # `resilience: none` is the retry's; a sentence, the step's words
            notes.append(note(r, knode, f"{raw}: {short(vnode.value)}", "the step's retries (retry:)" if word else
                              "the step's policy, in words, read sentence by sentence"))
            out["retry" if word else "notes"] = (knode, vnode)  # "3 attempts total, 15s apart": `yaml_policy`'s
        elif name in GATE_KEYS and isinstance(vnode, MappingNode):
            out.update(_gate_block(r, raw, knode, vnode, sid, notes))
        elif name in GATE_KEYS and isinstance(vnode, ScalarNode):
            out.update(_gate(r, raw, knode, vnode, sid, notes))
        elif carry_on(name) and not any(yk.step_key(k) in ("fallback", "on_error") for k in keys):
            out.update(_degrade(r, raw, knode, vnode, notes))
        elif isinstance(vnode, MappingNode) and sign_off_key(name) and not _has(keys, "approval") and (
                signed := sign_off_block(r, raw, knode, vnode, sid, notes)) is not None:  # `hm_sign_off: {who: ...}`
            out.update(signed)
        elif person_key(name) and not _has(keys, "approval"):  # `human_ok: "prod only, 1h or it's a no"`
            out.update(person_approval(r, raw, knode, vnode, sid, notes))
        elif name not in _FORM_KEYS and isinstance(vnode, ScalarNode) and isinstance(vnode.value, str) and (
                said := _said_policy(r, raw, knode, vnode, {**keys, **out}, sid, notes)) is not None:
            out.update(said)
        else:
            out[raw] = (knode, vnode)
    return out


def _said_policy(r: NodeReader, raw: str, knode: Node, vnode: ScalarNode, keys: dict[str, tuple[Node, Node]], sid: str,
                 notes: list[Reading]) -> dict[str, tuple[Node, Node]] | None:
    """A key the form does not know whose value says a policy in words (`when_sad: retry it twice, 15 s
    apart`, `clock: 2m per host`): the step's words (`notes:`), or its `timeout:` when that is all it
    says; one that only sounds like a policy is warned with what to write. None: no policy in it."""
    from orchestrator.spec.phrase import read_policy_value

    said = " ".join(str(vnode.value).split())
    phrase = read_policy_value(raw, said)
    if not phrase.read:
        if not phrase.signal:
            return None
        r.src.warn(r.line(knode), f"{sid}: key '{raw}' ('{short(said)}') sounds like a policy but was not understood; "
                                  "write it under a key the form knows (`retry: 3`, `timeout: 30s`, `on_error: continue`, `approval: required`)",
                   "spec.unread")
        return {}
    s = phrase.statement
    timed = s.timeout_s is not None and s.model_copy(update={"timeout_s": None, "applies_to": None}).is_empty()
    slot = "timeout" if timed and not s.whole_run else "notes"
    if any(yk.step_key(k) == slot for k in keys):
        r.src.warn(r.line(knode), f"{sid}: key '{raw}' ('{short(said)}') reads as a policy, but the step's `{slot}:` "
                                  "is read instead; write it there", "spec.unread")
        return {}
    text = f"{raw.replace('_', ' ')}: {said}" if slot == "notes" else said
    notes.append(note(r, knode, f"{raw}: {short(said)}", f"the step's policy, in words (read as `{slot}:`)"))
    return {slot: (knode, scalar(text, vnode))}


def _block(r: NodeReader, raw: str, vnode: MappingNode, keys: dict[str, tuple[Node, Node]],
           out: dict[str, tuple[Node, Node]], sid: str, notes: list[Reading]) -> None:
    have = {yk.step_key(k) for k in keys}
    taken: set[str] = set()
    if not have & {"retry", "retries", "attempts", "retry_delay"} and (grown := retry_block(vnode)) is not None:
        taken = retry_keys(vnode)  # `{tries: 4, pause: 20s, pause_x: 2, pause_max: 5m}`: one growing wait
        notes.append(note(r, vnode, f"{raw}: {short(', '.join(sorted(taken)))}", "the step's retries, their first wait, "
                                                                          "its growth and its cap, as one `retry:`"))
        out["retry"] = (vnode, grown)
        have |= {"retry", "retries", "attempts", "retry_delay"}
    for ik, iv in vnode.value:
        inner = str(ik.value) if isinstance(ik, ScalarNode) else ""
        if inner in taken:
            continue
        gap = not yk.is_step_word(inner) and yk.retry_key(inner) == "delay"  # `on_trouble: {gap: 2m}`: the wait
        if not (yk.is_step_word(inner) or failure_words(inner) or carry_on(yk.key_name(inner)) or gap):
            out[f"{raw}.{inner}"] = (ik, iv)  # the form warns it at its line, kept for review
            continue
        if gap:
            out.update(_wait(r, f"{raw}.{inner}", ik, iv, {**keys, **out}, sid, notes))
        elif yk.step_key(inner) in have:
            r.src.warn(r.line(ik), f"{sid}: {raw}.{inner} says again what the step's own key says; the step's "
                                   "is read", "spec.unread")
            continue
        elif yk.step_key(inner) == "backoff" and _duration(iv):
            out.update(_wait(r, f"{raw}.{inner}", ik, iv, {**keys, **out}, sid, notes))
        elif carry_on(yk.key_name(inner)):
            out.update(_degrade(r, f"{raw}.{inner}", ik, iv, notes))
        else:
            notes.append(note(r, ik, f"{raw}.{inner}: {short(r.value(iv))}", f"read as the step's own `{inner}:`"))
            out[inner] = (ik, iv)
        have.add(yk.step_key(inner))


def _gate(r: NodeReader, raw: str, knode: Node, vnode: ScalarNode, sid: str, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    said = str(vnode.value)
    if _PERSON.match(said):
        notes.append(note(r, knode, f"{raw}: {short(said)}", "an approval: a person says yes before the step runs"))
        return {"approval": (knode, ScalarNode("tag:yaml.org,2002:bool", "true", vnode.start_mark, vnode.end_mark))}
    if _CONDITION.search(said):
        notes.append(note(r, knode, f"{raw}: {short(said)}", "the step's condition (when:)"))
        return {"when": (knode, vnode)}
    r.src.warn(r.line(vnode), f"{sid}: {raw} '{short(said)}' is neither a condition (`{raw}: x.ok == true`) nor a "
                              f"person's yes (`{raw}: manual`); not read", "spec.unread")
    return {}


def _has(keys: dict[str, tuple[Node, Node]], *canonical: str) -> bool:
    return any(yk.step_key(k) in canonical for k in keys)


def _gate_block(r: NodeReader, raw: str, knode: Node, vnode: MappingNode, sid: str, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    """`gate: {who: "@leads", only_if: ..., expires: 30m}`: a person's yes (an approval); `gate: {if: ...}`
    alone: a condition."""
    kinds = {yk.approval_key(str(k.value)) for k, _ in vnode.value if isinstance(k, ScalarNode)}
    if kinds & {"by", "timeout", "on_timeout", "required"}:
        notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", "an approval: a person says yes before the "
                                                                      "step runs (approval:)"))
        return {"approval": (knode, vnode)}
    if kinds == {"when"} and len(vnode.value) == 1:
        notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", "the step's condition (when:)"))
        return {"when": (knode, vnode.value[0][1])}
    r.src.warn(r.line(knode), f"{sid}: {raw} names neither who approves (`who:`, `by:`) nor a condition (`if:`); "
                              "not read", "spec.unread")
    return {}


def _degrade(r: NodeReader, raw: str, knode: Node, vnode: Node, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    if isinstance(vnode, ScalarNode) and yk.key_name(str(vnode.value)) in _SKIP_WORDS:
        notes.append(note(r, knode, f"{raw}: {vnode.value}", "on failure, continue"))
        return {"on_error": (knode, scalar("continue", vnode))}
    if isinstance(vnode, ScalarNode) and len(str(vnode.value).split()) > 2:  # a sentence: the phrase reader's
        notes.append(note(r, knode, f"{raw}: {short(vnode.value)}", "what to do on failure, in words (on_error:)"))
        return {"on_error": (knode, vnode)}
    notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", "on failure, continue with this value"))
    return {"fallback": (knode, MappingNode(MAP, [(scalar("default", knode), vnode)], vnode.start_mark,
                                            vnode.end_mark))}


def _duration(node: Node) -> bool:
    return isinstance(node, ScalarNode) and (pt.parse_duration(str(node.value).strip().lower()) is not None
                                             or yk.iso_duration(str(node.value)) is not None)


def _wait(r: NodeReader, raw: str, knode: Node, vnode: Node, keys: dict[str, tuple[Node, Node]], sid: str,
          notes: list[Reading]) -> dict[str, tuple[Node, Node]]:
    """`backoff: 5s` is the wait between tries (`retry_delay:`), unless the step says that too."""
    if any(yk.step_key(k) == "retry_delay" for k in keys):
        r.src.warn(r.line(knode), f"{sid}: {raw}: {short(r.value(vnode))} and a retry delay both give the wait; "
                                  "the retry delay is read", "spec.unread")
        return {}
    notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", "the wait between tries (retry_delay:)"))
    return {"retry_delay": (knode, vnode)}
