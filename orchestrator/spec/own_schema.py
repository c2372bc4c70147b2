"""A workflow kept in a data file in its author's own schema (YAML, or TOML through `toml_form`),
read by what its keys mean before the YAML form's readers see it.

    about:                                    → its keys are the workflow's own top-level keys
      title: Subs renewal                       (`about:`, `meta:`, `info:`, a TOML `[show]`: any
      season_needed_from_user: season           mapping of mostly plain values that holds a title,
      overall_deadline: 20 min                  a limit, a success check or an input)
      finished_if: ledger says posted = yes   → the run's success check, read by `whole_success`
    overall: {give_up_after: 30m}             → the whole run's limit (a block holding only that)
    season_needed_from_user: season           → the workflow input `season` (a key that says it is asked for)
    batch_id: <batch id> / "?" / TBD          → the workflow input `batch_id` (a placeholder)
    [episode]  number = "?"  title = "?"      → the workflow input `episode`, an object (all placeholders)
    [[stage]] / step: [...]                   → the steps (a singular name holding a list of mappings)
    takes: {season: <season>}                 → `{{ inputs.season }}` (a placeholder names the input)
    feed_in = { episode = "episode" }         → the workflow input `episode` (the value is its name; warned)
    repeat_for: roster.active + call_each: m  → for_each: m in roster.active
    tries: 3   # i.e. 3 more goes after the first one  → retries: 3 (the comment says how it counts)

The step keys themselves (`does:`, `takes:`, `time_cap:`, `if_it_breaks:`, `again:`...) are
words of `yaml_keys`' tables. Each reading here is a note in the plan at its line; a key not
understood is left for the form, which warns it at its line: nothing is refused for its shape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.ask_refs import described_inputs, unread_head
from orchestrator.spec.ask_refs import heads as ask_heads
from orchestrator.spec.input_feed_values import fed_value
from orchestrator.spec.model import ContractSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.steps34b import gathers_in_brackets
from orchestrator.spec.yaml_dialect import (
    MAP,
    STR,
    TOP_IGNORED,
    TOP_UNREAD,
    note,
    pairs,
    scalar,
    short,
)
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_own_keys import POLICY_BLOCKS
from orchestrator.spec.yaml_top import run_limit_key

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

Pair = tuple[Node, Node]
# the form's own top-level keys (`yaml_form`): never an input or a block to lift
_FORM_TOP = frozenset({"name", "title", "description", "intent", "inputs", "steps", "retry", "timeout", "limits",
                       "convergence", "fallback", "scenarios", "tests", "state", "version", "success"})
# what a lifted block's keys may mean for it to be a block of the workflow's own keys
_META_MEANING = frozenset({"name", "title", "description", "timeout", "success", "inputs"})
# containers other tools give a meaning to: never lifted
_CONTAINERS = frozenset({"on", "spec", "default_args", "env", "variables", "vars", "defaults", "networks", "volumes",
                         "configs", "secrets", "x_defaults", "params", "parameters", "arguments", "options"})
# a singular name for the list of steps (TOML's `[[stage]]`)
_ONE_STEP = frozenset({"step", "stage", "task", "job", "phase", "station", "leg"})
# a key that names the loop's item beside a fan-out key (`call_each: m`)
_LOOP_NAMES = frozenset({"call_each", "call_it", "each_as", "as", "item_name", "loop_var", "loop_variable", "name_each",
                         "each_called", "each_is", "item_var", "bind_as", "each_item_as"})
# a key that says the person running the workflow gives this value
_ASKED = _rx(r"(?:^|_)(?:needed|needs|need|ask|asks|asked|prompt|prompts|provide|provides|provided|supply|supplies|"
             r"supplied|bring|brings|from_user|from_the_user|user_input|user_inputs|fill_in|fills_in|at_run_time|"
             r"at_runtime|given_at_run)(?:_|$)")
_NAME = _rx(r"^<?+([A-Za-z_][\w-]{0,63}+)>?+$")
# a value still to be filled in: `?`, `<batch id>`, `TBD`, `...`, `___`, `fill me in`, `ask the host`
_PLACEHOLDER = _rx(r"(?i)^\s*+(?:\?{1,3}+|<[^<>]{1,60}+>|\.{3}|…|_{2,}+|x{3,}+|tbd|tbc|todo|fixme|changeme|"
                   r"fill\s++(?:me\s++)?in|fill\s++in\s++later|ask(?:\s++the\s++[\w-]{1,20}+)?|set\s++at\s++run\s*+time|"
                   r"given\s++at\s++run\s*+time)\s*+$")
_POINTY = _rx(r"^<([A-Za-z_][\w -]{0,60}+)>$")
# a comment saying a count does not count the first attempt, or does
_RETRIES_SAID = _rx(r"(?i)(?<![\w-])(?:(?:more|extra|additional|further)\s++(?:goes|tries|attempts|times|runs|shots)|"
                    r"after\s++the\s++first|not\s++counting\s++the\s++first|on\s++top\s++of\s++the\s++first|re-?tries)(?![\w-])")
_ATTEMPTS_SAID = _rx(r"(?i)(?<![\w-])(?:in\s++total|all\s++told|including\s++the\s++first|counting\s++the\s++first|"
                     r"first\s++(?:one|go|try|attempt)\s++included)(?![\w-])")
# a wait the mapping reader reads itself: durations, joined by "then" or commas
_WAIT_ONLY = _rx(r"(?i)^(?:\d++(?:\.\d++)?+\s*+[a-z]{0,7}+(?:\s*+(?:,|then|and)\s*+)?+)++$")
# `HEAD.NAME` in a loop or a condition: a head and a name, not inside a longer path
_HEADED = _rx(r"(?<![\w.])([A-Za-z_]\w*+)\.([A-Za-z_]\w*+)(?![\w.(])")
_STRICT_CHECK = _rx(r"^\s*+[\w-]++\.(?:[\w-]++\.)?outputs?\.")


def comment_on(line: str) -> str:
    """The `# comment` after a value on a YAML or TOML line ("" when none): a `#` inside quotes is text."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:].strip()
    return ""


def _placeholder(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == STR and _PLACEHOLDER.match(str(node.value)) is not None


def _all_placeholders(node: Node) -> bool:
    if isinstance(node, MappingNode):
        return bool(node.value) and all(_all_placeholders(v) for _, v in node.value)
    return _placeholder(node)


class OwnTop:
    """What the own-schema reading made of the top of a document: the keys for the form, the
    notes for the plan, and the success checks it reads itself once the steps are known."""

    def __init__(self, top: dict[str, Pair]) -> None:
        self.top = top
        self.notes: list[Reading] = []
        self.checks: list[Pair] = []
        self.prefixes: set[str] = set()  # the keys whose `KEY.NAME` is the workflow input NAME


def read_own_top(r: NodeReader, top: dict[str, Pair]) -> OwnTop:
    """The top-level keys with the author's own blocks, inputs and steps read (module docstring)."""
    own = OwnTop(dict(top))
    kube = any(yk.key_name(k) in ("api_version", "kind") for k in top)
    for raw, (knode, vnode) in list(own.top.items()):
        if raw in own.top and _meta_block(raw, vnode, kube):
            _lift(r, raw, knode, vnode, own)
    if not any(yk.top_key(k) == "steps" for k in own.top):
        lists = [(raw, pair) for raw, pair in own.top.items() if _step_list(raw, pair[1])]
        if len(lists) == 1 and yk.key_name(lists[0][0]) in _ONE_STEP:  # `[[stage]]`: the list of steps
            raw, (knode, vnode) = lists[0]
            own.notes.append(note(r, knode, raw, f"the list of steps (`{raw}` read as `steps:`)"))
            del own.top[raw]
            own.top["steps"] = (knode, vnode)
    asked: list[tuple[str, Node, Node, str]] = []  # (input name, where, what it is, its description)
    for raw, (knode, vnode) in list(own.top.items()):
        name = yk.key_name(raw)
        if yk.top_key(raw) == "inputs" and isinstance(vnode, MappingNode | SequenceNode):
            own.prefixes |= ask_heads(raw)  # `prompts: {service: ...}`: `prompt.service` is the input `service`
        if name in _FORM_TOP or yk.top_key(raw) != name:
            continue
        if _ASKED.search(name) and (described := described_inputs(vnode)) is not None:  # `ask_dispatcher: {orders: ...}`
            asked += [(str(k.value), k, ScalarNode(STR, "", k.start_mark, k.end_mark), said) for k, said in described]
            own.notes.append(note(r, knode, raw, "the workflow's inputs, asked of the person who runs it (each key "
                                                 f"an input, `{raw}.NAME` that input)", what="input"))
            own.prefixes |= _heads(raw)
            del own.top[raw]
        elif _ASKED.search(name) and (names := _names(r, vnode)):
            said = comment_on(r.src.line_text(r.line(knode)))
            own.prefixes |= _heads(raw)  # `ask_me_for: [routes]`: `ask.routes` is the input `routes`
            asked += [(n, knode, ScalarNode(STR, "", knode.start_mark, knode.end_mark), said) for n in names]
            own.notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", "the workflow's inputs, asked of the "
                                                                                "person who runs it", what="input"))
            del own.top[raw]
        elif _all_placeholders(vnode):
            said = comment_on(r.src.line_text(r.line(knode)))
            pointy = _POINTY.match(str(vnode.value)) if isinstance(vnode, ScalarNode) else None
            asked.append((raw, knode, vnode, said or (pointy.group(1) if pointy else "")))
            kind = "an object to fill in" if isinstance(vnode, MappingNode) else "a value to fill in"
            own.notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", f"the workflow input `{raw}` ({kind})",
                                  what="input"))
            del own.top[raw]
    steps = next((p for k, p in own.top.items() if yk.top_key(k) == "steps"), None)
    lists = [pair for raw, pair in own.top.items() if _step_list(raw, pair[1])]
    if steps is None and len(lists) == 1:  # `prep:`, `pipeline:`: found by `yaml_anchored`, read here first
        steps = lists[0]
    declared = _declared(r, own.top, asked)
    if steps is not None and isinstance(steps[1], SequenceNode | MappingNode):
        items = steps[1].value if isinstance(steps[1], SequenceNode) else [v for _, v in steps[1].value]
        constants = {raw: str(v.value) for raw, (_, v) in own.top.items()  # `hub: RTM-WAALHAVEN`, fed as `hub`
                     if isinstance(v, ScalarNode) and v.tag == STR and yk.key_name(raw) not in _FORM_TOP
                     and yk.top_key(raw) == yk.key_name(raw) and str(v.value).strip()}
        for item in items:
            if isinstance(item, MappingNode):
                _own_step(r, item, declared, asked, own.prefixes, constants)
    if asked:
        _add_inputs(r, own, asked)
    for raw, (knode, vnode) in list(own.top.items()):  # a success check in words: `whole_success`'s
        if yk.top_key(raw) == "success" and isinstance(vnode, ScalarNode) and not _STRICT_CHECK.match(str(vnode.value)):
            own.checks.append((knode, vnode))
            del own.top[raw]
    return own


def _meta_block(raw: str, node: Node, kube: bool) -> bool:
    """A mapping of the workflow's own keys under a name of the author's (`about:`, `[show]`)."""
    name = yk.key_name(raw)
    if not isinstance(node, MappingNode) or name in _CONTAINERS or name.startswith("x_") or _all_placeholders(node):
        return False  # (a table of placeholders is an input to fill in)
    if yk.top_key(raw) in _FORM_TOP - {"name", "title", "description"} or (name in TOP_UNREAD):
        return False
    if name in TOP_IGNORED and (name != "metadata" or kube):
        return False
    keys = [(str(k.value), v) for k, v in node.value if isinstance(k, ScalarNode)]
    if not keys or sum(isinstance(v, ScalarNode) for _, v in keys) * 2 < len(keys):
        return False  # a mapping of mappings: jobs, services, a dialect's
    if any(yk.step_key(k) == "skill" or yk.key_name(k) in ("script", "run") or _holds_items(v) for k, v in keys):
        return False  # a job (it runs something), or the steps' container
    # `overall: {give_up_after: 30m}`: a block holding the whole run's limit (`yaml_top.run_limit_key`)
    return any(yk.top_key(k) in _META_MEANING or _ASKED.search(yk.key_name(k)) or run_limit_key(k, v) for k, v in keys)


def _step_list(raw: str, node: Node) -> bool:
    """A list of mappings under a singular name for a step (`[[stage]]`), or whose items each say what
    they run (`does:`, `tool:`, `uses:`)."""
    if not isinstance(node, SequenceNode) or not node.value or not all(isinstance(i, MappingNode) for i in node.value):
        return False
    return yk.key_name(raw) in _ONE_STEP or all(
        any(isinstance(k, ScalarNode) and yk.step_key(str(k.value)) == "skill" for k, _ in item.value)
        for item in node.value)


def _holds_items(node: Node) -> bool:
    """A list of mappings, or a mapping holding one: steps, not the workflow's own keys."""
    if isinstance(node, SequenceNode):
        return any(isinstance(v, MappingNode) for v in node.value)
    return isinstance(node, MappingNode) and any(
        isinstance(v, SequenceNode) and any(isinstance(i, MappingNode) for i in v.value) for _, v in node.value)


def _lift(r: NodeReader, raw: str, knode: Node, vnode: MappingNode, own: OwnTop) -> None:
    del own.top[raw]
    had = {yk.top_key(k) for k in own.top}
    for inner, pair in pairs(vnode).items():
        if yk.top_key(inner) in had:
            r.src.warn(r.line(pair[0]), f"{raw}.{inner} says again what the top-level key says; the top-level one "
                                        "is read", "spec.unread")
            continue
        own.top[inner] = pair
        had.add(yk.top_key(inner))
    own.notes.append(note(r, knode, raw, f"holds the workflow's own keys ({', '.join(pairs(vnode))[:80]}): each read "
                                         "as a top-level key"))


def _names(r: NodeReader, node: Node) -> list[str]:
    values = node.value if isinstance(node, SequenceNode) else [node]
    out = []
    for v in values:
        m = _NAME.match(str(v.value).strip()) if isinstance(v, ScalarNode) else None
        if m is None:
            return []
        out.append(m.group(1))
    return out


def _declared(r: NodeReader, top: dict[str, Pair], asked: list[tuple[str, Node, Node, str]]) -> set[str]:
    names = {a[0] for a in asked}
    node = next((p[1] for k, p in top.items() if yk.top_key(k) == "inputs"), None)
    if isinstance(node, MappingNode):
        names |= {str(k.value) for k, _ in node.value}
    elif isinstance(node, SequenceNode):
        for item in node.value:
            if isinstance(item, ScalarNode):
                names.add(str(item.value))
            elif isinstance(item, MappingNode):
                names |= {str(v.value) for k, v in item.value if str(k.value) in ("name", "id") and
                          isinstance(v, ScalarNode)}
    return names


def _own_step(r: NodeReader, item: MappingNode, declared: set[str], asked: list[tuple[str, Node, Node, str]],
              prefixes: set[str], constants: Mapping[str, str] | None = None) -> None:
    """One step's own words: its loop's item, its placeholders and input names, its counts' comments."""
    readings = r.item_readings.setdefault(id(item), [])
    keys = {str(k.value): i for i, (k, _) in enumerate(item.value) if isinstance(k, ScalarNode)}
    loop = next((i for k, i in keys.items() if yk.step_key(k) == "for_each"), None)
    var = next((i for k, i in keys.items() if yk.key_name(k) in _LOOP_NAMES), None)
    if loop is not None and var is not None:
        (lk, lv), (vk, vv) = item.value[loop], item.value[var]
        name = _NAME.match(str(vv.value).strip()) if isinstance(vv, ScalarNode) else None
        if isinstance(lv, ScalarNode) and name is not None and " in " not in str(lv.value):
            item.value[loop] = (lk, scalar(f"{name.group(1)} in {lv.value}", lv))
            del item.value[var]
            readings.append(note(r, vk, f"{vk.value}: {vv.value}", f"the name of each item of `{lk.value}:` "
                                                                   f"(for_each: {name.group(1)} in {lv.value})",
                                 what="for_each"))
    for k, v in list(item.value):
        key = str(k.value)
        if yk.step_key(key) in ("for_each", "when") and isinstance(v, ScalarNode) and v.tag == STR and prefixes:
            item.value = [(k, _asked_refs(r, v, declared, prefixes, readings)) if pair[0] is k else pair
                          for pair in item.value]
        if yk.step_key(key) == "input" and isinstance(v, MappingNode):
            bare = key.strip().lower() not in ("input", "inputs")  # `takes:` / `feed_in`: the author's own key
            v.value = [(ik, iv if loop is not None and isinstance(iv, ScalarNode) and yk.one_item(str(iv.value))
                         else _input_value(r, iv, declared, asked, readings, prefixes, bare, constants))
                       for ik, iv in v.value]  # (`<each order>` in a For each: the item, `yaml_policy`)
        elif yk.key_name(key) in POLICY_BLOCKS and isinstance(v, MappingNode):
            v.value = [_count(r, ik, iv, readings) for ik, iv in v.value]
        elif yk.step_key(key) == "retry" and isinstance(v, MappingNode) and (said := _retry_words(v)) is not None:
            readings.append(note(r, k, f"{key}: {short(r.value(v))}", f"read as the sentence '{said}' (a wait in "
                                                                      "words), by the policy grammar"))
            item.value = [(k, scalar(said, v)) if pair[0] is k else pair for pair in item.value]
    item.value = [_count(r, k, v, readings) for k, v in item.value]


def _heads(raw: str) -> set[str]:
    """The heads of `HEAD.NAME` that name an asked-for input: the key (`ask_me_for`) and its word that
    says it is asked (`ask`)."""
    return {raw} | {w for w in yk.key_name(raw).split("_")[:1] if _ASKED.search(w)} | ask_heads(raw)


def _asked_refs(r: NodeReader, node: ScalarNode, declared: set[str], prefixes: set[str],
                readings: list[Reading]) -> ScalarNode:
    """`each: ask.routes`, `only_if: ask.mode == full`: each `HEAD.NAME` of an asked-for input as `inputs.NAME`."""
    text = str(node.value)
    said = _HEADED.sub(lambda m: f"inputs.{m[2]}" if m[1] in prefixes and m[2] in declared else m[0], text)
    if said == text:
        return node
    readings.append(note(r, node, text, f"read as `{said}` (the workflow inputs asked for)", what="input"))
    return scalar(said, node)


def _retry_words(node: MappingNode) -> str | None:
    """`again = { times = 4, pause = "20s, doubling" }`: a count and a wait said in words, as the sentence
    the policy grammar reads ("Retry 4 times, 20s, doubling"); None when the mapping reader reads it all."""
    count: tuple[str, int] | None = None
    wait: str | None = None
    for k, v in node.value:
        kind = yk.retry_key(str(k.value))
        if kind in ("retries", "attempts") and isinstance(v, ScalarNode) and str(v.value).isdigit():
            count = (kind, int(v.value))
        elif kind == "delay" and isinstance(v, ScalarNode) and v.tag == STR:
            wait = " ".join(str(v.value).split())
        else:
            return None
    if wait is None or _WAIT_ONLY.match(wait):
        return None  # `5s`, `5s then 15s`: the mapping reader's
    if count is None:
        return f"Retry, {wait}"
    n = count[1] if count[0] == "retries" else max(count[1] - 1, 0)
    return f"Retry {n} times, {wait}"

def _input_value(r: NodeReader, node: Node, declared: set[str], asked: list[tuple[str, Node, Node, str]],
                 readings: list[Reading], prefixes: set[str], bare: bool = True,
                 constants: Mapping[str, str] | None = None) -> Node:
    """An input value in the author's words: `KEY.NAME` of a block that asks, a `<placeholder>`, and
    (under the author's own input key only, `bare`) a value that is exactly a declared input's name;
    under the form's own `input:` a plain text stays the literal it is (`mode: gate`)."""
    if not isinstance(node, ScalarNode) or node.tag != STR:
        return node
    text = str(node.value).strip()
    head, dot, tail = text.partition(".")
    if dot and head in prefixes and tail in declared:  # `ask_dispatcher.orders`: the input `orders`
        readings.append(note(r, node, text, f"the workflow input `{tail}`", what="input"))
        return scalar(f"{{{{ inputs.{tail} }}}}", node)
    if (unread := unread_head(text, prefixes, declared)) is not None:  # `ask.plant`: no such input asked for
        r.src.warn(r.line(node), unread, "spec.unread")
        return node
    pointy = _POINTY.match(text)
    if pointy is not None and not gathers_in_brackets(text):  # `<everything lookup produced>`: `plan.steps34b`
        name = re.sub(r"[\s-]+", "_", pointy.group(1).strip())
        if name not in declared:
            declared.add(name)
            asked.append((name, node, ScalarNode(STR, "", node.start_mark, node.end_mark), ""))
        readings.append(note(r, node, text, f"the workflow input `{name}` (a placeholder)", what="input"))
        return scalar(f"{{{{ inputs.{name} }}}}", node)
    if bare and text in declared:
        r.src.warn(r.line(node), f"'{text}' is the name of the workflow input `{text}`: read as that input, not as "
                                 f"the text; write `{{{{ inputs.{text} }}}}` to say so", "spec.input-name")
        return scalar(f"{{{{ inputs.{text} }}}}", node)
    if bare and (fed := fed_value(text, constants or {})) is not None:  # `pull orders -> depot` (`input_feed_values`)
        value, how, plain = fed
        readings.append(note(r, node, text, how, what="input"))
        r.src.warn(r.line(node), f"'{text}' is read as {how}; write `{plain}` to say so plainly", "spec.input-feed")
        return scalar(value, node)
    return node


def _count(r: NodeReader, knode: Node, vnode: Node, readings: list[Reading]) -> Pair:
    """`tries: 3  # 3 more goes after the first one`: the comment says the count is of retries."""
    key = str(knode.value) if isinstance(knode, ScalarNode) else ""
    kind = yk.step_key(key)
    if kind not in ("attempts", "retries") or not isinstance(vnode, ScalarNode):
        return knode, vnode
    said = comment_on(r.src.line_text(r.line(vnode)))
    if kind == "attempts" and _RETRIES_SAID.search(said):
        readings.append(note(r, knode, f"{key}: {vnode.value}  # {short(said)}", "retries, as its comment says (the "
                                                                                 "first attempt not counted)"))
        return scalar("retries", knode), vnode
    if kind == "retries" and _ATTEMPTS_SAID.search(said):
        readings.append(note(r, knode, f"{key}: {vnode.value}  # {short(said)}", "attempts, as its comment says (the "
                                                                                 "first attempt counted)"))
        return scalar("attempts", knode), vnode
    return knode, vnode


def _add_inputs(r: NodeReader, own: OwnTop, asked: list[tuple[str, Node, Node, str]]) -> None:
    entries: list[Pair] = []
    for name, at, value, said in asked:
        fields: list[Pair] = [(scalar("description", at), scalar(said, at))] if said else []
        if isinstance(value, MappingNode):
            fields.append((scalar("type", at), scalar("object", at)))
        entries.append((scalar(name, at), MappingNode(MAP, fields, at.start_mark, at.end_mark)))
    have = next((k for k in own.top if yk.top_key(k) == "inputs"), None)
    if have is None:
        first = entries[0][0]
        own.top["inputs"] = (first, MappingNode(MAP, entries, first.start_mark, first.end_mark))
        return
    node = own.top[have][1]
    if isinstance(node, MappingNode):
        known = {str(k.value) for k, _ in node.value}
        node.value += [e for e in entries if str(e[0].value) not in known]
    else:
        for name, at, _, _ in asked:
            r.src.warn(r.line(at), f"the workflow input `{name}` is not added to `{have}:`, which is not a mapping "
                                   "of names; declare it there", "spec.unread")


def own_success(r: NodeReader, checks: list[Pair], steps: list[StepSpec]) -> tuple[list[StepSpec], list[ContractSpec]]:
    """Each success check the author said in words (`finished_if: ledger says posted = yes`), read by the
    document's success grammar (`whole_success`): on a step's output, or warned at its line."""
    from orchestrator.spec.success import read_comparison
    from orchestrator.spec.whole_doc import Said
    from orchestrator.spec.whole_success import read_success
    from orchestrator.spec.yaml_success import bare_check

    found: list[ContractSpec] = []
    for knode, vnode in checks:
        text = " ".join(str(vnode.value).split())
        line = r.line(vnode)
        if steps and read_comparison(text) is None and (bare := bare_check(text, line, steps, r.src)) is not None:
            at, said = bare  # "episode is uploaded" where a step outputs `uploaded`: read as true, warned
            steps = [*steps[:at], steps[at].model_copy(update={"texts": (*steps[at].texts, said)}), *steps[at + 1:]]
            continue
        read = read_success(Said(f"The run is done when {text}", line, line), steps, r.src) if steps else None
        if read is None:
            r.src.warn(line, f"{knode.value}: '{short(text)}' is not a check on a step's output (`ledger.posted == "
                             "true`); not checked", "spec.success")
            continue
        steps, contracts = read
        found.extend(contracts)
    return steps, found


_rx.save()
