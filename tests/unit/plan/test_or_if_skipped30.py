"""`plan.or_if_skipped30`: a value said for an input whose conditional producer did not run, and the
engine giving it."""

from __future__ import annotations

from orchestrator.engine.render import Renderer
from orchestrator.plan.model import InputBinding, PlanStep, Provenance
from orchestrator.plan.or_if_skipped30 import read_if_skipped
from orchestrator.spec.model import StepSpec
from orchestrator.testing import fake_plan


def _read(text: str, names: tuple[str, ...] = ("rooms",), conditional: frozenset[str] = frozenset({"step-4"})
          ) -> dict[str, InputBinding]:
    step = StepSpec(id="step-5", name="Five", where="t.md:9", description=text)
    bindings = {n: InputBinding(source="step", step="step-4", pointer=f"/{n}", optional=True) for n in names}
    provenance: dict[str, Provenance] = {}
    found = read_if_skipped(step, text, bindings, provenance, conditional, "t.md")
    assert len(found) == sum(1 for b in bindings.values() if b.if_skipped is not None)
    return bindings


def test_a_kitchen_runbook_says_or_0_if_it_was_skipped() -> None:
    got = _read("plate-up: discount from step 4, or 0 if it was skipped; covers from step 2.", ("discount",))
    assert got["discount"].if_skipped == 0


def test_a_booking_ticket_says_else_2_when_it_did_not_run() -> None:
    got = _read("Then `seat-map` takes seats from the booking step, else 2 when it didn't run.", ("seats",))
    assert got["seats"].if_skipped == 2


def test_a_triage_note_gives_a_quoted_value_if_any() -> None:
    got = _read('route it: lane from the triage step if any, otherwise "standard".', ("lane",))
    assert got["lane"].if_skipped == "standard"


def test_a_host_sheet_otherwise_its_just_1_and_the_other_input_is_left() -> None:
    got = _read("rooms from ( iv ) if it ran (otherwise it's just 1 room), teams from ( ii ).", ("rooms", "teams"))
    assert got["rooms"].if_skipped == 1
    assert got["teams"].if_skipped is None


def test_no_value_no_reading_and_no_conditional_producer_no_reading() -> None:
    assert _read("rooms from ( iv ) if it ran, otherwise skip the step.")["rooms"].if_skipped is None
    assert _read("rooms from ( iv ), or 1 room per 12 teams.")["rooms"].if_skipped is None
    assert _read("rooms from ( iv ) if it ran (otherwise 1).", conditional=frozenset())["rooms"].if_skipped is None


def test_the_engine_gives_the_value_only_when_the_producer_has_no_output() -> None:
    step = PlanStep(id="step-5", name="Five", skill="s",
                    inputs={"rooms": InputBinding(source="step", step="step-4", pointer="/rooms", optional=True,
                                                  if_skipped=1)})
    render = Renderer(fake_plan([step]), {})
    assert render.step_input(step, {}) == {"rooms": 1}
    assert render.step_input(step, {"step-4": {"rooms": 2}}) == {"rooms": 2}
    assert "if_skipped" not in InputBinding(source="step", step="a").model_dump()
