"""Steps written as a list of one-key mappings, and a limit said as one value, in an author's own YAML.

    chores:                                 → the steps `weigh` and `label`, in order: each item's one key
      - weigh:                                its id, its mapping the step's keys (a reading at its line)
          does: scale-read
      - label: {does: print-label, only_if: weigh.grams > 0}
    steps:
      - step: {id: a, skill: x}             → the step `a` (a key that only says "a step" wraps it)
    budget: 10m                             → the whole run's time limit (`timeout: 10m`); `caps:`, `limits:`,
                                              `guardrails:`, `quotas:` with one duration too

A list is read so when each of its items is one key holding a mapping (or a catalog skill's name:
`- fetch: fetch-feed`), the key no step key of the form's (`skill:`, `when:`...) unless its mapping
says what it runs (`- run: {does: assign-run}`); a key that is a catalog skill, over a mapping that
names none, is the step's skill, the mapping's step keys its keys and the others its arguments
(`- fetch-feed: {url: u, retry: 2}`). It is the list under the steps' key (`steps:`, `jobs:`,
`tasks:`...); without one, the one top-level list of such items most of which say what they run
(`run:`, `does:`, `uses:`), also one level down (`sweep: {routine: [...]}`: the keys beside it are
read as top-level keys). A key that is not an id (`Weigh it`) is made one, the key kept as the name.

A limits key holding one value where the form wants a mapping of limits: a duration with its unit
is the whole run's limit (the form's `timeout:`, said in a reading); any other value (`budget: 600`,
`budget: lots`) is warned at its line and not read. Then the steps' wiring kept in a block of its
own (`yaml_wiring`).

In every step's values (whatever shape its list had): a bare `yes` / `no` / `on` / `off` compared in
a condition (`only_if: probe.dry == yes`) is YAML's true / false, as its author's YAML taught him,
read so and warned at its line (a quoted `'yes'` stays the text); `@` before a wait in a retry
(`2x @ 20s`) is read as "every" (a reading), for the phrase reader.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import policy_text as pt
from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.yaml_dialect import MAP, note, scalar, short
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_wiring import wire_steps

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

Pair = tuple[Node, Node]
# a key that only says its mapping is a step
_WRAPPERS = frozenset({"step", "stage", "task", "job", "phase", "action", "item"})
_ID = _rx(r"^[A-Za-z0-9_][\w-]*+$")
_RUNS = frozenset({"run", "script", "exec", "execute"})
# YAML's own booleans compared bare in a condition: `only_if: score.bad == yes`
_YES_NO = _rx(r"(?i)(?P<op>[=!]=)\s*+(?P<word>yes|no|on|off)(?![\w'\"-])")
_BOOL = {"yes": "true", "on": "true", "no": "false", "off": "false"}
# a retry's wait after an at sign: `2x @ 20s` (each try 20 s after the last)
_AT = _rx(r"(?<![\w@])@\s*+(?=\d)")


def _runs(node: MappingNode) -> bool:
    """Whether a step's mapping says what it runs (`skill:`, `uses:`, `does:`, `run: x`)."""
    return any(isinstance(k, ScalarNode) and (yk.step_key(str(k.value)) == "skill" or yk.key_name(str(k.value)) in _RUNS)
               for k, _ in node.value)


def _one_key(r: NodeReader, item: Node) -> tuple[ScalarNode, MappingNode] | None:
    """The key and the step's keys of an item that is one key holding a step, else None: its mapping;
    `- fetch: fetch-feed` (a catalog skill) `{skill: fetch-feed}`; `- fetch-feed: {url: u}` (the key a
    catalog skill, the mapping saying no skill) `{skill: fetch-feed, url: u}`."""
    if not isinstance(item, MappingNode) or len(item.value) != 1:
        return None
    key, value = item.value[0]
    if not isinstance(key, ScalarNode) or not str(key.value).strip():
        return None
    raw = str(key.value)
    skill = r.src.vocabulary.skill_for(str(value.value).strip()) if isinstance(value, ScalarNode) else None
    if skill is not None:
        value = MappingNode(MAP, [(scalar("skill", value), scalar(skill, value))], value.start_mark, value.end_mark)
    if not isinstance(value, MappingNode):
        return None
    name = yk.key_name(raw)
    if name not in _WRAPPERS and (yk.step_key(raw) in yk.STEP_SYNONYMS or name in _RUNS) and not _runs(value):
        return None  # `- with: {...}`: a key of a step, not a step (`- run: {does: x}` is the step `run`)
    if not _runs(value) and (skill := r.src.vocabulary.skill_for(raw)) is not None:  # its arguments, its keys
        args = [(k, v) for k, v in value.value if not isinstance(k, ScalarNode) or yk.step_key(str(k.value)) not in
                yk.STEP_SYNONYMS]
        own = [pair for pair in value.value if pair not in args]
        given = [(scalar("input", key), MappingNode(MAP, args, value.start_mark, value.end_mark))] if args else []
        value = MappingNode(MAP, [(scalar("skill", key), scalar(skill, key)), *given, *own], value.start_mark,
                            value.end_mark)
    return key, value


def _one_key_list(r: NodeReader, node: Node, strict: bool) -> bool:
    if not isinstance(node, SequenceNode) or not node.value:
        return False
    found = [_one_key(r, item) for item in node.value]
    if any(f is None for f in found):
        return False
    running = sum(_runs(f[1]) for f in found if f is not None)
    return not strict or running * 2 > len(found)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _as_steps(r: NodeReader, node: SequenceNode) -> dict[str, MappingNode]:
    """Each item made the step its one key says, in place (its own line kept); each step's id and mapping."""
    out: dict[str, MappingNode] = {}
    for item in node.value:
        found = _one_key(r, item)
        assert found is not None and isinstance(item, MappingNode)
        key, value = found
        raw = str(key.value).strip()
        said = {yk.step_key(str(k.value)): (k, v) for k, v in value.value if isinstance(k, ScalarNode)}
        readings = r.item_readings.setdefault(id(item), [])
        if yk.key_name(raw) in _WRAPPERS:
            item.value = list(value.value)
            readings.append(note(r, key, raw, f"`{raw}:` holds the step's keys", what="step"))
        elif "id" in said:
            item.value = [*value.value, *([(scalar("name", key), scalar(raw, key))] if "name" not in said else [])]
            readings.append(note(r, key, raw, f"the step's label (its id is its own `id:`, "
                                              f"{short(r.value(said['id'][1]))})", what="step"))
        else:
            sid = raw if _ID.match(raw) else _slug(raw) or f"step-{len(out) + 1}"
            named = [(scalar("name", key), scalar(raw, key))] if sid != raw and "name" not in said else []
            item.value = [(scalar("id", key), scalar(sid, key)), *named, *value.value]
            readings.append(note(r, key, raw, f"a list of one-key mappings: `{raw}:` read as the step `{sid}`, its "
                                              "mapping as the step's keys", what="step"))
        ident = next((v for k, v in item.value if isinstance(k, ScalarNode) and str(k.value) == "id"), None)
        if isinstance(ident, ScalarNode):
            out.setdefault(str(ident.value), item)
    return out


def _plain_steps(node: Node) -> dict[str, MappingNode]:
    """The ids and mappings of steps written in the form's own shapes (`- id: a`, `a: {...}`)."""
    out: dict[str, MappingNode] = {}
    if isinstance(node, SequenceNode):
        for item in node.value:
            if isinstance(item, MappingNode):
                ident = next((v for k, v in item.value if isinstance(k, ScalarNode) and
                              yk.step_key(str(k.value)) == "id" and isinstance(v, ScalarNode)), None)
                if ident is not None:
                    out.setdefault(str(ident.value), item)
    elif isinstance(node, MappingNode):
        out = {str(k.value): v for k, v in node.value if isinstance(k, ScalarNode) and isinstance(v, MappingNode)}
    return out


def _lift(r: NodeReader, top: dict[str, Pair], notes: list[Reading]) -> dict[str, Pair]:
    """`sweep: {ask_for: ..., routine: [- a: {...}]}`: the one mapping holding the steps' list, its keys lifted."""
    holders = [(raw, k, v) for raw, (k, v) in top.items() if isinstance(v, MappingNode) and any(
        isinstance(ik, ScalarNode) and _one_key_list(r, iv, strict=yk.top_key(str(ik.value)) != "steps")
        for ik, iv in v.value)]
    if len(holders) != 1:
        return top
    raw, knode, vnode = holders[0]
    out = {k: p for k, p in top.items() if k != raw}
    for ik, iv in vnode.value:
        if isinstance(ik, ScalarNode) and str(ik.value) not in out:
            out[str(ik.value)] = (ik, iv)
    notes.append(note(r, knode, raw, "holds the workflow's steps and its own keys: each read as a top-level key"))
    return out


def _limit(r: NodeReader, top: dict[str, Pair], notes: list[Reading]) -> None:
    """A limits key holding one value (module docstring)."""
    for raw, (knode, vnode) in list(top.items()):
        if yk.top_key(raw) != "limits" or not isinstance(vnode, ScalarNode):
            continue
        said = str(vnode.value).strip()
        words = said.lower()
        del top[raw]
        if (pt.parse_duration(words) is None or words.replace(".", "", 1).isdigit()) and yk.iso_duration(said) is None:
            r.src.warn(r.line(vnode), f"{raw}: '{short(said)}' is no duration with its unit and no mapping of "
                                      f"limits; not read. For the whole run's time limit write `timeout: 10m`",
                       "spec.limit")
            continue
        if any(yk.top_key(k) == "timeout" for k in top):
            r.src.warn(r.line(knode), f"{raw}: {said} says the whole run's time limit again; the `timeout` key "
                                      "is read", "spec.unread")
            continue
        top["timeout"] = (knode, vnode)
        notes.append(note(r, knode, f"{raw}: {said}", "one duration: the whole run's time limit (timeout:)"))


def _step_words(r: NodeReader, step: MappingNode) -> None:
    """A step's values in YAML's words: a bare `yes` / `no` compared in its condition is YAML's true / false
    (warned: written plainly it is `== true`); `2x @ 20s` in its retry is `2x every 20s` (a reading)."""
    readings = r.item_readings.setdefault(id(step), [])
    for i, (k, v) in enumerate(step.value):
        if not isinstance(k, ScalarNode) or not isinstance(v, ScalarNode) or v.style or not isinstance(v.value, str):
            continue
        kind = yk.step_key(str(k.value))
        if kind == "when" and _YES_NO.search(v.value):
            said = _YES_NO.sub(lambda m: f"{m.group('op')} {_BOOL[m.group('word').lower()]}", v.value)
            r.src.warn(r.line(v), f"{k.value}: '{short(v.value)}': YAML's yes / no read as true / false "
                                  f"('{short(said)}'); write `== true` or `== false` to say so, or quote the word "
                                  "for the text", "spec.when")
            step.value[i] = (k, scalar(said, v))
        elif kind in ("retry", "retries", "attempts") and _AT.search(v.value):
            said = _AT.sub("every ", v.value)
            readings.append(note(r, v, f"{k.value}: {v.value}", f"`@` before a wait read as 'every' ('{said}')",
                                 what="retry"))
            step.value[i] = (k, scalar(said, v))


def read_one_key_top(r: NodeReader, top: dict[str, Pair]) -> tuple[dict[str, Pair], list[Reading]]:
    """`top` with one-key steps made the form's steps, a one-value limit its timeout and the wiring
    block read into the steps (module docstring); the notes for the plan."""
    notes: list[Reading] = []
    steps_key = next((k for k in top if yk.top_key(k) == "steps"), None)
    if steps_key is None and not any(_one_key_list(r, v, strict=True) for _, v in top.values()):
        top = _lift(r, top, notes)
        steps_key = next((k for k in top if yk.top_key(k) == "steps"), None)
    if steps_key is None:
        lists = [k for k, (_, v) in top.items() if _one_key_list(r, v, strict=True)]
        if len(lists) == 1:
            steps_key = lists[0]
            notes.append(note(r, top[steps_key][0], steps_key, f"the list of steps (`{steps_key}` read as `steps:`)"))
            top = {("steps" if k == steps_key else k): p for k, p in top.items()}
            steps_key = "steps"
    _limit(r, top, notes)
    if steps_key is None:
        return top, notes
    node = top[steps_key][1]
    steps = _as_steps(r, node) if isinstance(node, SequenceNode) and _one_key_list(r, node, strict=False) else (
        _plain_steps(node))
    for step in steps.values():
        _step_words(r, step)
    if steps:
        notes += wire_steps(r, top, steps)
    return top, notes


_rx.save()
