"""Some of a thing the step a condition names gives (`plan.any_owned50`): "the audit has any rejections" is
the audit step's `rejected_count > 0`, "the scan report has no warnings" its `warn_count == 0`, a list alone
filled or empty. Near misses: no step named, a root no field shares, a word that only starts alike, two
steps named."""

from __future__ import annotations

from types import SimpleNamespace

from orchestrator.plan.any_owned50 import owned_any
from orchestrator.plan.conditions import compile_text
from orchestrator.plan.meaning import Value, meant_values


def _v(sid: str, name: str, skill: str, title: str) -> Value:
    return Value(name, f"steps['{sid}'].output.{name}", f"{sid}'s output ({skill})", f"{skill} {title}",
                 (skill, title))


_VALUES = [
    _v("step-1", "rejected", "audit-claims", "Claims audit"),
    _v("step-1", "rejected_count", "audit-claims", "Claims audit"),
    _v("step-2", "warn_count", "scan-site", "Scan report"),
    _v("step-2", "errored", "scan-site", "Scan report"),
    _v("step-3", "failover_hosts", "plan-failover", "Failover plan"),
]


def test_any_of_a_thing_the_named_step_counts_is_its_count_above_zero() -> None:  # an insurer's claims desk
    found = owned_any(("rejections",), True, "the claims audit has any rejections", _VALUES)
    assert found is not None and found.expression == "steps['step-1'].output.rejected_count > 0"
    assert "step-1" in found.note


def test_none_of_it_is_the_count_at_zero_and_a_list_alone_is_filled_or_empty() -> None:  # a web team's scan
    found = owned_any(("warnings",), False, "the scan report has no warnings", _VALUES)
    assert found is not None and found.expression == "steps['step-2'].output.warn_count == 0"
    found = owned_any(("errors",), True, "the scan report found any errors", _VALUES)
    assert found is not None and found.expression == "steps['step-2'].output.errored"


def test_no_step_named_a_root_no_field_shares_or_one_that_only_starts_alike_is_not_read() -> None:
    assert owned_any(("rejections",), True, "there are any rejections", _VALUES) is None  # no step named
    assert owned_any(("delays",), True, "the claims audit has any delays", _VALUES) is None
    assert owned_any(("failures",), True, "the failover plan has any failures", _VALUES) is None  # fail- / failover


def test_a_condition_in_words_compiles_to_the_named_step_s_count() -> None:  # a plan's `meaning` reads it so
    steps = [SimpleNamespace(id="step-1", name="Claims audit"), SimpleNamespace(id="step-2", name="Pay out")]
    produced = {"step-1": SimpleNamespace(fields={"rejected", "rejected_count"}),
                "step-2": SimpleNamespace(fields={"paid"})}
    bound = {"step-1": SimpleNamespace(name="audit-claims"), "step-2": SimpleNamespace(name="pay-claims")}
    meaning = meant_values(["step-2", "step-1"], [], produced, bound, SimpleNamespace(steps=steps))
    compiled = compile_text("the claims audit found any rejections", lambda name, step: None, lambda v: [],
                            ["step-1", "step-2"], None, meaning)
    assert compiled.expression == "steps['step-1'].output.rejected_count > 0"
    assert compiled.guessed and "step-1" in compiled.guessed[0]
