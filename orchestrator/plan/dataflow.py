"""The data and control flow of a plan: what each step reads, from where, after which
steps, and under which conditions.

Given the steps' contracts (`contract`), this finds:

1. the names each step reads: its input schema's properties, then the loose names
   (`wanted`): those its skill's instructions state when the skill has no input schema,
   those its own text mentions when it declares no inputs at all, and the names it gives
   a `For each` step's gathered results ("as `tickets`");
2. the workflow inputs, when the spec declares none: the names the steps read that no
   earlier step outputs (a warning lists them, with the skill each came from); and the
   inputs named in passing (`WorkflowSpec.inputs_said`, a chat reply's "comes in as `x`");
3. the dependencies (`mapping.derive_dependencies`), counting the steps a condition reads;
4. the input bindings (`mapping.map_inputs`, each with its rule), and the one input a
   step's text names the value of (`mapping.name_the_value`); an input said to be one of
   several values ("the page id or ticket id as `ref`") takes each from its step's own
   field, whichever ran (`join_sources`), and the step runs after those steps;
5. the compiled conditions (`conditions`): the When, the Otherwise (the negation of the
   condition of the nearest earlier step that has one) and the approval's condition.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from orchestrator.contracts import JsonSchema
from orchestrator.errors import Diagnostic
from orchestrator.kinds import BoundSkill
from orchestrator.plan.author_inputs24 import bind_author_inputs, loop_list_gathers
from orchestrator.plan.bind_item_fields import said_item_properties
from orchestrator.plan.bind_sigil_inputs import sigil_sources
from orchestrator.plan.bind_step_named import bind_step_named
from orchestrator.plan.bind_type_guard import clash, value_name
from orchestrator.plan.condition_unplaced import both_run, droppable, dropped_message, none_found
from orchestrator.plan.conditions import (
    ConditionError,
    StepIds,
    compile_text,
    declared_values,
    negate,
    step_path,
)
from orchestrator.plan.contract import OutputContract, at_pointer
from orchestrator.plan.count_field import count_field
from orchestrator.plan.declared_words44 import said_words, words_say
from orchestrator.plan.doc_constant import bind_constants, document_constant
from orchestrator.plan.echo import Echoes, said_echoed
from orchestrator.plan.fed_input import fed_input, told_apart_inputs
from orchestrator.plan.field_equals import Said, field_equals, names_given
from orchestrator.plan.gate_output27 import output_named, step_letters
from orchestrator.plan.given_words import bind_step_words, inside_longer
from orchestrator.plan.h3_left31 import bind_addressed, value_spelling, whole_results
from orchestrator.plan.header_value30 import bind_qualified
from orchestrator.plan.input_guard import kept_apart
from orchestrator.plan.input_names_kept import described_as, keep_names
from orchestrator.plan.join_sources import JoinReader, after_joins, bind_joins
from orchestrator.plan.lineage import Lineage
from orchestrator.plan.list35 import (
    Before,
    described_handoffs,
    gate_said_of_step,
    mark_of,
    other_name_given,
    place_said,
    skill_words,
)
from orchestrator.plan.literal_said import bind_literals_said, literal_said, takes_a_number
from orchestrator.plan.literal_said25 import bind_quoted_said, quoted_said
from orchestrator.plan.literal_shape28 import (
    Term,
    bind_terms,
    shape_gathers,
    shape_literals,
    term_value,
    terms,
)
from orchestrator.plan.literal_type40 import type_literals
from orchestrator.plan.literal_units import bind_unit_literals
from orchestrator.plan.location import error_at, from_spec, split_where, warning_at
from orchestrator.plan.mapping import (
    SAYS_EVERY,
    Dependencies,
    Loose,
    derive_dependencies,
    map_inputs,
    name_the_value,
    negated_pairs,
    otherwise_partner,
    parse_for_each,
    producers,
    resolve_reference,
)
from orchestrator.plan.meaning import meant_values
from orchestrator.plan.model import ForEach, InputBinding, Provenance, StepPolicy
from orchestrator.plan.named_value54 import named_value
from orchestrator.plan.near_input import bind_near
from orchestrator.plan.or_if_skipped30 import read_if_skipped
from orchestrator.plan.output_aliases import (
    Earlier,
    bind_output_aliases,
    bind_qualified_inputs,
    count_aliases,
    described_field,
    qualifier,
    said_alias,
)
from orchestrator.plan.outside import how_to_name, said_by_name, said_in_words, written_as_name
from orchestrator.plan.own_inputs54 import fields_said, own_inputs
from orchestrator.plan.prose_inputs import prose_inputs, without_skill
from orchestrator.plan.record_input48 import record_inputs, says_record
from orchestrator.plan.rename import renames
from orchestrator.plan.renamed_input import take_renamed
from orchestrator.plan.said_assign import said_sources
from orchestrator.plan.said_from39 import opening_mark, said_from
from orchestrator.plan.said_step import said_step
from orchestrator.plan.said_value import bind_literal, bind_said_values, said_value
from orchestrator.plan.schema import field_schema, properties_of, required_of, types_of
from orchestrator.plan.scope import Produced, Producers, Scope
from orchestrator.plan.steps34a import says_every
from orchestrator.plan.unread_derived27 import unread_dropped
from orchestrator.plan.wanted import Instructions, gathered, mentioned, read_instructions
from orchestrator.plan.whole_item import take_whole_items, whole_items_by_schema
from orchestrator.policy import ApprovalPolicy, Fallback, FallbackAction
from orchestrator.spec.approval_condition24 import said_field
from orchestrator.spec.approval_ok import quoted_values
from orchestrator.spec.fields import step_id
from orchestrator.spec.fill_in27 import fill_in_said
from orchestrator.spec.form35 import opening_value, threshold_value
from orchestrator.spec.form_fills32 import arg_value, form_value_said
from orchestrator.spec.grid_condition import word_field
from orchestrator.spec.model import FieldSpec, InputSpec, StepSpec, WorkflowSpec
from orchestrator.spec.need_block30 import labelled_value


class _Source(Protocol):
    """A catalog entry (`orchestrator.skills.Skill`): its name and instructions."""

    name: str
    body: str
    body_line: int


def skill_instructions(catalog: Iterable[object]) -> dict[str, Instructions]:
    """What each skill's instructions say it takes and gives (`wanted.read_instructions`)."""
    out: dict[str, Instructions] = {}
    for entry in catalog:
        name, body = getattr(entry, "name", None), getattr(entry, "body", None)
        if not isinstance(name, str) or not isinstance(body, str) or name in out:
            continue
        skill_md = str(getattr(entry, "skill_md", f"{name}/SKILL.md"))
        out[name] = read_instructions(body, skill_md, int(getattr(entry, "body_line", 1) or 1))
    return out


def with_instruction_outputs(
    outputs: dict[str, OutputContract], spec: WorkflowSpec, bound: Mapping[str, BoundSkill],
    instructions: Mapping[str, Instructions],
) -> list[Diagnostic]:
    """A step whose skill has no output schema also outputs what its skill's instructions
    say it returns (optional properties). An output the step's text says its skill yields
    ("→ `rank-x` ... → `top`, `total`", not required) that those instructions do not state is
    a warning at its line."""
    found: list[Diagnostic] = []
    for step in spec.steps:
        skill = bound.get(step.id)
        said = instructions.get(skill.name) if skill is not None and skill.output_schema is None else None
        if not said or not said.outputs:
            continue
        stated = {n.name for n in said.outputs}
        arrows = {r.where for r in step.readings if r.note.startswith("a title, then its skill")}
        yielded = [f for f in step.outputs if not f.required and f.where in arrows]
        for f in yielded:
            if f.name not in stated and skill is not None:
                found.append(warning_at(f.where, spec.path, f"{step.id} ({step.name}): `{f.name}` is said to come "
                                        f"out of `{skill.name}`, whose SKILL.md states the outputs "
                                        f"{', '.join(sorted(stated))}: it is not required of the step",
                                        "plan.output-not-stated"))
        out = outputs[step.id]
        schema = copy.deepcopy(out.schema_)
        agreed = [f.name for f in yielded if f.name in stated]  # the text and the skill agree: required
        if agreed:
            schema["required"] = list(dict.fromkeys([*schema.get("required", []), *agreed]))
            outputs[step.id] = out = out.model_copy(update={"schema_": schema})
            schema = copy.deepcopy(schema)
        props = schema.setdefault("properties", {})
        added = [n for n in said.outputs if n.name not in props and n.name not in out.aliases]
        if not added:
            continue
        for named in added:
            props[named.name] = copy.deepcopy(named.schema_) if named.schema_ else {}
        schema.setdefault("type", "object")
        listed = ", ".join(n.name for n in added)
        note = f"{out.note}; skill {skill.name if skill else '?'}'s instructions: {listed}"
        outputs[step.id] = out.model_copy(update={"schema_": schema, "note": note})
    return found


@dataclass
class StepFlow:
    depends: Dependencies
    bindings: dict[str, InputBinding]
    provenance: dict[str, Provenance]
    for_each: ForEach | None
    input_schema: JsonSchema
    when: str | None = None
    approval: ApprovalPolicy | None = None
    not_given: tuple[str, ...] = ()  # inputs its skill's instructions say it reads that nothing gives (warned)


@dataclass
class Flow:
    steps: dict[str, StepFlow] = field(default_factory=dict)
    inputs: tuple[InputSpec, ...] = ()
    found: list[Diagnostic] = field(default_factory=list)
    read_at: set[str] = field(default_factory=set)  # file:line of each input read as a join's (`join_sources`)


class _Lazy:
    """Step ids listed on first use: most conditions never look a value up among the steps
    before theirs, and listing them for each of 10 000 conditional steps is quadratic."""

    def __init__(self, make: Callable[[], list[str]]) -> None:
        self._make = make
        self._ids: list[str] | None = None

    def __iter__(self) -> Iterator[str]:
        if self._ids is None:
            self._ids = self._make()
        return iter(self._ids)


class _Planner:
    def __init__(self, spec: WorkflowSpec, bound: Mapping[str, BoundSkill], outputs: Mapping[str, OutputContract],
                 input_schemas: Mapping[str, JsonSchema], instructions: Mapping[str, Instructions]) -> None:
        self.spec = spec
        self.path = spec.path
        self.bound = bound
        self.outputs = outputs
        self.input_schemas = input_schemas
        self.instructions = instructions
        self.order = [s.id for s in spec.steps]
        self.position = {sid: i for i, sid in enumerate(self.order)}  # no list.index per step
        self.step_ids = StepIds(self.order)  # compiled once for every condition of the plan
        self.found: list[Diagnostic] = []
        self.equals: dict[str, dict[str, Said]] = {}  # step -> its inputs given another step's field by name
        self.list_before: list[Before] = []  # the steps before, as a list's text calls them (`plan.list35`)
        self.skill_steps: dict[str, str] = {}  # skill name -> the latest step so far that runs it (`field_equals`)
        self.dropped: set[str] = set()  # steps whose condition named no value and was dropped, warned
        self.produced = {
            s.id: Produced(step=s.id, index=i, fields=frozenset(properties_of(outputs[s.id].schema_)),
                           aliases=outputs[s.id].aliases, gathered=s.for_each is not None)
            for i, s in enumerate(spec.steps)
        }
        self.needs = {sid: list(properties_of(schema)) for sid, schema in input_schemas.items()}
        reads = {s.id: self.reads_about(s) for s in spec.steps}
        makers: dict[str, set[str]] = {}
        for sid, made in self.produced.items():
            for name in made.fields | made.aliases:
                makers.setdefault(name, set()).add(sid)
        self.makers = {name: frozenset(sids) for name, sids in makers.items()}
        self.record_of: dict[str, str] = {}  # a skill input -> the input said with its fields (`plan.record_input48`)
        self.record_said: dict[str, str] = {}  # such an input -> its words ("the loan record")
        self.echoes = Echoes(spec.steps, self.produced, reads, [i.name for i in spec.inputs],  # `plan.echo`
                             [f.name for c in spec.contracts for f in c.input_fields], self.reworks(spec.steps),
                             self.echoed(spec.steps))
        self.exclusive: set[frozenset[str]] = set()
        self.qualified: dict[str, tuple[str, str]] = {}  # workflow input -> (the word said before it, the step)
        for s in spec.steps:  # the routes of one router: at most one of them runs
            targets = [t for t in dict.fromkeys([*s.routes.values(), *([s.route_default] if s.route_default else [])])]
            self.exclusive |= {frozenset((a, b)) for a in targets for b in targets if a != b}
        for index, s in enumerate(spec.steps):  # an Otherwise and its partner: at most one of them runs
            partner = otherwise_partner(spec, index)
            if partner is not None:
                self.exclusive.add(frozenset((partner, s.id)))
        said_when = [s for s in spec.steps if s.when]  # "IF worse -> a" / "if NOT worse -> b": one of them runs
        self.exclusive |= negated_pairs([(s.id, s.when) for s in said_when if s.when])

    @functools.cached_property
    def terms(self) -> tuple[Term, ...]:
        """The glossary lines and definitions the document fixes values with (`plan.literal_shape28`)."""
        return terms(self.spec.text)

    @functools.cached_property
    def preamble(self) -> str:
        """The text before the first step: what it says holds for every step ("Home country for us is CA")."""
        first = (split_where(self.spec.steps[0].where, self.path)[1] or 0) if self.spec.steps else 0
        return "\n".join(self.spec.text.splitlines()[:max(0, first - 1)])

    def before(self, index: int) -> list[str]:
        """The ids of the steps before the one at `index`, the latest first."""
        return self.order[index - 1::-1] if index else []

    # -- the names each step reads -----------------------------------------------------

    def skill_name(self, step: StepSpec) -> str:
        """The name of the skill the step runs, as bound ("" when none is)."""
        bound = self.bound.get(step.id)
        return bound.name if bound is not None else (step.skill or "")

    def said(self, step: StepSpec) -> Instructions | None:
        skill = self.bound.get(step.id)
        if skill is None or skill.input_schema is not None:
            return None
        return self.instructions.get(skill.name)

    def reworks(self, steps: Iterable[StepSpec]) -> dict[str, frozenset[str]]:
        """Each step -> the outputs its skill's instructions say it changes ("`ward` (upper-cased)")."""
        from orchestrator.spec.approve39 import reworked

        return {s.id: frozenset(n.name for n in said.outputs if reworked(n.about))
                for s in steps if (said := self.said(s)) is not None}

    def echoed(self, steps: Iterable[StepSpec]) -> dict[str, frozenset[str]]:
        """Each step -> the outputs its skill's instructions call its input handed back ("product (text, echoed)")."""
        return {s.id: frozenset(n.name for n in said.outputs if said_echoed(n.about))
                for s in steps if (said := self.said(s)) is not None}

    def reads_about(self, step: StepSpec) -> dict[str, str]:
        """Each name the step's skill reads (its input schema, else its SKILL.md) -> its type or what is said of it."""
        said = self.said(step)
        if said is not None:
            return {n.name: n.about for n in said.inputs}
        return {name: str(prop.get("type", "")) if isinstance(prop, dict) else ""
                for name, prop in properties_of(self.input_schemas.get(step.id, {})).items()}

    def loose(self, step: StepSpec, inputs: Iterable[str]) -> list[Loose]:
        out: dict[str, Loose] = {}
        skill = self.bound.get(step.id)
        said = self.said(step)
        if said is not None and skill is not None:
            for n in said.inputs:
                out.setdefault(n.name, Loose(n.name, n.where, f"named in skill `{skill.name}`'s instructions",
                                             "skill"))
        inputs = list(inputs)
        others = [n for n, sids in self.makers.items() if len(sids) > 1 or step.id not in sids]  # no set copies
        given = {*inputs, *others}
        by_name = said is not None and said_by_name([n.name for n in said.inputs if not n.optional], given,
                                                    self.text_of(step))  # "parse-ledger on ledger_csv"
        if not step.inputs and not step.input_values and (skill is None or skill.input_schema is None):
            own = self.produced[step.id].fields | self.produced[step.id].aliases
            known = [*inputs, *sorted(others)]
            found = mentioned(self.said_as_data(step.description), [n for n in dict.fromkeys(known) if n not in own])
            inside = inside_longer(found, self.said_as_data(step.description))  # "unknown names": not `unknown`
            for name in found:
                if name in inside:
                    continue
                if not by_name or f"`{name}`" in step.description:  # by name: a word in passing is no input
                    out.setdefault(name, Loose(name, step.where, "named in the step's text"))
        return [item for name, item in out.items() if name not in self.needs[step.id]]

    @staticmethod
    def text_of(step: StepSpec) -> str:
        return " ".join([step.description, *(t.text for t in step.texts)])

    def made_before(self, step_id: str, name: str) -> bool:
        """Whether a step before `step_id` gives `name`."""
        return self.first_made.get(name, len(self.order)) < self.position[step_id]

    @functools.cached_property
    def first_made(self) -> dict[str, int]:
        """Each name a step gives (a field or an alias) -> the position of the first step that gives it, so
        `made_before` looks once, not over every earlier step (quadratic in a plan of parallel steps)."""
        first: dict[str, int] = {}
        for at, sid in enumerate(self.order):
            for name in (*self.produced[sid].fields, *self.produced[sid].aliases):
                first.setdefault(name, at)
        return first

    def reads(self, step: StepSpec, loose: list[Loose]) -> set[str]:
        """The names a step is known to read: its input schema's, its skill's instructions', its Input line's."""
        said = {i.name for i in loose if i.said.startswith("named in skill")}
        return {*self.needs[step.id], *said, *(f.name for f in step.inputs)}

    def gathers_from(self, step: StepSpec, loose: list[Loose]) -> str | None:
        """The one For each step before `step` whose results it gathers, when its text says so
        ("fold every washed result into x", or its Input line: "all the room-volume results together",
        `plan.steps34a`) and its skill reads a name that no workflow input and no earlier step gives; None
        otherwise (the dependencies are then as the data says)."""
        if step.depends_where is not None or step.for_each:
            return None
        if not says_every(SAYS_EVERY, " ".join([step.description, *(t.text for t in step.texts)]), step):
            return None
        before = self.order[: self.position[step.id]]
        fans = [sid for sid in before if self.produced[sid].gathered]
        if len(fans) != 1:
            return None
        inputs = {i.name for i in self.spec.inputs}
        left = [i.name for i in loose if i.said.startswith("named in skill") and i.name not in inputs
                and not self.makers.get(i.name, set()) & set(before)]
        return fans[0] if left else None

    def _titles(self) -> frozenset[str]:
        """The steps' names, lower-cased: once per spec's steps, not once per step's text."""
        kept = getattr(self, "_titles_kept", None)
        if kept is None or kept[0] is not self.spec.steps:
            kept = self._titles_kept = (self.spec.steps, frozenset(s.name.strip().lower() for s in self.spec.steps))
        return kept[1]

    def said_as_data(self, text: str) -> str:
        """A step's text without what names no data it reads: "it needs nothing from the slug",
        "doesn't need the export", and another step's name in quotes ("the plan from "Mix the plan"")."""
        titles = self._titles()
        text = _NOT_READ.sub(" ", text)
        return _QUOTED.sub(lambda m: " " if m.group(1).strip().lower() in titles else m.group(0), text)

    def gathered_names(self, step: StepSpec) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for name, ref in gathered(step.description):
            sid = step_id(ref) if ref else None
            out[name] = sid if sid in self.produced else None
        return out

    # -- workflow inputs ---------------------------------------------------------------

    def derived_inputs(self, loose: Mapping[str, list[Loose]], taken: Mapping[str, set[str]],
                       roots: set[str], renamed: Collection[str] = (),
                       named: Collection[str] = ()) -> tuple[InputSpec, ...]:
        """What the first steps (those that depend on none) read, when the spec declares no inputs;
        not the names `renamed`, which the text gives in its own words (`plan.prose_inputs`). A name
        in `named` (an input the text names itself: "species (species)") is derived as before but not
        listed as read from the steps: its own warning says where it was read."""
        found: dict[str, tuple[InputSpec, str]] = {}
        for step in self.spec.steps:
            over = parse_for_each(step.for_each)  # a loop whose item is an input: its other names are no item fields
            if (over is None or over[0] in self.reads(step, loose[step.id])) and step.id not in roots:
                self.said_from_outside(step, loose[step.id], taken[step.id] | set(over[:1] if over else ()) | set(renamed),
                                       found)  # a skill input an input said in words is kept for: no input of its own
            if step.for_each is not None or step.id not in roots:
                continue
            schema = self.input_schemas[step.id]
            skill = self.bound.get(step.id)
            said = self.said(step)
            optional = {n.name for n in said.inputs if n.optional} if said else set()
            names = [*self.needs[step.id], *(item.name for item in loose[step.id]
                                             if item.said.startswith("named in skill"))]
            where = {f.name: f.where for f in step.inputs}
            where.update({item.name: item.where or step.where for item in loose[step.id]})
            for name in names:
                if name in found or name in taken[step.id] or name in renamed:
                    continue
                if said_value(name, self.text_of(step)) or said_value(name, self.preamble) or literal_said(
                        name, self.text_of(step)) or quoted_said(name, self.text_of(step)) or document_constant(
                        name, self.spec.title, self.preamble, self.text_of(step))[0] or fill_in_said(
                        name, self.text_of(step)) or term_value(name, self.reads_about(step).get(name, ""),
                                                               self.terms) is not None \
                        or labelled_value(name, self.text_of(step), self.preamble) is not None \
                        or place_said(name, self.reads_about(step).get(name, ""), self.text_of(step)):  # "Venue: X" header; "at St Cecilia's Church"
                    continue  # "Home country for us is CA": the step's literal (`said_value`), no input
                required = name in required_of(schema) or (name not in properties_of(schema) and name not in optional)
                prop = properties_of(schema).get(name, {})
                item = InputSpec(name=name, type=prop.get("type") if isinstance(prop.get("type"), str) else None,
                                 description=str(prop.get("description", "")), required=required,
                                 where=where.get(name) or step.where)
                found[name] = (item, f"{name} ({step.id}, skill `{skill.name if skill else '?'}`"
                                     f"{', optional' if not required else ''})")
        listed = "; ".join(what for name, (_, what) in found.items() if name not in named)
        if listed:
            self.found.append(warning_at(self.spec.steps[0].where if self.spec.steps else None, self.path,
                                         f"the spec declares no workflow inputs; read from what the steps and "
                                         f"their skills take: {listed}. Declare them in an Inputs section to say "
                                         "so yourself", "derived-inputs"))
        return tuple(item for item, _ in found.values())

    def said_from_outside(self, step: StepSpec, loose: list[Loose], taken: set[str],
                          found: dict[str, tuple[InputSpec, str]]) -> None:
        """A later step's name that comes from outside the run: one its skill takes that its own
        text writes in backticks ("the CSM as `sender`") and that no step outputs."""
        skill = self.bound.get(step.id)
        text = self.text_of(step)
        names = [*self.needs[step.id], *(i.name for i in loose if i.said.startswith("named in skill"))]
        for name in dict.fromkeys(names):
            worded = (not written_as_name(name, text) and said_in_words(name, self.preamble)
                      and not said_value(name, text) and not said_value(name, self.preamble))  # "home port is LEITH"
            made = self.makers.get(name, frozenset()) - {step.id}  # its own skill handing it back is no source
            if name in found or name in taken or made or not (written_as_name(name, text) or worded) \
                    or name in names_given(text) or fill_in_said(name, text):  # "low_stock = check-glycol's low": from that step; "day_hours 11": the step's literal (`spec.fill_in27`)
                continue
            schema = self.input_schemas[step.id]
            said = self.said(step)  # "(number, optional, default 10000)" in the skill's instructions
            required = (name in required_of(schema) or name not in properties_of(schema)) and \
                not (said and any(n.name == name and n.optional for n in said.inputs))
            found[name] = (InputSpec(name=name, required=required, where=step.where),
                           f"{name} ({step.id}, skill `{skill.name if skill else '?'}`: "
                           + ("the text before the steps names it in words" if worded else f"its text names `{name}`")
                           + ", which no step outputs)")

    # -- conditions --------------------------------------------------------------------

    def resolver(self, step: StepSpec, candidates: Iterable[str], inputs: list[str], scope: Scope | None,
                 loop: tuple[str, str] | None, item_fields: frozenset[str] | None) -> Any:
        def resolve(name: str, of: str | None) -> str | None:
            if of is not None:
                if of not in self.produced:
                    return None
                said_of = self.produced[of]
                if not said_of.outputs(name.split(".")[0]) and (counted := count_field(name, said_of.fields)):
                    return step_path(of, counted)  # "found at least 1 affected order": `affected_count`
                if not said_of.outputs(name.split(".")[0]) and (worded := word_field(name, said_of.fields)):
                    return step_path(of, worded)  # "A = off": `off_target` (`spec.grid_condition`)
                if not said_of.outputs(name.split(".")[0]) and (said := said_field(name, said_of.fields)):
                    return step_path(of, said)  # "the rollup shows any hits": `hit_count` (`spec.approval_condition24`)
                return step_path(of, name)
            head = name.split(".")[0]
            if loop is not None and item_fields is not None and head in item_fields:
                return f"item.{name}"
            made = (producers(head, scope) if scope is not None
                    else [s for s in candidates if self.produced[s].outputs(head)][:1])
            if made:
                return step_path(made[0], name)
            if head in inputs:
                return f"inputs.{name}"
            pool = (scope.upstream() if scope is not None else candidates) if name.endswith("_count") else ()
            counts = [(sid, f) for sid in pool if (f := count_field(name, self.produced[sid].fields))]
            if len(counts) == 1:  # "any swap is a high-alert drug": the one `high_alert_count` before it
                return step_path(*counts[0])
            if loop is not None and item_fields is None:
                return f"item.{name}"
            return None
        return resolve

    def values(self, inputs: tuple[InputSpec, ...], candidates: Iterable[str]) -> Any:
        def holders(value: str) -> list[str]:
            out = [f"inputs.{i.name}" for i in inputs
                   if value in declared_values(field_schema(FieldSpec(name=i.name, type=i.type,
                                                                      description=i.description, where=i.where)))]
            for sid in candidates:
                for name, prop in properties_of(self.outputs[sid].schema_).items():
                    if isinstance(prop, dict) and value in declared_values(prop):
                        out.append(step_path(sid, name))
            if not out:  # `band` ("red" at 8+, "amber" at 4-7, else "green") in the skill's words
                out = [step_path(sid, n.name) for sid in candidates if (skill := self.bound.get(sid)) is not None
                       and (said := self.instructions.get(skill.name)) is not None for n in said.outputs
                       if value in quoted_values(n.about)]
            return out
        return holders

    def compile(self, step: StepSpec, text: str, where: str | None, what: str, inputs: tuple[InputSpec, ...],
                candidates: Iterable[str], scope: Scope | None, item_fields: frozenset[str] | None,
                report: bool, held: bool = False, quiet: bool = False) -> tuple[str, str] | None:
        loop = parse_for_each(step.for_each)
        resolve = self.resolver(step, candidates, [i.name for i in inputs], scope, loop, item_fields)
        meaning = meant_values(candidates, inputs, self.produced, self.bound, self.spec)
        try:
            compiled = compile_text(text, resolve, self.values(inputs, candidates), self.step_ids,
                                    loop[0] if loop else None, meaning)
        except ConditionError as exc:
            if quiet:  # tried first: another reading follows
                return None
            if report and held and not droppable(exc, text):  # a person's yes: asked on every run, warned (`spec.approval_hold`)
                from orchestrator.spec.approval_hold import unplaced_approval

                self.found.append(warning_at(where, self.path, unplaced_approval(step.id, step.name, text, str(exc)),
                                             "spec.condition-not-read"))
            elif report and what in ("When", "approval condition") and droppable(exc, text):
                self.dropped.add(step.id)  # "any failures": everyday words naming no value, warned and not kept
                self.found.append(warning_at(where, self.path, f"{step.id} ({step.name}): "
                                             f"{dropped_message(what, text, exc)}", "spec.condition-not-read"))
            elif report:
                self.found.append(error_at(where, self.path, f"{step.id} ({step.name}): {what}: {exc}",
                                           "condition"))
            return None
        if report and compiled.guessed:
            self.found.append(warning_at(where, self.path, f"{step.id} ({step.name}): {what}: "
                                         f"{'; '.join(compiled.guessed)}: if another value is meant, write its name",
                                         "plan.value-by-meaning"))
        expression, spelled = value_spelling(compiled.expression, self.output_about)  # "is HIGH": the skill's 'high'
        if spelled and (report or what):  # said whenever it is the step's condition, quiet or not
            self.found.append(warning_at(where, self.path, f"{step.id} ({step.name}): {what or 'condition'}: "
                                         f"{'; '.join(spelled)}", "plan.value-spelling"))
        return expression, compiled.note

    def input_about(self, step_id: str, name: str) -> str | None:
        """What the skill of step `step_id` says of its input `name` (`wanted.Instructions`), or None."""
        skill = self.bound.get(step_id)
        said = self.instructions.get(skill.name) if skill is not None else None
        return next((n.about for n in said.inputs if n.name == name), None) if said is not None else None

    def output_about(self, step_id: str, field: str) -> str | None:
        """What the skill of step `step_id` says of its output `field` (`wanted.Instructions`), or None."""
        skill = self.bound.get(step_id)
        said = self.instructions.get(skill.name) if skill is not None else None
        return next((n.about for n in said.outputs if n.name == field), None) if said is not None else None

    # -- the whole -----------------------------------------------------------------------

    def plan(self) -> Flow:
        spec = self.spec
        loose = {s.id: self.loose(s, [i.name for i in spec.inputs]) for s in spec.steps}
        gathered_by = {s.id: self.gathered_names(s) for s in spec.steps}
        last_loop: StepSpec | None = None  # the nearest For each step before `s`, kept as the steps go by
        for s in spec.steps:  # "all the field figures" after a loop over the input `fields`
            bound = {f.name for f in s.inputs if f.source}  # an input whose source the spec says is not gathered
            over_input, gather_said = loop_list_gathers(s, last_loop, self.reads(s, loose[s.id]) - bound,
                                                        [i.name for i in (*spec.inputs, *spec.inputs_said)],
                                                        self.text_of(s), self.path,  # an input said in the text too
                                                        functools.partial(self.input_about, s.id),
                                                        sorted(self.produced[last_loop.id].fields)
                                                        if last_loop is not None and last_loop.id in self.produced
                                                        else (), self.reads(last_loop, loose[last_loop.id])
                                                        if last_loop is not None else (),
                                                        [t.name for t in spec.steps])  # `plan.loop_gather46`
            gathered_by[s.id] = {**over_input, **gathered_by[s.id]}
            self.found += gather_said
            last_loop = s if s.for_each is not None else last_loop
        explicit = {s.id: {f.name for f in s.inputs if f.source} | set(s.input_values) | set(gathered_by[s.id])
                    for s in spec.steps}
        reads = {s.id: self.reads(s, loose[s.id]) for s in spec.steps}
        placer = JoinReader(spec.steps, self.produced, {sid: b.name for sid, b in self.bound.items()}, self.path)
        joins = {s.id: placer.read(s, reads[s.id], bool(reads[s.id])) for s in spec.steps}
        for sid, read in joins.items():  # "the page id or ticket id as `ref`": each value its step's field
            explicit[sid] |= {j.reading.name for j in read}
            self.found += [w for j in read for w in j.warnings]
        # conditions read as far as the steps before each one, to find what they wait for
        early: dict[str, list[str]] = {}
        for index, step in enumerate(spec.steps):
            earlier = _Lazy(functools.partial(self.before, index))
            texts = [t for t in (step.when, step.approval.when if step.approval else None) if t]
            compiled = [self.compile(step, t, None, "", spec.inputs, earlier, None, None, report=False)
                        for t in texts]
            early[step.id] = [c[0] for c in compiled if c is not None]
            partner = otherwise_partner(spec, index)  # an Otherwise waits for what its partner's condition reads
            if partner is not None:
                early[step.id] += early[partner][:1] if spec.steps[self.position[partner]].when else []
            early[step.id] += [f"steps.{sid}.output" for sid in gathered_by[step.id].values() if sid]
            if (fan := self.gathers_from(step, loose[step.id])) is not None:
                early[step.id].append(f"steps.{fan}.output")
            said = " ".join([step.description, *(t.text for t in step.texts)])
            self.equals[step.id] = self.field_equals(step, index)  # "low_stock = check-glycol's low"
            early[step.id] += [f"steps.{e.step}.output" for e in self.equals[step.id].values()]
            declared = {i.name for i in spec.inputs}
            for name in sorted(reads[step.id]):  # "the summary from 5.3": wait for the step the words name
                if name in declared or self.made_before(step.id, name):
                    continue
                alias = said_alias(name, said, self.count_aliases, self.earlier(index), reads[step.id])
                if alias is not None:
                    early[step.id].append(f"steps.{alias.step}.output")
            for name in [*self.needs[step.id], *(i.name for i in loose[step.id])]:
                told = said_step(said, name)  # "the `commits` from step 2": that step, not the nearest
                if told is None or self.position.get(told, index) >= index or not self.produced[told].outputs(name):
                    continue
                if any(self.produced[sid].outputs(name) for sid in self.order[:index] if sid != told):
                    early[step.id].append(f"steps.{told}.output")  # another step outputs it too: wait for this one
        looped_in = {sid: {n for n, g in by.items() if g} for sid, by in gathered_by.items()}  # the loop's, not the list's maker
        deps = derive_dependencies(spec, self.produced,  # a name steps before output only as echoes: no wait
                                   {sid: self.echoes.for_dependencies(sid, [x for x in n if x not in looped_in.get(sid, ())])
                                    for sid, n in self.needs.items()},
                                   [i.name for i in spec.inputs],
                                   {sid: self.echoes.for_dependencies(sid, [item.name for item in items
                                                                            if item.name not in looped_in.get(sid, ())])
                                    for sid, items in loose.items()}, early)
        deps = {s.id: after_joins(deps[s.id], s, joins[s.id]) for s in spec.steps}
        dep_ids = {sid: d.depends_on for sid, d in deps.items()}
        lineage = Lineage(self.order, dep_ids)  # ancestors as bitsets, once for every step
        made_by = Producers(self.produced.values())
        roots = {sid for sid, ids in dep_ids.items() if not ids}
        said_in_prose = self.prose_inputs(spec.inputs_said)  # "you'll need to give it the plate ID, ..."
        renamed = {i.description.rsplit("for skill input ", 1)[1] for i in said_in_prose
                   if "for skill input " in i.description}  # `sheet` said as "the panel sheet": `panel_sheet`
        said_fields = {s.id: fields_said(self.text_of(s), self.reads(s, loose[s.id]), [i.name for i in said_in_prose])
                       for s in spec.steps} if spec.inputs_prose_own else {}  # "put_in is heads out" (`plan.own_inputs54`)
        renamed |= {f for said in said_fields.values() for f, own in said.items() if f != own}
        renamed |= {n for s in spec.steps for n in self.reads(s, loose[s.id])  # "tuner Maggie": the step's own value
                    if n not in s.input_values and named_value(n, self.text_of(s)) is not None}
        said_kept, kept = keep_names(spec.inputs_said, [(s.id, self.text_of(s), self.reads(s, loose[s.id]))
                                                        for s in spec.steps], self.made_before)
        renamed |= set(kept)  # `pickup_date` said for road-weather's `date` (`plan.input_names_kept`)
        fed = self.fed_inputs(said_in_prose, loose)  # `edc_listing` for the step whose text says "EDC listing"
        renamed |= {skill_input for skill_input, _, _ in fed.values()}
        renamed |= set(self.record_of)  # a field of an input said with its fields (`plan.record_input48`)
        for skill_input, own in kept.items():  # "wound length (len_cm)" for `length`: its words, a guess, said
            said_as = next((i for i in spec.inputs_said if i.name == own), None)
            if said_as is not None and described_as(said_as, skill_input):
                self.found.append(warning_at(said_as.where, self.path, f"input `{own}` ({said_as.description}) is "
                                             f"read as the value the skills read as `{skill_input}`: its words "
                                             f"say '{skill_input}' and its name shortens it; if that is not meant, name "
                                             f"`{own}` in the step that takes it", "plan.input-said-for"))
            elif said_as is not None and (words := said_words(said_as.description)) is not None \
                    and words_say(skill_input, words):  # "bodyweight in kg (bw_kg)" for `weight_kg`
                self.found.append(warning_at(said_as.where, self.path, f"input `{own}` is read as the value the "
                                             f"skills read as `{skill_input}`: its words '{words}' say "
                                             f"'{skill_input.replace('_', ' ')}'; if that is not meant, name "
                                             f"`{own}` in the step that takes it", "plan.input-said-for"))
        # a name the text said in words is its input, not derived: not listed as "the spec declares no inputs"
        derived = () if spec.inputs else self.derived_inputs(
            loose, explicit, roots, renamed, {i.name for i in (*spec.inputs_said, *said_in_prose, *said_kept)})
        inputs = spec.inputs or derived
        inputs = (*inputs, *(i for i in said_kept if i.name not in {j.name for j in inputs}))
        inputs = (*inputs, *(i for i in said_in_prose if i.name not in {j.name for j in inputs}))
        if not spec.inputs and inputs:
            loose = {s.id: self.loose(s, [i.name for i in inputs]) for s in spec.steps}
        names = [i.name for i in inputs]
        flow = Flow(inputs=inputs, read_at={j.reading.where for read in joins.values() for j in read if j.placed})
        conditions: dict[str, str] = {}
        may_skip = {s.id for s in spec.steps if s.when or s.otherwise_of  # once: a per-step set was quadratic
                    or (s.approval is not None and s.approval.on_timeout == "skip")}  # silence skips it
        for step in spec.steps:
            item_fields = self.item_fields(step, inputs)
            scope = Scope(inputs=tuple(names), produced=self.produced, deps=dep_ids, start=tuple(dep_ids[step.id]),
                          joined=tuple(step.depends_on or dep_ids[step.id]) if step.join == "any" else (),
                          contract_fields=self.contract_fields(step), item_fields=item_fields, path=self.path,
                          exclusive=frozenset(self.exclusive), makers=self.makers, step=step.id,
                          lineage=lineage, made_by=made_by)
            gathering = {name: sid or next(iter(scope.nearest_gathered()), "")
                         for name, sid in gathered_by[step.id].items()}
            schema = self.input_schemas[step.id]
            mapped = map_inputs(step, self.needs[step.id], required_of(schema), scope, loose[step.id],
                                {n: s for n, s in gathering.items() if s})
            self.take_said_sources(step, mapped, scope, names)  # "turbines = A's ranked list" (`plan.said_assign`)
            self.take_field_equals(step, mapped, names)  # "low_stock = check-glycol's low" (`plan.field_equals`)
            self.take_sigil_sources(step, mapped, names)  # `in.readings = @telemetry` (`plan.bind_sigil_inputs`)
            self.take_described_fields(step, mapped)  # "$fx.rate" where fx gives `usd_per_unit` (`plan.output_aliases`)
            self.take_input_over_echoes(step, mapped, scope, names)  # `ward` given back by steps 1 and 2
            take_renamed(step.id, [*(i.name for i in loose[step.id]), *(n for n in self.needs[step.id] if n in kept)],
                         [*said_in_prose, *said_kept], names, mapped, step.where)  # `study_plot` said for `plot`, a name only the skill's instructions give
            self.take_fed(step, fed.get(step.id), names, mapped)
            for name, own in said_fields.get(step.id, {}).items():  # "put_in is heads out": the author's input
                given = mapped.bindings.get(name)
                if own in names and own != name and (given is None or (given.source == "input" and given.name == name)):
                    mapped.bindings[name] = InputBinding(source="input", name=own, optional=name not in required_of(schema))
                    mapped.provenance[f"inputs.{name}"] = from_spec(step.where, f"workflow input: {own}, which the "
                                                                                f"step's text says `{name}` is")
            self.take_record_fields(step, mapped, names, loose[step.id])  # `inputs.loan.currency` (`plan.record_input48`)
            self.found += bind_step_named(  # `vans` when the text names step 2's `available_vans`
                step, self.reads_about(step), self.text_of(step), self.makers, functools.partial(producers, scope=scope),
                lambda sid, f: resolve_reference(f"steps.{sid}.output.{f}", names, self.produced),
                mapped.bindings, mapped.provenance, self.path)
            self.found += bind_addressed(step, [n for n in self.reads(step, loose[step.id]) if n not in mapped.bindings
                                                and n not in step.input_values], names, self.text_of(step),
                                         required_of(schema), mapped.bindings, mapped.provenance,
                                         self.path)  # "to the `reviewer`" (`plan.h3_left31`)
            self.found += whole_results(step, mapped.bindings, functools.partial(self.input_about, step.id),
                                        lambda sid: b.name if (b := self.bound.get(sid)) is not None else None,
                                        self.path)  # `feeds` (list of convert-prices results)
            doubtful: set[str] = set()  # two codes the document states for it: a guess, said, and no other
            self.found += bind_constants(step, [n for n in self.reads(step, loose[step.id]) if n not in mapped.bindings
                                                and n not in step.input_values], self.spec.title, self.preamble,
                                         self.text_of(step), mapped.bindings, mapped.provenance, self.path, doubtful)
            self.found += bind_qualified(step, [n for n in self.reads(step, loose[step.id]) if n not in mapped.bindings
                                                and n not in step.input_values and n not in doubtful],
                                         self.text_of(step), self.preamble, mapped.bindings, mapped.provenance,
                                         self.path)  # "the bunker port" (`plan.header_value30`)
            self.found += bind_unit_literals(step, [n for n in sorted(self.reads(step, loose[step.id]))
                                                    if n not in mapped.bindings and n not in step.input_values
                                                    and n not in doubtful], schema, self.text_of(step), self.preamble,
                                             mapped.bindings, mapped.provenance, self.path)  # "FLOOR := 0.12", "$385/hr"
            self.found += bind_terms(step, [n for n in sorted(self.reads(step, loose[step.id])) if n not in mapped.bindings
                                            and n not in step.input_values and n not in doubtful],
                                     self.reads_about(step), self.spec.text, mapped.bindings, mapped.provenance,
                                     self.path)  # "year ..... 2026", '"the Loan Fee" means USD 1,500' (`literal_shape28`)
            self.found += self.take_output_aliases(step, loose[step.id], mapped, lineage)  # "the plan number from 3a"
            self.found += read_if_skipped(step, self.text_of(step), mapped.bindings, mapped.provenance,
                                          may_skip, self.path)  # "or 1 if ( iv ) was skipped"
            joined = bind_joins(mapped, joins[step.id], required_of(schema), reads[step.id])
            self.found += [w for w in mapped.warnings if not (  # a name a join binds is no longer "bound to the later"
                w.code == "ambiguous-input" and any(f"`{n}` is output by " in w.message for n in joined))]
            if (over := parse_for_each(step.for_each)) is not None:  # `sample` (object {sample, wells}): the item
                take_whole_items(step, self.said(step), item_fields, over[1], mapped.bindings, mapped.provenance)
                self.found += whole_items_by_schema(step, schema, self.item_properties(step, inputs), over[1],
                                                    mapped.bindings, mapped.provenance, self.path)
            self.drop_unfit_lists(step, mapped.bindings, mapped.provenance)
            self.found += type_literals(mapped.bindings, schema, step.where, self.path, step.id)  # 30 for a number
            unbound = [n for n in self.needs[step.id] if n not in mapped.bindings and n not in step.input_values
                       and n not in doubtful]
            if not unbound:  # else the one name the skill's instructions read that nothing gave
                left = [item.name for item in loose[step.id] if item.said.startswith("named in skill")
                        and item.name not in mapped.bindings and item.name not in step.input_values
                        and item.name not in doubtful]
                unbound = left if len(left) == 1 else []
            extra = None
            skill_names = {*self.needs[step.id], *(i.name for i in loose[step.id] if i.said.startswith("named in skill"))}
            text_only = [n for n in mapped.bindings if n not in skill_names and n not in step.input_values
                         and not any(f.name == n for f in step.inputs)]
            skill_left = [n for n in dict.fromkeys([*self.needs[step.id], *(i.name for i in loose[step.id]
                                                                              if i.said.startswith("named in skill"))])
                          if n not in mapped.bindings and n not in step.input_values]
            said_text = " ".join([step.description, *(t.text for t in step.texts)])
            for wanted_name, given_name in renames(skill_left, text_only, said_text):
                self.rename(step, mapped, wanted_name, given_name, required_of(schema))
                text_only.remove(given_name)
                unbound = [n for n in unbound if n != wanted_name]
            if len(text_only) > 1:  # the ones its first sentence (what the step does) names
                first = re.split(r"(?<=[.!?])\s", step.description.strip(), maxsplit=1)[0]
                first = re.sub(r"`[^`]*`|\b[a-z0-9]+(?:-[a-z0-9]+)+\b", " ", first)  # not the skills' names
                text_only = [n for n in text_only if n in mentioned(first, text_only)]
            loop = parse_for_each(step.for_each)
            item_taken = any(b.source == "item" and not b.pointer for b in mapped.bindings.values())
            if loop is not None and item_taken:  # the list goes item by item to its input: it is no other value
                text_only = [n for n in text_only if n != loop[1].rsplit(".", 1)[-1]]
            if loop is not None and len(unbound) == 1 and item_fields is None and not item_taken \
                    and said_value(unbound[0], said_text) is None:  # "rate year 2027": that value (below)
                # "rinse every address in admin_emails through x": the one input x reads that nothing gives is
                # the item (the list itself, named in the text, is not an input of each run)
                if loop[1] in text_only and loop[1] not in self.needs[step.id]:
                    mapped.bindings.pop(loop[1], None)
                    mapped.provenance.pop(f"inputs.{loop[1]}", None)
                extra = (unbound[0], InputBinding(source="item"),
                         from_spec(step.field_where.get("for_each") or step.where,
                                   f"for each item: each item of {loop[1]}, for `{unbound[0]}`, the one input "
                                   "its skill reads that nothing else gives"))
            elif len(unbound) == 1 and len(text_only) == 1 and not self.clashes(step, unbound[0], text_only[0], said_text) \
                    and literal_said(unbound[0], said_text) is None \
                    and not kept_apart([step.description, *(t.text for t in step.texts)], unbound[0], text_only[0]):  # "the season label, ... the flagged rows"
                # "with the total from total-refund" for `amount`
                value = mapped.bindings.pop(text_only[0])
                mapped.provenance.pop(f"inputs.{text_only[0]}", None)
                extra = (unbound[0], value, from_spec(step.where, f"text names it: `{text_only[0]}`, the value the "
                                                                  f"step's text names, for `{unbound[0]}`, the one "
                                                                  "input its skill reads that nothing else gives"))
                self.found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): its skill reads "
                                             f"`{unbound[0]}`, which nothing gives; it is given `{text_only[0]}`, "
                                             f"the one other value the text names: if that is not meant, "
                                             f"{how_to_name(unbound[0], said_text)}",
                                             "plan.input-renamed"))
            if extra is None and unbound:  # the inputs left: the values the step's text names
                said_names = mentioned(step.description, [*names, *sorted(self.makers)])
                inside = inside_longer(said_names, step.description)  # "the parts total": not `parts`
                named = [n for n in said_names if n not in self.needs[step.id] and n not in mapped.bindings
                         and n not in unbound and n not in inside]
                for wanted_name, given_name in renames(unbound, named, said_text):  # `city` <- `home_city`
                    found = name_the_value(step, [wanted_name], [given_name], mapped.bindings.values(), scope)
                    if found is not None and not self.clashes(step, wanted_name, given_name, said_text):
                        mapped.bindings[given_name] = found[1]
                        self.rename(step, mapped, wanted_name, given_name, required_of(schema))
                        unbound.remove(wanted_name)
                        named.remove(given_name)
            if extra is None and len(unbound) == 1 and literal_said(unbound[0], said_text) is None:  # the one input left: the one value the step's text names (a number said for it is its value: "62.00/hr ... our rate")
                extra = name_the_value(step, unbound, named, mapped.bindings.values(), scope)
                if extra is not None and self.clashes(step, extra[0], value_name(extra[1]), said_text):
                    extra = None  # a date given a list of orders: no value at all beats that one (`plan.bind_type_guard`)
                if extra is not None and named:
                    self.found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): its skill reads "
                                                 f"`{extra[0]}`, which nothing gives; it is given the one value the "
                                                 f"text names (`{'`, `'.join(named[:3])}`): if that is not meant, "
                                                 f"{how_to_name(extra[0], said_text)}",
                                                 "plan.input-renamed"))
            if extra is not None:
                name, binding, prov = extra
                mapped.bindings[name] = binding.model_copy(update={"optional": name not in required_of(schema)})
                mapped.provenance[f"inputs.{name}"] = prov
            self.found += bind_near(step, [n for n in self.needs[step.id] if n not in mapped.bindings
                                           and n not in step.input_values], names, said_text, required_of(schema),
                                    mapped.bindings, mapped.provenance, self.path)  # `ideas` <- `subject_ideas`
            self.found += self.take_qualified(step, loose[step.id], mapped, names)  # "at the arrival port"
            dropped: list[str] = []
            if skill_names:  # the skill says what it reads: a value its text names for no input of it is no input
                dropped = [n for n in mapped.bindings if n not in skill_names and n not in step.input_values
                           and not any(f.name == n for f in step.inputs) and n not in gathering]
                for name in dropped:
                    mapped.bindings.pop(name)
                    mapped.provenance.pop(f"inputs.{name}", None)
            said_inputs = self.said(step)
            left = [n for n in dict.fromkeys([*required_of(schema), *(n.name for n in (said_inputs.inputs if said_inputs
                                                                                      else ()) if not n.optional)])
                    if n not in mapped.bindings and n not in step.input_values]
            self.found += bind_step_words(step, left, said_text, self.order,
                                          functools.partial(lineage.is_ancestor, step=step.id),
                                          lambda sid: self.produced[sid].fields, required_of(schema),
                                          mapped.bindings, mapped.provenance, self.path)  # "the limit from step 2"
            self.found += bind_said_values(step, left, [said_text, self.preamble], mapped.bindings,
                                           mapped.provenance, self.path)  # "Home country for us is CA"
            self.found += bind_quoted_said(step, left, said_text, self.spec.text, self.skill_name(step), {n: str(p.get("type", "")) for n, p in properties_of(
                schema).items() if isinstance(p, dict)}, mapped.bindings, mapped.provenance, self.path)  # 'zone "a.b"'
            for name in [n for n in dict.fromkeys([*left, *sorted(self.reads(step, loose[step.id]))])
                         if n not in mapped.bindings and n not in step.input_values]:  # "unit_call 06:30" (`spec.fill_in27`)
                filled = fill_in_said(name, said_text) or arg_value(name, said_text) or form_value_said(
                    name, self.spec.text, [s.where for s in self.spec.steps]) or opening_value(
                    name, said_text) or threshold_value(name, said_text) \
                    or named_value(name, said_text)  # "warning 10:55"; "Engineer .... Dave K."; "Supplier is Ashdown Queens"; "tuner Maggie"
                if filled is not None:
                    self.found.append(bind_literal(step, self.path, name, filled[0], f"the text says '{filled[1]}'",
                                                   f"'{filled[1]}' writes its value right after its name",
                                                   mapped.bindings, mapped.provenance))
            for name in [n for n in left if n not in mapped.bindings]:  # "the seats at St Cecilia's Church" (`plan.list35`)
                if (place := place_said(name, self.reads_about(step).get(name, ""), said_text)) is not None:
                    self.found.append(bind_literal(step, self.path, name, place[0], f"the text says '{place[1]}'",
                                                   f"'{place[1]}' names the one place the step's text gives, for "
                                                   f"`{name}`", mapped.bindings, mapped.provenance))
            numeric = [n for n in left if n not in mapped.bindings and takes_a_number(schema, n)]
            cells = [t.text for t in step.texts if t.kind == "cell"]  # a table row's cells: the row's number, its borders
            number_text = " | ".join(cells) if cells and len(cells) == len(step.texts) and not step.description \
                else said_text
            self.found += bind_literals_said(step, numeric, number_text, mapped.bindings, mapped.provenance,
                                             self.path, self.reads(step, loose[step.id]))  # "limit 1.0 mm"
            self.found += bind_author_inputs(step, [n for n in self.reads(step, loose[step.id]) if n not in
                                                    step.input_values], names, said_text, required_of(schema),
                                             mapped.bindings, mapped.provenance, self.path)  # `date` <- FEED_DATE
            self.found += shape_literals(step, self.reads_about(step), mapped.bindings, self.path)  # ["31055"]
            self.found += shape_gathers(step, self.reads_about(step), mapped.bindings,
                                        lambda sid: self.produced[sid].fields, self.path)  # each crate's whole output
            not_given = self.check_given(step, mapped.bindings)  # every input its skill says it reads that nothing gives: warned
            schema = self.with_loose(schema, mapped.bindings)
            conditional = step.when or step.otherwise_where or (step.approval and step.approval.when)
            candidates: Iterable[str] = _Lazy(scope.upstream) if conditional else ()  # a value alone is looked up there
            flow.steps[step.id] = StepFlow(deps[step.id], mapped.bindings, mapped.provenance, mapped.for_each, schema,
                                           not_given=not_given)
            flow.steps[step.id].when = self.step_condition(step, inputs, candidates, scope, item_fields, conditions,
                                                           mapped.provenance)
            flow.steps[step.id].approval = self.approval(step, inputs, candidates, scope, item_fields, mapped.bindings,
                                                         mapped.provenance)
        if not spec.inputs:  # an input the reader made that the text then gave from a step: no input
            flow.inputs = unread_dropped(flow.inputs, derived, flow.steps.values(), self.found, self.path)
        self.found += self.echoes.warnings(spec.steps, self.path)
        flow.found = self.found
        return flow

    @functools.cached_property
    def count_aliases(self) -> dict[str, tuple[Earlier, str, str | None]]:
        """The counts the document says in apposition to their field (`plan.output_aliases`)."""
        return count_aliases(self.spec.text, self.earlier(len(self.spec.steps)))

    @functools.cached_property
    def lines(self) -> list[str]:
        return self.spec.text.splitlines()

    def earlier(self, index: int) -> list[Earlier]:
        """The steps before the one at `index`, in order, as `plan.output_aliases` knows them (each made once:
        what it says depends on the step and its bound skill, fixed for the plan)."""
        return self.earlier_planned(index)

    def earlier_one(self, n: int, before: StepSpec) -> Earlier:
        bound = self.bound.get(before.id)
        line = split_where(before.where, self.path)[1]
        first = self.lines[line - 1] if line and 0 < line <= len(self.lines) else ""
        label = " ".join(filter(None, [before.name, before.skill, bound.name if bound is not None else None, first]))
        return Earlier(id=before.id, number=before.number or n, label=label,
                       fields=frozenset(self.produced[before.id].fields))

    def earlier_planned(self, index: int) -> list[Earlier]:
        """`earlier(index)` while the steps are planned in order: each earlier step is planned by then, so it is
        made once (a 10 000-step chain made 50 million of them: quadratic, `tests/e2e/test_bounds_linear.py`)."""
        made: list[Earlier] = self.__dict__.setdefault("_earlier_made", [])
        while len(made) < index:
            made.append(self.earlier_one(len(made) + 1, self.spec.steps[len(made)]))
        return made[:index]

    def take_described_fields(self, step: StepSpec, mapped: Any) -> None:
        """A reference to a field its step does not give (`$fx.rate`): the one output its skill's instructions
        describe in the reading input's words (`output_aliases.described_field`), warned as a guess."""
        about = self.reads_about(step)
        for name, binding in list(mapped.bindings.items()):
            note = mapped.provenance.get(f"inputs.{name}")
            said = note.note if note is not None else ""
            if binding.source != "step" or binding.pointer or binding.step not in self.produced \
                    or not said.startswith(f"explicit: steps.{binding.step}.output."):
                continue
            field = said.rsplit(".", 1)[1]
            skill = self.bound.get(binding.step)
            told = self.instructions.get(skill.name) if skill is not None else None
            fields = self.produced[binding.step].fields
            outputs = {f: next((n.about for n in (told.outputs if told else ()) if n.name == f), "") for f in fields}
            chosen = described_field(name, field, about.get(name, ""), outputs)
            if chosen is None:
                continue
            mapped.bindings[name] = binding.model_copy(update={"pointer": f"/{chosen}"})
            mapped.provenance[f"inputs.{name}"] = from_spec(note.where if note else step.where,
                                                            f"{said}: read as {binding.step}'s `{chosen}`, the one "
                                                            "output described in the input's words")
            was = f"`{name}` is taken from {binding.step}, which gives no `{field}`"
            mapped.warnings = [w for w in mapped.warnings if not (w.code == "plan.input-whole-output"
                                                                  and f"`{name}` is taken from {binding.step}," in w.message)]
            mapped.warnings.append(warning_at(note.where if note else step.where, self.path,
                                              f"{step.id} ({step.name}): {was}: read as its `{chosen}`, the one "
                                              f"output whose words say the input's ({', '.join(sorted(fields))} "
                                              f"given): a guess; write `{name} = {binding.step}.{chosen}` to say so",
                                              "plan.input-described-field"))

    def take_output_aliases(self, step: StepSpec, loose: list[Loose], mapped: Any, lineage: Lineage) -> list[Diagnostic]:
        """The skill inputs the step's words give an earlier output of another name (`plan.output_aliases`)."""
        reads = sorted(n for n in self.reads(step, loose) if n not in step.input_values
                       and not any(f.name == n and f.source for f in step.inputs))
        if not reads:
            return []
        return bind_output_aliases(step, reads, self.text_of(step), self.count_aliases,
                                   self.earlier_planned(self.position[step.id]),
                                   functools.partial(lineage.is_ancestor, step=step.id),
                                   required_of(self.input_schemas[step.id]), mapped.bindings, mapped.provenance,
                                   self.path)

    def take_qualified(self, step: StepSpec, loose: list[Loose], mapped: Any, names: Sequence[str]) -> list[Diagnostic]:
        """An input the text qualifies ("the arrival port"): the workflow input the qualifier names; else, when
        another step takes the same workflow input under another qualifier, a warning (two values said as one)."""
        reads = sorted(n for n in self.reads(step, loose) if n not in step.input_values)
        text = self.text_of(step)
        found = bind_qualified_inputs(step, reads, text, names, mapped.bindings, mapped.provenance, self.path)
        for name in reads:
            binding = mapped.bindings.get(name)
            q = qualifier(name, text) if binding is not None and binding.source == "input" else None
            if binding is None or q is None:
                continue
            seen = self.qualified.setdefault(binding.name or name, (q, step.id))
            if seen[0] != q:
                found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): its skill reads `{name}`, "
                                        f"given the workflow input `{binding.name}`, but the text says 'the {q} "
                                        f"{name.replace('_', ' ')}' here and 'the {seen[0]} "
                                        f"{name.replace('_', ' ')}' at {seen[1]}: two values said as one input; "
                                        f"declare an input for each (`{q}_{name}`, `{seen[0]}_{name}`) and write "
                                        f"`{name} = {q}_{name}` in the step", "plan.input-qualified"))
        return found

    def take_input_over_echoes(self, step: StepSpec, mapped: Any, scope: Scope, names: Sequence[str]) -> None:
        """An input that steps before this one give back only as echoes (`plan.echo`): the workflow input when
        this step waits for none of them, or for several that are all copies of it."""
        for name in self.echoes.only_echoed.get(step.id, ()):
            if name not in names:
                continue
            binding = mapped.bindings.get(name)
            if binding is not None and binding.source == "step" and not self.echoes.copies(
                    name, producers(name, scope)):
                continue  # this step waits for the one step that gave it back: its value, as ever
            if binding is not None and binding.source not in ("step", "input"):
                continue
            changed = [sid for sid in producers(name, scope) if name in self.echoes.reworks.get(sid, ())]
            if changed:  # "`ward` (upper-cased)": the nearest step that changes it, not the input (`plan.echo`)
                # several, none waiting for another (steps 1 and 2 side by side): the first listed, where it first changes
                took = changed[-1] if len(changed) > 1 else changed[0]
                side = (f" (of {', '.join(reversed(changed))}, which run side by side and each change it, the first "
                        "listed)") if len(changed) > 1 else ""
                mapped.bindings[name] = InputBinding(source="step", step=took, pointer=f"/{name}",
                                                     optional=name not in required_of(self.input_schemas[step.id]))
                mapped.provenance[f"inputs.{name}"] = from_spec(step.where, (
                    f"nearest step: {took} at /{name}{side} (its skill says it changes `{name}`, so it is no copy "
                    "of the workflow input)"))
                self.found.append(warning_at(step.where, self.path, (
                    f"{step.id} ({step.name}): `{name}` is taken from {took}{side}, whose skill says it changes it, "
                    f"not from the workflow input; write `{name} (workflow input)` or `{name} (from Step N)` to "
                    "choose"), "plan.input-echo"))
                continue
            mapped.bindings[name] = InputBinding(source="input", name=name, optional=name not in required_of(
                self.input_schemas[step.id]))
            mapped.provenance[f"inputs.{name}"] = from_spec(step.where, (
                f"workflow input: {name} (the steps before give it back only as copies of it: "
                f"{self.echoes.first[name]} first)"))
            mapped.warnings = [w for w in mapped.warnings if f": `{name}` " not in w.message]
            if frozenset((self.echoes.first[name], step.id)) not in self.exclusive:  # the other branch: never its copy
                self.echoes.took_input.setdefault(name, []).append(step.id)

    def take_said_sources(self, step: StepSpec, mapped: Any, scope: Scope, names: Sequence[str]) -> None:
        """Each input the step's text gives an ancestor's output with `=` or an arrow (`plan.said_assign`): that
        output, unless the input has a value or an explicit source of its own."""
        reads = self._unbound_reads(step)
        if not reads:
            return
        texts = [step.description, *(t.text for t in step.texts)]
        for name, (sid, field_name, said) in said_sources(texts, reads, lambda f: producers(f, scope)).items():
            binding = resolve_reference(f"steps.{sid}.output.{field_name}", names, self.produced)
            if binding is None or mapped.bindings.get(name) == binding:
                continue
            self._take_said(step, mapped, name, binding, f"'{said}': {sid}'s `{field_name}`", field_name)

    def field_equals(self, step: StepSpec, index: int) -> dict[str, Said]:
        """Each input the step's text gives an earlier step's field of another name (`plan.field_equals`); what it
        says of a field that step does not output, warned."""
        if index:  # the skills of the steps before, kept as the steps go (no walk back over them)
            before = self.spec.steps[index - 1]
            bound = self.bound.get(before.id)
            for name in (before.skill, bound.name if bound is not None else None):
                if name:
                    self.skill_steps[name.lower()] = before.id
            self.list_before.append(Before(  # `plan.list35`: the step as a list's text calls it
                id=before.id, position=index, mark=mark_of(self.first_line(before)),
                words=skill_words(before.skill, bound.name if bound is not None else None),
                fields=tuple(sorted(self.produced[before.id].fields))))
        reads = self._unbound_reads(step)
        if not reads:
            return {}
        found, unread = field_equals([step.description, *(t.text for t in step.texts)], reads, self.skill_steps,
                                     index, lambda n: self.order[n - 1], lambda sid, f: self.produced[sid].outputs(f))
        self.found += [warning_at(step.where, self.path, f"{step.id} ({step.name}): {u}; write a field that step "
                                  "outputs", "plan.field-not-output") for u in unread]
        texts = [step.description, *(t.text for t in step.texts)]
        for name, hand in described_handoffs(texts, [r for r in reads if r not in found], self.list_before).items():
            found[name] = Said(step=hand.step, field=hand.field, words=hand.words)
            if hand.guessed:
                self.found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): '{hand.words}': "
                                             f"`{name}` is given {hand.step}'s `{hand.field}`, the one of its outputs "
                                             f"whose name shares a word with what the text calls it; to say so "
                                             f"plainly write `{name} = {hand.field}`", "plan.handoff-by-words"))
        for name, hand in said_from(texts, [r for r in reads if r not in found], self.list_before,
                                    lambda b: opening_mark(self.first_line(self.spec.steps[b.position - 1]))).items():
            found[name] = Said(step=hand.step, field=hand.field, words=hand.words)  # "day from B" (`plan.said_from39`)
            if hand.guessed:
                self.found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): '{hand.words}': "
                                             f"`{name}` is given {hand.step}'s `{hand.field}`, the one of its outputs "
                                             f"whose name has the word `{name}`; to say so plainly write "
                                             f"`{name} = {hand.field}`", "plan.handoff-by-words"))
        return found

    def first_line(self, step: StepSpec) -> str:
        line = split_where(step.where, self.path)[1]
        return self.lines[line - 1] if line and 0 < line <= len(self.lines) else ""

    def take_field_equals(self, step: StepSpec, mapped: Any, names: Sequence[str]) -> None:
        """Each input the step's text gives an earlier step's field (`field_equals`): that field."""
        for name, said in self.equals.get(step.id, {}).items():
            binding = resolve_reference(f"steps.{said.step}.output.{said.field}", names, self.produced)
            if binding is not None and mapped.bindings.get(name) != binding:
                self._take_said(step, mapped, name, binding, f"'{said.words}': {said.step}'s `{said.field}`",
                                said.field)

    def take_sigil_sources(self, step: StepSpec, mapped: Any, names: Sequence[str]) -> None:
        """Each input the step's text gives a workflow input with a sigil (`plan.bind_sigil_inputs`): that input,
        unless the input has a value or an explicit source of its own."""
        reads = self._unbound_reads(step)
        if not reads:
            return
        texts = [step.description, *(t.text for t in step.texts)]
        for name, (source, said) in sigil_sources(texts, reads, names).items():
            self._take_said(step, mapped, name, InputBinding(source="input", name=source),
                            f"'{said}': the workflow input {source}", source)

    def _unbound_reads(self, step: StepSpec) -> list[str]:
        """The inputs the step's skill reads that have no value or explicit source of their own."""
        return [n for n in self.reads_about(step) if n not in step.input_values
                and not any(f.name == n and f.source for f in step.inputs)]

    def _take_said(self, step: StepSpec, mapped: Any, name: str, binding: InputBinding, said: str, own: str) -> None:
        """`name` bound as the step's text says (`said`, for the provenance); the binding the text's own name
        `own` got by its name is dropped when the skill reads no input of that name."""
        mapped.bindings[name] = binding.model_copy(update={"optional": name not in required_of(
            self.input_schemas[step.id])})
        mapped.provenance[f"inputs.{name}"] = from_spec(step.where, f"explicit: the text says {said}")
        mapped.warnings = [w for w in mapped.warnings if f": `{name}` " not in w.message]
        if own not in self.reads_about(step):  # the text's own name is no input of the step
            mapped.bindings.pop(own, None)
            mapped.provenance.pop(f"inputs.{own}", None)

    def fed_inputs(self, said: Sequence[InputSpec], loose: Mapping[str, list[Loose]]) -> dict[str, tuple[str, str, bool]]:
        """Each step whose text says the words of one input told apart by its first words -> (the skill
        input it takes, that input, a guess) (`plan.fed_input`)."""
        told = told_apart_inputs(said)
        if not told:
            return {}
        named = {i.name for i in (*self.spec.inputs, *said)}
        fed: dict[str, tuple[str, str, bool]] = {}
        for step in self.spec.steps:
            reads = self.reads(step, loose[step.id])
            got = fed_input(self.text_of(step), reads,
                            {n for n in reads if n in named or self.made_before(step.id, n)}, told)
            if got is not None:
                fed[step.id] = got
        return fed

    def take_fed(self, step: StepSpec, fed: tuple[str, str, bool] | None, names: Sequence[str], mapped: Any) -> None:
        """Bind the skill input a step's text feeds from an input told apart by its words (`plan.fed_input`)."""
        if fed is None or fed[0] in mapped.bindings or fed[1] not in names:
            return
        skill_input, own, guess = fed
        mapped.bindings[skill_input] = InputBinding(source="input", name=own, optional=True)
        mapped.provenance[f"inputs.{skill_input}"] = from_spec(step.where, f"workflow input: {own}, its words said "
                                                                             f"in {step.id}'s text")
        if guess:
            self.found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): its text names the input "
                                         f"`{own}`, read as the value its skill reads as `{skill_input}`, the one "
                                         f"name it reads that nothing else gives (a guess); if that is not meant, "
                                         f"write `{skill_input}: {own}` in the step", "plan.input-said-for"))

    def prose_inputs(self, inputs: Iterable[InputSpec]) -> list[InputSpec]:
        """The inputs a sentence says the run is given, matched to the names the skills read (`plan.prose_inputs`)."""
        if not self.spec.inputs_prose:
            return []
        reads: dict[str, tuple[str, bool]] = {}
        texts: dict[str, list[str]] = {}
        made_before: set[str] = set()  # a name a step before its first reader outputs comes from that step
        for step in self.spec.steps:
            said = self.said(step)
            for n in said.inputs if said is not None else ():
                if n.name not in made_before:
                    reads.setdefault(n.name, (n.about, n.optional))
            schema = self.input_schemas[step.id]
            for name, prop in properties_of(schema).items():
                if name not in made_before:
                    reads.setdefault(name, (str(prop.get("description", "")) if isinstance(prop, dict) else "",
                                            name not in required_of(schema)))
            for name in {*(n.name for n in (said.inputs if said is not None else ())), *properties_of(schema)}:
                texts.setdefault(name, []).append(without_skill(self.text_of(step), step.skill or getattr(
                    self.bound.get(step.id), "name", None)))
            made_before |= {n for n in self.produced[step.id].fields | self.produced[step.id].aliases if n not in reads}
        have = [i.name for i in inputs]
        records, self.record_of, said_so = record_inputs(  # "the loan record (object no., title)" (`plan.record_input48`)
            self.spec.inputs_prose, self.spec.inputs_prose_fields, {n: t for n, (t, _) in reads.items()}, (),
            have, self.path)  # `reads` holds no name a step makes before its first reader
        self.record_said = {i.name: i.description.split("'")[1] for i in records}
        whole = set(self.record_said.values())
        found, warnings = own_inputs(self.spec.inputs_prose, reads, self.makers, have, self.path) \
            if self.spec.inputs_prose_own else \
            prose_inputs([p for p in self.spec.inputs_prose if p[0] not in whole], reads, self.makers,
                                       [*have, *(i.name for i in records)], self.path,
                                       {n: " ".join(t) for n, t in texts.items()})
        self.found += [*said_so, *warnings]
        return [*records, *found]

    def take_record_fields(self, step: StepSpec, mapped: Any, names: Sequence[str], loose: list[Loose]) -> None:
        """Each name the step's skill reads that an input said with its fields holds (`plan.record_input48`), where
        nothing else gives it: that input's field."""
        for name in sorted(self.reads(step, loose)):
            record = self.record_of.get(name)
            if record is None or record not in names or name in step.input_values:
                continue
            bound = mapped.bindings.get(name)
            if bound is not None and not (bound.source == "step" and name in self.echoes.only_echoed.get(step.id, ())
                                          and says_record(self.text_of(step), self.record_said.get(record, ""))):
                continue  # given otherwise; but "object no. (loan record)" over a step's echo of it: the record's
            mapped.bindings[name] = InputBinding(source="input", name=record, pointer=f"/{name}",
                                                 optional=name not in required_of(self.input_schemas[step.id]))
            mapped.provenance[f"inputs.{name}"] = from_spec(step.where, f"workflow input: {record}, its field "
                                                                         f"`{name}` (said with its fields in the text)")
            mapped.warnings = [w for w in mapped.warnings if f"`{name}`" not in w.message]

    def check_given(self, step: StepSpec, bindings: Mapping[str, InputBinding]) -> tuple[str, ...]:
        """Each input a skill's SKILL.md says it reads (not said to be optional) that nothing gives, for a
        step that gives values of its own (`part: major`) or names values its skill does not read: a warning at the step's line (a
        script would fail at run time; the model may do without it). Returns their names: the step fails before
        its skill runs when one is still without a value then (`PlanStep.not_given`), never a silent success."""
        said, skill = self.said(step), self.bound.get(step.id)
        if said is None or skill is None:
            return ()
        left: list[str] = []
        abouts = {n.name: n.about for n in said.inputs}
        for n in said.inputs:
            if n.optional or n.example or n.name in bindings or n.name in step.input_values:
                continue  # an example's keys may be optional ones its prose says later ("waits `pause_s` (default 0)")
            if other_name_given(n.name, abouts, [*bindings, *step.input_values]):
                continue  # "`rows` (or `joined`)" with `joined` given (`plan.list35`)
            message = (f"{step.id} ({step.name}): its skill `{skill.name}` reads `{n.name}` ({n.where}), but nothing "
                       f"gives it: no workflow input, earlier step output or value in the step's text has that "
                       f"name; declare the input, write `{n.name}: value` in the step, or name the value it takes "
                       f"next to `{n.name}`")
            self.found.append(warning_at(step.where, self.path, message, "plan.input-not-given"))
            left.append(n.name)
        return tuple(dict.fromkeys(left))

    def clashes(self, step: StepSpec, wanted: str, given: str, said_text: str) -> bool:
        """`given` is plainly another kind of thing than the input `wanted` (`plan.bind_type_guard`): not bound, warned."""
        why = clash(wanted, self.reads_about(step).get(wanted, ""), given, self.about_made(given))
        if why is not None:
            self.found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): its skill reads `{wanted}`, "
                                         f"which nothing gives; `{given}`, the value the text names, is not given to "
                                         f"it: {why}; to give it a value, {how_to_name(wanted, said_text)}",
                                         "plan.input-kind-clash"))
        return why is not None

    def about_made(self, name: str) -> str:
        """What the skill of a step that outputs `name` (or the workflow input `name`) says of it."""
        for sid in sorted(self.makers.get(name, ())):
            skill = self.bound.get(sid)
            said = self.instructions.get(skill.name) if skill is not None else None
            about = next((n.about for n in (said.outputs if said else ()) if n.name == name), "")
            prop = properties_of(self.outputs[sid].schema_).get(name) if sid in self.outputs else None
            if about or isinstance(prop, dict):
                return about or str((prop or {}).get("description") or (prop or {}).get("type") or "")
        given = next((i for i in self.spec.inputs if i.name == name), None)
        return (given.description or given.type or "") if given is not None else ""

    def rename(self, step: StepSpec, mapped: Any, wanted: str, given: str, required: Iterable[str]) -> None:
        """The skill input `wanted` takes the binding the text gave as `given` (`plan.rename`), warned."""
        binding = mapped.bindings.pop(given)
        mapped.provenance.pop(f"inputs.{given}", None)
        mapped.bindings[wanted] = binding.model_copy(update={"optional": wanted not in set(required)})
        mapped.provenance[f"inputs.{wanted}"] = from_spec(step.where, f"renamed: the text gives `{given}`; its skill "
                                                                      f"reads `{wanted}`")
        self.found.append(warning_at(step.where, self.path, f"{step.id} ({step.name}): the text gives `{given}`, "
                                     f"which its skill does not read; it is read as the skill's input `{wanted}`: "
                                     f"if that is not meant, write `{wanted}` with the value it takes",
                                     "plan.input-renamed"))

    def step_condition(self, step: StepSpec, inputs: tuple[InputSpec, ...], candidates: Iterable[str], scope: Scope,
                       item_fields: frozenset[str] | None, conditions: dict[str, str],
                       provenance: dict[str, Provenance]) -> str | None:
        where = step.field_where.get("when", step.where)
        expression: str | None = None
        note = ""
        if "when_unread" in step.field_where and not step.when:  # said, not read, warned: an Otherwise after it
            self.dropped.add(step.id)                              # is warned that both run, not refused
        if step.otherwise_of is not None:
            named = otherwise_partner(self.spec, self.position[step.id])
            if named is not None and named in conditions:
                expression = negate(conditions[named])
                note = f"otherwise of {named}: runs exactly when its condition was false"
                self.exclusive.add(frozenset((named, step.id)))
            elif named is not None and named in self.dropped:
                self.found.append(warning_at(where, self.path, both_run(step.id, step.name, named), "spec.condition-not-read"))
            else:
                why = (f"{named} has no condition to be false" if named is not None
                       else f"no step before it is `{step.otherwise_of}`")
                self.found.append(error_at(where, self.path, f"{step.id} ({step.name}): Otherwise of "
                                                             f"{step.otherwise_of}: {why}", "condition"))
        elif step.otherwise_where is not None:
            before = [s for s in self.order[: self.position[step.id]] if s in conditions]
            if before:
                expression = negate(conditions[before[-1]])
                note = f"otherwise of {before[-1]}: runs exactly when its condition was false"
                self.exclusive.add(frozenset((before[-1], step.id)))
            elif step.otherwise_text:
                got = self.compile(step, step.otherwise_text, where, "Otherwise", inputs, candidates, scope,
                                   item_fields, report=True)
                if got is not None:
                    expression, note = got[0], f"Otherwise ({got[1]})"
            elif (gone := [s for s in self.order[: self.position[step.id]] if s in self.dropped]):
                self.found.append(warning_at(where, self.path, both_run(step.id, step.name, gone[-1]),
                                             "spec.condition-not-read"))
            else:
                self.found.append(error_at(where, self.path, f"{step.id} ({step.name}): Otherwise: no step before "
                                                             "it has a condition to be false", "condition"))
        if step.when and expression is None:
            title = "when_title" in step.field_where  # "Score ≥ 70" as a title: a guess, dropped if it names nothing
            other = "when_or_otherwise" in step.field_where  # "nothing was found": else the other branch
            got = self.compile(step, step.when, where, "When", inputs, candidates, scope, item_fields,
                               report=not title and not other)
            if got is None and other and (before := [s for s in self.order[: self.position[step.id]] if s in conditions]):
                got = negate(conditions[before[-1]]), f"otherwise of {before[-1]}: runs exactly when its condition was false"
                self.exclusive.add(frozenset((before[-1], step.id)))
                self.found.append(warning_at(where, self.path, none_found(step.id, step.name, step.when, before[-1]),
                                             "spec.lead-condition"))
            elif got is None and other and not title:
                got = self.compile(step, step.when, where, "When", inputs, candidates, scope, item_fields, report=True)
            if got is not None:
                expression, note = got
            elif title:
                said = "its title" if step.field_where["when_title"] == step.where else "its text"  # a guess
                self.found.append(warning_at(where, self.path, f"{step.id} ({step.name}): {said} reads as the "
                                             f"condition `{step.when}`, but that names no workflow input or earlier "
                                             "output, so the step always runs: if it is a condition, write a "
                                             "`- When:` line that names the value", "spec.condition-not-read"))
                self.dropped.add(step.id)  # said, not placed, warned: an Otherwise of it is warned that both run
        if expression is not None:
            conditions[step.id] = expression
            provenance["when"] = from_spec(where, note)
        return expression

    def approval(self, step: StepSpec, inputs: tuple[InputSpec, ...], candidates: Iterable[str], scope: Scope,
                 item_fields: frozenset[str] | None, bindings: Mapping[str, InputBinding],
                 provenance: dict[str, Provenance]) -> ApprovalPolicy | None:
        gate = step.approval
        if gate is None or not gate.when:
            return gate
        where = step.field_where.get("approval", step.where)
        from orchestrator.plan.own_gate43 import (
            own_output,  # "if its own total comes out over 9,000"
        )
        from orchestrator.spec.approval_hold import it_count, own_amount, own_list_count

        first = self.compile(step, gate.when, where, "approval condition", inputs, candidates, scope, item_fields,
                             report=False)
        readings: tuple[Callable[[], tuple[str, str] | None], ...] = (  # "If C comes out over 1,500"
            # (`plan.gate_output27`), "if (d) says it'll cost more than £150" (`plan.list35`)
            lambda: output_named(gate.when or "", step_letters(self.spec.text, self.spec.steps[:self.position[step.id]]),
                                 list(scope.upstream()), bindings, lambda sid: list(self.produced[sid].fields)),
            lambda: gate_said_of_step(gate.when or "", self.list_before[:self.position[step.id]]),
        )
        for reading in readings if first is None else ():
            if (named := reading()) is None:
                continue
            said = self.compile(step, named[0], where, "approval condition", inputs, candidates, scope, item_fields,
                                report=True, quiet=True)
            if said is not None:
                self.found.append(warning_at(where, self.path, f"{step.id} ({step.name}): approval condition "
                                             f"'{gate.when}' read as `{named[0]}`: {named[1]}; if another value is "
                                             "meant, write its name", "plan.value-by-meaning"))
                provenance["approval.when"] = from_spec(where, f"approval only when {said[1]}")
                return gate.model_copy(update={"when": said[0]})
        if first is None and (mine := own_output(gate.when, self.produced[step.id].fields)):
            self.found.append(warning_at(where, self.path, f"{step.id} ({step.name}): approval condition "
                                         f"'{gate.when}' names `{mine[0]}`, {step.id}'s own output, known only once "
                                         f"{step.id} has run (and done what it does): an approval holds a step before "
                                         "it runs and the plan has no gate after its work, so the approval is asked "
                                         f"on EVERY run, not only when {mine[1]} (never acting unasked). To be asked "
                                         "only then, split the step (one that works the value out, then one that "
                                         "acts on it, with `Approval: required if` on the second)",
                                         "plan.approval-own-output"))
            provenance["approval"] = from_spec(where, f"approval on every run: its condition names {step.id}'s own "
                                                      f"`{mine[0]}`, known only after the step")
            return gate.model_copy(update={"when": None})
        own = None
        reads = self.reads_about(step)
        lists = [name for name, about in reads.items() if not about or re.search(r"(?i)(?<![\w-])(?:array|list)", about)]
        said_lists = [name for name in lists if reads[name]]
        it = it_count(gate.when, said_lists)  # "if it's more than 5 books": the batch the step is given
        if it is not None or first is None or "by its meaning" in first[1]:  # what the step is given, first
            own = it or own_list_count(gate.when, lists) or own_amount(gate.when, list(reads))  # "more than 2 blocks"
            name = own.split(" ", 1)[0] if own else ""
            bound = bindings.get(name)
            if own and bound is not None and bound.source == "step" and bound.step and not bound.gather and \
                    re.fullmatch(r"/[A-Za-z_]\w*", bound.pointer or ""):  # the value it is given: `amount` <- step-3's total
                own = f"{bound.step}.{bound.pointer[1:]}{own[len(name):]}"
        got = None
        if own is not None:
            got = self.compile(step, own, where, "approval condition", inputs, candidates, scope, item_fields,
                               report=True, quiet=True)
            if got is not None:
                self.found.append(warning_at(where, self.path, f"{step.id} ({step.name}): approval condition "
                                             f"'{gate.when}' read as `{own}`: the "
                                             f"{'count of the list' if '| length' in own else 'amount'} the step is "
                                             "given; if another value is meant, write its name",
                                             "plan.value-by-meaning"))
        if got is None:
            got = self.compile(step, gate.when, where, "approval condition", inputs, candidates, scope, item_fields,
                               report=True, held=True)
        if got is None:  # a person's yes whose condition cannot be placed: asked on every run, never on none
            return gate.model_copy(update={"when": None})
        provenance["approval.when"] = from_spec(where, f"approval only when {got[1]}")
        return gate.model_copy(update={"when": got[0]})

    def drop_unfit_lists(self, step: StepSpec, bindings: dict[str, InputBinding],
                         provenance: dict[str, Provenance]) -> None:
        """An optional name only the skill's schema asks for is left out (with a warning) when it
        would get a For each step's gathered list and the skill takes something else."""
        declared = {f.name for f in step.inputs}
        schema = self.input_schemas[step.id]
        for name, binding in list(bindings.items()):
            if not binding.gather or not binding.optional or name in declared:
                continue
            kinds = types_of(properties_of(schema).get(name))
            if not kinds or "array" in kinds:
                continue
            del bindings[name]
            provenance.pop(f"inputs.{name}", None)
            self.found.append(warning_at(step.where, self.path,
                                         f"{step.id} ({step.name}): `{name}` (which its skill's schema takes, "
                                         f"optional) is left out: {binding.step} is a For each step, so it would "
                                         f"get a list, one per item, where the skill takes {' or '.join(kinds)}",
                                         "input-left-out"))

    def item_fields(self, step: StepSpec, inputs: tuple[InputSpec, ...]) -> frozenset[str] | None:
        """The properties of a `For each` step's item, when its list's schema declares them."""
        props = self.item_properties(step, inputs)
        return frozenset(props) if props else None

    def item_properties(self, step: StepSpec, inputs: tuple[InputSpec, ...]) -> dict[str, Any]:
        """The property schemas of a `For each` step's item, when its list's schema declares them."""
        loop = parse_for_each(step.for_each)
        if loop is None:
            return {}
        source = loop[1]
        list_schema: JsonSchema = {}
        producer, field = "", ""  # the step and its output field the list is, for what its skill says of it
        if source.startswith("steps."):
            parts = source.split(".")
            if len(parts) == 3 and parts[1] in self.produced and self.produced[parts[1]].gathered:
                # each result of a For each step: the items are that step's per-item outputs
                list_schema = {"type": "array", "items": self.outputs[parts[1]].schema_}
            elif len(parts) >= 3 and parts[1] in self.outputs:
                list_schema = at_pointer(self.outputs[parts[1]].schema_, "/".join(parts[3:]))
                producer, field = parts[1], ".".join(parts[3:])
        else:
            head = source.split(".")[0]
            made = [s for s in reversed(self.order[: self.position[step.id]]) if self.produced[s].outputs(head)]
            if made:
                list_schema = at_pointer(self.outputs[made[0]].schema_, "/" + head)
                producer, field = made[0], source
            else:
                spec_input = next((i for i in inputs if i.name == head), None)
                if spec_input is not None:
                    list_schema = field_schema(FieldSpec(name=head, type=spec_input.type, where=spec_input.where))
        items = list_schema.get("items") if isinstance(list_schema, dict) else None
        found = dict(properties_of(items)) if isinstance(items, dict) else {}
        if not found and producer and (maker := self.bound.get(producer)) is not None:  # `plan.bind_item_fields`
            found = said_item_properties(self.instructions.get(maker.name), field)
        return found

    def contract_fields(self, step: StepSpec) -> dict[str, str]:
        """Input names a Data Contracts edge into `step` names, to the edge's producer."""
        out: dict[str, str] = {}
        for c in self.spec.contracts:
            if c.consumer == step.id and c.producer in self.produced:
                for f in c.input_fields:
                    out.setdefault(f.name, c.producer)
        return out

    def with_loose(self, schema: JsonSchema, bindings: Mapping[str, InputBinding]) -> JsonSchema:
        """The input schema with a property for each loose name that was bound."""
        added = [n for n in bindings if n not in properties_of(schema)]
        if not added:
            return schema
        out = copy.deepcopy(schema)
        props = out.setdefault("properties", {})
        for name in added:
            props[name] = {}
        out.setdefault("type", "object")
        return out


def plan_flow(
    spec: WorkflowSpec,
    bound: Mapping[str, BoundSkill],
    outputs: Mapping[str, OutputContract],
    input_schemas: Mapping[str, JsonSchema],
    instructions: Mapping[str, Instructions],
) -> Flow:
    """The flow of every step (module docstring)."""
    from orchestrator.spec.approval_condition24 import gates_placed  # "the UKC from 1a": step 1's

    spec = gates_placed(spec, {sid: b.name for sid, b in bound.items()})
    from orchestrator.spec.approve37 import gates_glossed  # "the forecast sea" glossed `max_wave_m`

    spec = gates_glossed(spec, {sid: tuple(c.schema_.get("properties") or {}) for sid, c in outputs.items()})
    return _Planner(spec, bound, outputs, input_schemas, instructions).plan()


_NOT_READ = re.compile(r"(?i)\b(?:needs?|takes?|uses?|reads?|wants?)\s+nothing\s+(?:from|of)\s+(?:the\s+)?[`\w-]+|"
                       r"\b(?:does\s+not|doesn['’]t|do\s+not|don['’]t|never)\s+(?:need|use|read|take|touch|"
                       r"wait\s+for)\s+(?:the\s+|any\s+)?[`\w-]+")
_QUOTED = re.compile(r"[\"“]([^\"“”\n]{1,60})[\"”]")


def each_binding(flow: Flow) -> Iterator[tuple[str, str, InputBinding]]:
    for sid, step in flow.steps.items():
        for name, binding in step.bindings.items():
            yield sid, name, binding


def completed_fallback(fallback: Fallback, output_schema: JsonSchema) -> Fallback:
    """A fallback that continues with a stated value hands on a whole output: a value for the one
    field an object output has is that field's (`"unknown"` -> `{"type": "unknown"}`), and the
    other required fields get the contract's empty value."""
    if fallback.action is not FallbackAction.DEFAULT or fallback.value is None:
        return fallback
    from orchestrator.contracts import empty_value

    props = properties_of(output_schema)
    value = fallback.value
    if not isinstance(value, dict) and set(types_of(output_schema)) <= {"object"}:
        # the one field, or the one field of the value's type ("the canned text" is the text field)
        fits = list(props) if len(props) == 1 else [n for n, p in props.items() if _fits(value, p)]
        fits = fits or [n for n, p in props.items() if not types_of(p) and _named_for(value, n)]
        value = {fits[0]: value} if len(fits) == 1 else value
    if isinstance(value, dict) and props:
        missing = [n for n in required_of(output_schema) if n not in value and isinstance(props.get(n), dict)]
        value = {**value, **{n: empty_value(props[n]) for n in missing}}
    return fallback if value == fallback.value else fallback.model_copy(update={"value": value})


def _fits(value: Any, prop: Any) -> bool:
    """A plain value is of the field's JSON type (a number is no boolean)."""
    kinds = set(types_of(prop))
    if isinstance(value, bool):
        return "boolean" in kinds
    if isinstance(value, (int, float)):
        return bool(kinds & {"number", "integer"}) and (isinstance(value, int) or "number" in kinds)
    return ("array" in kinds) if isinstance(value, list) else isinstance(value, str) and "string" in kinds


def _named_for(value: Any, name: str) -> bool:
    """An untyped field whose name says it holds such a value: a text for `reply_text`, a number for `score`."""
    if isinstance(value, str):
        return re.search(r"(?:^|_)(?:text|message|body|reply|content|note|summary|comment)s?$", name) is not None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return re.search(r"(?:^|_)(?:score|count|total|amount|number|value|rate|days|price)$", name) is not None
    return isinstance(value, list) and not _named_for(0, name) and not _named_for("", name)  # a list: no number's, no text's


def _none_said(fallback: Fallback, text: str, output_schema: JsonSchema) -> Fallback:
    """A value to go on with whose sentence says "with no X": the output X empty (`plan.with_none46`); the
    contract's empty value said so ("carry on with no open days") is that output empty, the others as ever."""
    if fallback.action is not FallbackAction.DEFAULT or not (fallback.value is None or isinstance(fallback.value, dict)):
        return fallback
    from orchestrator.plan.with_none46 import with_none

    value = with_none(fallback.value, text, properties_of(output_schema))
    if value == fallback.value:
        return fallback
    return completed_fallback(fallback.model_copy(update={"value": value}), output_schema)


def completed_policy(policy: StepPolicy, output_schema: JsonSchema, said: str = "") -> StepPolicy:
    """The step's fallbacks (its own and its recovery rows') completed against its output schema; `said` is
    the sentence the step's own fallback was read from."""
    rules = tuple(r if r.fallback is None else r.model_copy(update={"fallback": _none_said(
                      completed_fallback(r.fallback, output_schema), r.failure, output_schema)})
                  for r in policy.rules)
    fallback = _none_said(completed_fallback(policy.fallback, output_schema), said, output_schema)
    if fallback == policy.fallback and rules == policy.rules:
        return policy
    return policy.model_copy(update={"fallback": fallback, "rules": rules})
