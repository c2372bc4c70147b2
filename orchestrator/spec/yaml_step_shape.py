"""A step's keys in other tools' shapes, as the YAML form's own (`yaml_dialect` finds the steps).

    uses: ./skills/x, skills/x@v1; taskRef: {name: x}; script: x  → the skill `x`
    strategy: {matrix: {page: ref}} / parallel: {matrix: [{page: ref}]} / matrix: {params: [...]}
                                                                 → for_each: {page: ref}
    environment: {reviewers: [...], wait-timer: 120}              → an approval (2 h)
    rules: [{if: $X == "prod", when: manual}]                     → a condition and an approval
    when: [{input: $(params.x), operator: in, values: [a]}]       → `inputs.x == 'a'`
    when: manual | on_success | never                             → an approval | nothing | a warning
    depends: "a && b.Succeeded"; needs: [{job: a}]                → depends_on [a, b]
    trigger_rule: one_success; continueOn: {failed: true}         → join any; continue on error
    partial: {week: ref}; expand: {region: ref}                   → inputs week and region (the item)
    on-failure: {uses: ./skills/x}                                → a fallback to the skill `x`
    outputs: {pages: ${{ steps.s.outputs.pages }}}                → the output names
    steps: [{uses: actions/checkout@v4}, {uses: skills/x, with: ...}]  → the one skill step

The tables say which key of which tool means what; a key known to mean nothing for a run
(`runs-on:`, `image:`) is a reading shown in the plan; one that matters and cannot be read
is a warning naming the key and its line.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.ci_always29 import needs_of, status_when
from orchestrator.spec.ci_files26 import looped_wrapper
from orchestrator.spec.model import InputSpec, Reading
from orchestrator.spec.yaml_dialect import MAP, SEQ, by_name, note, pairs, scalar, short
from orchestrator.spec.yaml_fallback import failure_block
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_own_keys import own_keys

# step keys that say nothing a skill's run uses
STEP_IGNORED: dict[str, str] = {
    "runs_on": "the runner", "image": "the container image", "tags": "runner tags", "services": "service containers",
    "permissions": "the token's permissions", "concurrency": "concurrency groups", "operator": "the operator class",
    "stage": "the stage (read as an order)", "artifacts": "artifact paths", "cache": "the cache",
    "interruptible": "interruption", "resource_group": "the resource group", "pool": "the worker pool",
    "queue": "the worker queue", "owner": "the owner", "container": "the container", "workspaces": "workspaces",
    "result_path": "where the result goes in the state", "output_path": "the state's output filter",
    "input_path": "the state's input filter", "type": "the state's type", "comment": "a comment",
    "fail_fast": "fail-fast", "max_parallel": "the parallelism", "id": "the step's id", "name": "the display name",
    "shell": "the shell", "working_directory": "the working directory", "coverage": "coverage parsing",
}
# GitLab's `when:` words, and what each means for the job
WHEN_WORDS: dict[str, str] = {"on_success": "run", "always": "run", "manual": "approval", "never": "never",
                              "on_failure": "unsupported", "delayed": "unsupported"}
# Airflow's `trigger_rule` -> the join
TRIGGER_RULES: dict[str, str] = {"all_success": "all", "one_success": "any", "none_failed_min_one_success": "any",
                                 "none_failed": "all", "none_skipped": "all"}
# the keys of a GitHub `environment:` that make it an approval gate, and what each is in an `approval:`
ENVIRONMENT_KEYS: dict[str, str] = {"required_reviewers": "by", "reviewers": "by", "approvers": "by",
                                    "when": "when", "if": "when", "wait_timer": "timeout", "timeout": "timeout"}
KEY_UNITS: dict[str, str] = {"wait_timer": "min"}  # GitHub's `wait-timer` is in minutes
# Airflow's dynamic task mapping: keys whose mapping names the task's arguments
MAPPED_INPUTS = ("partial", "expand", "expand_kwargs")
# the keys that wrap a fan-out, and the key inside that holds it
FAN_OUT_WRAPPERS: dict[str, str] = {"strategy": "matrix", "parallel": "matrix"}
# the keys of a shell step (GitHub `run:`, GitLab `script:`): the command is not run
SHELL_KEYS = ("run", "script")
_SKILL = re.compile(r"^[A-Za-z0-9_][\w.-]*$")
_REF_SUFFIX = re.compile(r"@[\w.\-/]+$")


def skill_name(value: str) -> str:
    """`./skills/check-links` → `check-links`; `skills/x@v1` → `x`; `arn:...:function:x` → `x`."""
    text = _REF_SUFFIX.sub("", value.strip()).removeprefix("docker://").rstrip("/")
    if text.startswith("arn:"):
        text = text.rsplit(":", 1)[-1]
    if "/" in text:
        text = text.rsplit("/", 1)[-1]
    return text.removesuffix(".md") if text.lower() != "skill.md" else value




def reshape_step(r: NodeReader, keys: dict[str, tuple[Node, Node]], sid: str) -> tuple[
        dict[str, tuple[Node, Node]], list[Reading]]:
    """A step's keys in other tools' shapes, as the form's own (module docstring)."""
    notes: list[Reading] = []
    keys = own_keys(r, _inner_steps(r, keys, sid, notes), sid, notes)  # `resilience:`, `gate:` (`yaml_own_keys`)
    out: dict[str, tuple[Node, Node]] = {}
    passed: list[tuple[Node, Node]] = []  # Airflow `partial:` and `expand:`'s argument: inputs
    for raw, (knode, vnode) in keys.items():
        name = yk.key_name(raw)
        canonical = yk.step_key(raw)
        if name in MAPPED_INPUTS and isinstance(vnode, MappingNode):
            passed += _mapped_inputs(r, raw, knode, vnode, notes)
            if name == "partial":
                continue
        if canonical == "skill" or (name in SHELL_KEYS and _one_word(vnode)):
            pair = _skill(r, raw, knode, vnode, notes)
            if pair is not None:
                out[raw if canonical == "skill" else "skill"] = pair
                continue
        if name in FAN_OUT_WRAPPERS or (name == "matrix" and isinstance(vnode, MappingNode)):
            out.update(_fan_out(r, raw, knode, vnode, sid, notes))
            continue
        if name == "environment":
            out.update(_environment(r, raw, knode, vnode, notes))
            continue
        if name == "rules":
            out.update(_rules(r, knode, vnode, sid, notes))
            continue
        if canonical == "when" and isinstance(vnode, SequenceNode):  # Tekton when-expressions
            text = _when_expressions(r, vnode, sid)
            if text is not None:
                out[raw] = (knode, scalar(text, vnode))
            continue
        if canonical == "for_each" and isinstance(vnode, SequenceNode):  # Argo `withItems: [a, b]`
            out["for_each"] = (knode, literal_list(r, vnode, sid, notes))
            continue
        if canonical == "when" and isinstance(vnode, ScalarNode) and _STATUS.search(str(vnode.value)):
            said = status_when(r, vnode, sid, needs_of(keys), notes)  # `always()` on a join, `failure()`
            if said is not None and said[1]:
                out["join"] = (knode, scalar("any", vnode))
            text = _status(r, vnode, sid, notes) if said is None else said[0]
            if text is not None:
                out[raw] = (knode, scalar(text, vnode))
            continue
        if canonical == "when" and isinstance(vnode, ScalarNode) and str(vnode.value).lower() in WHEN_WORDS:
            out.update(_when_word(r, knode, vnode, sid, notes))
            continue
        if canonical == "depends_on":
            joins: list[Node] = []  # Argo `a || b`: whichever ran
            out[raw] = (knode, _depends(r, vnode, sid, notes, joins))
            if joins:
                out["join"] = (knode, scalar("any", joins[0]))
            continue
        if name == "trigger_rule" and isinstance(vnode, ScalarNode):
            join = TRIGGER_RULES.get(str(vnode.value).lower())
            if join is None:
                r.src.warn(r.line(vnode), f"{sid}: trigger_rule '{vnode.value}' has no join here (all_success, "
                                          "one_success); the step waits for all", "spec.unread")
            else:
                out["join"] = (knode, scalar(join, vnode))
            continue
        if name == "continue_on" and isinstance(vnode, MappingNode):  # Argo `continueOn: {failed: true}`
            said = r.value(vnode)
            out["continue_on_error"] = (knode, scalar("true" if isinstance(said, dict) and any(
                said.get(k) is True for k in ("failed", "error")) else "false", vnode))
            continue
        if canonical == "on_error" and isinstance(vnode, MappingNode | SequenceNode) and "fallback" not in keys:
            out.update({str(k.value): (k, v) for k, v in failure_block(r, raw, knode, vnode, notes)})
            continue  # `on-failure: {uses: ./skills/x}`, `rescue: [{skill: x}]`: a fallback (`yaml_fallback`)
        if canonical in ("output", "outputs") and isinstance(vnode, MappingNode) and all(
                isinstance(v, ScalarNode) and yk.unwrap(str(v.value)) is not None for _, v in vnode.value):
            names = [_output_name(k, v) for k, v in vnode.value]  # GitHub job outputs: `n: ${{ steps.x.outputs.f }}`
            out[raw] = (knode, SequenceNode(SEQ, names, vnode.start_mark, vnode.end_mark))
            continue
        if name in STEP_IGNORED and canonical not in ("skill", "when", "depends_on", "input") and name not in (
                "id", "name"):
            notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}",
                               f"{STEP_IGNORED[name]}: not used when the workflow runs"))
            continue
        out[raw] = (knode, vnode)
    if passed:
        _add_inputs(out, passed)
    return out, notes


def _mapped_inputs(r: NodeReader, raw: str, knode: Node, vnode: MappingNode, notes: list[Reading]) -> list[
        tuple[Node, Node]]:
    """Airflow's `partial: {week: ref}` (the same value for every mapped task) → the input `week`;
    `expand: {region: ref}` (one task per item) → the input `region` is the item."""
    if yk.key_name(raw) == "partial":
        notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", "the inputs every mapped task gets"))
        return list(vnode.value)
    if len(vnode.value) != 1:  # two lists are a cross product: `_loop_text` reports it at the line
        return []
    key, value = vnode.value[0]
    notes.append(note(r, key, f"{raw}: {key.value}", f"each item is the input `{key.value}`"))
    return [(key, scalar("{{ item }}", value))]


def _add_inputs(out: dict[str, tuple[Node, Node]], passed: list[tuple[Node, Node]]) -> None:
    """`passed` added to the step's input mapping (made when absent); a name the step's own
    inputs also give keeps their value."""
    raw = next((k for k in out if yk.step_key(k) == "input" and isinstance(out[k][1], MappingNode)), None)
    if raw is None:
        first = passed[0][0]
        out["input"] = (scalar("input", first), MappingNode(MAP, [], first.start_mark, first.end_mark))
        raw = "input"
    knode, vnode = out[raw]
    have = {str(k.value) for k, _ in vnode.value if isinstance(k, ScalarNode)}
    texts = " ".join(str(v.value) for _, v in vnode.value if isinstance(v, ScalarNode))
    # an item the step's own inputs read fields of (`slug: "{{ page.slug }}"`) is their loop
    # variable, not one more input
    extra = [(k, v) for k, v in passed if str(getattr(k, "value", "")) not in have
             and not _read_as_loop_variable(str(getattr(k, "value", "")), texts)]
    out[raw] = (knode, MappingNode(MAP, [*vnode.value, *extra], vnode.start_mark, vnode.end_mark))


def _read_as_loop_variable(name: str, texts: str) -> bool:
    return bool(name) and re.search(r"\{\{\s*+" + re.escape(name) + r"\.\w", texts) is not None


def _output_name(key: Node, value: Node) -> Node:
    """The field a job output reads (`f` of `${{ steps.x.outputs.f }}`), else the output's own name."""
    path = yk.canonical_path(yk.unwrap(str(value.value)) or "")
    parts = path.split(".")
    return scalar(parts[3], value) if len(parts) == 4 and parts[0] == "steps" and parts[2] == "output" else key


def _one_word(node: Node) -> bool:
    if isinstance(node, SequenceNode) and len(node.value) == 1:
        node = node.value[0]
    return isinstance(node, ScalarNode) and _SKILL.match(str(node.value).strip()) is not None


def _skill(r: NodeReader, raw: str, knode: Node, vnode: Node, notes: list[Reading]) -> tuple[Node, Node] | None:
    if isinstance(vnode, SequenceNode) and len(vnode.value) == 1:
        vnode = vnode.value[0]
    if isinstance(vnode, MappingNode):  # Tekton `taskRef: {name: x}`, Argo `templateRef: {template: x}`
        own = by_name(vnode)
        pick = own.get("template") or own.get("name")
        if pick is None or not isinstance(pick[1], ScalarNode):
            return None
        vnode = pick[1]
    if not isinstance(vnode, ScalarNode):
        return None
    said = str(vnode.value)
    name = skill_name(said)
    if name != said:
        notes.append(note(r, vnode, f"{raw}: {said}", f"read as the skill `{name}`", what="skill"))
    return knode, scalar(name, vnode)


def _fan_out(r: NodeReader, raw: str, knode: Node, vnode: Node, sid: str, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    """`strategy: {matrix: {page: ref}}`, GitLab `parallel: {matrix: [{page: ref}]}`, Tekton
    `matrix: {params: [{name: page, value: ref}]}` → `for_each: {page: ref}`."""
    inner_key = FAN_OUT_WRAPPERS.get(yk.key_name(raw))
    node = vnode
    if inner_key is not None:
        own = by_name(vnode)
        looped = looped_wrapper(own)  # `parallel: {for_each: list.snapshots}`: a loop (`spec.ci_files26`)
        if looped is not None:
            notes.append(note(r, knode, f"{raw}: {looped[0]}", "a loop over the list it names, one run per item",
                              what="for_each"))
            return {"for_each": (knode, looped[1])}
        for k, (kn, vn) in own.items():
            if k != inner_key:
                notes.append(note(r, kn, f"{k}: {short(r.value(vn))}", f"{STEP_IGNORED.get(k, k)}: not used"))
        if inner_key not in own:
            r.src.warn(r.line(knode), f"{sid}: {raw} holds no `{inner_key}:`; not read", "spec.unread")
            return {}
        node = own[inner_key][1]
    if isinstance(node, SequenceNode) and len(node.value) == 1:
        node = node.value[0]
    named = r.named_list(node)
    if named is not None:  # Tekton: `params: [{name: page, value: ref}]`
        node = MappingNode(MAP, list(named.values()), node.start_mark, node.end_mark)
    if isinstance(node, MappingNode):  # GitHub's `include:` / `exclude:` add or drop combinations
        extra = [(k, v) for k, v in node.value if yk.key_name(str(k.value)) in ("include", "exclude")]
        for k, _ in extra:
            r.src.warn(r.line(k), f"{sid}: matrix.{k.value} is not read (skillweave loops over one list)",
                       "spec.for-each")
        node = MappingNode(MAP, [p for p in node.value if p not in extra], node.start_mark, node.end_mark)
    if isinstance(node, MappingNode) and len(node.value) > 1:
        r.src.error(r.line(node), f"{sid}: a matrix over {len(node.value)} variables is a cross product; "
                                  "skillweave loops over one list: write one variable", "spec.for-each")
        return {}
    return {"for_each": (knode, literal_list(r, node, sid, notes))}


def literal_list(r: NodeReader, node: Node, sid: str, notes: list[Reading]) -> Node:
    """A list written in the spec to loop over (Argo `withItems: [a, b]`, a matrix `os: [a, b]`)
    is a workflow input with that list as its default (`<step>_items`, shown in the plan)."""
    var, values = "item", node
    if isinstance(node, MappingNode) and len(node.value) == 1:
        var, values = str(node.value[0][0].value), node.value[0][1]
    if not isinstance(values, SequenceNode):
        return node
    name = f"{sid}_items".replace("-", "_")
    items = r.value(values)
    r.implicit_inputs.append(InputSpec(name=name, type="array", required=False, default=items,
                                       description=f"the list written at line {r.line(values)}",
                                       where=r.src.where(r.line(values))))
    notes.append(note(r, values, f"{_short_list(items)}", f"a list written in the spec: the workflow input "
                                                          f"`{name}` (its default), looped over as `{var}`",
                      what="for_each"))
    return scalar(f"{var} in inputs.{name}", values)


def _short_list(items: object) -> str:
    return short(items)


def _environment(r: NodeReader, raw: str, knode: Node, vnode: Node, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    """A deployment environment is an approval when it names reviewers; else only a name."""
    own = by_name(vnode)
    gate = [(ENVIRONMENT_KEYS[k], pair) for k, pair in own.items() if k in ENVIRONMENT_KEYS]
    if not any(kind == "by" for kind, _ in gate):
        notes.append(note(r, knode, f"{raw}: {short(r.value(vnode))}",
                           "a deployment environment with no reviewers: no approval"))
        return {}
    pairs: list[tuple[Node, Node]] = []
    for kind, (kn, vn) in gate:
        unit = KEY_UNITS.get(yk.key_name(str(kn.value)))
        if unit and isinstance(vn, ScalarNode) and re.fullmatch(r"\d+(?:\.\d+)?", str(vn.value)):
            vn = scalar(f"{vn.value} {unit}", vn)
        pairs.append((scalar(kind, kn), vn))
    for k, (kn, vn) in own.items():
        if k not in ENVIRONMENT_KEYS:
            notes.append(note(r, kn, f"{k}: {short(r.value(vn))}", "the environment's name: not used"))
    notes.append(note(r, knode, raw, "an environment with reviewers: read as an approval"))
    return {"approval": (knode, MappingNode(MAP, pairs, vnode.start_mark, vnode.end_mark))}


def _rules(r: NodeReader, knode: Node, vnode: Node, sid: str, notes: list[Reading]) -> dict[str, tuple[Node, Node]]:
    """GitLab `rules:`: the first rule that matches decides; `if:` rules that run the job are
    joined with `or`, a `when: never` rule before them is `not`; `when: manual` is an approval."""
    if not isinstance(vnode, SequenceNode):
        r.src.warn(r.line(vnode), f"{sid}: rules must be a list of `- if:` entries; not read", "spec.unread")
        return {}
    runs: list[str] = []
    never: list[str] = []
    manual = False
    for item in vnode.value:
        own = by_name(item)
        cond = own.get("if")
        when = str(own["when"][1].value).lower() if "when" in own else "on_success"
        for k in set(own) - {"if", "when"}:
            r.src.warn(r.line(own[k][0]), f"{sid}: rules.{k} not understood", "spec.unread")
        meaning = WHEN_WORDS.get(when, "unsupported")
        if meaning == "unsupported":
            r.src.warn(r.line(item), f"{sid}: a rule with `when: {when}` cannot be read; not read", "spec.unread")
            continue
        text = yk.condition_text(str(cond[1].value)) if cond is not None else None
        if meaning == "never":
            if text is None:
                break
            never.append(f"not ({text})")
            continue
        manual = manual or meaning == "approval"
        if text is None:  # a rule with no `if:` matches everything left
            runs = []
            break
        runs.append(text)
    parts = never + ([" or ".join(f"({t})" for t in runs)] if len(runs) > 1 else runs)
    out: dict[str, tuple[Node, Node]] = {}
    if parts:
        out["when"] = (knode, scalar(" and ".join(parts) if len(parts) > 1 else parts[0], vnode))
        notes.append(note(r, knode, "rules", f"read as the condition `{out['when'][1].value}`", what="when"))
    if manual:
        out["approval"] = (knode, scalar("true", vnode))
        notes.append(note(r, knode, "when: manual", "a manual job: read as an approval"))
    return out


def _when_word(r: NodeReader, knode: Node, vnode: Node, sid: str, notes: list[Reading]) -> dict[str, tuple[Node, Node]]:
    word = str(vnode.value).lower()
    meaning = WHEN_WORDS[word]
    if meaning == "approval":
        notes.append(note(r, knode, f"when: {word}", "a manual job: read as an approval"))
        return {"approval": (knode, scalar("true", vnode))}
    if meaning == "run":
        notes.append(note(r, knode, f"when: {word}", "runs as any step does: no condition"))
        return {}
    r.src.warn(r.line(vnode), f"{sid}: `when: {word}` cannot be read (a step runs when its "
                              "dependencies succeed or its condition holds); not read", "spec.unread")
    return {}


# GitHub's status functions in `if:`: what each means here (None: not supported, warned)
STATUS_FUNCTIONS: dict[str, str | None] = {"success": "true", "succeeded": "true", "always": None, "failure": None,
                                           "failed": None, "cancelled": None, "canceled": None,
                                           "succeededOrFailed": None}
_STATUS = re.compile(r"\b(" + "|".join(sorted(STATUS_FUNCTIONS, key=len, reverse=True)) + r")\(\s*\)")


def _status(r: NodeReader, node: ScalarNode, sid: str, notes: list[Reading]) -> str | None:
    """`if: success() && x` is `x`; `always()` / `failure()` are warned (a step runs here after its
    dependencies succeed, or were skipped as branches not taken) and read as success()."""
    text = str(node.value)
    for name in dict.fromkeys(_STATUS.findall(text)):
        if STATUS_FUNCTIONS[name] is None:
            r.src.warn(r.line(node), f"{sid}: `{name}()` is not read: a step runs after its dependencies succeed "
                                     "(or were skipped as a branch not taken); read as success()", "spec.when")
    inner = yk.condition_text(text)
    inner = _STATUS.sub("true", inner)
    inner = re.sub(r"(?:(?<!\s)\s+)?(?:&&|\band\b)\s*true\b|\btrue\s*(?:&&|\band\b)\s*", " ", inner).strip()
    notes.append(note(r, node, text, f"status functions read: {inner if inner != 'true' else 'no condition'}",
                      what="when"))
    return None if inner in ("true", "") else inner


_OPERATORS = {"in": "in", "notin": "not in", "not_in": "not in"}


def _when_expressions(r: NodeReader, node: SequenceNode, sid: str) -> str | None:
    """Tekton: `[{input: $(params.x), operator: in, values: [a]}]` (all must hold); `cel:`."""
    parts: list[str] = []
    for item in node.value:
        own = by_name(item)
        if "cel" in own:
            parts.append(yk.condition_text(str(own["cel"][1].value)))
            continue
        said = r.value(item) if isinstance(item, MappingNode) else None
        op = _OPERATORS.get(str(said.get("operator", "")).lower()) if isinstance(said, dict) else None
        if not isinstance(said, dict) or op is None or not isinstance(said.get("values"), list):
            r.src.warn(r.line(item), f"{sid}: when: write `{{input: $(params.x), operator: in, values: [...]}}`; "
                                     "not read", "spec.when")
            return None
        left = yk.condition_text(str(said.get("input", "")))
        values = said["values"]
        if len(values) == 1:
            parts.append(f"{left} {'==' if op == 'in' else '!='} {values[0]!r}")
        else:
            parts.append(f"{left} {op} {values!r}")
    return " and ".join(parts) if parts else None


_DEPENDS_WORD = re.compile(r"^([A-Za-z0-9_][\w-]*)(?:\.(Succeeded|Failed|Errored|Skipped|Omitted|Daemoned|AnySucceeded|"
                           r"AllFailed))?$")


def _depends(r: NodeReader, node: Node, sid: str, notes: list[Reading], joins: list[Node]) -> Node:
    """`needs: [{job: a}]` (GitLab) → [a]; Argo `depends: "a && (b.Succeeded || c)"` → [a, b, c]
    (with `||` the join is any); an outcome other than success is a warning."""
    if isinstance(node, SequenceNode) and any(isinstance(n, MappingNode) for n in node.value):
        names: list[Node] = []
        for item in node.value:
            own = by_name(item)
            pick = own.get("job") or own.get("name") or own.get("task")
            if isinstance(item, ScalarNode):
                names.append(item)
            elif pick is not None and isinstance(pick[1], ScalarNode):
                names.append(pick[1])
            else:
                r.src.warn(r.line(item), f"{sid}: a `needs:` entry without `job:`; not read", "spec.unread")
        return SequenceNode(SEQ, names, node.start_mark, node.end_mark)
    if not isinstance(node, ScalarNode) or not re.search(r"&&|\|\||\.[A-Z]", str(node.value)):
        return node
    text = str(node.value)
    words = [w for w in re.split(r"(?:(?<!\s)\s+)?(?:&&|\|\||[()!])\s*", text) if w.strip()]
    names_text: list[str] = []
    for word in words:
        m = _DEPENDS_WORD.match(word.strip())
        if m is None or (m.group(2) and m.group(2) not in ("Succeeded", "AnySucceeded")):
            r.src.warn(r.line(node), f"{sid}: depends '{word.strip()}': a step runs after its "
                                     "dependencies succeed; an outcome other than success is not read", "spec.unread")
            if m is None:
                continue
        names_text.append(m.group(1))
    names_text = list(dict.fromkeys(names_text))
    any_of = "||" in text and "&&" not in text
    said = (" or " if any_of else ", ").join(names_text) or "nothing"
    notes.append(note(r, node, f"depends: {text}", f"read as depends on {said}", what="depends_on"))
    if any_of:
        joins.append(node)
    return SequenceNode(SEQ, [scalar(n, node) for n in names_text], node.start_mark, node.end_mark)


def _inner_steps(r: NodeReader, keys: dict[str, tuple[Node, Node]], sid: str, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    """A GitHub job's `steps:`: the one step that uses a skill gives the job its keys; checkout
    and other actions are readings; a shell `run:` is a warning (it is not run)."""
    pair = next(((k, p) for k, p in keys.items() if yk.key_name(k) == "steps"), None)
    if pair is None or not isinstance(pair[1][1], SequenceNode):
        return keys
    raw, (knode, vnode) = pair
    chosen: list[Node] = []
    for item in vnode.value:
        own = by_name(item)
        uses = own.get("uses")
        if uses is not None and isinstance(uses[1], ScalarNode) and str(uses[1].value).startswith("actions/"):
            notes.append(note(r, uses[1], f"uses: {uses[1].value}", "a GitHub action, not a skill: not run"))
        elif uses is not None or "skill" in own:
            chosen.append(item)
        else:
            r.src.warn(r.line(item), f"{sid}: a step with no skill (`run:` commands are not run); not read",
                       "spec.unread")
    out = {k: p for k, p in keys.items() if k != raw}
    if len(chosen) != 1:  # several are read as a step each (`yaml_jobs`)
        r.src.error(r.line(knode), f"{sid}: no step of this job uses a skill (`uses: ./skills/NAME`)", "spec.yaml")
        return out
    for k, p in pairs(chosen[0]).items():
        if k in out and yk.key_name(k) not in ("id", "name"):
            r.src.warn(r.line(p[0]), f"{sid}: `{k}:` is given on the job and on its step; the job's is read",
                       "spec.unread")
        elif yk.key_name(k) not in ("id", "name"):
            out[k] = p
    notes.append(note(r, chosen[0], "steps", "the job's one skill step: read as the job"))
    return out
