"""Which "does not wait for the step before it" a fan-out said in words may take back.

A step whose text says its items go independently ("score each row, they don't depend on each
other") was first read by the spec reader as not waiting for the step before it; when the planner
then reads a fan-out in the same words (`plan.fan_words`), those words were about the items, not
the step, and the step waits in order again. A start read from the *shape* of the document is not
said in such words and stays: a labelled list whose items say where their values come from
("iv. record-spray-log: the load plan from iii and the wind reading from i") makes an item that
names no earlier item a root (`spec.parallel_said24`), and "ii. field-rate-calc, one go per field
on the list" is still a root when its "per field" is read as a loop over the workflow input.
"""

from __future__ import annotations

from orchestrator.spec.model import StepSpec
from orchestrator.spec.parallel_said24 import ROOT_NOTE


def start_from_shape(step: StepSpec) -> bool:
    """True when the step's not waiting for the step before it was read from the list's
    cross-references (no words of the step's own said it), so a fan-out read in its words keeps it."""
    where = step.unordered_where
    return where is not None and any(
        r.what == "depends_on" and r.where == where and r.note.startswith(ROOT_NOTE) for r in step.readings)
