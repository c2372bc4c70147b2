"""Round 54: a success check comparing a true/false output with 1/0, yes/no, Y/N (`plan.truth_checks54`)."""

from __future__ import annotations

from orchestrator.kinds import BoundSkill
from orchestrator.plan.model import RunCheck
from orchestrator.plan.truth_checks54 import field_kind, truth_checks
from orchestrator.plan.wanted import Instructions, Named
from orchestrator.spec.model import ContractSpec


def _skill(name: str, output_schema: dict[str, object] | None = None) -> BoundSkill:
    return BoundSkill(name=name, kind="script", path=f"/s/{name}", origin="spec", sha256="0" * 64,
                      output_schema=output_schema)


POST = _skill("post-ledger", {"type": "object", "properties": {"posted": {"type": "boolean"}}})
PAY = _skill("pay-invoice")  # its kind said in its instructions only
COUNT = _skill("count-rows", {"type": "object", "properties": {"ok": {"type": "integer"}}})
SAID = {"pay-invoice": Instructions(outputs=(Named(name="paid", where="SKILL.md:5", about="true or false"),
                                             Named(name="note", where="SKILL.md:5", about="text")))}


def _check(step: str, field: str, value: object, written: str) -> RunCheck:
    return RunCheck(step=step, schema={"properties": {field: {"const": value}}, "required": [field]}, written=written,
                    text=written, where="spec.md:3")


def test_the_kind_of_a_field_from_its_schema_or_its_instructions() -> None:
    assert field_kind("posted", POST, {}) == "boolean"
    assert field_kind("paid", PAY, SAID) == "boolean"
    assert field_kind("note", PAY, SAID) == "other"
    assert field_kind("ok", COUNT, {}) == "other"
    assert field_kind("done", _skill("x"), {}) is None


def test_a_yes_no_value_on_a_boolean_field_is_its_truth() -> None:
    bound = {"post": POST, "pay": PAY}
    _, checks = truth_checks([], [_check("post", "posted", "Y", "posted == Y"), _check("pay", "paid", "no", "paid == no")],
                             bound, SAID)
    assert checks[0].schema_["properties"]["posted"] == {"const": True}
    assert checks[0].written.startswith("posted == true (post-ledger: `posted` is true/false: Y read as true")
    assert checks[1].schema_["properties"]["paid"] == {"const": False}
    # a step's own check (a contract keyed by the field) the same way
    contracts, _ = truth_checks([ContractSpec(producer="pay", consumer=None, constraints={"paid": {"const": 1}},
                                              validation=("paid == 1",), where="spec.md:9")], [], bound, SAID)
    assert contracts[0].constraints["paid"] == {"const": True}


def test_a_field_of_unknown_kind_passes_the_value_and_its_truth() -> None:
    _, checks = truth_checks([], [_check("x", "done", 1, "done == 1")], {"x": _skill("x")}, {})
    assert checks[0].schema_["properties"]["done"] == {"enum": [1, True]}
    assert "both pass" in checks[0].written


def test_near_misses_are_left_as_written() -> None:
    # an integer field compared with 1; a boolean field compared with a value no truth word spells
    _, checks = truth_checks([], [_check("c", "ok", 1, "ok == 1"), _check("post", "posted", "maybe", "posted == maybe")],
                             {"c": COUNT, "post": POST}, {})
    assert checks[0].schema_["properties"]["ok"] == {"const": 1} and checks[0].written == "ok == 1"
    assert checks[1].schema_["properties"]["posted"] == {"const": "maybe"}
