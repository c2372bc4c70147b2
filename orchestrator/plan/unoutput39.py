"""A step's success check on a field its skill does not output, said.

A sentence after the last step with no heading of its own ("The run counts as good when tag_count >=
3.") is read as that step's own check, as is a `Success criteria:` line under a step. When the step's
skill states its outputs (an output schema, or the outputs its SKILL.md names) and the field the check
names is not among them, the check is on a field nobody may give: the step then fails for want of it.
That is never silent: it is warned at the check's line, naming the earlier step whose skill does
output the field when there is exactly one ("write the check under that step"). A skill that states
no outputs, a field the step's text itself says it outputs, or a whole-run check (checked after the
run) is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.kinds import BoundSkill
from orchestrator.plan.location import warning_at
from orchestrator.plan.schema import properties_of
from orchestrator.plan.wanted import Instructions
from orchestrator.spec.model import ContractSpec, WorkflowSpec


def _fields(contract: ContractSpec) -> list[str]:
    """The output fields a check on the whole output requires (a check keyed by one field refines the input
    of the step that reads it when its producer does not output it: `plan.contract`)."""
    whole = contract.constraints.get("", {})
    named = [*properties_of(whole), *whole.get("required", ())]
    return list(dict.fromkeys(n for n in named if isinstance(n, str)))


def _stated(skill: BoundSkill | None, instructions: Mapping[str, Instructions]) -> frozenset[str]:
    """The outputs a skill states: its output schema's, else its instructions'; empty when it states none."""
    if skill is None:
        return frozenset()
    if skill.output_schema:
        return frozenset(properties_of(skill.output_schema))
    said = instructions.get(skill.name)
    return frozenset(n.name for n in said.outputs) if said is not None else frozenset()


def unoutput_checks(spec: WorkflowSpec, on_outputs: Sequence[ContractSpec], bound: Mapping[str, BoundSkill],
                    instructions: Mapping[str, Instructions]) -> list[Diagnostic]:
    """A warning for each check on a step's output that names a field its skill does not state (module docstring)."""
    found: list[Diagnostic] = []
    by_id = {s.id: s for s in spec.steps}
    stated: dict[str, frozenset[str]] = {}
    for contract in on_outputs:
        step = by_id.get(contract.producer or "")
        if step is None or not contract.validation or contract.json_schema is not None:
            continue
        if step.id not in stated:
            stated[step.id] = _stated(bound.get(step.id), instructions)
        own = stated[step.id]
        said = {f.name for f in step.outputs} | {f.name for f in contract.output_fields}
        missing = [f for f in _fields(contract) if own and f not in own and f not in said]
        for name in missing:
            givers = []
            for other in spec.steps:
                if other.id == step.id:
                    break
                if other.id not in stated:
                    stated[other.id] = _stated(bound.get(other.id), instructions)
                if name in stated[other.id]:
                    givers.append(other.id)
            where = (f"; {givers[0]} outputs it: write the check under that step" if len(givers) == 1
                     else "; write the check under the step whose output has it")
            found.append(warning_at(contract.where, spec.path, f"{step.id} ({step.name}): the success check "
                                    f"'{' and '.join(contract.validation)[:80]}' names `{name}`, which its skill "
                                    f"`{bound[step.id].name}` does not output (it states {', '.join(sorted(own))}): "
                                    f"the step fails without it{where}", "plan.check-not-output"))
    return found
