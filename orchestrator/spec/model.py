"""The compiled form of a workflow spec, markdown or YAML alike.

Every node keeps `where` (`file:line`) so that the planner and the static checks
can point at the text that caused a decision. The parser fills what it could read;
interpreting names against the skill catalog is the planner's job.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import Diagnostic
from orchestrator.policy import (
    ApprovalPolicy,
    ErrorClass,
    Fallback,
    Limits,
    PolicyStatement,
    RecoveryRule,
    RetryPolicy,
)


class _Node(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FieldSpec(_Node):
    """A named value in an Input/Output line or a contract: `existing_docs (string, markdown)`."""

    name: str
    type: str | None = None  # JSON Schema type name when one was stated: string, boolean, array, object, ...
    description: str = ""
    required: bool = True
    where: str
    items: str | None = None  # for arrays: the item type when one was stated ("list of strings")
    keys: tuple[str, ...] = ()  # keys listed for an object: `analysis (JSON): functions, classes`
    whole_output: bool = False  # this name stands for the step's whole output object (see spec/fields.py)
    source: str | None = None  # a reference the line gave: `steps.<id>.output.<field>` or `inputs.<name>`


class InputSpec(_Node):
    """A workflow input (from `## Inputs`, the first step's Input line, or YAML `inputs:`)."""

    name: str
    type: str | None = None
    description: str = ""
    required: bool = True
    default: Any = None
    where: str
    format: str | None = None  # JSON Schema `format`: "path" is a host file or folder shown to scripts read-only


class Reading(_Node):
    """A structural reading of text that is not the template's own form, kept for review.

    `what` is what was read: "step" (a list item, table row, paragraph or other heading
    taken as a step), "depends_on", "join", "route", "input" and "output" (`(a -> b)`, "it
    returns `x`", a YAML `step.field` reference), "moved" (a paragraph that belongs to
    another step's section), "key" (a YAML key read under another name), or the key of a
    bullet label read from a sentence ("skill", "for_each", "timeout", ...).
    """

    what: str
    where: str  # file:line of the text read
    text: str  # the text, trimmed to one line
    note: str  # what it was read as


class Mention(_Node):
    """A backticked name in a step's prose (`fetch-mirror`, `get_rate`), where the skill
    binder looks for a skill or a tool the author named."""

    text: str
    where: str
    # **fetch-docs** is a weaker naming, tried after; a bare hyphenated name (list-deploys) weaker still
    marked: Literal["backticks", "bold", "plain"] = "backticks"


StepForm = Literal["heading", "list", "table", "paragraph", "yaml", "recipe"]


class SpecText(_Node):
    """A piece of a step's text that no structural reader took, kept for the policy reader.

    kind: sentence (one sentence of a paragraph that the structure reader kept as
    description), prose (a paragraph, cut into sentences by the policy reader), bullet
    (an unlabelled or unknown-label bullet; `label` holds the label), failure_mode,
    success (the Success criteria line), cell (a table cell; `label` holds its column).
    `line` is where the text starts. `partly` marks a bullet the structure reader read in
    part (a dependency): what the policy reader does not read of it is reported as such.
    """

    text: str
    line: int
    label: str | None = None
    kind: Literal["sentence", "prose", "bullet", "failure_mode", "success", "cell"] = "prose"
    partly: bool = False


class StepSpec(_Node):
    id: str  # "step-1" for `### Step 1: Name`; the YAML `id`
    number: int | None = None
    name: str
    where: str  # the heading or the YAML item
    description: str = ""  # free text under the heading (or YAML `description`)
    skill: str | None = None  # the raw `- Skill:` text / YAML `skill` or `agent`
    skill_where: str | None = None
    inputs: tuple[FieldSpec, ...] = ()  # names from the Input line
    input_values: dict[str, Any] = Field(default_factory=dict)  # literal values (YAML `input:`)
    outputs: tuple[FieldSpec, ...] = ()  # names from the Output line
    success: str = ""
    failure_modes: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()  # explicit step ids (resolved from "Step 2", ids or names)
    depends_where: str | None = None  # set with depends_on empty: an explicit root ("none")
    for_each: str | None = None  # "item in list_field"
    when: str | None = None  # a condition as written: an expression or words (spec/condition.py)
    # "Otherwise:" (the line that says so): the step runs exactly when the condition of the
    # nearest earlier step with one was false, or of the step it names (`otherwise_of`: "Otherwise
    # (of Step 4)", YAML `otherwise: check`); `otherwise_text` is a condition it states itself
    otherwise_where: str | None = None
    otherwise_text: str | None = None
    otherwise_of: str | None = None  # a step id, number ("step-4") or name, resolved by the planner
    approval: ApprovalPolicy | None = None
    compensation: str | None = None
    timeout_s: float | None = None
    retries: int | None = None
    retry: RetryPolicy | None = None  # YAML `retry:` on the step
    on_error: Literal["continue", "fail"] | None = None
    routes: dict[str, str] = Field(default_factory=dict)  # LLM routing: branch name -> step id
    route_default: str | None = None  # the step for any other choice ("anything else to Step 4")
    route_on: str | None = None  # the output field that holds the choice ("depends on the category")
    routes_where: str | None = None  # the line that gave the routes
    join: Literal["all", "any"] = "all"  # "any": runs once after whichever of its dependencies ran
    # "Independent of step 1", "can start straight away": the step does not wait for the step
    # before it (it still waits for the steps whose outputs it reads); the line that says so
    unordered_where: str | None = None
    # "same time as #1": the step starts together with that one, waiting for what it waits for (`spec.start_together`)
    starts_with: str | None = None
    form: StepForm = "heading"  # how the step was written
    readings: tuple[Reading, ...] = ()  # structural readings of prose, each with its line
    mentions: tuple[Mention, ...] = ()  # backticked names in the step's prose, in order
    extra: dict[str, str] = Field(default_factory=dict)  # other labelled bullets, kept for review
    field_where: dict[str, str] = Field(default_factory=dict)  # "timeout", "retries", ... -> file:line
    texts: tuple[SpecText, ...] = ()  # prose and bullets no structural reader took, for the policy reader


class ContractSpec(_Node):
    """A `### Step 1 → Step 2` block of Data Contracts."""

    producer: str  # step id
    consumer: str | None  # step id; None for a block that names one step only
    output_fields: tuple[FieldSpec, ...] = ()  # from the `{ a: string, b: boolean }` notation
    input_fields: tuple[FieldSpec, ...] = ()
    validation: tuple[str, ...] = ()  # the Validation: text, split into clauses
    constraints: dict[str, dict[str, Any]] = Field(default_factory=dict)  # field -> JSON Schema keywords read from Validation
    json_schema: dict[str, Any] | None = None  # a fenced JSON Schema block: it wins
    where: str


class RecoveryRowSpec(_Node):
    """One row of the Error Recovery Strategy table, read into a rule."""

    step: str  # step id
    rule: RecoveryRule
    detection: str = ""
    recovery: str = ""
    fallback_text: str = ""
    feedback_to: str | None = None  # "regenerate step 3" from a validator row
    feedback_attempts: int | None = None
    timeout_s: float | None = None  # "No response after 5s", ">30 seconds"
    every_step: bool = False  # a row that names no step: a catch-all for every step
    where: str


class ConvergenceSpec(_Node):
    """Convergence Criteria, read into limits and per-step bounds."""

    success: tuple[str, ...] = ()
    failure: tuple[str, ...] = ()
    limits: Limits = Limits()
    limit_where: dict[str, str] = Field(default_factory=dict)  # Limits field -> file:line that set it
    step_retries: dict[str, int] = Field(default_factory=dict)  # step id -> retries ("(3 retries)")
    step_timeouts_s: dict[str, float] = Field(default_factory=dict)  # step id -> timeout (">10 sec")
    step_unrecoverable: dict[str, ErrorClass] = Field(default_factory=dict)  # "can't import (unrecoverable)"
    feedback: dict[str, tuple[str, int]] = Field(default_factory=dict)  # validator -> (producer, max attempts)
    where: dict[str, str] = Field(default_factory=dict)  # key above ("step-1.retries") -> file:line
    # max_attempts_per_step was written as retries ("No more than 3 retries anywhere"): a
    # regenerated attempt does not count against it (the planner adds the regenerations)
    retries_cap: bool = False


class SentenceReading(_Node):
    """A sentence that states a policy, read into a statement, with where it was written.

    section: step (a step's own text), success, recovery (the Error Recovery table or
    its bullets), column (an extra table column: `note` names it), convergence.
    `steps` are the step ids it applies to; () means every step. `specific` is False
    for a catch-all written for every step ("anything not listed below").
    `source` is "llm" for a reading the model made (`plan --interpret`), with its model.
    """

    text: str
    where: str
    section: str
    steps: tuple[str, ...] = ()
    statement: PolicyStatement
    specific: bool = True
    source: Literal["spec", "llm"] = "spec"
    model: str | None = None
    note: str = ""


class UnreadSentence(_Node):
    """A sentence that carries policy words the grammar could not read (`plan --interpret` asks the model)."""

    text: str
    where: str
    section: str
    steps: tuple[str, ...] = ()
    step_name: str = ""
    problem: str


class ScenarioSpec(_Node):
    """A Testing Plan entry, kept in the plan and run by `skillweave test`."""

    name: str
    description: str
    kind: Literal["happy", "degradation", "recovery", "escalation", "edge", "other"] = "other"
    where: str


class CompareValueSpec(_Node):
    """One side of a success check comparing two values (`spec.success_compare31`).

    `step` set: a field of that step's output (`field`; `candidates` are the names the words could
    mean, tried in order against the step's outputs by the planner); else `input`: a workflow input.
    `count`: the number of items in the value (a list's length)."""

    step: str | None = None
    field: str = ""
    candidates: tuple[str, ...] = ()
    input: str | None = None
    count: bool = False
    said: str = ""  # the words as written


CompareOp = Literal["eq", "ne", "lt", "gt", "ge", "le"]


class CompareCheckSpec(_Node):
    """A success check comparing two values of the run, evaluated after the run."""

    left: CompareValueSpec
    op: CompareOp
    right: CompareValueSpec
    text: str
    where: str
    warned: str = ""  # the success warning at `where` this reads again (the planner replaces it by `reading`)
    reading: str = ""


class WorkflowSpec(_Node):
    name: str
    title: str = ""  # the `# Title` heading (markdown) or YAML `title`
    path: str  # as given; diagnostics use it
    format: Literal["markdown", "yaml"]
    sha256: str
    intent: str = ""
    inputs: tuple[InputSpec, ...] = ()
    steps: tuple[StepSpec, ...]
    contracts: tuple[ContractSpec, ...] = ()
    state: str = ""
    convergence: ConvergenceSpec = ConvergenceSpec()
    recovery: tuple[RecoveryRowSpec, ...] = ()
    fallback: Fallback | None = None  # a workflow-wide default
    retry: RetryPolicy | None = None  # a workflow-wide default (YAML `retry:`)
    retry_where: str | None = None  # file:line of that `retry:`
    timeout_s: float | None = None  # a workflow-wide wall time (YAML `timeout:`)
    # inputs named in passing (a chat reply: "version comes in as `version`"): added to `inputs`, or to
    # those the steps' needs give when the spec declares none (the planner)
    inputs_said: tuple[InputSpec, ...] = ()
    # what a sentence says the run is given, as written ("the plate ID"), with its file:line, when the spec
    # declares no inputs (`spec.prose_inputs`): the planner matches each to a name a skill reads
    inputs_prose: tuple[tuple[str, str], ...] = ()
    # those parts name the inputs in the author's own words ("You need three things off the form: the
    # customer's name, ..." `spec.own_inputs54`): each input is named so, a skill's input bound to it
    inputs_prose_own: bool = False
    # the fields a parenthesis after such a part says it holds ("the loan record (object no., title)"): the
    # planner reads the part as one input of those fields when they are names the skills read
    inputs_prose_fields: tuple[tuple[str, tuple[str, ...]], ...] = ()
    scenarios: tuple[ScenarioSpec, ...] = ()
    compares: tuple[CompareCheckSpec, ...] = ()  # success checks comparing two values (`spec.success_compare31`)
    readings: tuple[SentenceReading, ...] = ()  # policy sentences read outside the structured fields
    unread: tuple[UnreadSentence, ...] = ()  # policy sentences not understood (each is also a warning)
    warnings: tuple[Diagnostic, ...] = ()
    # the text read (for the plan's guards against silent misreading): never dumped
    text: str = Field(default="", exclude=True, repr=False)
