"""`plan.or_if_skipped30` and `spec.if_not_run40`: "put 0 if (c) did not happen", "write 5 if step 4 didn't
happen" give the input that value when its producer was skipped, and the step's reader does not warn the
"if" as a condition not read; "put 0 in the log" says no such value. Sentences of our own (a boat's fuel log,
a greenhouse sheet, a café's till note)."""

from __future__ import annotations

from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.or_if_skipped30 import read_if_skipped
from orchestrator.spec.if_not_run40 import value_if_not_run
from orchestrator.spec.model import StepSpec


def _read(text: str, name: str) -> InputBinding:
    step = StepSpec(id="step-5", name="Five", where="t.md:9", description=text)
    bindings = {name: InputBinding(source="step", step="step-4", pointer=f"/{name}", optional=True)}
    provenance: dict[str, Provenance] = {}
    read_if_skipped(step, text, bindings, provenance, frozenset({"step-4"}), "t.md")
    return bindings[name]


def test_put_a_value_if_the_step_did_not_happen() -> None:
    assert _read("fuel-log -> litres from (d), put 0 if (d) did not happen.", "litres").if_skipped == 0
    assert value_if_not_run("fuel-log -> litres from (d), put 0 if (d) did not happen.")


def test_write_a_value_if_the_step_didnt_happen() -> None:
    said = "till-close takes tips from step 4, write 5 if step 4 didn't happen."
    assert _read(said, "tips").if_skipped == 5
    assert value_if_not_run(said) and value_if_not_run("shade from step 4, or 0 if it was skipped")


def test_negative_a_put_with_no_step_that_did_not_run_is_no_value() -> None:
    assert _read("vent-log -> temps from (d); put 0 in the log when the vents are shut.", "temps").if_skipped is None
    assert not value_if_not_run("`open-vents`, but only if the frost alarm did not go off.")
    assert not value_if_not_run("put 0 in the log when the vents are shut.")
