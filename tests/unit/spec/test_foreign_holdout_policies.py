"""The holdout specs' policy lines (tests/fixtures/foreign-specs-holdout), judged as the visible ones are.

The same whole-spec check as test_foreign_policies.py (its functions, pointed at the
holdout folders): each policy line of each `expect.yaml` is in the plan as its author
meant, or is a documented miss with the warning at its line; no line is dropped
silently; no sentence the author did not list becomes a policy. A spec whose steps
are not read yet is in NOT_READ with its reason; a miss that is fixed must leave MISSES.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_foreign_policies import (
    _expect,
    _policies,
    anchors,
    compiled,
    dropped_lines,
    in_plan,
    sentence_lines,
)

from orchestrator.errors import SpecError

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "foreign-specs-holdout"
SPECS = sorted(p for p in ROOT.iterdir() if (p / "expect.yaml").is_file())

# folder -> why its steps are not read on this branch (the reader that owns the fix)
NOT_READ: dict[str, str] = {
    "12-order-fulfilment": "'## Part N' step headings: the markdown step discovery (reader-structure)",
    "13-log-anomaly": "a numbered step list directly under the title: the markdown step discovery (reader-structure)",
    "15-text-cleanup": "runbook paragraphs under '## How to run it': the markdown step discovery (reader-structure)",
}

# (folder, line) -> why the plan differs from the author there, and the warning code at that line
MISSES: dict[tuple[str, int], tuple[str, str]] = {
    ("11-expense-claim", 21): (
        "'that's a user error, no point retrying that' names the failure class only as 'user error' and the "
        "refusal to retry as 'no point retrying': the phrase grammar reads neither (the policy reader's tables)",
        "spec.policy-unread"),
    ("14-ui-translation", 21): (
        "'regenerate the step 2 script (1 attempt) and check again' regenerates another step's script: the "
        "phrase grammar has no row for it (the policy reader's tables)", "spec.policy-partial"),
    ("14-ui-translation", 22): (
        "'if it fails a second time, stop the run' continues the sentence of line 21, which is cited there",
        "spec.policy-partial"),
    ("14-ui-translation", 33): (
        "'Retry budget for the whole run: 3 min' is a budget for all retries together; it is read as the run's "
        "wall time (the policy reader's tables)", "spec.policy-partial"),
}

READ = [f for f in SPECS if f.name not in NOT_READ]
CASES = [(folder, owner, p) for folder in READ for owner, p in _policies(folder)]


def test_a_holdout_spec_not_read_yet_still_fails_and_says_why() -> None:
    for folder in SPECS:
        if folder.name in NOT_READ:
            assert NOT_READ[folder.name]
            with pytest.raises(SpecError):
                compiled(folder)


@pytest.mark.parametrize(("folder", "owner", "policy"), CASES,
                         ids=[f"{f.name[:2]}-{o or 'wf'}-{p['line']}" for f, o, p in CASES])
def test_each_holdout_policy_line_is_in_the_plan_as_its_author_meant(
        folder: Path, owner: int | None, policy: dict[str, Any]) -> None:
    ok, shown = in_plan(folder, owner, policy)
    miss = MISSES.get((folder.name, int(policy["line"])))
    if miss is None:
        assert ok, f"{folder.name}:{policy['line']} {policy['text']!r}\n got  {shown}"
    else:
        assert not ok, f"{folder.name}:{policy['line']} is read as meant now: remove it from MISSES"


@pytest.mark.parametrize("key", sorted(MISSES), ids=[f"{k[0][:2]}-{k[1]}" for k in sorted(MISSES)])
def test_a_documented_holdout_miss_is_warned_at_its_line(key: tuple[str, int]) -> None:
    _, code = MISSES[key]
    _, warnings = compiled(ROOT / key[0])
    lines = anchors(ROOT / key[0], key[1], "") | {key[1] - 1}  # a sentence continued from the line before
    assert code in {w.code for w in warnings if w.line in lines}, key


@pytest.mark.parametrize("folder", READ, ids=[f.name for f in READ])
def test_no_line_of_a_holdout_spec_is_dropped_silently(folder: Path) -> None:
    assert dropped_lines(folder) == [], f"{folder.name}: lines neither in the plan nor warned"


@pytest.mark.parametrize("folder", READ, ids=[f.name for f in READ])
def test_a_holdout_sentence_read_as_policy_is_one_its_author_wrote(folder: Path) -> None:
    meant = {ln for _, p in _policies(folder) for ln in anchors(folder, int(p["line"]), str(p["text"]))} | {
        int(s["approval_lines"]["line"]) for s in _expect(folder)["steps"] if s.get("approval_lines")}
    assert sorted(set(sentence_lines(folder)) - meant) == [], folder.name
