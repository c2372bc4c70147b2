"""Round 54: a paragraph naming several skills read clause by clause, in words that are not holdout35 218's.

Two started at once (`spec.pair_sentence`), a later sentence with the half it shares words with, a state said at a
step's opening its condition and "if it's not ..." its other branch (`spec.state_said54`), "when both are back"
after both, a fallback "let `x` do it" and a timeout on what the step makes (`spec.handover54`), "hands back a
letter (not blank)" the run's check (`spec.success_back27`), the run's inputs in the author's words
(`spec.own_inputs54`, `plan.own_inputs54`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.pair_sentence import nearer_half
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.state_said54 import state_condition
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = (
    skill("stock-check", input_schema=obj(("sku",), sku="string"),
          output_schema=obj(("available", "shelf"), available="boolean", shelf="string")),
    skill("price-feed", input_schema=obj(("region",), region="string"), output_schema=obj(("price",), price="number")),
    skill("stock-ledger", input_schema=obj(("sku",), sku="string"),
          output_schema=obj(("available", "shelf"), available="boolean", shelf="string")),
    skill("pick-order", input_schema=obj(("shelf", "price"), shelf="string", price="number"),
          output_schema=obj(("note", "eta"), note="string", eta="string")),
    skill("back-order", input_schema=obj(("sku", "price"), sku="string", price="number"),
          output_schema=obj(("note", "eta"), note="string", eta="string")),
    skill("mail-buyer", input_schema=obj(("buyer", "note", "eta"), buyer="string", note="string", eta="string"),
          output_schema=obj(("email",), email="string")),
)
_WORDS = Vocabulary(skills=frozenset(s.name for s in _SKILLS)).with_outputs({
    "stock-check": frozenset({"available", "shelf"}), "price-feed": frozenset({"price"}),
    "stock-ledger": frozenset({"available", "shelf"}), "pick-order": frozenset({"note", "eta"}),
    "back-order": frozenset({"note", "eta"}), "mail-buyer": frozenset({"email"})}.__getitem__)

NOTE = """Order desk, Monday

Jo - you need three things off the web order: the buyer's email, the product sku and the region they'd like it sent to. That's all.

First it runs two jobs at the same time: stock-check looks the sku up in the warehouse system or the ledger file, and price-feed gets today's price for the region. The warehouse system crashes most Fridays - when it does, let stock-ledger take the lookup instead. The price one, if it errors try again twice.

Once both are back: if the item is available it goes to pick-order - that prints the picking slip. If it isn't available it goes to back-order instead, with the price from price-feed. If back-order errors don't retry it, just stop.

Either way it then does mail-buyer for the buyer's email, with the note and eta from whichever of those two ran. If the email hasn't come out within 30 seconds, kill it.

It's done when mail-buyer hands back an email (not empty).
"""


def _plan(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "note.txt"
    path.write_text(text, encoding="utf-8")
    spec = parse_spec(path, vocabulary=_WORDS)
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_paragraph_of_clauses_is_read_step_by_step(tmp_path: Path) -> None:
    _, plan = _plan(tmp_path, NOTE)
    assert [s.skill for s in plan.steps] == ["stock-check", "price-feed", "pick-order", "back-order", "mail-buyer"]
    deps = {s.id: sorted(s.depends_on) for s in plan.steps}
    assert deps["step-1"] == [] and deps["step-2"] == []  # two jobs at the same time
    assert deps["step-3"] == ["step-1", "step-2"]  # once both are back
    one, two, three, four, five = plan.steps
    assert one.policy.fallback is not None and one.policy.fallback.skill == "stock-ledger"
    assert two.policy.retry.max_retries == 2
    assert three.when is not None and "available == true" in three.when
    assert four.when is not None and four.when.startswith("not (")
    assert five.policy.attempt_timeout_s == 30.0


def test_the_run_s_inputs_are_named_as_the_author_says(tmp_path: Path) -> None:
    _, plan = _plan(tmp_path, NOTE)
    assert [i.name for i in plan.inputs] == ["buyer_email", "product_sku", "wanted_region"]
    assert plan.step("step-1").inputs["sku"].name == "product_sku"
    assert plan.step("step-2").inputs["region"].name == "wanted_region"


@pytest.mark.parametrize(("words", "field", "negated"), [
    ("When both are done: if the parcel IS damaged it goes to `x`", "damaged", False),
    ("if it's not signed it goes to `y` instead", "signed", True),
    ("and if the invoice isn't paid, `chase-it` ...", "paid", True),
    ("If they are approved then `z` runs", "approved", False),
])
def test_a_state_at_a_step_s_opening_is_its_condition(words: str, field: str, negated: bool) -> None:
    got = state_condition(words)
    assert got is not None and (got.field, got.negated) == (field, negated)


@pytest.mark.parametrize("words", [
    "if the site is down use `x`",  # a failure, the recovery's
    "if it's over 40 kg it goes to `y`",  # a comparison, the comparison reader's
    "if the van is there, `z`",  # no state
    "Run `x` if the box is sealed",  # not at the opening
])
def test_what_is_no_state_at_the_opening_is_not_read_so(words: str) -> None:
    assert state_condition(words) is None


def test_a_sentence_after_a_pair_goes_with_the_half_it_shares_words_with() -> None:
    first, second = "`a` checks the warehouse system for the sku", "`b` gets today's price"
    assert nearer_half("The warehouse system crashes on Fridays.", first, second) == 0
    assert nearer_half("The price one, retry it.", first, second) == 1
    assert nearer_half("Be quick about it.", first, second) is None


@pytest.mark.parametrize(("text", "skill"), [
    ("The ledger box falls over a lot - when it does, let stock-ledger do the lookup instead.", "stock-ledger"),
    ("If the scanner jams, let `stock-ledger` handle it.", "stock-ledger"),
])
def test_let_a_skill_do_it_after_a_failure_is_the_fallback(text: str, skill: str) -> None:
    got = read_phrase(text, frozenset({"stock-ledger"})).statement.on_failure
    assert got is not None and got.kind == "use_skill" and got.skill == skill


def test_let_a_skill_do_it_with_no_failure_is_no_fallback() -> None:
    assert read_phrase("Let stock-ledger do the lookup.", frozenset({"stock-ledger"})).statement.on_failure is None


@pytest.mark.parametrize(("text", "seconds"), [
    ("If the slip hasn't printed within 45 seconds, abort.", 45.0),
    ("If the report hasn't come through inside two minutes, pull the plug.", 120.0),
])
def test_a_thing_made_not_there_in_time_is_the_attempt_s_limit(text: str, seconds: float) -> None:
    assert read_phrase(text, frozenset()).statement.timeout_s == seconds


def test_a_thing_made_not_there_with_no_kill_is_no_limit() -> None:
    assert read_phrase("If the slip hasn't printed within 45 seconds, tell Jo.", frozenset()).statement.timeout_s is None


def test_hands_back_a_thing_not_blank_is_the_run_s_check(tmp_path: Path) -> None:
    spec, _ = _plan(tmp_path, NOTE)
    assert any("email is not empty" in str(c) for c in spec.contracts)
