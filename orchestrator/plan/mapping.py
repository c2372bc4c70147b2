"""Dependencies between steps and where each step's input fields come from.

Dependencies, per step, first rule that gives any:
1. explicit `Depends on:` / `depends_on` (provenance: that line); `none` (or YAML
   `depends_on: []`) makes the step a root;
2. data references: an input name, a `step-N.field` reference, a `For each`
   source or a `{{ steps.X... }}` template that an earlier step produces
   (provenance: "data reference to step-1.existing_docs");
3. a route target of an LLM routing step depends on the router;
4. a step that says it does not wait ("Independent of step 1") is a root;
5. the previous step in the spec (provenance: "default: step order"); for an Otherwise whose
   previous step is the one whose condition it negates, what that step depends on; after a
   step its own condition may skip (not a route's branch), that step and what it depends on,
   so the step still runs when that one is skipped.

Input mapping, per input name (the step's input schema properties, its `Input:`
line, YAML `input:` keys; then the loose names of `wanted`), first rule that
gives one. Each binding's provenance note starts with its rule:

    literal / template        a YAML value (a template when it holds `{{`)
    explicit                  `from Step N`, `step-N.field`, `inputs.x`, "N gets `x` from M",
                              or a Data Contracts edge into the step that names the field
    for each item             the loop's variable (`n` in `For each: n in nums`), or a
                              whole reference to it (`{{ n }}`, `item.field`)
    for each item field       a property of the item (`module_name` of `module in modules`); also
                              the loop's variable itself when the item declares a property of
                              that name (`host` of `host in hosts` whose items are `{host, ...}`)
    join                      a join ("whichever ran") over steps that each output the name:
                              the first of them that ran
    nearest step              the nearest earlier step (an ancestor) that outputs it; when
                              it is also a workflow input, a warning says so (with how to
                              choose); a `For each` step gives its results gathered
    workflow input            a workflow input of that name
    gathered                  `items`, or a name the text gives the results ("as `tickets`"):
                              the nearest `For each` step's item outputs, as a list
    text names it             the one input left without a source takes the one value the
                              step's text names that no other input takes ("on `orders_csv`")

Inside a `For each` whose item's properties are not declared, a declared name that
no other rule binds is the item's field. A loose name is bound by the explicit,
item field, join, nearest-step (only when one producer is nearest) and workflow
input rules, or not at all. A name with no source is left out: when it is
required, the static checks report it as a missing input. Inside a `For each`, a
value that is one whole reference to the item is bound to the item itself, so it
keeps its JSON type as a `{{ steps.X.output.f }}` reference does; a longer
template renders to text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import islice
from typing import Literal

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import Diagnostic
from orchestrator.plan.bind_item_fields import says_item_field, says_item_field_as
from orchestrator.plan.fan_gather import GATHER_SOURCE, SaysGather, gathered_pointer, is_plural
from orchestrator.plan.gather_words import bound_in_words
from orchestrator.plan.joined_value40 import joined_binding, joined_note, joined_parts
from orchestrator.plan.lineage import Lineage, positions
from orchestrator.plan.literal_said import literal_said
from orchestrator.plan.literal_words import literal_words
from orchestrator.plan.location import from_default, from_spec, split_where, warning_at
from orchestrator.plan.model import ForEach, InputBinding, Provenance
from orchestrator.plan.near_input import close_names
from orchestrator.plan.runs37 import renamed_item_field
from orchestrator.plan.said_step import said_either, said_step
from orchestrator.plan.scope import Produced, Producers, Scope, Upstream
from orchestrator.plan.steps34a import says_every
from orchestrator.plan.steps34b import placeholder_binding
from orchestrator.plan.words_field26 import field_of_words, own_said
from orchestrator.spec.fields import step_id as step_ref
from orchestrator.spec.h25_left33 import bare_input_item
from orchestrator.spec.model import StepSpec, WorkflowSpec

_STEP_REF = re.compile(r"\bsteps(?:\.([A-Za-z_][\w-]*)|\[\s*['\"]([^'\"]+)['\"]\s*\])")
_FOR_EACH = re.compile(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+?)\s*$")
_WHOLE_NAME = re.compile(r"^\s*\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\}\}\s*$")
GATHERED_NAME = "items"  # the documented name of a For each step's whole gathered results

# a number beside an item field's name beats the item ("100 L/ha water"); one a few words off does not
# ("for EACH of those top 3 we call write-blurb (title + url in", holdout9 62: the 3 counts the items)
_BESIDE = 2


def _as_set(names: Iterable[str]) -> AbstractSet[str]:
    return names if isinstance(names, set | frozenset) else set(names)


class Dependencies(BaseModel):
    model_config = ConfigDict(frozen=True)

    step: str
    depends_on: tuple[str, ...]
    provenance: Provenance
    follows: tuple[str, ...] = ()  # the conditional step it comes after by order alone (PlanStep.follows)


@dataclass(frozen=True)
class Loose:
    """A name a step reads that no schema declares (`wanted`): bound only where certain."""

    name: str
    where: str | None
    said: str  # where it was named: "named in skill `x`'s instructions", "named in the step's text"
    source: Literal["spec", "skill"] = "spec"  # the provenance's source: where `where` points


@dataclass
class Mapped:
    bindings: dict[str, InputBinding]
    provenance: dict[str, Provenance]
    for_each: ForEach | None
    warnings: list[Diagnostic]


def is_template(value: object) -> bool:
    return isinstance(value, str) and "{{" in value


def steps_referenced(text: str) -> list[str]:
    """Step ids a template or expression reads (`steps.extract.output`, `steps['step-1']`)."""
    return [m.group(1) or m.group(2) for m in _STEP_REF.finditer(text)]


def _ancestors(out: Mapping[str, Dependencies], sid: str) -> set[str]:
    """The steps `sid` waits for, directly or through others, in the dependencies made so far."""
    seen: set[str] = set()
    todo = list(out[sid].depends_on) if sid in out else []
    while todo:
        got = todo.pop()
        if got not in seen:
            seen.add(got)
            todo.extend(out[got].depends_on if got in out else ())
    return seen


def parse_for_each(text: str | None) -> tuple[str, str] | None:
    """`item in list_field` -> ("item", "list_field")."""
    if not text:
        return None
    m = _FOR_EACH.match(text)
    return (m.group(1), m.group(2)) if m else None


def item_reference(ref: str, loop: tuple[str, str] | None) -> InputBinding | None:
    """`item`, `item.a.b` or the loop's own name (`n`, `n.a`) -> the item at that pointer.

    Only inside a `For each` step; `item` is always the current item, as the engine
    puts it in the template context under both names."""
    if loop is None:
        return None
    head, *rest = ref.strip().split(".")
    if head not in ("item", loop[0]):
        return None
    return InputBinding(source="item", pointer="".join(f"/{p}" for p in rest))


def _pointer(parts: Sequence[str]) -> str:
    return "".join(f"/{p}" for p in parts)


def _from_step(made: Produced, rest: Sequence[str]) -> InputBinding:
    if rest and rest[0] in made.aliases and rest[0] not in made.fields:
        rest = rest[1:]
    return InputBinding(source="step", step=made.step, pointer=_pointer(rest), gather=made.gathered)


def resolve_reference(
    ref: str,
    workflow_inputs: Iterable[str],
    produced: Mapping[str, Produced] | Upstream,
    words: str = "",
    name: str = "",
) -> InputBinding | None:
    """`steps.X.output.a.b`, `inputs.x` -> a binding; None when it names nothing known.

    `steps.X.output` alone (a value "from step 2") is the output's field that `words`
    names ("the orders rows from step 2" -> `rows`), else the whole output; so is
    `steps.X.output.<name>` (`left (from Step 1)`) when X declares its outputs and has
    no field `name`."""
    parts = ref.split(".")
    if parts[0] == "inputs" and len(parts) >= 2:
        if parts[1] not in _as_set(workflow_inputs):
            return None
        return InputBinding(source="input", name=parts[1], pointer=_pointer(parts[2:]))
    if parts[0] == "steps" and len(parts) >= 3 and parts[2] == "output":
        made = produced.get(parts[1])
        if made is None:
            return None
        rest = parts[3:]
        if name and rest == [name] and made.fields and not made.outputs(name):
            rest = []
        if not rest and words:
            named = [w for w in re.findall(r"[A-Za-z_]\w*", words) if w in made.fields]
            rest = named[-1:] if named else []
        return _from_step(made, rest)
    return None


def resolve_name(
    dotted: str,
    workflow_inputs: Iterable[str],
    earlier: Upstream | Sequence[Produced],
) -> InputBinding | None:
    """A bare (possibly dotted) name: a workflow input, else the latest producer in `earlier`
    (a list is latest first)."""
    upstream = earlier if isinstance(earlier, Upstream) else Upstream.of(earlier)
    if dotted.startswith(("steps.", "inputs.")):
        return resolve_reference(dotted, workflow_inputs, upstream)
    head, *rest = dotted.split(".")
    if head in _as_set(workflow_inputs):
        return InputBinding(source="input", name=head, pointer=_pointer(rest))
    made = upstream.with_field(head)
    if made is not None:
        return _from_step(made, [head, *rest])
    made = upstream.with_alias(head)
    if made is not None:
        return _from_step(made, rest)
    return None


def producers(name: str, scope: Scope) -> list[str]:
    """The nearest ancestors that output `name` (one: certain; several: they do not run one
    after the other), latest in spec order first."""
    if scope.makers is not None and not scope.makers.get(name, frozenset()) - {scope.step}:
        return []  # no other step outputs it: no walk
    return scope.nearest_outputting(name)


def _data_references(
    step: StepSpec,
    needs: Sequence[str],
    loose: Sequence[str],
    earlier: Upstream,
    known: set[str],
    extra: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """(step id, what) for each reference of `step` to an earlier step's output.

    A name counts when an earlier step outputs it (the latest one, a workflow input of the
    same name notwithstanding); a loose name only when one earlier step does."""
    found: list[tuple[str, str]] = []
    for f in step.inputs:
        if f.source and f.source.startswith("steps."):
            found += [(sid, f.source) for sid in steps_referenced(f.source) if sid in known]
    for value in step.input_values.values():
        if is_template(value):
            found += [(sid, "template") for sid in steps_referenced(str(value)) if sid in known]
    for text in extra:
        found += [(sid, "condition") for sid in steps_referenced(text) if sid in known]
    loop = parse_for_each(step.for_each)
    names = [n for n in needs if n not in step.input_values and not any(f.name == n and f.source for f in step.inputs)]
    if loop:
        if loop[1].startswith("steps."):
            found += [(sid, loop[1]) for sid in steps_referenced(loop[1]) if sid in known]
        else:
            names.append(loop[1].split(".")[0])
    for name in names:
        made = earlier.outputting(name)
        if made is not None:
            found.append((made.step, f"{made.step}.{name}"))
    for name in loose:
        if name in names or (loop and name == loop[0]):
            continue
        only = earlier.only_outputting(name)
        if only is not None:
            found.append((only.step, f"{only.step}.{name}"))
    return found


def _beside_join(step: StepSpec, index: int, made_by: Producers, earlier_ids: set[str],
                 needs: Mapping[str, Sequence[str]], loose: Mapping[str, Sequence[str]] | None,
                 conditions: Mapping[str, Sequence[str]] | None, out: Mapping[str, Dependencies]) -> list[str]:
    """The earlier steps a join (`join: any`) reads outputs of that are neither its branches nor before them."""
    refs = _data_references(step, needs.get(step.id, ()), (loose or {}).get(step.id, ()),
                            Upstream(made_by, (1 << index) - 1), earlier_ids, (conditions or {}).get(step.id, ()))
    before: set[str] = set(step.depends_on)
    todo = list(step.depends_on)
    while todo:  # the joined steps' ancestors, by the dependencies found so far
        done = out.get(todo.pop())
        for sid in done.depends_on if done is not None else ():
            if sid not in before:
                before.add(sid)
                todo.append(sid)
    return list(dict.fromkeys(sid for sid, _ in refs if sid not in before and sid != step.id))


def derive_dependencies(
    spec: WorkflowSpec,
    produced: Mapping[str, Produced],
    needs: Mapping[str, Sequence[str]],
    workflow_inputs: Iterable[str],
    loose: Mapping[str, Sequence[str]] | None = None,
    conditions: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Dependencies]:
    """Each step's dependencies and why (module docstring). `conditions`: per step, the
    compiled expressions (its When, its approval's condition) whose step references count."""
    del workflow_inputs  # a name an earlier step outputs is a reference, input or not
    routers = {target: s.id for s in spec.steps
               for target in [*s.routes.values(), *([s.route_default] if s.route_default else [])]}
    out: dict[str, Dependencies] = {}
    made_by = Producers(produced.values())
    earlier_ids: set[str] = set()  # the ids of the steps before this one, grown as we go
    # each step's dependencies before the step-order widening: a step after a conditional one
    # lists these of it, not everything it was widened to, so a chain of conditional steps
    # has two edges a step, not all the earlier ones (the rest is reached through `follows`)
    plain: dict[str, tuple[str, ...]] = {}
    waited_by: dict[str, set[str]] = {}  # a later step -> the earlier steps said to wait for it
    for index, step in enumerate(spec.steps):
        if index:
            earlier_ids.add(spec.steps[index - 1].id)
        for sid in step.depends_on:
            if sid not in earlier_ids and sid != step.id:
                waited_by.setdefault(sid, set()).add(step.id)
        if step.depends_on or step.depends_where is not None:
            where = step.depends_where or step.where
            note = "depends_on" if step.depends_on else "depends on nothing: a root"
            if step.join == "any":
                note = "depends_on; runs once after whichever of them ran"
            # an input it takes from an earlier step's output by an explicit source: it waits for that step too
            taken = [sid for f in step.inputs if f.source and f.source.startswith("steps.")
                     for sid in steps_referenced(f.source) if sid in earlier_ids and sid not in step.depends_on]
            taken = list(dict.fromkeys(taken)) if step.join != "any" else []
            if taken:
                note += f"; and after {', '.join(taken)}, whose outputs its inputs name"
            if step.join == "any":  # a join's other inputs, made by a step none of its branches follow: it waits for it too
                side = _beside_join(step, index, made_by, earlier_ids, needs, loose, conditions, out)
                if side:
                    taken = side
                    note += f"; and after {', '.join(side)}, whose outputs its other inputs name"
            out[step.id] = Dependencies(step=step.id, depends_on=tuple(dict.fromkeys((*step.depends_on, *taken))),
                                        provenance=from_spec(where, note))
            plain[step.id] = out[step.id].depends_on
            continue
        earlier = Upstream(made_by, (1 << index) - 1)  # every step before this one
        refs = _data_references(step, needs.get(step.id, ()), (loose or {}).get(step.id, ()), earlier,
                                earlier_ids, (conditions or {}).get(step.id, ()))
        other_side = otherwise_partner(spec, index)  # an Otherwise reads nothing of the step it replaces
        refs = [(sid, what) for sid, what in refs if sid != other_side or what.startswith("steps.")]
        gate = _gate_only(step, refs)  # an approval's condition alone: the step keeps its place in the order
        refs = [] if gate else refs
        if refs:
            deps = tuple(dict.fromkeys(sid for sid, _ in refs))
            what = ", ".join(dict.fromkeys(w for _, w in refs))
            out[step.id] = Dependencies(step=step.id, depends_on=deps,
                                        provenance=from_spec(step.where, f"data reference to {what}"))
        elif step.id in routers:
            out[step.id] = Dependencies(step=step.id, depends_on=(routers[step.id],),
                                        provenance=from_spec(step.where, f"route target of {routers[step.id]}"))
        elif step.starts_with is not None and step.starts_with in out:
            # "same time as #1": what that step waits for, not the step before it (`spec.start_together`)
            beside = step.starts_with
            out[step.id] = Dependencies(step=step.id, depends_on=out[beside].depends_on, provenance=from_spec(
                step.unordered_where or step.where, f"starts together with {beside}: waits for what it waits for"))
            plain[step.id] = plain.get(beside, out[beside].depends_on)
        elif step.unordered_where is not None:
            out[step.id] = Dependencies(step=step.id, depends_on=(), provenance=from_spec(
                step.unordered_where, "does not wait for the step before it, reads no earlier output: a root"))
        elif index > 0 and (partner := otherwise_partner(spec, index)) == spec.steps[index - 1].id:
            # the other branch of the step before it: it waits for what that step waits for
            out[step.id] = Dependencies(step=step.id, depends_on=out[partner].depends_on,
                                        follows=out[partner].follows, provenance=from_default(
                f"default: step order, as the Otherwise of {partner}: after what {partner} waits for"))
            plain[step.id] = plain[partner]
        elif index > 0 and _conditional(spec.steps[index - 1], routers) and plain.get(spec.steps[index - 1].id):
            # after a step its condition may skip, not on its branch: after what it waits for too,
            # so the step still runs when that one is skipped (a skip carries on to a step whose
            # dependencies were all skipped)
            previous = spec.steps[index - 1].id
            partner = otherwise_partner(spec, index - 1)  # after an if/otherwise pair: after both
            also = tuple(dict.fromkeys([*([partner] if partner else []), *plain[previous]]))
            why = (f"{partner} and {previous} are an if/otherwise pair, so after both and what they wait for"
                   if partner else f"{previous} may be skipped by its condition, so also after what it waits for")
            out[step.id] = Dependencies(step=step.id, depends_on=tuple(dict.fromkeys((previous, *also))),
                                        follows=(previous,), provenance=from_default(
                f"default: step order; {why} ({', '.join(also)})"))
            plain[step.id] = (previous, *([partner] if partner else []))
        elif index > 0 and spec.steps[index - 1].id in waited_by.get(step.id, ()):
            # a step before it says it waits for this one ("has to wait for step 2"): the stated order
            # replaces the default one, so it waits for the nearest step before that waits for it not
            back = index - 1
            while back >= 0 and spec.steps[back].id in waited_by[step.id]:
                back -= 1
            before = (spec.steps[back].id,) if back >= 0 else ()
            said = ", ".join(s for s in waited_by[step.id] if s in earlier_ids)
            out[step.id] = Dependencies(step=step.id, depends_on=before, provenance=from_default(
                f"default: step order, but {said} said to wait for it, so not after {said}"))
        elif index > 0 and (alongside := spec.steps[index - 1].starts_with) is not None and alongside in earlier_ids \
                and alongside not in _ancestors(out, spec.steps[index - 1].id):
            # the step before starts together with `alongside` ("same time as 1"): the two run side by side, and
            # the step after them waits for both, not for the later row alone (`spec.start_together`)
            previous = spec.steps[index - 1].id
            out[step.id] = Dependencies(step=step.id, depends_on=(previous, alongside), provenance=from_default(
                f"default: step order; {previous} starts together with {alongside}, so after both"))
        elif index > 0:
            previous = spec.steps[index - 1].id
            out[step.id] = Dependencies(step=step.id, depends_on=(previous,),
                                        provenance=from_default("default: step order"))
        else:
            out[step.id] = Dependencies(step=step.id, depends_on=(), provenance=from_default("first step"))
        if gate:  # and waits for the steps whose outputs its approval's condition reads
            out[step.id] = out[step.id].model_copy(update={
                "depends_on": tuple(dict.fromkeys((*out[step.id].depends_on, *gate)))})
        plain.setdefault(step.id, out[step.id].depends_on)
    return out


def _gate_only(step: StepSpec, refs: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The steps a step refers to when its approval's condition is all that refers to them ("if there is
    any breaking change, a maintainer has to OK it"); () otherwise. Such a step is placed by its order
    (and its joins) as if it read nothing, then waits for those steps too."""
    if not refs or step.when or step.approval is None or not step.approval.when:
        return ()
    if any(what != "condition" for _, what in refs):
        return ()
    return tuple(dict.fromkeys(sid for sid, _ in refs))


def _conditional(step: StepSpec, routers: Mapping[str, str]) -> bool:
    """A step that its own condition may skip (a When, an Otherwise), not a route's branch."""
    return bool(step.when or step.otherwise_where or step.otherwise_of) and step.id not in routers


def otherwise_partner(spec: WorkflowSpec, index: int) -> str | None:
    """The step whose condition the Otherwise at `index` is the other side of: the step it names
    (its id, `Step N`, its name), else the nearest earlier step with a condition; None when the
    step is no Otherwise, or names no step before it."""
    step = spec.steps[index]
    earlier = spec.steps[:index]
    if step.otherwise_of is not None:
        said = step.otherwise_of.strip()
        for candidate in (said, step_ref(said)):
            if candidate is not None and any(s.id == candidate for s in earlier):
                return candidate
        named = [s.id for s in earlier if s.name.strip().lower() == said.lower()]
        return named[0] if len(named) == 1 else None
    if step.otherwise_where is None:
        return None
    return next((s.id for s in reversed(earlier) if s.when or s.otherwise_where), None)


def negated(a: str, b: str) -> bool:
    """Whether condition `b` is `a` said the other way ("worse" / "unless worse", "not (x > 3)"): at most one
    of two steps with them runs."""
    x, y = (_plain(c) for c in (a, b))
    return bool(x and y) and (x in _denied(y) or y in _denied(x))


_NEGATIONS = ("not", "unless", "if not")


def _plain(condition: str) -> str:
    return " ".join(condition.lower().split())


def _denied(condition: str) -> set[str]:
    """The conditions `condition` says the other way of: "unless worse" -> {"worse"}, "not (x > 3)" -> {"x > 3"}."""
    out: set[str] = set()
    for word in _NEGATIONS:
        if condition.startswith(f"{word} "):
            rest = condition[len(word) + 1:]
            out.add(rest)
            if rest.startswith("(") and rest.endswith(")"):
                out.add(rest[1:-1])
    return out


def negated_pairs(conditions: list[tuple[str, str]]) -> set[frozenset[str]]:
    """The pairs of ids whose conditions `negated` says are one the other way, in one pass: (id, condition) each."""
    by_text: dict[str, list[str]] = {}
    for sid, when in conditions:
        by_text.setdefault(_plain(when), []).append(sid)
    pairs: set[frozenset[str]] = set()
    for sid, when in conditions:
        for other in _denied(_plain(when)):
            pairs |= {frozenset((sid, o)) for o in by_text.get(other, ()) if o != sid}
    return pairs


def ancestors(step_id: str, deps: Mapping[str, Sequence[str]], order: Sequence[str]) -> list[str]:
    """Every step `step_id` transitively depends on, latest in spec order first (for one
    step; a planner asking for many builds one `Lineage`)."""
    return Lineage(order, deps).ancestors(step_id)


class _Binder:
    """Binds one step's input names (module docstring), rule by rule."""

    def __init__(self, step: StepSpec, scope: Scope, label: str) -> None:
        self.step = step
        self.scope = scope
        self.label = label
        self.loop = parse_for_each(step.for_each)
        self.warnings: list[Diagnostic] = []
        self.text = " ".join([step.description, *(t.text for t in step.texts)])

    def explicit(self, ref: str, words: str = "", name: str = "", where: str | None = None) -> InputBinding | None:
        item = item_reference(ref, self.loop)
        if item is not None:
            return item
        if joined_parts(ref) is not None:  # `steps.a.output.x + steps.b.output.y`: one list (`plan.joined_value40`)
            return joined_binding(ref, lambda part: self.explicit(part, "", "", where))
        ref = self._close_field(ref, name, where)
        parts = ref.split(".")
        made = self.scope.produced.get(parts[1]) if len(parts) == 3 and parts[0] == "steps" and words else None
        if made is not None and (meant := field_of_words(words, name, made.fields)) is not None:
            ref = f"{ref}.{meant[0]}"  # "pupils = headcount from step 1": its `pupils` (`plan.words_field26`)
            self._warn(where, f"`{name}` is taken from {parts[1]}: {meant[1]}; write `{name} = {parts[1]}.<field>` "
                              "to say so", "plan.input-words-field")
        elif made is not None and len(made.fields) > 1 and not any(w in made.fields for w in words.split()):
            self._warn(where, f"`{name}` is taken from {parts[1]}, but the words '{words}' name none of its fields "
                              f"({', '.join(f'`{f}`' for f in sorted(made.fields)[:6])}): it gets the whole output; "
                              f"write `{name} = {parts[1]}.<field>` for one of them", "plan.input-whole-output")
        if ref.startswith(("steps.", "inputs.")):
            return resolve_reference(ref, self.scope.inputs, self.scope.produced, words, name)
        found = resolve_name(ref, self.scope.inputs, self.scope.earlier())
        if found is None and name and ref != name and "." not in ref and \
                (own := resolve_name(name, self.scope.inputs, self.scope.earlier())) is not None:
            self._warn(where, f"`{name} = {ref}`: `{ref}` names no workflow input or earlier output; read as "  # own word
                              f"`{name}` itself, {own_said(own)}: write `{name} = step-N.<field>` to say so",
                       "plan.input-words-field")
            return own
        return found

    def warn_literal(self, name: str, value: str, said: str, where: str | None) -> None:
        """A literal in words that speaks of a step, an item or a gather (`plan.literal_words`): kept as
        the text, and said."""
        self._warn(where, f"`{name}` is given the text '{value[:80]}' as written, though it speaks of {said}: if "
                          f"a value of the run is meant, write it as `{name} (from step N)`, `{{{{ item }}}}` or "
                          f"`{name} = step-N.field`", "plan.literal-words")

    def warn_words(self, text: str, where: str | None) -> None:
        """A literal in words read as the loop's item or a gather (`plan.gather_words`), said."""
        self._warn(where, text, "plan.gather-words")

    def _close_field(self, ref: str, name: str, where: str | None) -> str:
        """`ready_lifts (from step 2)` where step 2 gives `ready` and `holds`: the one field of that step
        whose name is close to the input's (`near_input.close_names`), warned; the whole output it was."""
        parts = ref.split(".")
        made = self.scope.produced.get(parts[1]) if len(parts) == 4 and parts[0] == "steps" else None
        if made is None or parts[3] != name or not made.fields or made.outputs(name):
            return ref
        close = sorted(f for f in made.fields if close_names(name, f))
        if len(close) != 1:
            shown = ", ".join(f"`{f}`" for f in sorted(made.fields)[:6])
            self._warn(where, f"`{name}` is taken from {parts[1]}, which gives no `{name}` (it gives {shown}): it "
                              f"gets {parts[1]}'s whole output; write `{name} = {parts[1]}.<field>` for one of them",
                       "plan.input-whole-output")
            return ref
        self._warn(where, f"`{name}` is taken from {parts[1]}, which gives no `{name}`: read as its `{close[0]}`, "
                          f"the one output whose name is close; write `{name} = {parts[1]}.{close[0]}` to say so",
                   "plan.input-close-field")
        return ".".join([*parts[:3], close[0]])

    def bind(self, name: str, where: str | None, *, loose: bool, skill_reads: bool = False
             ) -> tuple[InputBinding, str] | None:
        """The binding of a name that has no literal and no explicit source, and its rule."""
        scope = self.scope
        handed = says_item_field_as(self.text, name) if self.loop else None  # "their name goes in as swimmer"
        if self.loop and handed is not None and (scope.item_fields is None or handed[0] in scope.item_fields):
            return (InputBinding(source="item", pointer=f"/{handed[0]}"),
                    f"for each item field: `{handed[0]}` of each item of {self.loop[1]} (the text says '{handed[1]}')")
        if self.loop and name == self.loop[0] and not (scope.item_fields and name in scope.item_fields):
            if scope.item_fields is None and (owned := says_item_field(self.text, name)) is not None:
                return (InputBinding(source="item", pointer=f"/{name}"),  # "that entry's site" (`bind_item_fields`)
                        f"for each item field: `{name}` of each item of {self.loop[1]} (the text says '{owned}')")
            return InputBinding(source="item"), f"for each item: the item of {self.loop[1]}"
        contract = scope.produced.get(scope.contract_fields.get(name, ""))
        if contract is not None and contract.outputs(name):
            return (_from_step(contract, [name]),
                    f"explicit: the Data Contracts edge {contract.step} -> {self.step.id} names it")
        if self.loop and scope.item_fields and name in scope.item_fields:
            return (InputBinding(source="item", pointer=f"/{name}"),
                    f"for each item field: `{name}` of each item of {self.loop[1]}")
        if scope.joined:
            branches = [sid for sid in scope.joined if sid in scope.produced and scope.produced[sid].outputs(name)]
            if branches:
                first = _from_step(scope.produced[branches[0]], [name])
                binding = first.model_copy(update={"any_of": tuple(branches)}) if len(branches) > 1 else first
                return binding, f"join: `{name}` of whichever of {', '.join(branches)} ran"
        nearest = [sid for sid in producers(name, scope)  # never the other side of its own if/otherwise
                   if frozenset((sid, self.step.id)) not in scope.exclusive]
        either = said_either(self.text, name)  # "plan (from 2 or 3)": whichever of two exclusive steps ran
        if either is not None and frozenset(either) in scope.exclusive and all(
                sid in scope.produced and scope.produced[sid].outputs(name) for sid in either):
            ordered = tuple(sorted(either, key=lambda s: scope.produced[s].index))
            return (_from_step(scope.produced[ordered[0]], [name]).model_copy(update={"any_of": ordered}),
                    f"the text names two steps of which one runs: `{name}` of whichever of {', '.join(ordered)} ran")
        named = said_step(self.text, name)  # "the `commits` from step 2", when not the nearest anyway
        if named is not None and nearest[:1] != [named] and named in scope.produced \
                and scope.produced[named].outputs(name) and int(named.split("-")[1]) < (self.step.number or 0):
            return _from_step(scope.produced[named], [name]), f"the text names its step: {named}'s `{name}`"
        if len(nearest) > 1 and all(frozenset((a, b)) in scope.exclusive for a in nearest for b in nearest if a != b):
            ordered = tuple(sorted(nearest, key=lambda s: scope.produced[s].index))
            first = _from_step(scope.produced[ordered[0]], [name])
            return (first.model_copy(update={"any_of": ordered}),
                    f"join: `{name}` of whichever of {', '.join(ordered)} ran (at most one of them runs)")
        if len(nearest) > 1 and loose:
            nearest = []
        if nearest and name in scope.inputs and (bare := bare_input_item(self.text, name)) is not None:
            self._warn(where, f"`{name}` is both an output of {nearest[0]} and a workflow input; '{bare}' is named "
                              f"bare beside values said with the step they come from, so it is read as the "
                              f"workflow input. To take the step's write `{name} (from Step N)`", "ambiguous-input")
            return InputBinding(source="input", name=name), f"workflow input: {name} (named bare, `spec.h25_left33`)"
        if nearest:
            chosen = nearest[0]
            made = scope.produced[chosen]
            binding = _from_step(made, [name])
            what = (f"gathered results of {chosen} (a For each step): `{name}` of each item, in item order"
                    if made.gathered else f"{chosen} at {binding.pointer or '(whole output)'}")
            if len(nearest) > 1:
                self._warn(where, f"`{name}` is output by {' and '.join(nearest)}, which do not run one after "
                                  f"the other; it is bound to {chosen} (the later in the spec): name the one "
                                  f"you mean, `{name} (from Step N)`", "ambiguous-input")
            elif name in scope.inputs:
                self._warn(where, f"`{name}` is both an output of {chosen} and a workflow input; it is bound "
                                  f"to {chosen}'s output (the nearest earlier step that outputs it). To take "
                                  f"the workflow input write `{name} (workflow input)`; to name the step write "
                                  f"`{name} (from Step N)`", "ambiguous-input")
            off = self._off_path(name)
            if off:  # "5) ... whoever got waitlisted": step 2 outputs it too, and this step does not wait for it
                self._warn(where, f"`{name}` is output by {chosen}, which this step waits for, and also by "
                                  f"{', '.join(off)}, which it does not wait for; it is bound to {chosen}'s output. "
                                  f"If the value of whichever of them ran is meant, say the step runs after "
                                  f"whichever of them ran; to name one write `{name} (from Step N)`",
                           "ambiguous-input")
            return binding, f"nearest step: {what}"
        if name in scope.inputs:
            return InputBinding(source="input", name=name), f"workflow input: {name}"
        said_every = says_every(SAYS_EVERY, self.text, self.step)  # also on the Input line (`plan.steps34a`)
        if name == GATHERED_NAME or (said_every and is_plural(name)):  # not "the edition"
            gathering = scope.nearest_gathered()
            if gathering:  # "When all lines are assessed, X gets every assessment": the results, gathered
                why = "" if name == GATHERED_NAME else f" (nothing else gives `{name}`; the step's text says "\
                                                         f"'{said_every.group(0)}')"  # type: ignore[union-attr]
                pointer = gathered_pointer(name, scope.produced[gathering[0]].fields)  # `scores`: each `score`
                return (InputBinding(source="step", step=gathering[0], pointer=pointer, gather=True),
                        f"gathered: {f'`{pointer[1:]}` of ' if pointer else ''}every item output of "
                        f"{gathering[0]}, in item order{why}")
        if self.loop and scope.item_fields is None and (not loose or skill_reads) \
                and literal_said(name, self.text, near=_BESIDE) is None:  # `title` of each post; "100 L/ha water": the number's
            return (InputBinding(source="item", pointer=f"/{name}"),
                    f"for each item field: `{name}` of each item of {self.loop[1]} (the item's fields "
                    "are not declared)")
        if self.loop and scope.item_fields and name not in scope.item_fields \
                and (field := renamed_item_field(name, scope.item_fields, self.text, close_names)) is not None:
            self._warn(where, f"`{name}` is not a field of each item of {self.loop[1]}: read as the item's "  # `runs37`
                              f"`{field}`, which the step's text names; write `{name} = item.{field}` to say so",
                       "plan.item-field-renamed")
            return (InputBinding(source="item", pointer=f"/{field}"),
                    f"for each item field: `{field}` of each item of {self.loop[1]} (the item carries no `{name}`; "
                    f"the step's text names `{field}`)")
        return None

    def _off_path(self, name: str) -> list[str]:
        """Up to three steps before this one that output `name` and that it does not wait for (bits of the
        producers and of its ancestors: no walk)."""
        scope = self.scope
        me = scope.produced.get(self.step.id)
        if scope.lineage is None or scope.made_by is None or me is None:
            return []
        bits = (scope.made_by.field_bits.get(name, 0) | scope.made_by.alias_bits.get(name, 0)) \
            & ((1 << me.index) - 1) & ~scope.lineage.ancestor_bits(self.step.id)
        return [scope.made_by.by_index[i].step for i in islice(positions(bits, latest_first=False), 3)
                if i in scope.made_by.by_index]

    def _warn(self, where: str | None, message: str, code: str) -> None:
        """A warning about a binding, at the spec's line: a name its skill's SKILL.md reads is warned at
        the step (the author's line), the SKILL.md line said in the message."""
        if where and self.step.where and split_where(where, self.scope.path)[0] != \
                split_where(self.step.where, self.scope.path)[0]:
            message, where = f"{message} (its skill reads it: {where})", self.step.where
        self.warnings.append(warning_at(where, self.scope.path, f"{self.label}: {message}", code))


# words that say a step takes all the results of a For each step before it
SAYS_EVERY = SaysGather(re.compile(r"(?i)\b(?:every|all(?:\s+(?:of\s+)?the)?|each\s+of\s+the)\s+(?:\w+\s+)?"
                         r"(?:assessments?|results?|items?|lines?|outputs?|answers?|\w+s)\b|\bgathered\b|\bcollected\b"
                         r"|\bthe\s+(?:\w+\s+)?(?:results|outputs)\s+(?:from|of)\b"  # "the renewal results from 1.2"
                         # "roll all of those up", "the whole pile of sentiment results"
                         r"|\ball\s+of\s+(?:those|these|them)\b|\bthe\s+whole\s+(?:pile|lot|set|list|bunch|batch|heap)\s+of\b"
                         f"|{GATHER_SOURCE}"))  # "consolidated", "a roll-up of", "combine": `fan_gather`


def map_inputs(
    step: StepSpec,
    needs: Sequence[str],
    required: Iterable[str],
    scope: Scope,
    loose: Sequence[Loose] = (),
    gathered: Mapping[str, str] | None = None,
) -> Mapped:
    """Bindings for the step's input names, their provenance, its `For each` and warnings.

    `gathered`: names the step's text gives a For each step's results ("as `tickets`"),
    to that step's id."""
    must = set(required)
    binder = _Binder(step, scope, f"{step.id} ({step.name})")
    bindings: dict[str, InputBinding] = {}
    provenance: dict[str, Provenance] = {}
    field_where = {f.name: f.where for f in step.inputs}
    explicit = {f.name: (f.source, f.description) for f in step.inputs if f.source}
    loop = binder.loop
    for_each: ForEach | None = None
    if loop:
        source = binder.explicit(loop[1])
        if source is not None:
            for_each = ForEach(item=loop[0], source=source)
    loose_by = {item.name: item for item in loose}
    # two names or more its skill's instructions read that nothing gives: fields of each item (`title`, `url`);
    # one is the item itself (the rule after mapping)
    fields_read = {n for n, item in loose_by.items() if item.said.startswith("named in skill")
                   and n not in scope.inputs and not producers(n, scope)}
    fields_read = fields_read if len(fields_read) > 1 else set()
    for name in dict.fromkeys([*needs, *step.input_values, *(gathered or {}), *loose_by]):
        where = field_where.get(name) or (loose_by[name].where if name in loose_by else None) or step.where
        optional = name not in must
        binding: InputBinding | None = None
        note = ""
        if name in step.input_values:
            value = step.input_values[name]
            whole = _WHOLE_NAME.match(value) if isinstance(value, str) else None
            if whole and (item := item_reference(whole.group(1), loop)) is not None:
                # `{{ n }}` alone is the item itself, keeping its JSON type, not its text
                binding, note = item, f"for each item: {whole.group(1)} of {loop[1] if loop else ''}"
            elif is_template(value):
                binding, note = InputBinding(source="template", template=str(value)), "template"
            else:
                binding, note = InputBinding(source="literal", value=value), "literal value"
                if isinstance(value, str) and (held := placeholder_binding(name, value, scope)) is not None:
                    binding, note = held[0], held[1]  # "<operator: term>" (`plan.steps34b`)
                    binder.warn_words(held[2], where)
                elif isinstance(value, str) and (said := literal_words(value)) is not None:
                    if (worded := bound_in_words(name, value, said, scope, loop)) is not None:
                        binding, note = worded[0], worded[1]  # "all the step-20 answers" (`plan.gather_words`)
                        binder.warn_words(worded[2], where)
                    else:
                        binder.warn_literal(name, value, said, where)
        elif name in explicit:
            ref, words = explicit[name]
            binding, note = binder.explicit(str(ref), words, name, where), f"explicit: {ref}"
            if binding is not None and binding.joined:
                note = f"explicit: {joined_note(binding)}"
        elif gathered and name in gathered and gathered[name] in scope.produced:
            binding = InputBinding(source="step", step=gathered[name], gather=scope.produced[gathered[name]].gathered)
            note = f"gathered: every item output of {gathered[name]}, in item order (the step's text names it)"
        else:
            found = binder.bind(name, where, loose=name in loose_by and name not in needs,
                                skill_reads=name in fields_read)
            if found is not None:
                binding, note = found
        if binding is None:
            continue
        by_loose_rule = name in loose_by and name not in needs and name not in step.input_values \
            and name not in explicit and name not in (gathered or {})
        if by_loose_rule:
            note = f"{note} ({loose_by[name].said})"
        if binding.optional != optional:
            binding = binding.model_copy(update={"optional": optional})
        bindings[name] = binding
        said_by = loose_by[name].source if by_loose_rule else "spec"
        provenance[f"inputs.{name}"] = Provenance(source=said_by, where=where, note=note)
    return Mapped(bindings, provenance, for_each, binder.warnings)


def name_the_value(
    step: StepSpec, unbound: Sequence[str], named: Sequence[str], taken: Iterable[InputBinding], scope: Scope,
) -> tuple[str, InputBinding, Provenance] | None:
    """The one input left without a source takes the one value (a workflow input or an
    ancestor's output) that the step's text names and no input of the step takes."""
    if len(unbound) != 1:
        return None
    used = {(b.source, b.name if b.source == "input" else b.step, b.pointer) for b in taken}
    values: list[tuple[InputBinding, str]] = []
    for word in named:
        if word in scope.inputs:
            values.append((InputBinding(source="input", name=word), f"workflow input {word}"))
            continue
        nearest = producers(word, scope)
        if len(nearest) == 1:
            made = scope.produced[nearest[0]]
            values.append((_from_step(made, [word]), f"{made.step}'s `{word}`"))
    values = [(b, w) for b, w in values if (b.source, b.name if b.source == "input" else b.step, b.pointer) not in used]
    if len(values) != 1:
        return None
    binding, what = values[0]
    return unbound[0], binding, from_spec(step.where, f"text names it: the value the step's text names, {what}")
