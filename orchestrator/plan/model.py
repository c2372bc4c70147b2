"""The Plan: a frozen, reviewable JSON document that the engine executes.

Think of a lock file: every step bound to one skill, its dependencies, input
mapping, contracts and policies, with the provenance of each decision, and the
hashes of the spec and the skills it was built from.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from orchestrator.contracts import JsonSchema
from orchestrator.errors import Diagnostic
from orchestrator.kinds import BoundSkill
from orchestrator.policy import (
    ApprovalPolicy,
    ErrorClass,
    Fallback,
    FallbackAction,
    FeedbackPolicy,
    Limits,
    RecoveryRule,
    RetryPolicy,
)

PLAN_FORMAT = 1

class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Provenance(_Frozen):
    """Where a decision came from."""

    source: Literal["spec", "skill", "default", "llm", "cli", "mcp"]
    where: str | None = None  # file:line for spec/skill; server/tool for mcp
    note: str = ""


class InputBinding(_Frozen):
    """How one field of a step's input is filled when the step runs.

    source=input     workflow input `name`
    source=step      `step`'s output at JSON pointer `pointer` ("" = the whole output)
    source=item      the current `for each` item (pointer into it)
    source=literal   `value`
    source=template  a Jinja2 template rendered against inputs/steps/item

    `gather`: `step` is a `for each` step, whose output is the list of its items'
    outputs; the pointer applies to each of them and the value is the list, in item
    order ("" gives the whole list). `any_of`: a join's steps of which only some run;
    the value comes from the first of them that has an output (`step` is the first).
    `pointers`: a join whose steps each give the value under their own field ("the page
    id or the ticket id"): step id -> its pointer; a step of `any_of` not listed reads at
    `pointer` (which is the first step's).
    `joined`: one value made of several ("@rip_large.done+@rip_std.done", "a's results followed by
    b's"): each part a binding of its own (no join of joins), read in order and put together into
    one list, a list part's items each an item, any other value one item; a part whose step has no
    output (skipped by its condition) and a null add nothing. `source` is "step", `step` the first
    step part's (`sources()` gives every step read).
    """

    source: Literal["input", "step", "item", "literal", "template"]
    name: str | None = None
    step: str | None = None
    pointer: str = ""
    value: Any = None
    template: str | None = None
    optional: bool = False  # a missing value is left out rather than an error
    # Written only when set, so plans without them keep their JSON (and hash) unchanged:
    gather: bool = Field(default=False, exclude_if=lambda v: not v)
    any_of: tuple[str, ...] = Field(default=(), exclude_if=lambda v: not v)
    pointers: dict[str, str] = Field(default_factory=dict, exclude_if=lambda v: not v)
    # the value said for when `step` did not run ("rooms from (iv), or 1 if it was skipped": `plan.or_if_skipped30`)
    if_skipped: Any = Field(default=None, exclude_if=lambda v: v is None)
    joined: tuple[InputBinding, ...] = Field(default=(), exclude_if=lambda v: not v)

    @model_validator(mode="after")
    def _parts_of_joined_value(self) -> InputBinding:
        if not self.joined:
            return self
        if len(self.joined) < 2 or self.source != "step":
            raise ValueError("`joined` puts together two parts or more, on a binding whose source is `step`")
        if self.any_of or self.gather or self.pointers or any(p.joined for p in self.joined):
            raise ValueError("`joined` goes with no `any_of`, `gather` or `pointers`, and its parts are no joins")
        return self

    def sources(self) -> tuple[str, ...]:
        """The steps whose output the binding reads: a join's or a joined value's each, else its step."""
        if self.joined:
            return tuple(dict.fromkeys(p.step for p in self.joined if p.source == "step" and p.step))
        return self.any_of or ((self.step,) if self.source == "step" and self.step else ())

    @model_validator(mode="after")
    def _pointers_of_joined_steps(self) -> InputBinding:
        stray = [sid for sid in self.pointers if sid not in self.any_of]
        if stray:
            raise ValueError(f"`pointers` names {', '.join(stray)}, which is not among the join's steps "
                             f"(`any_of`: {', '.join(self.any_of) or 'none'})")
        return self

    def pointer_of(self, step_id: str) -> str:
        """The pointer into `step_id`'s output: its own in `pointers`, else `pointer`."""
        return self.pointers.get(step_id, self.pointer)


class ForEach(_Frozen):
    item: str  # the variable name
    source: InputBinding  # must resolve to a list


class StepPolicy(_Frozen):
    retry: RetryPolicy = RetryPolicy()  # transient failures
    attempt_timeout_s: float | None = None
    step_timeout_s: float | None = None
    regenerations: int = 0  # code errors, for script skills
    fallback: Fallback = Fallback()
    on_error: Literal["fail", "continue"] = "fail"
    feedback: FeedbackPolicy | None = None  # this step's failure regenerates an upstream step
    approval: ApprovalPolicy | None = None
    compensation: str | None = None  # a skill name run if the run fails after this step succeeded
    rules: tuple[RecoveryRule, ...] = ()
    non_retryable: tuple[ErrorClass, ...] = ()


class ResolvedPolicy(_Frozen):
    """What the engine does for one failure of one class."""

    retry: RetryPolicy
    regenerations: int
    fallback: Fallback
    rule: RecoveryRule | None = None


class PlanStep(_Frozen):
    id: str
    name: str
    skill: str  # key into Plan.skills
    depends_on: tuple[str, ...] = ()
    inputs: dict[str, InputBinding] = Field(default_factory=dict)
    for_each: ForEach | None = None
    when: str | None = None  # sandboxed Jinja2 expression
    routes: dict[str, str] = Field(default_factory=dict)
    # Written only when set, so plans without them keep their JSON (and hash) unchanged:
    route_default: str | None = Field(default=None, exclude_if=lambda v: v is None)  # any other choice
    route_on: str | None = Field(default=None, exclude_if=lambda v: v is None)  # output field of the choice
    join: Literal["any"] | None = Field(default=None, exclude_if=lambda v: v is None)  # whichever dependency ran
    # The conditional step (in `depends_on`) it comes after by step order alone: that step
    # skipped by its own condition does not skip this one; skipped because everything it
    # depends on was, it does. A chain of conditional steps so needs no edge to every step
    # before each one (the engine's `Scheduler._cut_off`, the checks' `_Branches`).
    follows: tuple[str, ...] = Field(default=(), exclude_if=lambda v: not v)
    # The inputs its skill's instructions say it reads (not said to be optional) that nothing in the plan
    # gives (each warned at plan time): the step fails before its skill runs when one is still absent,
    # so a skill that would do without it never gives a silent wrong `succeeded`.
    not_given: tuple[str, ...] = Field(default=(), exclude_if=lambda v: not v)
    input_schema: JsonSchema = Field(default_factory=dict)
    output_schema: JsonSchema = Field(default_factory=dict)
    policy: StepPolicy = StepPolicy()
    provenance: dict[str, Provenance] = Field(default_factory=dict)  # decision -> where from
    where: str | None = None

    def policy_for(self, error_class: ErrorClass) -> ResolvedPolicy:
        """The recovery for a failure of `error_class`: a matching table row, else the defaults."""
        rule = next((r for r in self.policy.rules if r.on == error_class), None)
        if rule is None and error_class is ErrorClass.TIMEOUT:
            rule = next((r for r in self.policy.rules if r.on == ErrorClass.TRANSIENT), None)
        if rule is None:
            rule = next((r for r in self.policy.rules if r.on == "any"), None)
        non_retryable = error_class in self.policy.non_retryable or error_class in (
            ErrorClass.INVALID_INPUT,
            ErrorClass.UNRECOVERABLE,
        )
        # a catch-all row ("any error: retry 2 times") never retries a class that must not
        # be retried (an unrecoverable failure of a destructive tool, an invalid input):
        # only a row naming that class can
        catch_all = rule is not None and rule.on == "any"
        if rule is not None and rule.retry is not None and not (catch_all and non_retryable):
            retry = rule.retry
        elif error_class.is_transient and not non_retryable:
            retry = self.policy.retry
        else:
            retry = RetryPolicy(max_retries=0)
        if rule is not None and rule.regenerate is not None:
            regenerations = rule.regenerate
        elif error_class is ErrorClass.CODE_ERROR:
            regenerations = self.policy.regenerations
        else:
            regenerations = 0
        fallback = rule.fallback if rule is not None and rule.fallback is not None else self.policy.fallback
        if error_class is ErrorClass.UNRECOVERABLE and fallback.action is FallbackAction.FAIL:
            fallback = Fallback(action=FallbackAction.ESCALATE)
        return ResolvedPolicy(retry=retry, regenerations=regenerations, fallback=fallback, rule=rule)


class Edge(_Frozen):
    """A handoff: `producer`'s output feeds `consumer`; `schema` is what it must satisfy."""

    producer: str
    consumer: str
    fields: tuple[str, ...] = ()  # consumer input fields fed by this edge
    schema_: JsonSchema = Field(default_factory=dict, alias="schema")
    provenance: Provenance = Provenance(source="default")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PlanInput(_Frozen):
    name: str
    schema_: JsonSchema = Field(default_factory=dict, alias="schema")
    required: bool = True
    default: Any = None
    where: str | None = None

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Scenario(_Frozen):
    name: str
    description: str
    kind: str = "other"
    where: str | None = None


class SpecRef(_Frozen):
    path: str
    sha256: str
    format: Literal["markdown", "yaml"]


class CheckValue(_Frozen):
    """One side of a `CompareCheck`: `step`'s output at `pointer` ("" = the whole output), or the
    workflow input `name`; `count`: the number of items in it (a list's length)."""

    source: Literal["step", "input"]
    step: str | None = None
    pointer: str = ""
    name: str | None = None
    count: bool = False
    said: str = ""

    def shown(self) -> str:
        """`step-4.records`, `input.region`, `count(step-1.items)`."""
        inner = (f"input.{self.name}" if self.source == "input"
                 else f"{self.step}{self.pointer.replace('/', '.')}" if self.pointer else f"{self.step} (whole output)")
        return f"count({inner})" if self.count else inner


COMPARE_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "gt": ">", "ge": ">=", "le": "<="}


class CompareCheck(_Frozen):
    """A success check comparing two values of the run, evaluated once the run's steps are done
    (`engine.success_compare`): it fails the run when false; a side whose step has no output
    (skipped, continued) leaves it not evaluated, said in the run's ending, never passed."""

    left: CheckValue
    op: Literal["eq", "ne", "lt", "gt", "ge", "le"]
    right: CheckValue
    text: str
    where: str

    def shown(self) -> str:
        return f"{self.left.shown()} {COMPARE_SYMBOL[self.op]} {self.right.shown()}"


class RunCheck(_Frozen):
    """The run's success check on one step's output (`written`, said at `where`), evaluated once the run's
    steps are done (`engine.run_checks37`), not as the step's output contract: the run's steps all run, and
    a false check fails the run naming it; a step without output leaves it not evaluated, never passed."""

    step: str
    schema_: JsonSchema = Field(alias="schema")  # JSON Schema keywords over the step's whole output
    written: str
    text: str
    where: str


class Plan(_Frozen):
    format: int = PLAN_FORMAT
    name: str
    spec: SpecRef
    inputs: tuple[PlanInput, ...] = ()
    steps: tuple[PlanStep, ...]
    edges: tuple[Edge, ...] = ()
    skills: dict[str, BoundSkill]
    limits: Limits = Limits()
    limits_provenance: dict[str, Provenance] = Field(default_factory=dict)
    scenarios: tuple[Scenario, ...] = ()
    # written only when set, so plans without them keep their JSON (and hash) unchanged
    compare_checks: tuple[CompareCheck, ...] = Field(default=(), exclude_if=lambda v: not v)
    run_checks: tuple[RunCheck, ...] = Field(default=(), exclude_if=lambda v: not v)
    warnings: tuple[Diagnostic, ...] = ()
    mcp_config: str | None = None  # the mcp.json the plan was built against
    sha256: str = ""  # over the plan's content with this field empty; set by build_plan

    def step(self, step_id: str) -> PlanStep:
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(step_id)

    def skill_of(self, step_id: str) -> BoundSkill:
        return self.skills[self.step(step_id).skill]

    def to_json(self) -> str:
        return self.model_dump_json(indent=2, by_alias=True)
