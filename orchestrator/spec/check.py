"""Checks shared by the markdown and YAML readers, and the workflow inputs.

Errors here make a spec unusable: no steps, a step id twice, a reference (`Depends on`, a route, a contract, a table row, a
convergence bound, a `steps.<id>` reference) to a step the spec does not have.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from orchestrator.policy import Fallback, RetryPolicy
from orchestrator.spec.model import (
    ContractSpec,
    ConvergenceSpec,
    FieldSpec,
    InputSpec,
    RecoveryRowSpec,
    ScenarioSpec,
    StepSpec,
)
from orchestrator.spec.source import Source

_STEP_REF = re.compile(r"\bsteps\.([\w-]+)\.output\b")
MAX_STEPS = 10_000  # a plan holds some 40 KB per step: 10 000 steps plan in seconds, in 0.5 GB
MAX_FIELDS = 1_000  # workflow inputs, or one step's input or output fields (else pass one object)


class SpecParts(BaseModel):
    """What a reader (markdown or YAML) found, before the shared checks."""

    model_config = ConfigDict(frozen=True)

    name: str
    title: str = ""
    intent: str = ""
    inputs: tuple[InputSpec, ...] | None = None  # None: the spec declares none; derive them
    steps: tuple[StepSpec, ...] = ()
    steps_line: int = 1  # where "no steps" is reported
    contracts: tuple[ContractSpec, ...] = ()
    state: str = ""
    convergence: ConvergenceSpec = ConvergenceSpec()
    recovery: tuple[RecoveryRowSpec, ...] = ()
    scenarios: tuple[ScenarioSpec, ...] = ()
    fallback: Fallback | None = None
    retry: RetryPolicy | None = None
    retry_where: str | None = None
    timeout_s: float | None = None
    inputs_said: tuple[InputSpec, ...] = ()  # named in passing (a chat reply): added to the inputs
    inputs_prose: tuple[tuple[str, str], ...] = ()  # "you'll need to give it the plate ID, ..." (`spec.prose_inputs`)
    inputs_prose_fields: tuple[tuple[str, tuple[str, ...]], ...] = ()  # "the loan record (object no., title)"
    inputs_prose_own: bool = False  # the parts name the inputs in the author's words (`spec.own_inputs54`)


def line_of(where: str | None) -> int:
    """The line of a `file:line` string (1 when it has none)."""
    if not where:
        return 1
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 1


def check_sizes(parts: SpecParts, src: Source) -> bool:
    """False (with an error at the first one too many) when the spec has more steps or
    fields than a plan is built for; then nothing else is checked."""
    if len(parts.steps) > MAX_STEPS:
        src.error(line_of(parts.steps[MAX_STEPS].where), f"the spec has {len(parts.steps):,} steps; at most "
                                                         f"{MAX_STEPS:,} (split it into several workflows)",
                  "spec.too-many-steps")
        return False
    from orchestrator.spec.foreign_length53 import MAX_STEPS as FOREIGN_STEPS
    from orchestrator.spec.foreign_length53 import too_many_steps

    if (many := too_many_steps(src.path, len(parts.steps))) is not None:  # a script's call line 5 000 times
        src.error(line_of(parts.steps[FOREIGN_STEPS].where), many, "spec.too-many-steps")
        return False
    lists: list[tuple[str, tuple[InputSpec, ...] | tuple[FieldSpec, ...]]] = [
        ("the spec has {} workflow inputs", parts.inputs or ())]
    lists += [(f"{s.id} has {{}} input fields", s.inputs) for s in parts.steps]
    lists += [(f"{s.id} has {{}} output fields", s.outputs) for s in parts.steps]
    for what, items in lists:
        if len(items) > MAX_FIELDS:
            src.error(line_of(items[MAX_FIELDS].where), what.format(f"{len(items):,}") + f"; at most "
                      f"{MAX_FIELDS:,} (pass one object or list instead)", "spec.too-many-fields")
            return False
    return True


def check_steps(steps: tuple[StepSpec, ...], steps_line: int, src: Source) -> None:
    if not steps:
        if not any(d.code in ("spec.no-steps", "spec.no-id", "spec.yaml") for d in src.errors):
            src.error(steps_line, "the spec has no steps", "spec.no-steps")
        return
    seen: dict[str, StepSpec] = {}
    for step in steps:
        line = line_of(step.where)
        if step.id in seen:
            src.error(line, f"step id '{step.id}' is used twice (first at line "
                            f"{line_of(seen[step.id].where)})", "spec.duplicate-step")
        seen.setdefault(step.id, step)
    ids = set(seen)
    for step in steps:
        dep_line = line_of(step.depends_where or step.where)
        for dep in step.depends_on:
            if dep == step.id:
                src.error(dep_line, f"{step.id} depends on itself", "spec.self-dependency")
            elif dep not in ids:
                src.error(dep_line, f"{step.id} depends on '{dep}', which the spec does not have",
                          "spec.unknown-step")
        route_line = line_of(step.routes_where or step.where)
        for branch, target in step.routes.items():
            if target not in ids:
                src.error(route_line, f"{step.id}: route '{branch}' goes to '{target}', "
                                      "which the spec does not have", "spec.unknown-step")
        if step.route_default is not None and step.route_default not in ids:
            src.error(route_line, f"{step.id}: the default route goes to '{step.route_default}', "
                                  "which the spec does not have", "spec.unknown-step")
        refs = [(step.for_each or "", step.where), (step.when or "", step.where)]
        refs += [(f.source or "", f.where) for f in step.inputs]
        refs += [(v, step.where) for v in step.input_values.values() if isinstance(v, str)]
        for text, where in refs:
            for target in _STEP_REF.findall(text):
                if target not in ids:
                    src.error(line_of(where), f"{step.id} refers to steps.{target}, which the "
                                              "spec does not have", "spec.unknown-step")


def check_references(
    ids: set[str],
    contracts: tuple[ContractSpec, ...],
    recovery: tuple[RecoveryRowSpec, ...],
    convergence: ConvergenceSpec,
    src: Source,
) -> None:
    for contract in contracts:
        for end in (contract.producer, contract.consumer):
            if end is not None and end not in ids:
                src.error(line_of(contract.where), f"the contract names step '{end}', which the "
                                                   "spec does not have", "spec.unknown-step")
    for row in recovery:
        if row.step not in ids:
            src.error(line_of(row.where), f"the recovery row names step '{row.step}', which the "
                                          "spec does not have", "spec.unknown-step")
        if row.feedback_to is not None and row.feedback_to not in ids:
            src.error(line_of(row.where), f"the recovery row regenerates '{row.feedback_to}', "
                                          "which the spec does not have", "spec.unknown-step")
    bounds: list[tuple[str, str]] = [(k, f"{k}.retries") for k in convergence.step_retries]
    bounds += [(k, f"{k}.timeout") for k in convergence.step_timeouts_s]
    bounds += [(k, f"{k}.unrecoverable") for k in convergence.step_unrecoverable]
    bounds += [(k, f"{k}.feedback") for k in convergence.feedback]
    bounds += [(t, f"{k}.feedback") for k, (t, _) in convergence.feedback.items()]
    for step, key in bounds:
        if step not in ids:
            src.error(line_of(convergence.where.get(key)), f"the convergence criteria name "
                                                           f"'{step}', which the spec does not "
                                                           "have", "spec.unknown-step")


def derive_inputs(steps: tuple[StepSpec, ...]) -> tuple[InputSpec, ...]:
    """Without `## Inputs`: the first step's Input names that no step produces."""
    if not steps:
        return ()
    produced = {f.name for s in steps for f in s.outputs}
    return tuple(
        InputSpec(name=f.name, type=f.type, description=f.description, required=f.required,
                  where=f.where)
        for f in steps[0].inputs
        if f.name not in produced and f.source is None and f.name not in steps[0].input_values
    )
