"""A gate said of what an earlier lettered or numbered step comes out at (`plan.gate_output27`), the inputs
the reader made that the text then gives otherwise (`plan.unread_derived27`), a value after its name
(`spec.fill_in27`) and a word in capitals naming an output (`plan.said_assign`)."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.plan.gate_output27 import output_named, step_letters
from orchestrator.plan.model import InputBinding
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import StepSpec
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

PO_TOTAL = skill("po-total", input_schema=obj(("lines",), lines="array"),
                 output_schema=obj(("total", "line_count"), total="number", line_count="integer"))
PO_SEND = skill("po-send", input_schema=obj(("amount", "vat_rate"), amount="number", vat_rate="number"),
                output_schema=obj(("sent",), sent="boolean"))
HOUSE = skill("house-count", input_schema=obj(("show",), show="string"),
              output_schema=obj(("seated", "empty"), seated="integer", empty="integer"))
BAR = skill("bar-stock", input_schema=obj(("covers", "gaps", "interval_minutes"), covers="integer",
                                          gaps="integer", interval_minutes="integer"),
            output_schema=obj(("crates",), crates="integer"))


def _plan(text: str, *skills: object, path: str = "sheet.txt"):  # type: ignore[no-untyped-def]
    names = Vocabulary(skills=frozenset(s.name for s in skills))  # type: ignore[attr-defined]
    return build_plan(parse_spec_text(text, path, "markdown", names), FakeCatalog(*skills), settings=SETTINGS)  # type: ignore[arg-type]


PURCHASE_ORDER = ("PURCHASE ORDER - STATIONERY\n"
                  "Order lines: ........ (lines)\n\n"
                  "A) TALLY  - po-total on the order lines.\n"
                  "B) SEND   - po-send: amount = TOTAL from A, vat_rate 0.2.\n"
                  "     >> If A comes out over 5,000 the FD signs it off before B runs.\n")


def test_a_purchase_order_asks_the_fd_only_when_the_tally_comes_out_over_5000() -> None:
    plan = _plan(PURCHASE_ORDER, PO_TOTAL, PO_SEND)
    tally, send = plan.steps
    assert [i.name for i in plan.inputs] == ["lines"]
    assert send.inputs["amount"].source == "step" and send.inputs["amount"].pointer == "/total"
    assert send.inputs["vat_rate"].source == "literal" and send.inputs["vat_rate"].value == 0.2
    gate = send.policy.approval
    assert gate is not None and gate.when is not None
    assert tally.id in gate.when and "total" in gate.when and "5000" in gate.when


def test_a_theatre_show_report_s_gaps_are_the_house_count_s_empty_seats_said_in_capitals() -> None:
    text = ("SHOW REPORT - MATINEE\n"
            "Show: ............ (show)\n\n"
            "1) HOUSE - `house-count` for the show.\n"
            "2) BAR   - `bar-stock`: covers = SEATED from 1, gaps = how many are EMPTY\n"
            "     from 1, interval_minutes 20.\n")
    bar = _plan(text, HOUSE, BAR).steps[1]
    assert bar.inputs["gaps"].source == "step" and bar.inputs["gaps"].pointer == "/empty"
    assert bar.inputs["interval_minutes"].source == "literal" and bar.inputs["interval_minutes"].value == 20


def test_a_name_the_text_gives_from_a_step_is_no_workflow_input() -> None:
    text = ("DELIVERY DOCKET\n"
            "Order lines: ........ (lines)\n\n"
            "1. `po-total` on the order lines.\n"
            "2. `po-send`: amount = step 1's total, vat_rate 0.2.\n")
    plan = _plan(text, PO_TOTAL, PO_SEND)
    assert [i.name for i in plan.inputs] == ["lines"]
    assert not any("`amount`" in w.message and "required" in w.message for w in plan.warnings)


def _step(sid: str, line: int) -> StepSpec:
    return StepSpec(id=sid, name=sid, where=f"doc.txt:{line}")


def test_letters_are_read_off_the_step_lines_and_a_letter_twice_is_none() -> None:
    text = "notes\nA) first\n(b) second\nC. third\nC) again\n"
    steps = [_step("step-1", 2), _step("step-2", 3), _step("step-3", 4), _step("step-4", 5)]
    assert step_letters(text, steps) == {"A": "step-1", "B": "step-2"}


def test_the_value_compared_is_the_one_this_step_is_given_or_the_step_s_one_output() -> None:
    given = {"amount": InputBinding(source="step", step="step-1", pointer="/total")}
    fields = {"step-1": ["total", "line_count"], "step-2": ["score"]}
    said = output_named("C comes out over 1,500", {"C": "step-1"}, ["step-1"], given, fields.__getitem__)
    assert said is not None and said[0] == "step-1.total > 1500"
    said = output_named("step 2 comes back under 3", {}, ["step-2"], {}, fields.__getitem__)
    assert said is not None and said[0] == "step-2.score < 3"
    said = output_named("A comes out over 5", {"A": "step-2"}, ["step-2"], {}, fields.__getitem__)
    assert said is not None and said[0] == "step-2.score > 5"
    assert output_named("A comes out over 5", {"A": "step-1"}, ["step-1"], {}, fields.__getitem__) is None  # two outputs


def test_words_that_are_no_such_comparison_are_left_alone() -> None:
    fields = {"step-1": ["total"]}
    for when in ("the keys are handed over to B", "C is late", "A comes out", "D runs over 3",
                 "the order is over 5,000"):
        assert output_named(when, {"A": "step-1", "B": "step-1", "C": "step-1", "D": "step-1"}, ["step-1"], {},
                            fields.__getitem__) is None or when == "the order is over 5,000"
    said = output_named("the total comes out over 5,000", {}, ["step-1"], {}, fields.__getitem__)
    assert said is not None and said[0] == "total > 5000"
