"""A YAML step's keys in its author's own plain words: what does the work, what it eats, what it
goes round, and which step it goes off with.

    machine: weather-outlook              → skill: weather-outlook (a key naming what does the work,
                                            when the step names no skill by a key the form knows)
    eats: {frost: forecast's frost_flag}  → input: frost from step forecast's output, the field the
                                            words name (`plan.words_field26`: the one field sharing a
                                            word with them when none has that name, warned there)
    eats: {readings: all the moisture answers together}   → (kept as words: `plan.gather_words`)
    eats: day / eats: plan's schedule     → the step's words, where the planner names the value
                                            (a renamed one is warned there); no input name is made up
    eats: the bed        (beside per:)    → the loop's item (the one input nothing else gives)
    per: every bed in beds                → for_each: bed in beds (also `one_per:`, `loop:` in words)
    goes_with: moisture                   → the later of the two starts with the earlier, waiting for
                                            what it waits for (`StepSpec.starts_with`); a step that
                                            names its own dependencies keeps them (warned)

`own_words` renames the keys before the form's aliases see them and returns what else it read;
`apply` puts that on the built step; `pair_starts` and `possessive_handoffs` run once over the
steps. A key whose value does not read so is left to the form, which warns it at its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.yaml_dialect import STR, note, scalar, short
from orchestrator.spec.yaml_node import NodeReader

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# keys that name what does the step's work, read as `skill:` when the value is one name
# (not `device:`, `bot:`: an ML config's `device: cuda`, a chat-ops bot's name; a value that is no plain text,
# CircleCI's `machine: true`, is never a skill)
SKILL_WORDS = frozenset({"machine", "machinery", "robot", "gadget", "contraption", "done_by_skill", "use_skill",
                         "uses_skill", "skill_to_use", "worked_by", "operated_by"})
# keys that say what the step is given
INPUT_WORDS = frozenset({"eats", "eat", "feeds_on", "fed_on", "consumes", "consume", "ingests", "swallows",
                         "chews", "chews_on", "munches", "intake", "takes_in", "diet", "food"})
# keys that say what the step goes round, read as `for_each:` when the value reads as a loop
LOOP_WORDS = frozenset({"per", "per_each", "for_each_one", "round", "goes_round", "go_round", "goes_through_each",
                        "cycle_over", "cycles_over", "walk", "walks", "walk_over", "walks_over"})
# keys that name the step(s) this one starts together with
TOGETHER_WORDS = frozenset({"goes_with", "go_with", "goes_off_with", "goes_together_with", "together_with",
                            "alongside", "runs_alongside", "run_alongside", "same_time_as", "at_same_time_as",
                            "starts_with", "start_with", "starts_together_with", "start_together_with",
                            "parallel_with", "in_parallel_with", "runs_with", "concurrent_with", "side_by_side_with",
                            "beside"})

# `every bed in beds`, `one go per bed in beds`, `each order of the orders`, `for every row from rows`
_LOOP = _rx(r"(?i)^\s*+(?:(?:one\s++(?:go|run|pass|call|time|round)\s++)?+(?:per|for)\s++(?:every\s++|each\s++)?+"
            r"|(?:every|each|all)\s++)(?:single\s++|one\s++)?+(?:the\s++)?+([A-Za-z_]\w*+)\s++(?:in|of|from|on|off)"
            r"\s++(?:the\s++)?+([A-Za-z_][\w.-]*+)(?:\s++(?:list|array|board))?+\s*+$")
# `forecast's frost_flag`, `the plan's schedule`: a step's value in words
_POSSESSIVE = _rx(r"(?i)^\s*+(?:the\s++)?+([A-Za-z_][\w-]*+)['\u2019]s\s++(?:the\s++)?+([A-Za-z_][\w ]{0,60}+)$")
_ONE_NAME = _rx(r"^[A-Za-z0-9_][\w.-]*+$")
_MARK = "starts together with"  # a reading's note: `pair_starts` finds the names it holds


@dataclass
class Own:
    """What `own_words` read of a step's keys besides renaming them."""

    readings: list[Reading] = field(default_factory=list)
    words: list[str] = field(default_factory=list)  # what it eats, said in words: the step's text


def loop_phrase(text: str) -> str | None:
    """`every bed in beds` → `bed in beds`; None for a text that is not written so."""
    m = _LOOP.match(text) if len(text) < 200 else None
    return f"{m.group(1)} in {m.group(2)}" if m is not None else None


def _has(keys: dict[str, tuple[Node, Node]], *canonical: str) -> bool:
    return any(yk.step_key(k) in canonical or k in canonical for k in keys)


def _names(node: Node) -> list[str]:
    if isinstance(node, ScalarNode) and str(node.value).strip():
        return [p.strip() for p in str(node.value).replace(" and ", ",").split(",") if p.strip()]
    if isinstance(node, SequenceNode):
        return [str(n.value).strip() for n in node.value if isinstance(n, ScalarNode) and str(n.value).strip()]
    return []


def own_words(r: NodeReader, keys: dict[str, tuple[Node, Node]]) -> tuple[dict[str, tuple[Node, Node]], Own]:
    """The step's keys with its own words under the form's names (module docstring), and the rest read."""
    own = Own()
    out: dict[str, tuple[Node, Node]] = {}
    for raw, (knode, vnode) in keys.items():
        name = yk.key_name(raw)
        value = str(vnode.value).strip() if isinstance(vnode, ScalarNode) and vnode.tag == STR else ""
        if name in SKILL_WORDS and _ONE_NAME.match(value) and not _has(keys, "skill", "agent"):
            own.readings.append(note(r, knode, f"{raw}: {value}", f"`{raw}:` names what does the step's work: its "
                                                                  "skill (read as `skill:`)"))
            out["skill"] = (knode, vnode)
        elif name in INPUT_WORDS and not _has(keys, "input") and isinstance(vnode, MappingNode | SequenceNode):
            own.readings.append(note(r, knode, f"{raw}: {short(r.value(vnode))}", f"`{raw}:` says what the step is "
                                                                                 "given (read as `input:`)"))
            out["input"] = (knode, vnode)
        elif name in INPUT_WORDS and not _has(keys, "input") and value:
            own.readings.append(note(r, knode, f"{raw}: {short(value)}", f"`{raw}:` says what the step is given, in "
                                     "words: the plan names the value they speak of (check the plan)"))
            own.words.append(value)
        elif name in LOOP_WORDS and not _has(keys, "for_each") and value and (
                said := loop_phrase(value) or (value if " in " in f" {value} " and len(value.split()) == 3 else None)):
            own.readings.append(note(r, knode, f"{raw}: {short(value)}", f"the step runs once per item: for_each "
                                                                         f"{said}"))
            out["for_each"] = (knode, scalar(said, vnode))
        elif name in TOGETHER_WORDS and (partners := _names(vnode)):
            own.readings.append(Reading(what="starts_with", where=r.src.where(r.line(knode)), text=", ".join(partners),
                                        note=f"`{raw}:` {_MARK} {', '.join(partners)}: neither waits for the other"))
        else:
            out[raw] = (knode, vnode)
    return out, own


def apply(step: StepSpec, own: Own) -> StepSpec:
    """The step with what `own_words` read of it: its readings, and what it eats in words as its text."""
    if not own.readings and not own.words:
        return step
    said = " ".join(w for w in (step.description, *own.words) if w)
    return step.model_copy(update={"description": said, "readings": (*step.readings, *own.readings)})


def _find(steps: list[StepSpec], said: str) -> int | None:
    want = said.strip().lower()
    hits = [i for i, s in enumerate(steps) if want in (s.id.lower(), s.name.lower())]
    return hits[0] if len(hits) == 1 else None


def pair_starts(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """Each `goes_with:` pair or group: the later steps start with the earliest of them."""
    out = list(steps)
    for i, step in enumerate(steps):
        for reading in step.readings:
            if reading.what != "starts_with" or _MARK not in reading.note:
                continue
            group = {i}
            for said in reading.text.split(", "):
                at = _find(out, said)
                if at is None:
                    src.warn(_line(reading.where), f"{step.id}: '{said}' (it starts together with) names no step; "
                                                   "not read", "spec.unread")
                    continue
                group.add(at)
            first = min(group)
            for later in sorted(group - {first}):
                mate = out[later]
                if mate.depends_on or mate.starts_with is not None:
                    src.warn(_line(reading.where), f"{mate.id}: said to start together with {out[first].id}, but "
                                                   "it names the steps it waits for: those are kept", "spec.unread")
                    continue
                out[later] = mate.model_copy(update={"starts_with": out[first].id, "unordered_where": reading.where})
    return out


def _line(where: str) -> int:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 1


def possessive_handoffs(steps: list[StepSpec]) -> list[StepSpec]:
    """An input given `forecast's frost_flag` (an earlier step's value, in words): a reference to that
    step's output, the field found by the words at plan time (`plan.mapping.Binder.explicit`)."""
    out: list[StepSpec] = []
    for i, step in enumerate(steps):
        taken: dict[str, tuple[str, str]] = {}
        for name, value in step.input_values.items():
            m = _POSSESSIVE.match(value) if isinstance(value, str) and len(value) < 120 else None
            at = _find(steps[:i], m.group(1)) if m is not None else None
            if m is not None and at is not None:
                taken[name] = (steps[at].id, m.group(2).strip())
        if not taken:
            out.append(step)
            continue
        fields = tuple(f.model_copy(update={"source": f"steps.{taken[f.name][0]}.output",
                                            "description": taken[f.name][1]}) if f.name in taken else f
                       for f in step.inputs)
        readings = tuple(Reading(what="input", where=next((f.where for f in step.inputs if f.name == n), step.where),
                                 text=f"{n}: {step.input_values[n]}",
                                 note=f"{sid}'s output, the field the words '{words}' name") for n, (sid, words)
                         in taken.items())
        out.append(step.model_copy(update={
            "inputs": fields, "input_values": {k: v for k, v in step.input_values.items() if k not in taken},
            "readings": (*step.readings, *readings)}))
    return out


_rx.save()
