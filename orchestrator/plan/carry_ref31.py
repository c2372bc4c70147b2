"""A value to go on with that names earlier data: another step's output, or a workflow input (round 31).

    If it errors out just carry on as if nothing is held, i.e. kept = []
    and to_withdraw = all the candidates' barcodes
        -> on failure the output is {kept: [], to_withdraw: <each `barcode` of step-1's `candidates`>}

People write the value a failed step goes on with as data the run already has:

    a field set to it      "to_withdraw = all the candidates' barcodes", "ids = step 2's ids",
                           YAML `on_fail: {continue_with: {ids: step2.ids}}` or `{date: inputs.date}`
    the whole value        "carry on with the list from step 2", "use the input date instead",
                           "fall back to whatever 3 gave", "keep going with step-1's rows"

The words name a step ("step 2", "step-2", "the sort step", `step2.`, `steps.step-2.output.`, "whatever 3
gave") and a field of its output ("'s ids", "the ids from", "the list from": its one list field), or a
workflow input ("the input date", "the date input", `inputs.date`); "the candidates' barcodes" names an
output field of one earlier step, `candidates`, and each item's `barcode`. The plan names the step or
input (`resolve_carries`); validate checks that the step is an ancestor that always runs before this one,
that the field exists and that its schema fits the output field's (`carry_problems`: an error at the
line); the engine reads the value when the fallback applies (`engine.carry.carried_value`) and the run's reason says
which value was carried from where.

Not a reference (kept literal): a quoted value ("continue with 'step 2'", `ids: "step 2"`), a step named
with no field ("continue with step 2": that is a going-on, not a value), a dotted word whose head is no
step nor `input(s)` (`version: v1.2`). Words that look like earlier data but name nothing found (no
earlier step gives `candidates`) keep the warning that the value is not read.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.contract import at_pointer
from orchestrator.plan.lineage import Lineage, highest, positions
from orchestrator.plan.location import warning_at
from orchestrator.plan.model import Plan, PlanStep
from orchestrator.plan.schema import declares_properties, properties_of, supply_problems, types_of
from orchestrator.policy import Carried, Fallback, FallbackAction
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_STEP = r"(?:step\s*+[-_]?\s*+(?P<n>\d{1,4}+)|the\s++(?P<nm>[a-z][\w-]{0,60}+)\s++step)"
_FIELD = r"(?P<field>[a-z_][a-z0-9_]{0,40}+(?:\s[a-z_][a-z0-9_]{0,40}+){0,3}?)"
# "whatever 3 gave", "whatever step 2 returned", "whatever the sort step came back with"
_WHATEVER = _rx(r"(?i)^whatever\s++(?:" + _STEP + r"|(?P<bare>\d{1,4}+))\s++"
                r"(?:gave|returned|produced|output|found|made|had|came\s++back\s++with)(?:\s++(?:us|back))?$")
# "step 2's ids", "step-1's rows"
_OWNED = _rx(r"(?i)^" + _STEP + r"'s\s++" + _FIELD + r"$")
# "the ids from step 2", "the list of step 1", "the rows that step 1 gave"
_FROM = _rx(r"(?i)^" + _FIELD + r"\s++(?:from|of|given\s++by|returned\s++by|that|which)\s++" + _STEP
            + r"(?:\s++(?:gave|returned|produced|found|made|listed|output))?$")
# "the input date", "workflow input `date`", "the date input", "the input's date"
_INPUT = _rx(r"(?i)^(?:workflow\s++)?input(?:'s)?\s++`?(?P<a>[a-z_][\w-]{0,60}+)`?$|^`?(?P<b>[a-z_][\w-]{0,60}+)`?\s++input$")
# `step2.ids`, `steps.step-2.output.ids`, `inputs.date`, `{{ steps.s.output.x }}`
_DOTTED = _rx(r"^(?P<head>[A-Za-z][\w-]{0,60}+)\.(?P<rest>[A-Za-z_][\w-]{0,60}+(?:\.[A-Za-z_][\w-]{0,60}+){0,6}+)$")
_STEPISH = _rx(r"(?i)^step[-_]?\d{1,4}+$")
# "the candidates' barcodes", "the order's lines": a field of one earlier step, each item's field
_POSSESSIVE = _rx(r"(?i)^(?P<field>[a-z_][a-z0-9_]{0,40}+)(?:'s|')\s++(?P<each>[a-z_][a-z0-9_]{0,40}+)$")
_PLAIN = _rx(r"(?i)^[a-z_][a-z0-9_]{0,40}+$")
_LEAD = _rx(r"(?i)^(?:(?:just|simply)\s++)?(?:all\s++(?:of\s++)?|each\s++of\s++|every\s++one\s++of\s++)?(?:the\s++)?")
_TAIL = _rx(r"(?i)(?<!\s)\s++(?:instead|again|as\s++is|from\s++before|then)$")
# the whole value said: "carry on with ...", "use ... instead", "fall back to ..."
_CARRY = _rx(r"(?i)(?<![\w-])(?:carry(?:ing)?\s++on|go(?:ing)?\s++on|continu(?:e|ing)|keep\s++going|fall(?:ing)?\s++back"
             r"|use|using|pass(?:ing)?\s++on|hand(?:ing)?\s++on)\s++(?:with\s++|to\s++|using\s++)?"
             r"(?P<ref>[^.;,()\"'\n]{1,120}+(?:'s?[^.;,()\"'\n]{1,60}+)?)")
_SHAPES = {"list": "array", "array": "array", "number": "number", "count": "number", "total": "number",
           "text": "string", "string": "string", "flag": "boolean"}
_UNREAD_CODE = "spec.policy-unread"  # `spec.prose`: the sentence this module reads after all
_WHOLE = frozenset({"output", "result", "results", "value", "answer", "data", "everything"})


@dataclass(frozen=True)
class _Ref:
    """What the words name, before the plan is known."""

    step: str | None = None  # "2", "step2", "sort"
    input: str | None = None
    path: tuple[str, ...] = ()  # field words, in order
    each: str = ""
    whole: bool = False
    explicit: bool = False


def _snake(words: str) -> str:
    return "_".join(words.lower().replace("-", " ").split())


def said_ref(words: str) -> _Ref | None:
    """What `words` name as earlier data (module docstring), or None: not a reference."""
    text = words.strip().strip("`").strip()
    if text.startswith("{{") and text.endswith("}}"):
        text = text[2:-2].strip()
    if not text or text[0] in "\"'" or len(text) > 200:
        return None
    dotted = _DOTTED.match(text)
    if dotted is not None:
        head, rest = dotted.group("head"), dotted.group("rest").split(".")
        if head.lower() in ("input", "inputs"):
            return _Ref(input=rest[0], path=tuple(rest[1:]), explicit=True)
        if head.lower() == "steps" and len(rest) >= 2:
            head, rest = rest[0], rest[1:]
        if rest and rest[0] in ("output", "outputs"):
            rest = rest[1:]
        return _Ref(step=head, path=tuple(rest), whole=not rest, explicit=bool(_STEPISH.match(head)))
    text = _TAIL.sub("", _LEAD.sub("", text, count=1))
    if (m := _WHATEVER.match(text)) is not None:
        return _Ref(step=m.group("n") or m.group("nm") or m.group("bare"), whole=True, explicit=True)
    if (m := _OWNED.match(text) or _FROM.match(text)) is not None:
        step = m.group("n") or m.group("nm")
        field = _snake(m.group("field").removeprefix("the ").removeprefix("The "))
        if field in _WHOLE:
            return _Ref(step=step, whole=True, explicit=True)
        return _Ref(step=step, path=(field,), explicit=True)
    if (m := _INPUT.match(text)) is not None:
        return _Ref(input=m.group("a") or m.group("b"), explicit=True)
    if (m := _POSSESSIVE.match(text)) is not None:
        return _Ref(path=(m.group("field"),), each=m.group("each"))
    if _PLAIN.match(text) is not None:
        return _Ref(path=(text,))
    return None


def outweighs(carrying: Fallback, read: Fallback | None) -> bool:
    """Whether a value carried from earlier data stands for what the policy reader read of the same
    sentence: nothing, a plain continue ("carry on with the list from step 2"), the reference's words
    as a text, or another step's skill where the words name a field of its output ("use step 1's ids")."""
    if read is None or read.action is FallbackAction.CONTINUE:
        return True
    if read.action is FallbackAction.DEFAULT:
        return read.value is None or isinstance(read.value, str)
    ref = said_ref(carrying.carry[0].said) if carrying.carry else None
    return read.action is FallbackAction.SKILL and read.step is not None and ref is not None and bool(ref.path)


def carry_sentence(text: str, where: str | None) -> Fallback | None:
    """The whole value to go on with, when a sentence says to carry on with earlier data named as a
    reference ("carry on with the list from step 2"); None otherwise."""
    for m in _CARRY.finditer(text):
        ref = said_ref(m.group("ref"))
        if ref is not None and ref.explicit:
            said = _TAIL.sub("", m.group("ref").strip())
            return Fallback(action=FallbackAction.DEFAULT, carry=(Carried(said=said, explicit=True, where=where),))
    return None


_UNREAD_CACHE: list[tuple[object, dict[str, list[tuple[str, str, Fallback]]]]] = []


def unread_carries(unread: Sequence[Any], step_id: str) -> list[tuple[str, str, Fallback]]:
    """(line, text, fallback) for each step sentence the policy reader left unread that says to go on
    with earlier data ("use the input date instead"); worked out once per spec, then looked up."""
    if not _UNREAD_CACHE or _UNREAD_CACHE[0][0] is not unread:
        by_step: dict[str, list[tuple[str, str, Fallback]]] = {}
        for u in unread:
            if u.section == "step" and (f := carry_sentence(u.text, u.where)) is not None:
                for sid in u.steps:
                    by_step.setdefault(sid, []).append((u.where, u.text, f))
        _UNREAD_CACHE[:] = [(unread, by_step)]
    return _UNREAD_CACHE[0][1].get(step_id, [])


def _written_ref(text: str, steps: Collection[str]) -> bool:
    """Whether a value's text is a reference written as one: explicit words or a dotted path whose head
    is a step of the plan (`fetch.ids` where a step is `fetch`)."""
    ref = said_ref(text)
    return ref is not None and (ref.explicit or (ref.step is not None and _key(ref.step) in steps))


def carried_in_value(fallback: Fallback, where: str | None, steps: Collection[str] = ()) -> Fallback:
    """A DEFAULT fallback whose object value sets a field to a reference written as one
    (`{ids: step2.ids}`, `{date: "the input date"}`), with those fields carried instead; `steps`: the
    plan's step ids and names, as `_key` spells them."""
    if fallback.action is not FallbackAction.DEFAULT:
        return fallback
    value = fallback.value
    if isinstance(value, str):
        if _written_ref(value, steps):
            return fallback.model_copy(update={"value": None, "carry": (
                *fallback.carry, Carried(said=value, explicit=True, where=where))})
        return fallback
    if not isinstance(value, dict):
        return fallback
    kept: dict[str, Any] = {}
    carry = list(fallback.carry)
    for name, v in value.items():
        if isinstance(v, str) and _written_ref(v, steps):
            carry.append(Carried(field=str(name), said=v, explicit=True, where=where))
        else:
            kept[name] = v
    if len(carry) == len(fallback.carry):
        return fallback
    return fallback.model_copy(update={"value": kept or None, "carry": tuple(carry)})


def with_said_fields(fallback: Fallback, fields: Sequence[tuple[str, str]], where: str | None) -> Fallback:
    """`fallback` carrying each `name = words` part of its sentence the value does not hold
    ("to_withdraw = all the candidates' barcodes"); the plan keeps those that name earlier data."""
    carry = [Carried(field=name, said=words, explicit=bool((r := said_ref(words)) and r.explicit), where=where)
             for name, words in fields if said_ref(words) is not None]
    if not carry:
        return fallback
    return fallback.model_copy(update={"carry": (*fallback.carry, *carry)})


# -- the plan names the step or input ---------------------------------------------------------------


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


class _Names:
    """The plan's steps and inputs by the ways a reference names them (built once per plan)."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.steps = {s.id: s for s in plan.steps}
        self.by_key: dict[str, str] = {}
        for s in plan.steps:
            for name in (s.name, s.skill):
                if name:
                    self.by_key.setdefault(_key(name), s.id)
        for s in plan.steps:
            self.by_key[_key(s.id)] = s.id  # an id wins over a name
        self.inputs = {i.name for i in plan.inputs}
        self.lineage = Lineage([s.id for s in plan.steps], {s.id: s.depends_on for s in plan.steps})
        routed = {t for s in plan.steps for t in (*s.routes.values(), *([s.route_default] if s.route_default else []))}
        self.maybe_skipped = 0  # bit i: step i runs only on a condition
        for s in plan.steps:
            if s.when or s.id in routed:
                self.maybe_skipped |= 1 << self.lineage.bit[s.id]
        self._givers: dict[str, int] | None = None

    def givers(self, field: str) -> int:
        """Bit i set when step i's output has a field `field` names (built once)."""
        if self._givers is None:
            self._givers = {}
            for s in self.plan.steps:
                for prop in properties_of(s.output_schema):
                    for key in {prop, prop.rstrip("s")}:
                        self._givers[key] = self._givers.get(key, 0) | (1 << self.lineage.bit[s.id])
        return self._givers.get(field, 0) | self._givers.get(field.rstrip("s"), 0)

    def step(self, token: str) -> str | None:
        key = _key(token)
        return self.by_key.get(key) or (self.by_key.get(f"step{key}") if key.isdigit() else None)


def _field_of(schema: Any, words: str) -> str | None:
    props = properties_of(schema)
    for name in (words, _snake(words), words.rstrip("s"), f"{words}s"):
        if name in props:
            return name
    return None


def _shape_field(schema: Any, shape: str) -> str | None:
    wanted = _SHAPES.get(shape)
    if wanted is None:
        return None
    hits = [n for n, sub in properties_of(schema).items() if wanted in types_of(sub)]
    return hits[0] if len(hits) == 1 else None


def _resolve(c: Carried, step: PlanStep, names: _Names) -> Carried | None:
    ref = said_ref(c.said)
    if ref is None:
        return None
    if ref.input is not None:
        if ref.input not in names.inputs:
            return None
        pointer = "".join(f"/{p}" for p in ref.path)
        return c.model_copy(update={"input": ref.input, "pointer": pointer})
    if ref.step is not None:
        sid = names.step(ref.step)
        if sid is None:
            return None
        producer = names.steps[sid]
        if ref.whole:
            return c.model_copy(update={"step": sid})
        path = list(ref.path)
        first = _field_of(producer.output_schema, path[0]) or _shape_field(producer.output_schema, path[0])
        if first is None and declares_properties(producer.output_schema):
            return c.model_copy(update={"step": sid, "pointer": "/" + _snake(path[0])})  # checked: no such field
        path[0] = first or _snake(path[0])
        return c.model_copy(update={"step": sid, "pointer": "".join(f"/{p}" for p in path)})
    # "the candidates' barcodes": an output field of one earlier step (else a workflow input)
    field = ref.path[0]
    bits = names.givers(field) & names.lineage.ancestor_bits(step.id)
    givers = [a for a in (names.lineage.ids[i] for i in positions(bits)) if a in names.steps
              and _field_of(names.steps[a].output_schema, field)]
    if len(givers) == 1:
        producer = names.steps[givers[0]]
        found = _field_of(producer.output_schema, field) or field
        each = ""
        if ref.each:
            items = at_pointer(producer.output_schema, "/" + found).get("items")
            each = _field_of(items, ref.each) or (ref.each.rstrip("s") if not declares_properties(items) else "")
            if not each:
                return None
        return c.model_copy(update={"step": producer.id, "pointer": "/" + found, "each": each})
    if not givers and not ref.each and field in names.inputs:
        return c.model_copy(update={"input": field})
    return None


def _target(c: Carried, step: PlanStep, names: _Names) -> Carried:
    """A whole value said with no field ("carry on with the list from step 2") sets the step's output
    field of the same name, or its one field of that type; else the whole output."""
    if c.field or (not c.pointer and c.input is None):
        return c
    last = (c.each or c.pointer.rpartition("/")[2] or (c.input or ""))
    props = properties_of(step.output_schema)
    if last in props:
        return c.model_copy(update={"field": last})
    source = _source_schema(c, names)
    kinds = types_of(source)
    hits = [n for n, sub in props.items() if kinds and set(kinds) & set(types_of(sub))]
    return c.model_copy(update={"field": hits[0]}) if len(hits) == 1 else c


def resolve_carries(plan: Plan) -> tuple[Plan, list[Diagnostic]]:
    """The plan with every carried part naming its step or input; a part said in plain words that names
    nothing is dropped with the warning that the value is not read (an explicit one stays, for
    `carry_problems` to refuse)."""
    said: dict[str, str | None] = {s.id: s.provenance["policy.fallback"].where if "policy.fallback" in s.provenance else s.where
            for s in plan.steps}
    if not any(_may_name(f) for s in plan.steps for f in _fallbacks(s)):
        return plan, []
    names = _Names(plan)
    written = {s.id: [carried_in_value(f, said[s.id], names.by_key) for f in _fallbacks(s)] for s in plan.steps
               if any(_may_name(f) for f in _fallbacks(s))}
    if not any(f.carry for fs in written.values() for f in fs):
        return plan, []
    warnings: list[Diagnostic] = []
    steps: list[PlanStep] = []
    for step in plan.steps:
        if not any(f.carry for f in written.get(step.id, ())):
            steps.append(step)
            continue

        def named(f: Fallback, step: PlanStep = step) -> Fallback:
            f = carried_in_value(f, said[step.id], names.by_key)
            kept: list[Carried] = []
            for c in f.carry:
                found = _resolve(c, step, names)
                if found is not None:
                    kept.append(_target(found, step, names))
                elif c.explicit:
                    kept.append(c)
                else:
                    warnings.append(warning_at(
                        c.where, plan.spec.path,
                        f"{step.id}: the value to go on with sets '{c.field} = {c.said}', which names no earlier "
                        f"step's output nor workflow input; `{c.field}` is left at its empty value when the step "
                        "fails: write the value itself, or name the step (\"step 1's candidates\")", "policy-value"))
            return f.model_copy(update={"carry": tuple(kept)})

        policy = step.policy
        rules = tuple(r.model_copy(update={"fallback": named(r.fallback)}) if r.fallback and _may_name(r.fallback)
                      else r for r in policy.rules)
        fallback = named(policy.fallback) if _may_name(policy.fallback) else policy.fallback
        steps.append(step.model_copy(update={"policy": policy.model_copy(update={"fallback": fallback,
                                                                                  "rules": rules})}))
    read_at = {c.where for s in steps for f in _fallbacks(s) for c in f.carry if c.where and c.explicit}
    kept = tuple(w for w in plan.warnings if w.code != _UNREAD_CODE or f"{w.file}:{w.line}" not in read_at)
    return plan.model_copy(update={"steps": tuple(steps), "warnings": kept}), warnings


def _may_name(f: Fallback) -> bool:
    """A fallback carrying parts, or whose value has a text that may name earlier data."""
    if f.carry:
        return True
    if f.action is not FallbackAction.DEFAULT:
        return False
    values = f.value.values() if isinstance(f.value, dict) else (f.value,)
    return any(isinstance(v, str) for v in values)


def _fallbacks(step: PlanStep) -> list[Fallback]:
    return [step.policy.fallback, *(r.fallback for r in step.policy.rules if r.fallback is not None)]


# -- validate ----------------------------------------------------------------------------------------


def _source_schema(c: Carried, names: _Names) -> Any:
    if c.step is None or c.step not in names.steps:
        return {}
    producer = names.steps[c.step]
    schema = producer.output_schema or {}
    if producer.for_each is not None:
        schema = {"type": "array", "items": schema}
    found = at_pointer(schema, c.pointer) if c.pointer else schema
    if c.each:
        item = properties_of(found.get("items")).get(c.each, {}) if isinstance(found, dict) else {}
        return {"type": "array", "items": item} if item else {"type": "array"}
    return found


def _always_before(sid: str, step: PlanStep, names: _Names) -> str | None:
    """Why step `sid` may not have run before `step`, or None."""
    if sid == step.id:
        return "it is this step itself"
    if not names.lineage.is_ancestor(sid, step.id):
        return f"{sid} is not a step this one runs after (add it to its depends_on)"
    skipped = (names.lineage.ancestor_bits(sid) | (1 << names.lineage.bit[sid])) & names.maybe_skipped
    if skipped:
        one = names.lineage.ids[highest(skipped)]
        return f"{sid} may be skipped ({one} runs only on a condition), so its output may not be there"
    return None


def carry_problems(plan: Plan) -> list[tuple[PlanStep, str | None, str]]:
    """(step, line, why) for each carried part that cannot be read when its fallback applies."""
    if not any(f.carry for s in plan.steps for f in _fallbacks(s)):
        return []
    names = _Names(plan)
    found: list[tuple[PlanStep, str | None, str]] = []
    for step in plan.steps:
        for f in _fallbacks(step):
            for c in f.carry:
                head = f"{step.id}: the value to go on with '{c.said}'"
                if c.step is None and c.input is None:
                    found.append((step, c.where, f"{head} names no step's output nor workflow input"))
                    continue
                if c.step is not None:
                    why = _always_before(c.step, step, names)
                    if why is not None:
                        found.append((step, c.where, f"{head}: {why}"))
                        continue
                    producer = names.steps[c.step]
                    if c.pointer and declares_properties(producer.output_schema) and not at_pointer(
                            producer.output_schema, c.pointer) and c.pointer.strip("/") not in properties_of(
                            producer.output_schema):
                        found.append((step, c.where, f"{head}: {c.step}'s output has no `{c.pointer.strip('/')}` "
                                                      f"(it gives {', '.join(properties_of(producer.output_schema))})"))
                        continue
                wanted = properties_of(step.output_schema).get(c.field, {}) if c.field else step.output_schema
                if c.field and declares_properties(step.output_schema) and c.field not in properties_of(
                        step.output_schema):
                    found.append((step, c.where, f"{head} sets `{c.field}`, which {step.id}'s output does not have"))
                    continue
                problems = supply_problems(_source_schema(c, names), wanted, c.field)
                if problems:
                    found.append((step, c.where, f"{head} does not fit {step.id}'s output: {problems[0]}"))
    return found


def stand_in(fallback: Fallback, schema: Any) -> Any:
    """The value a check can read for `fallback` before the run: its value with each carried field at
    its contract's empty value; None when the whole output is carried (the check of the carry stands)."""
    if not fallback.carry:
        return fallback.value
    if any(not c.field for c in fallback.carry):
        return None
    from orchestrator.contracts import empty_value

    props = properties_of(schema)
    base = fallback.value if isinstance(fallback.value, dict) else {}
    return {**base, **{c.field: empty_value(props.get(c.field) or {}) for c in fallback.carry}}


_rx.save()
