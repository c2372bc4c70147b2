"""One item of a YAML spec's anchored steps (`yaml_anchored`), its keys read by meaning.

    skillRef: {name: net-revenue}  /  op: pull-sales  /  fetch-feed: {url: u}   → skill (and input)
    restart: {maxRestarts: 3}  /  deps: [a]  /  values: {...}  /  gate: {...}  → retry, depends_on, input, approval
    onError: {continueWith: v}  /  onError: {fallbackSkillRef: {name: x}}       → fallback: {default: v} / {skill: x}

`refs` finds where an item names a catalog skill (a key that is one, a value that is one or a
list of one, a nested `{name: x}`-like mapping); `runs_of` says which of them is the skill it
runs (not its fallback's, not its inputs'; its name only when nothing else names one). `item`
renames the keys the form's own tables (`yaml_keys.STEP_SYNONYMS`) do not know by
`KEY_MEANINGS`, each said in a reading; a key whose meaning is already given, or that no table
knows, stays as written, and the form warns it at its line. Two skills an item could run is an
error at its line.
"""

from __future__ import annotations

from typing import NamedTuple

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.yaml_dialect import MAP, SEQ, note, scalar, short
from orchestrator.spec.yaml_fallback import failure_block, failure_words
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_step_shape import STEP_IGNORED, skill_name

# what an item's key means -> the names people give it (after `yaml_keys.key_name`); only
# names the form's own tables (`yaml_keys.STEP_SYNONYMS`) do not know are looked up here
KEY_MEANINGS: dict[str, tuple[str, ...]] = {
    "id": ("register", "save_as", "store_as", "result_var", "output_var", "ref_name"),
    "name": ("title", "label", "display_name", "step_name", "stage_name", "phase", "stage", "step", "leg",
             "task_name", "what"),
    "input": ("config", "values", "vars", "props", "properties", "settings", "payload", "data", "input_values",
              "opts", "kw", "flags", "ins", "input_transforms", "input_map", "inputs_map", "bindings"),
    "depends_on": ("deps", "depends_upon", "depend_on", "upstreams", "wait_on", "waits_on", "after_steps",
                   "predecessors", "prev", "previous", "parents", "run_after_steps", "requires_steps"),
    "when": ("required_if", "enabled_if", "run_only_if", "only", "guard", "predicate", "filter", "condition_expr"),
    "for_each": ("items", "for", "each_of", "with_each", "iterate_on", "fan_out_over", "map_items", "batch_over",
                 "with_list", "with_sequence", "per"),
    "retry": ("restart", "restarts", "restart_policy", "retry_on_failure", "retries_policy", "retry_spec"),
    "retries": ("max_restarts", "restart_limit", "backoff_limit", "retry_limit", "max_retry", "retry_max"),
    "retry_delay": ("delay", "delay_seconds", "retry_wait_seconds"),
    "timeout": ("ttl", "runtime_limit", "timeout_after", "kill_after", "walltime", "wall_time", "time_limit_seconds",
                "timeout_sec"),
    "on_error": ("error_handling", "on_fault", "error_policy", "failure_policy", "when_fails", "if_error",
                 "on_err", "handle_error", "errors"),
    "fallback": ("fallback_skill", "fallback_skill_ref", "fallback_to", "otherwise_use", "instead", "fallback_ref",
                 "backup", "backup_skill"),
    "approval": ("gate", "manual_gate", "review", "hold", "pause_for_approval", "confirm", "confirmation",
                 "manual", "approval_gate", "sign_off_required", "requires_sign_off"),
    "compensation": ("cleanup", "on_undo", "undo_with"),
    "notes": ("remark", "memo", "comment_text"),
    "output": ("returns", "produces", "result", "yields"),
}
# keys of an item's nested mapping that name what it refers to (`skillRef: {name: x}`)
REF_KEYS = ("name", "ref", "id", "skill", "template", "task", "uses", "function", "action", "op", "module", "path")
# an item's own meanings that are not the skill it runs, though their value may name one
NOT_THE_SKILL = {"fallback", "on_error", "compensation", "depends_on", "input", "when", "otherwise", "for_each",
                 "approval", "notes", "description", "if_still_failing", "feedback", "routes", "id", "name",
                 "output", "outputs"}
# a key in no table whose words say what it is: (meaning, one of these words, and one of these
# if any): `timeoutInMinutes` (its unit read from its name), `retryCountOnTaskFailure`
WORD_RULES: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = (
    ("timeout", frozenset({"timeout"}), frozenset()),
    ("retries", frozenset({"retry", "retries", "restart", "restarts"}),
     frozenset({"count", "max", "limit", "times", "number", "num"})),
)
# the form's own step keys (`yaml_form`, `yaml_step_shape`) that `yaml_keys` has no synonyms for
FORM_OWN = {"output", "outputs", "output_schema", "success", "regenerate", "routes", "join", "feedback", "recovery",
            "failure_modes", "route_on", "description", "name", "id", "environment", "rules", "strategy", "parallel",
            "matrix", "partial", "expand", "expand_kwargs", "trigger_rule", "continue_on", "run", "script", "steps"}
_MEANING = {name: canonical for canonical, names in KEY_MEANINGS.items() for name in names}


class Ref(NamedTuple):
    key: str  # the item's key as written
    knode: Node
    vnode: Node  # the scalar that names the skill (the key itself for a skill-named key)
    skill: str
    how: str  # key | value | nested


def meaning(raw: str) -> str:
    """What a step key means: the form's own canonical key, else this module's table, else itself."""
    if yk.is_step_word(raw):
        return yk.step_key(raw)
    name = yk.key_name(raw)
    if name in _MEANING:
        return _MEANING[name]
    words = set(name.split("_"))
    return next((canonical for canonical, need, also in WORD_RULES if words & need and (not also or words & also)),
                name)


def _skill_of(vocab: Vocabulary, text: object) -> str | None:
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        return None
    plain = "-".join(text.strip().lower().replace("_", " ").split())  # `Fetch_Feed` names fetch-feed
    image = skill_name(text).partition(":")[0]  # `ghcr.io/acme/fetch-feed:1.2`, an image and its tag
    return vocab.skill_for(text.strip()) or vocab.skill_for(skill_name(text)) or vocab.skill_for(image) or (
        plain if plain in vocab.skills else None)


def listed(vocab: Vocabulary, node: Node) -> Node:
    """A list's item that is only a skill's name (`pipeline: [fetch-feed, rank-hosts]`): `{skill: it}`."""
    skill = _skill_of(vocab, node.value) if isinstance(node, ScalarNode) else None
    if skill is None:
        return node
    return MappingNode(MAP, [(scalar("skill", node), scalar(skill, node))], node.start_mark, node.end_mark)


def keyed(vocab: Vocabulary, item: Node, key: Node | None) -> Node:
    """An item of a mapping of mappings whose own keys name no skill, but whose key does
    (`fetch-feed: {url: x}` under `pipeline:`): with `skill:` that skill."""
    if not isinstance(item, MappingNode) or not isinstance(key, ScalarNode) or runs_of(vocab, item):
        return item
    skill = _skill_of(vocab, key.value)
    if skill is None:
        return item
    return MappingNode(MAP, [(scalar("skill", key), scalar(skill, key)), *item.value], item.start_mark, item.end_mark)


def refs(vocab: Vocabulary, item: Node) -> list[Ref]:
    """Where a mapping names a catalog skill: a key that is one, a value that is one (or, under
    a skill key, a list of one), or a nested `{name: x}`-like mapping."""
    out: list[Ref] = []
    if not isinstance(item, MappingNode):
        return out
    for k, v in item.value:
        if not isinstance(k, ScalarNode):
            continue
        raw = str(k.value)
        if (skill := _skill_of(vocab, raw)) is not None:
            out.append(Ref(raw, k, k, skill, "key"))
            continue
        one = isinstance(v, SequenceNode) and len(v.value) == 1 and (  # `script: [x]`; not any list of one
            meaning(raw) == "skill" or yk.key_name(raw) in ("run", "script"))
        node = v.value[0] if one else v
        if isinstance(node, ScalarNode) and (skill := _skill_of(vocab, node.value)) is not None:
            out.append(Ref(raw, k, node, skill, "value"))
        elif isinstance(node, MappingNode):
            for ik, iv in node.value:
                if (isinstance(ik, ScalarNode) and yk.key_name(str(ik.value)) in REF_KEYS and isinstance(iv, ScalarNode)
                        and (skill := _skill_of(vocab, iv.value)) is not None):
                    out.append(Ref(raw, k, iv, skill, "nested"))
                    break
    return out


def runs_of(vocab: Vocabulary, item: Node) -> list[Ref]:
    """The references that say which skill an item runs: not its fallback's or its inputs';
    its name or id only when nothing else names one."""
    found = refs(vocab, item)
    keys = [f for f in found if f.how == "key" or (meaning(f.key) not in NOT_THE_SKILL and not (
        meaning(f.key) == yk.key_name(f.key) and failure_words(f.key)))]
    return keys or [f for f in found if meaning(f.key) in ("id", "name")][:1]


def item(r: NodeReader, item: Node, roots: bool, once: set[str], key: Node | None = None) -> Node:
    """An item's keys renamed by meaning, its skill under `skill:` (module docstring); what was
    read how is kept for its step's readings (`NodeReader.item_readings`)."""
    assert isinstance(item, MappingNode)
    notes: list[Reading] = []
    vocab = r.src.vocabulary
    own = {meaning(str(k.value)) for k, _ in item.value if isinstance(k, ScalarNode)}
    has_name = any(yk.key_name(str(k.value)) == "name" or (yk.is_step_word(str(k.value)) and meaning(str(k.value)) == "id")
                   for k, _ in item.value if isinstance(k, ScalarNode))
    runs = runs_of(vocab, item)
    if len({f.skill for f in runs}) > 1:
        r.src.error(r.line(item), f"this step names {', '.join(f'`{f.skill}` ({f.key}:)' for f in runs)}: write "
                                  "the one it runs as `skill: NAME`; one to run when that fails is its fallback, "
                                  "`fallback: {skill: NAME}`", "spec.ambiguous-skill")
    run = runs[0] if runs else None
    out: list[tuple[Node, Node]] = []
    used = {meaning(str(k.value)) for k, _ in item.value if isinstance(k, ScalarNode) and yk.is_step_word(str(k.value))}
    for k, v in item.value:
        raw = str(k.value) if isinstance(k, ScalarNode) else ""
        if run is not None and raw == run.key and run.how != "key" and meaning(raw) not in ("id", "name"):
            if yk.step_key(raw) != "skill" or str(run.vnode.value) != run.skill:
                notes.append(note(r, k, f"{raw}: {short(r.value(v))}",
                                  f"names the catalog skill `{run.skill}`: read as the step's skill", what="skill"))
            out.append((scalar("skill", k), scalar(run.skill, run.vnode)))
            continue
        if run is not None and run.how == "key" and k is run.knode:
            notes.append(note(r, k, raw, f"the key is the catalog skill `{run.skill}`: read as the step's skill"
                                         + (", its mapping as the inputs" if isinstance(v, MappingNode) else ""),
                              what="skill"))
            out.append((scalar("skill", k), scalar(run.skill, k)))
            if isinstance(v, MappingNode) and "input" not in own:
                out.append((scalar("input", k), v))
            elif not (isinstance(v, ScalarNode) and (not str(v.value).strip() or v.tag.endswith(":null"))):
                r.src.warn(r.line(v), f"{raw}: {short(r.value(v))}: the skill's arguments are read only as a mapping "
                                      "of name: value; not read", "spec.unread")
            continue
        out.extend(_renamed(r, raw, k, v, own, used, has_name, notes))
    if run is not None and key is not None and run.vnode.start_mark is key.start_mark and "input" not in own:
        out = _arguments(r, out, run.skill, key)  # `fetch-feed: {url: x}` under `pipeline:`: url is its input
    if run is not None and run.how != "key" and meaning(run.key) in ("id", "name"):
        out.append((scalar("skill", run.knode), scalar(run.skill, run.vnode)))
        notes.append(note(r, run.knode, f"{run.key}: {run.skill}", "the step's name is a catalog skill: read as "
                                                                     "its skill", what="skill"))
    if run is not None and not own & {"id", "name"} and run.skill in once:
        out.append((scalar("id", item), scalar(run.skill, run.vnode)))
        notes.append(note(r, item, run.skill, "a step with no name or id: named by its skill", what="step"))
    if roots and "depends_on" not in own:  # the others say what they wait for: this one waits for nothing
        out.append((scalar("depends_on", item), SequenceNode(SEQ, [], item.start_mark, item.start_mark)))
    node = MappingNode(MAP, out, item.start_mark, item.end_mark)
    r.item_readings[id(node)] = [*r.item_readings.pop(id(item), []), *notes]  # (`own_schema` read it first)
    return node


def _names_skill(r: NodeReader, v: Node) -> bool:
    """Whether a block (a mapping, or a list whose first entry is one or a name) names a catalog skill."""
    first = v.value[0] if isinstance(v, SequenceNode) and v.value else v
    if isinstance(first, ScalarNode):
        return isinstance(v, SequenceNode) and _skill_of(r.src.vocabulary, first.value) is not None
    return bool(refs(r.src.vocabulary, first))


def _arguments(r: NodeReader, pairs: list[tuple[Node, Node]], skill: str, key: Node) -> list[tuple[Node, Node]]:
    """The keys of an item named by its skill that no table knows: that skill's inputs, warned."""
    known = set(_MEANING) | set(KEY_MEANINGS) | set(STEP_IGNORED) | FORM_OWN
    args = [(k, v) for k, v in pairs if isinstance(k, ScalarNode) and not yk.is_step_word(str(k.value))
            and yk.key_name(str(k.value)) not in known]
    if not args:
        return pairs
    r.src.warn(r.line(key), f"{key.value}: {', '.join(f'`{k.value}`' for k, _ in args)} (no step key): read as the "
                            f"inputs of `{skill}`, the skill the item is named after; put them under `input:` to say "
                            "so", "spec.anchored")
    inputs = MappingNode(MAP, args, args[0][0].start_mark, args[-1][1].end_mark)
    return [p for p in pairs if p not in args] + [(scalar("input", args[0][0]), inputs)]


def _renamed(r: NodeReader, raw: str, k: Node, v: Node, own: set[str], used: set[str], has_name: bool,
             notes: list[Reading]) -> list[tuple[Node, Node]]:
    if not raw or yk.is_step_word(raw):
        if raw and meaning(raw) == "on_error" and isinstance(v, MappingNode | SequenceNode) and "fallback" not in own:
            return failure_block(r, raw, k, v, notes)
        return [(k, v)]
    canonical = meaning(raw)
    if canonical == yk.key_name(raw) and failure_words(raw) and "fallback" not in own and _names_skill(r, v):
        used.add("fallback")  # `when_acme_fails: {skill: x}`: its words say when, its block what
        return failure_block(r, raw, k, v, notes)
    if canonical == yk.key_name(raw) or canonical in used or (canonical == "name" and has_name):
        return [(k, v)]  # not in the table, or its meaning is given already: the form warns it
    used.add(canonical)
    if canonical == "on_error" and isinstance(v, MappingNode | SequenceNode) and "fallback" not in own:
        return failure_block(r, raw, k, v, notes)
    if canonical == "timeout":  # `timeoutInMinutes: 5`: the unit its name says stays with it
        canonical += {60.0: "_minutes", 0.001: "_ms", 3600.0: "_hours"}.get(yk.unit_of(raw), "")
    notes.append(note(r, k, raw, f"`{raw}:` read as `{canonical}:` (what it means)"))
    return [(scalar(canonical, k), v)]
