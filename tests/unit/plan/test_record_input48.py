"""A thing the run is given that a parenthesis says the fields of (`plan.record_input48`, `spec.prose_inputs.
records_in`): "the booking details (guest name, arrival date, room type)" is one input `booking`, each skill input
it holds taken from its field. A hotel check-in, a tool-hire desk; and a parenthesis that only glosses a part,
or one whose parts are no names the skills read, which make no such input."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.plan import build_plan
from orchestrator.plan.record_input48 import record_inputs, record_name, says_record
from orchestrator.spec import parse_spec_text
from orchestrator.spec.prose_inputs import read_prose_records, records_in
from orchestrator.spec.vocabulary import Vocabulary


def test_a_part_with_a_parenthesis_of_several_parts_is_a_record_of_them() -> None:
    assert records_in("the booking details (guest name, arrival date + room type) and the deposit") == (
        ("the booking details", ("guest name", "arrival date", "room type")),)
    assert records_in("the **hire slip** (tool code; customer no.) plus how many days") == (
        ("the hire slip", ("tool code", "customer no")),)


def test_a_parenthesis_of_one_part_glosses_its_part_and_is_no_record() -> None:
    assert records_in("the batch code (chalked on the tank), the style") == ()
    assert records_in("the order number and the store code") == ()


def test_the_record_is_read_from_the_sentence_that_says_what_the_run_is_given() -> None:
    lines = ["# Check-in", "", "You'll need to give it the booking details (guest name, arrival date) and the deposit.",
             "", "Later (much later, maybe) we add parking."]
    assert read_prose_records(lines, lambda n: f"f.md:{n}") == (("the booking details", ("guest name", "arrival date")),)


def test_a_record_is_named_by_its_words_without_the_word_for_a_holder() -> None:
    assert record_name("the booking details") == "booking"
    assert record_name("your hire slip") == "hire"
    assert record_name("the customer order") == "customer_order"
    assert record_name("the record") is None


def test_a_record_holds_the_names_its_parts_say_and_warns_how_it_read_them() -> None:
    reads = {"guest_name": "", "arrival_date": "", "room_type": "", "deposit": ""}
    parts = [("the booking details", "f.md:3"), ("the deposit", "f.md:3")]
    records = [("the booking details", ("guest name", "arrival date", "room type", "loyalty tier"))]
    made, taken, warned = record_inputs(parts, records, reads, (), (), "f.md")
    assert [(i.name, i.type, i.where) for i in made] == [("booking", "object", "f.md:3")]
    assert taken == {"guest_name": "booking", "arrival_date": "booking", "room_type": "booking"}
    assert len(warned) == 1 and warned[0].line == 3 and "'loyalty tier'" in warned[0].message


def test_no_record_when_its_parts_are_not_two_names_the_skills_read_or_the_part_is_a_name_itself() -> None:
    reads = {"guest_name": "", "route": ""}
    assert record_inputs([("the booking details", "f.md:3")], [("the booking details", ("guest name", "mood"))],
                         reads, (), (), "f.md")[0] == []
    assert record_inputs([("the route", "f.md:3")], [("the route", ("guest name", "north"))], reads, (), (),
                         "f.md")[0] == []


def test_a_step_names_the_record_by_its_words() -> None:
    assert says_record("tool code + customer no. (hire slip)", "the hire slip")
    assert says_record("take the guest name off the **booking details**", "the booking details")
    assert not says_record("book the details of the room", "the booking details")


class _Said:
    def __init__(self, name: str, body: str) -> None:
        self._bound, self.body, self.body_line, self.name = skill(name), body, 5, name
        self.skill_md = f"/skills/{name}/SKILL.md"

    def bound(self) -> object:
        return self._bound


_HIRE = """\
# Tool hire desk

What we need from whoever starts this: the **hire slip** (tool code, customer no., days) and the deposit.

## 1. Check the tool

`check-tool` with the tool code off the hire slip.

## 2. Take the deposit

`take-deposit` with the deposit, the customer no. and days (hire slip).
"""


def _plan(text: str) -> object:
    catalog = FakeCatalog()
    catalog._skills = {  # type: ignore[attr-defined]
        "check-tool": _Said("check-tool", "Inputs: `tool_code` (string).\n\nOutputs: `tool_code`, `ok` (bool)."),
        "take-deposit": _Said("take-deposit", "Inputs: `deposit` (number), `customer_id`, `days`, `tool_code`.\n\n"
                                              "Outputs: `receipt`."),
    }
    spec = parse_spec_text(text, "m.md", "markdown", Vocabulary.of([("check-tool", None), ("take-deposit", None)]))
    return build_plan(spec, catalog, settings=SETTINGS)  # type: ignore[arg-type]


def test_a_plan_takes_each_field_from_the_record_input() -> None:
    plan = _plan(_HIRE)
    assert [i.name for i in plan.inputs] == ["hire", "deposit"]  # type: ignore[attr-defined]
    first, second = plan.step("step-1"), plan.step("step-2")  # type: ignore[attr-defined]
    assert (first.inputs["tool_code"].name, first.inputs["tool_code"].pointer) == ("hire", "/tool_code")
    assert {n: (b.source, b.name, b.pointer) for n, b in second.inputs.items()} == {
        "deposit": ("input", "deposit", ""), "customer_id": ("input", "hire", "/customer_id"),
        "days": ("input", "hire", "/days"), "tool_code": ("input", "hire", "/tool_code")}
    warned = [w for w in plan.warnings if "is read as the workflow input `hire`" in w.message]  # type: ignore[attr-defined]
    assert [(w.line, w.code) for w in warned] == [(3, "plan.inputs-in-prose")]


def test_a_step_that_does_not_name_the_record_keeps_the_earlier_steps_copy() -> None:
    plan = _plan(_HIRE.replace("the customer no. and days (hire slip)", "the customer no. and days"))
    second = plan.step("step-2")  # type: ignore[attr-defined]
    assert (second.inputs["tool_code"].source, second.inputs["tool_code"].step) == ("step", "step-1")
