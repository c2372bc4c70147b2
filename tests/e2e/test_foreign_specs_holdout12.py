"""The twelfth holdout (tests/fixtures/foreign-specs-holdout12, specs 75-80) through the real `skillweave`.
Blind at d2c0eb4 and again at c74ed1e (BLIND-RESULTS-*.md): 7 of 27 steps fully right, 1 of 8 runs at its
final output; round 14 tuned on this set, so it is tuning data now.

- each spec validates;
- each thing its expect.yaml says of each step (skill, dependencies, join, for each, condition,
  approval, each input's source) and each policy line is in the plan of the step that runs the
  author's skill; the whole run's limit and success check are read as meant;
- no line that carries a policy, a condition, an approval, a limit or a success check is dropped
  without a word: it is read as meant, or a warning at its line says how it was read;
- each run that can reach its author's final output (the plan takes the author's inputs) ends with
  it, with an honest status; the runs that cannot yet are not made but their blocker is asserted,
  so one that clears must be run.

What is not so yet is listed with its reason (KNOWN, KNOWN_POLICY, KNOWN_WHOLE, SILENT as strict xfails;
NOT_RUN with its blocker): one that starts passing must leave its list. Helpers: holdout12_kit.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from foreign_kit import (
    RunReports,
    assert_ends_as_meant,
    assert_validates,
    policy_line_cases,
    policy_misses,
    run_inputs,
    run_wanted,
)
from holdout12_kit import (
    BREW,
    FOLDERS,
    HOLDOUT,
    LOAN,
    PERMIT,
    WARD,
    Plans,
    aspects,
    expect,
    line_items,
    misread,
    read_as_meant,
    spec_of,
    step_of,
    warned_at,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def plans() -> Plans:
    """One plan per spec for the module, made on first use."""
    return Plans()


_LOAN_RECORD = ("the '**Working from:**' field is not read (warned 'label working from not understood', line {}) and "
                "of the prose input list (line 5) 'the loan record' matches no input a skill reads (warned there), so ")
_LOAN_FIELD = _LOAN_RECORD + "`{}` is a workflow input of its own derived from the skill (warned at line 10), not the " \
    "loan record's field"
_LOAN_ANCHORED = ("`object_id` is both a derived workflow input and step-1's echoed output: bound to step-1's output "
                  "(warned 'ambiguous-input' at the step's line), not the loan record's field")
_NO_GATE = ("the approval is kept but its condition is not: the step waits for a person on every run ({}, warned "
            "'spec.approval-condition' at line {})")
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    (LOAN, 1, "input object_id"): _LOAN_FIELD.format(13, "object_id"),
    (LOAN, 1, "input notes"): _LOAN_RECORD.format(13) + "`notes` is a workflow input read from 'the courier's "
                                                        "condition notes' (warned at line 5), not `condition_notes`",
    (LOAN, 2, "input declared_value"): _LOAN_FIELD.format(21, "declared_value"),
    (LOAN, 2, "input currency"): _LOAN_FIELD.format(21, "currency"),
    (LOAN, 3, "input object_id"): _LOAN_ANCHORED,
    (LOAN, 3, "input lender"): _LOAN_RECORD.format(29) + "nothing gives `lender` (warned 'plan.input-not-given' at line "
                                                         "26)",
    (LOAN, 4, "input object_id"): _LOAN_ANCHORED,
    (LOAN, 4, "input title"): _LOAN_RECORD.format(38) + "nothing gives `title` (warned 'plan.input-not-given' at line "
                                                        "35)",
    (WARD, 3, "approval"): _NO_GATE.format("'If 1 says there's a controlled drug on the list' is not read as "
                                           "has_controlled", 33),
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
    (WARD, 12, 0): "the later message's 'the ward message: if it hasn't gone in 30 seconds treat it as failed' names "
                   "no step by its skill, so it is not read (warned 'spec.unread' at line 12)",
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (BREW, "success", 14): "'We're done when the brewsheet line is written (logged comes back true)' is not tied to "
                           "log-brewsheet's `logged` (warned at line 14: not a comparison of an output field)",
    (PERMIT, "success", 34): "the comment 'Finished = letter.json has letter_sent true' and its check `jq -e "
                             "'.letter_sent == true' letter.json` (line 35) are not read as the run's success check",
}
# (folder, line) -> why what the line says is neither read as meant nor warned at that line
SILENT: dict[tuple[str, int], str] = {
    (PERMIT, 34): "the success check (comment line 34, `jq -e` line 35) is neither read nor warned at either line",
}


def _param(case: tuple[Any, ...], why: str | None, name: str) -> Any:
    return pytest.param(*case, marks=[pytest.mark.xfail(reason=why, strict=True)] if why else [], id=name)


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_holdout12_spec_validates(folder: str) -> None:
    assert_validates(spec_of(folder))


@pytest.mark.parametrize(("folder", "number", "aspect"), [
    _param((f, n, a), KNOWN.get((f, n, a)), f"{f[:2]}-step{n}-{a.replace(' ', '-')}") for f in FOLDERS
    for n, a in aspects(f)])
def test_a_holdout12_step_is_planned_as_its_author_meant(plans: Plans, folder: str, number: int, aspect: str) -> None:
    assert misread(plans[folder], folder, number, aspect) is None


@pytest.mark.parametrize(("folder", "number", "line", "meaning"), policy_line_cases(HOLDOUT, FOLDERS, KNOWN_POLICY))
def test_a_holdout12_policy_line_is_on_its_step_as_its_author_meant(plans: Plans, folder: str, number: int, line: int,
                                                                    meaning: dict[str, Any]) -> None:
    step = step_of(plans[folder], folder, number)
    assert policy_misses(step["policy"], meaning) == [], (step["id"], step["policy"])


@pytest.mark.parametrize(("folder", "kind", "line"), [
    _param((f, k, n), KNOWN_WHOLE.get((f, k, n)), f"{f[:2]}-{k}-l{n}") for f in FOLDERS
    for k, n, _s, _i in line_items(f) if k in ("limit", "success")])
def test_a_holdout12_whole_run_limit_or_success_check_is_read_as_meant(plans: Plans, folder: str, kind: str,
                                                                       line: int) -> None:
    assert read_as_meant(plans[folder], folder, kind, line, 0, 0)


@pytest.mark.parametrize(("folder", "kind", "line", "number", "nth"), [
    _param((f, k, n, s, i), SILENT.get((f, n)), f"{f[:2]}-l{n}-{k}" + (f"-{i}" if i else "")) for f in FOLDERS
    for k, n, s, i in line_items(f)])
def test_no_holdout12_policy_condition_approval_or_check_line_is_dropped_silently(
        plans: Plans, folder: str, kind: str, line: int, number: int, nth: int) -> None:
    plan = plans[folder]
    assert read_as_meant(plan, folder, kind, line, number, nth) or warned_at(plan, folder, line), (
        f"{folder}:{line} ({kind}) is neither read as meant nor warned at its line")


def _inputs(folder: str, n: int) -> dict[str, Any]:
    return run_inputs(expect(folder), n)


def _wanted(folder: str, n: int) -> Any:
    return run_wanted(expect(folder), n)


def _refused_inputs(plan: dict[str, Any], folder: str, n: int) -> bool:
    return not set(_inputs(folder, n)) <= {i["name"] for i in plan["inputs"]}


# (folder, run: 0 the author's inputs, n the n-th of more_runs) -> (what stops it reaching the author's
# output, asserted on the plan, and why); these runs are not made
_INPUTS_REFUSED = "the plan does not take the author's inputs ('unknown input'): "
NOT_RUN: dict[tuple[str, int], tuple[Callable[[dict[str, Any], str, int], bool], str]] = {
    (LOAN, 0): (_refused_inputs, _INPUTS_REFUSED + "`loan` and `condition_notes` (lines 5-6) are not inputs; the "
                                                   "plan takes their fields under names of its own"),
    (WARD, 0): (lambda plan, f, _n: misread(plan, f, 3, "approval") is not None,
                "step-3 (raise-wholesaler-order) asks for the duty pharmacist's approval on every run (its condition, "
                "a controlled drug short, is not read), so the run pauses although no controlled drug is short; the "
                "author expects no approval here, so approving it would not be their run"),
}
# runs whose author says they did not succeed although they reach their final output
NOT_A_SUCCESS: dict[tuple[str, int], str] = {}
RUN_CASES = [(f, n) for f in FOLDERS for n in range(1 + len(expect(f).get("more_runs") or []))]


@pytest.mark.parametrize(("folder", "n"), [c for c in RUN_CASES if c in NOT_RUN],
                         ids=[f"{f[:2]}-run{n}" for f, n in RUN_CASES if (f, n) in NOT_RUN])
def test_a_holdout12_run_not_made_is_still_blocked_by_its_reason(plans: Plans, folder: str, n: int) -> None:
    blocked, why = NOT_RUN[(folder, n)]
    assert blocked(plans[folder], folder, n), f"cleared: run it (remove it from NOT_RUN): {why}"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, int], dict[str, Any]]:
    """`skillweave run --json` of a run case, made once for the module."""
    return RunReports(tmp_path_factory.mktemp("holdout12-runs"), spec_of, expect)


RUNS_MADE = [c for c in RUN_CASES if c not in NOT_RUN]


@pytest.mark.parametrize(("folder", "n"), RUNS_MADE, ids=[f"{f[:2]}-run{n}" for f, n in RUNS_MADE])
def test_a_holdout12_run_ends_with_its_authors_final_output_and_an_honest_status(
        runs: Callable[[str, int], dict[str, Any]], folder: str, n: int) -> None:
    report = runs(folder, n)
    assert_ends_as_meant(report, _wanted(folder, n), NOT_A_SUCCESS.get((folder, n)))
