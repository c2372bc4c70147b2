"""The run's success checks kept out of their step's output contract (`plan.model.RunCheck`).

The spec's readers put a success check the document says of the whole run ("The audit passes only
when Roll-up reports zero blocked packages", `finished_if: ...`, a sentence under "Acceptance
criteria") on one step's output as a contract naming no consumer, and note it on that step as
"the run's success check" at the contract's line. Such a check judges the run: enforced as the
step's contract it failed the step on its own output (retried, and the steps after it never ran),
where the author's run goes on to its end and is then not a success. Here those contracts become
the plan's run checks, evaluated after the run (`engine.run_checks37`). A step's own check
(`- Success criteria:` under the step) stays its contract, and so does a run's check on a step run
per item (its output is per item).
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.plan.model import RunCheck
from orchestrator.spec.model import ContractSpec, WorkflowSpec

_NOTE = "the run's success check"


def split_run_checks(spec: WorkflowSpec) -> tuple[list[ContractSpec], tuple[RunCheck, ...]]:
    """The spec's contracts that stay contracts, and the run checks taken out of them."""
    by_step = {s.id: s for s in spec.steps}
    said = {(s.id, r.where): r.text for s in spec.steps for r in s.readings
            if r.what == "success" and r.note.startswith(_NOTE)}
    kept: list[ContractSpec] = []
    checks: list[RunCheck] = []
    for c in spec.contracts:
        step = by_step.get(c.producer)
        text = said.get((c.producer, c.where))
        whole = set(c.constraints) == {""} and not c.json_schema and not c.output_fields
        if c.consumer is not None or step is None or text is None or step.for_each is not None or not whole:
            kept.append(c)
            continue
        checks.append(RunCheck(step=c.producer, schema=c.constraints[""], written=_written(c.validation),
                               text=text, where=c.where))
    return kept, tuple(checks)


def _written(validation: Sequence[str]) -> str:
    return " and ".join(v for v in validation if v) or "its check"
