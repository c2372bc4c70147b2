"""Recovery policies as data: retries, fallbacks, regeneration, approval, limits.

The spec compiler reads them out of prose ("Retry with backoff (1s, 2s, 4s)"),
the planner attaches them to steps, the engine obeys them. Nothing here runs.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ErrorClass(StrEnum):
    """How a failure is classified, which decides how it is recovered.

    transient      timeout, connection loss, MCP server crash, HTTP 429/5xx: retry
    timeout        a transient failure that is a timeout (rules may single it out)
    invalid_input  the step's input broke its contract or the skill refused it: fail fast
    code_error     a script raised, exited non-zero, or broke its output contract: regenerate
    unrecoverable  declared non-retryable: escalate
    """

    TRANSIENT = "transient"
    TIMEOUT = "timeout"
    INVALID_INPUT = "invalid_input"
    CODE_ERROR = "code_error"
    UNRECOVERABLE = "unrecoverable"

    @property
    def is_transient(self) -> bool:
        return self in (ErrorClass.TRANSIENT, ErrorClass.TIMEOUT)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RetryPolicy(_Frozen):
    """Retries after the first attempt, for transient failures.

    `delays_s` lists explicit waits (the spec's "1s, 2s, 4s"); when it is shorter
    than `max_retries`, the last wait repeats. Without it the wait is exponential:
    `initial_s * multiplier**n`, capped at `max_delay_s`, with full jitter when
    `jitter` is true. `budget_s` ("every 10 s for up to a minute") stops the
    retries once that many seconds have passed since the step started, whatever
    count is left.
    """

    max_retries: int = Field(default=0, ge=0)
    delays_s: tuple[float, ...] = ()
    initial_s: float = Field(default=1.0, ge=0)
    multiplier: float = Field(default=2.0, ge=1)
    max_delay_s: float = Field(default=60.0, ge=0)
    jitter: bool = True
    budget_s: float | None = Field(default=None, gt=0)

    def delay(self, retry_index: int, rand: float = 1.0) -> float:
        """Wait before retry number `retry_index` (0-based); `rand` in [0, 1] for jitter."""
        if self.delays_s:
            return self.delays_s[min(retry_index, len(self.delays_s) - 1)]
        base = min(self.initial_s * self.multiplier**retry_index, self.max_delay_s)
        return base * rand if self.jitter else base


class FallbackAction(StrEnum):
    FAIL = "fail"  # the run fails (compensations run)
    ESCALATE = "escalate"  # the run fails as escalated: a person must look
    CONTINUE = "continue"  # the step is marked failed-continued; dependants see no output
    DEFAULT = "default"  # the step's output becomes `value` (or the contract's empty value)
    SKILL = "skill"  # run `skill` with the same input instead


class Carried(_Frozen):
    """A part of a DEFAULT fallback's value taken from earlier data when the fallback applies
    ("to_withdraw = all the candidates' barcodes", `continue_with: {ids: step2.ids}`;
    `plan.carry_ref31`): an earlier step's output, or a workflow input, at `pointer`, each
    item's `each` when that is a list. `step` and `input` are None until the plan names them."""

    field: str = ""  # the output field it sets; "" = the whole output
    said: str  # as written
    explicit: bool = False  # written as a reference ("step 2's ids", `step2.ids`): an error when unresolved
    step: str | None = None
    input: str | None = None
    pointer: str = ""  # "/candidates"
    each: str = ""  # "barcode": each item's field of the list at `pointer`
    where: str | None = None

    def described(self) -> str:
        """Where it comes from, in words: "step-1's output candidates (each barcode)"."""
        src = f"workflow input {self.input}" if self.input is not None else f"{self.step}'s output"
        at = self.pointer.strip("/").replace("/", ".")
        return f"{src}{' ' + at if at else ''}{f' (each {self.each})' if self.each else ''}"


class Fallback(_Frozen):
    action: FallbackAction = FallbackAction.FAIL
    value: Any = None  # for DEFAULT: the output to use; None = empty value built from the schema
    # for DEFAULT: the parts of the output taken from earlier data when it applies (over `value`)
    carry: tuple[Carried, ...] = Field(default=(), exclude_if=lambda v: not v)
    skill: str | None = None  # for SKILL
    step: str | None = None  # for SKILL: the step whose skill it is ("fall back to step 3")
    message: str | None = None  # for ESCALATE: who to tell, as written ("page the on-call")


class ApprovalPolicy(_Frozen):
    required: bool = True
    timeout_s: float | None = None
    # what no decision in time means: a yes, a no (the step fails with its fallback), or the step is
    # skipped as if its own condition were false ("No answer = do not order, skip it"; `engine.approval`)
    on_timeout: Literal["approve", "reject", "skip"] = "reject"
    # the gate holds only when this condition is true ("required if amount > 1000"): as
    # written in a spec, a sandboxed Jinja2 expression in a plan; written only when set
    when: str | None = Field(default=None, exclude_if=lambda v: v is None)


class FeedbackPolicy(_Frozen):
    """A validator step's failure is sent back to regenerate the step that made its input."""

    target_step: str
    max_attempts: int = Field(default=2, ge=1)  # runs of the producer in all, the first included


class RecoveryRule(_Frozen):
    """One row of the Error Recovery table, bound to a step and an error class.

    Fields left as None fall back to the step's defaults.
    """

    on: ErrorClass | Literal["any"] = "any"
    failure: str = ""  # the row's failure text, for the reviewer
    retry: RetryPolicy | None = None
    regenerate: int | None = None
    fallback: Fallback | None = None
    where: str | None = None  # file:line of the row


class Limits(_Frozen):
    """Global convergence limits: reaching one ends the run cleanly as failed."""

    max_attempts_per_step: int = Field(default=10, ge=1)
    max_total_attempts: int = Field(default=200, ge=1)
    max_regenerations_per_step: int = Field(default=3, ge=0)
    max_regenerations_total: int = Field(default=10, ge=0)
    max_llm_tokens: int = Field(default=200_000, ge=0)
    wall_time_s: float = Field(default=3600.0, gt=0)
    concurrency: int = Field(default=8, ge=1)
    per_skill_concurrency: int | None = Field(default=None, ge=1)
    per_server_concurrency: int = Field(default=4, ge=1)


# -- what one sentence of a spec says about recovery ---------------------------------


class Wait(_Frozen):
    """The wait between tries, as a sentence states it.

    fixed        one wait, repeated ("waiting 2s between tries", "10 seconds apart")
    sequence     the waits in order, the last repeating ("wait 5s, then 15s")
    exponential  start_s * factor**n, capped at cap_s ("exponential backoff, max wait 20s")
    none         no wait ("no need to wait between tries")
    """

    kind: Literal["fixed", "sequence", "exponential", "none"]
    seconds: tuple[float, ...] = ()  # fixed: one value; sequence: every wait
    start_s: float | None = Field(default=None, ge=0)
    factor: float | None = Field(default=None, ge=1)
    cap_s: float | None = Field(default=None, ge=0)
    jitter: bool | None = None  # None: not said (exponential waits are jittered by default)


class OnFailure(_Frozen):
    """What happens once recovery is exhausted, as a sentence states it."""

    kind: Literal["fail", "continue", "continue_with_value", "use_skill", "use_step", "escalate"]
    value: Any = None  # continue_with_value: the output (None: the contract's empty value)
    field: str | None = None  # continue_with_value: the output field `value` is for ("mark the category as unknown")
    skill: str | None = None  # use_skill
    step: str | None = None  # use_step: a step id ("step-3")
    message: str | None = None  # escalate: who to tell, as written


class PolicyStatement(_Frozen):
    """What one sentence says about a step's recovery; a field left None was not said.

    The spec's grammar reads sentences into this, and so does the model when asked
    (`plan --interpret`): its JSON Schema is the tool the model answers through.
    `retries` counts tries after the first; `max_attempts` counts the first too.
    `for_up_to_s` is a time budget for retrying ("for up to a minute"); `timeout_s`
    bounds one attempt ("give it 60 seconds"), or the whole run when `whole_run`
    ("whole run: 2 min max"). `regenerate` asks for that many new versions of a
    script's code. `applies_to` names the failures the sentence is about ("if it
    times out" → timeout, "anything else" → any).
    """

    retries: int | None = Field(default=None, ge=0, le=1000)
    max_attempts: int | None = Field(default=None, ge=1, le=1001)
    no_retry: bool = False
    wait: Wait | None = None
    for_up_to_s: float | None = Field(default=None, gt=0)
    timeout_s: float | None = Field(default=None, gt=0)
    regenerate: int | None = Field(default=None, ge=0, le=1000)
    on_failure: OnFailure | None = None
    applies_to: ErrorClass | Literal["any"] | None = None
    whole_run: bool = False

    def is_empty(self) -> bool:
        """True when the sentence states no policy at all."""
        return self == PolicyStatement()
