"""What the eighth and ninth holdouts say of the whole run, through the real `skillweave plan`: the
run's success check (checked on a step's output, or warned at its line: never silent), the whole
run's limit (the plan's wall time, cited at its line) and approvals said in prose (the step's gate
with its condition, wait and outcome). Each expect.yaml line of those kinds is a case; what is not
read as meant yet is listed with its reason, and a listed case that starts passing must leave it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    checked_schema,
    expectation,
    final_output,
    line_of,
    plan_json,
    run_to_the_end,
)

pytestmark = pytest.mark.e2e

CORPORA = (FIXTURES / "foreign-specs-holdout8", FIXTURES / "foreign-specs-holdout9")

# (folder, kind, line) -> why it is not in the plan as its author meant yet (warned at its line all the same)
KNOWN: dict[tuple[str, str, int], str] = {
    ("52-invoice-docstring", "success", 50): "compares two outputs (`count` with `row_count` of step 1): a check is "
                                             "one output field against a value written in the spec",
    ("58-release-notes", "success", 44): "the step's `**Check:**` field compares `entry` with a workflow input "
                                         "(`## v<version>`): no check reader compares two values (see SILENT)",
    ("54-vuln-sweep-rfc", "success", 77): "compares two outputs (`packages_scanned` with step 1's `count`)",
    ("56-survey-voice-memo", "success", 29): "a check in words ('mentions the team name'): no comparison to read",
    ("59-nodepool-rightsizing", "success", 61): "the YAML key `success_when` is not one of the success keys "
                                                "(spec/yaml_keys.py, YAML key meanings)",
    ("60-bench-triage-algorithm", "limit", 9): "read right (300 s) by the reader of the whole algorithm block, which "
                                               "cites the block's first line (5), not line 9",
}


def _cases() -> list[tuple[Path, str, int, Any]]:
    out: list[tuple[Path, str, int, Any]] = []
    for corpus in CORPORA:
        for folder in sorted(p for p in corpus.iterdir() if (p / "expect.yaml").is_file()):
            meant = expectation(folder)
            for w in meant.get("workflow_policies") or []:
                if "timeout_s" in (w.get("meaning") or {}):
                    out.append((folder, "limit", int(w["line"]), w["meaning"]["timeout_s"]))
            sc = meant.get("success_criteria")
            for s in [sc] if isinstance(sc, dict) else sc or []:
                out.append((folder, "success", int(s["line"]), s.get("meaning")))
            lines = meant.get("approval_lines")
            for step in meant.get("steps") or []:
                if step.get("approval"):
                    said = step.get("approval_lines") or lines or {}
                    line = said.get("line", 0) if isinstance(said, dict) else 0
                    out.append((folder, "approval", int(line or 0), (step["number"], step["approval"])))
    return out


CASES = _cases()
_PLANS: dict[Path, dict[str, Any] | None] = {}


def _plan(folder: Path) -> dict[str, Any] | None:
    if folder not in _PLANS:
        try:
            _PLANS[folder] = plan_json(folder / expectation(folder)["spec"])
        except AssertionError:
            _PLANS[folder] = None  # refused: the plan case says why
    return _PLANS[folder]


def _in_plan(folder: Path, kind: str, line: int, meaning: Any) -> bool:
    plan = _plan(folder)
    if plan is None:
        return False
    if kind == "limit":
        where = plan["limits_provenance"]["wall_time_s"].get("where")
        return bool(plan["limits"]["wall_time_s"] == meaning and where and line_of(where) in (line, line - 1))
    if kind == "success":
        return any("const" in str(checked_schema(plan, s)) or "pattern" in str(checked_schema(plan, s))
                   for s in plan["steps"]) and any(w.get("line") == line and w["code"] == "spec.success"
                                                    and "is read as the run's success check" in w["message"]
                                                    for w in plan["warnings"])
    _number, approval = meaning  # the step number shifts where a step is invented (not this area)
    gates = [s["policy"]["approval"] for s in plan["steps"] if s["policy"].get("approval")]
    return any(g.get("timeout_s") == approval.get("timeout_s", g.get("timeout_s")) and
               g.get("on_timeout") == approval.get("on_timeout", g.get("on_timeout")) for g in gates) if isinstance(
        approval, dict) else bool(gates)


@pytest.mark.parametrize(("folder", "kind", "line", "meaning"), CASES,
                         ids=[f"{f.name[:2]}-{k}-{n}" for f, k, n, _ in CASES])
def test_what_a_holdout_says_of_the_whole_run_is_in_the_plan_as_meant(folder: Path, kind: str, line: int,
                                                                      meaning: Any) -> None:
    why = KNOWN.get((folder.name, kind, line)) or KNOWN.get((folder.name, "plan", 0))
    if why is None and kind == "approval":
        why = KNOWN.get((folder.name, "approval", 0))
    found = _in_plan(folder, kind, line, meaning)
    if why is None:
        assert found, f"{folder.name}:{line} ({kind}) is not in the plan as meant: {meaning}"
    else:
        assert not found, f"{folder.name}:{line} ({kind}) is read as meant now: remove it from KNOWN ({why})"


@pytest.mark.parametrize(("folder", "kind", "line", "meaning"), [c for c in CASES if c[1] == "success"],
                         ids=[f"{f.name[:2]}-{n}" for f, k, n, _ in CASES if k == "success"])
def test_a_holdouts_success_check_is_never_dropped_silently(folder: Path, kind: str, line: int, meaning: Any) -> None:
    plan = _plan(folder)
    if plan is None:
        pytest.skip(KNOWN.get((folder.name, "plan", 0), "refused"))
    if (folder.name, line) in SILENT:
        pytest.xfail(SILENT[(folder.name, line)])
    warned = any(w.get("line") == line and "success" in w["message"] for w in plan["warnings"])
    assert warned or _checked(plan, str(meaning)), (
        f"{folder.name}:{line}: the success check is neither read nor warned at its line")


# (folder, line) -> why its success check is still dropped without a word (a strict xfail would not fit:
# the test is skipped, not failed, where the spec is refused)
SILENT: dict[tuple[str, int], str] = {}


def _checked(plan: dict[str, Any], meaning: str) -> bool:
    """A check on an output field the author's meaning names (`const` or `pattern` in its contract): a YAML
    `success_when:` key is read into the step's contract as such, with no warning needed."""
    return any(isinstance(p, dict) and ("const" in p or "pattern" in p) and re.search(rf"\b{re.escape(n)}\b", meaning)
               for s in plan["steps"] for n, p in (checked_schema(plan, s).get("properties") or {}).items())


def test_the_mrr_report_whose_list_to_go_on_with_refused_it_runs_to_its_authors_final_output(tmp_path: Path) -> None:
    # 57 was refused: "keep going with an empty at-risk list (`[]`)" gave a whole output that broke the
    # contract; it is the output's one list field now, and the run's check (`ok: true`) holds
    folder = FIXTURES / "foreign-specs-holdout9" / "57-weekly-mrr-report"
    expected = expectation(folder)
    result = run_to_the_end(folder / expected["spec"], expected["inputs"], tmp_path)
    assert final_output(result) == expected["final_output"]
