"""Two steps' outputs compared in an approval's condition said in words, and an output a skill says it
changes (`spec.approve39`); the "says there's a <thing>" reading hooked again (`spec.approve37`)."""

from __future__ import annotations

import pytest
from jinja2.sandbox import SandboxedEnvironment

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approve39 import compared, reworked
from orchestrator.spec.vocabulary import Vocabulary

_OUTPUTS = {
    "count-volunteers": frozenset({"volunteers", "names"}),  # a food-bank rota (a list)
    "load-rota": frozenset({"shifts", "rota"}),
    "price-order": frozenset({"order_total", "total", "lines"}),  # a purchase ticket
    "read-budget": frozenset({"budget_left"}),
    "count-samples": frozenset({"samples", "sample_count"}),  # a lab protocol
    "rack-slots": frozenset({"free_slots", "rack"}),
    "screen-sample": frozenset({"has_pathogen", "reads"}),
    "two-boxes": frozenset({"boxes", "crates"}),
}


def _words() -> Vocabulary:
    return Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))


def _holds(expression: str, **values: object) -> bool:
    return bool(SandboxedEnvironment().compile_expression(expression)(**values))


@pytest.mark.parametrize(("sentence", "op", "left", "right"), [
    ("If more volunteers turn up than the rota has shifts, the coordinator signs off first.", ">", "volunteers",
     "shifts"),
    ("When fewer samples arrived than the rack has free slots, the lab manager approves the run.", "<", "samples",
     "free_slots"),
    ("- if there are more boxes than shifts - the warehouse lead OKs it", ">", "boxes", "shifts"),
])
def test_more_or_fewer_of_one_output_than_another_is_read_as_their_counts(sentence: str, op: str, left: str,
                                                                          right: str) -> None:
    got = compared(sentence, _words())
    assert got is not None
    expression = got[0]
    assert f" {op} " in expression and left in expression and right in expression
    # a list is compared by its length, a number as it is
    assert _holds(expression, **{left: ["a", "b", "c"], right: 2}) is (op == ">")
    assert _holds(expression, **{left: 3, right: ["x", "y"]}) is (op == ">")


def test_a_value_said_to_exceed_another_is_read_as_greater_than() -> None:
    got = compared("If the order total exceeds the budget left, finance approves before it is placed.", _words())
    assert got is not None and got[0] == "order_total > budget_left"  # "order total" names `order_total`, not `total`


@pytest.mark.parametrize("sentence", [
    "If more people came than the hall has chairs, the caretaker approves.",  # no output names either side
    "If more volunteers turn up than expected, the coordinator signs off.",  # one side names no output
    "More volunteers turn up than the rota has shifts; the coordinator signs off.",  # no "if": no condition
    "If the order total exceeds 500, finance approves.",  # a number: another reader's
    "If more volunteers than volunteers turn up, the coordinator signs off.",  # one output both sides
])
def test_no_comparison_is_guessed_where_a_side_names_no_one_output(sentence: str) -> None:
    assert compared(sentence, _words()) is None


def test_nothing_is_read_without_the_skills_outputs() -> None:
    assert compared("If more volunteers turn up than the rota has shifts, the lead approves.", Vocabulary()) is None


ROTA = """# Saturday food bank

1. Count who is coming with `count-volunteers`.
2. Load the shifts with `load-rota`.
3. Publish the rota with `two-boxes`.
   - If more volunteers turn up than the rota has shifts, the coordinator must approve; wait up to 2 hours, then reject.
"""


def test_a_runbooks_approval_compares_the_two_outputs_and_warns_the_guess() -> None:
    spec = parse_spec_text(ROTA, "rota.md", "markdown", _words())
    approval = spec.steps[2].approval
    assert approval is not None and approval.when is not None and "volunteers" in approval.when
    assert "shifts" in approval.when and approval.timeout_s == 7200
    assert any("guess" in w.message and "volunteers" in w.message for w in spec.warnings)


def test_a_comparison_it_cannot_read_keeps_the_approval_on_every_run() -> None:
    spec = parse_spec_text(ROTA.replace("the rota has shifts", "last week"), "rota.md", "markdown", _words())
    approval = spec.steps[2].approval
    assert approval is not None and approval.when is None
    assert any("cannot be read" in w.message for w in spec.warnings)


LAB = """# Plate screening

1. Screen the plate with `screen-sample`.
2. Dispose with `rack-slots`.
   - If 1 says there's a pathogen on the plate, it waits for the biosafety officer to approve; wait up to 4 hours, then reject.
"""


def test_a_thing_said_to_be_there_is_read_again_on_its_yes_no_output() -> None:
    spec = parse_spec_text(LAB, "lab.md", "markdown", _words())
    approval = spec.steps[1].approval
    assert approval is not None and approval.when == "has_pathogen == true"
    assert any("has_pathogen == true" in w.message and "guess" in w.message for w in spec.warnings)


def test_a_thing_no_output_names_keeps_the_approval_on_every_run_warned() -> None:
    spec = parse_spec_text(LAB.replace("a pathogen", "a smudge"), "lab.md", "markdown", _words())
    approval = spec.steps[1].approval
    assert approval is not None and approval.when is None
    assert any("cannot be read" in w.message for w in spec.warnings)


@pytest.mark.parametrize("about", ["upper-cased", "normalised to E.164", "trimmed and lower-cased",
                                   "rounded to 2 dp", "canonical form"])
def test_an_output_said_to_be_changed_is_reworked(about: str) -> None:
    assert reworked(about)


@pytest.mark.parametrize("about", ["", "string", "int", "the same id, passed along", "list of {drug, qty}",
                                   "uppercase letters only"])
def test_an_output_said_only_by_its_type_or_as_passed_along_is_not_reworked(about: str) -> None:
    assert not reworked(about)
