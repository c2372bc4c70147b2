"""The sixth holdout (tests/fixtures/foreign-specs-holdout6) through the real `skillweave`: what the
policy reader owns. Blind at 41f3e1f all six specs were refused; 41 (the lab SOP) validates since, and
before the sixth reader round 1 of its 7 policy lines was read as meant (l.28's 5 s per well), one was
read without its value and no warning (l.28's `conc = null`), and five were warned as not understood.

Each policy line of each spec's expect.yaml is compared with the plan: the step's own policy or one of
its rules holds what the author meant, cited at the line. The lines not read as meant yet are listed
in `KNOWN` with why, as strict xfails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    assert_validates,
    expectation,
    final_output,
    folders_of,
    plan_json,
    run,
)

HOLDOUT = FIXTURES / "foreign-specs-holdout6"
FOLDERS = folders_of(HOLDOUT)
SOP = "41-elisa-lab-protocol"
# (folder, line) -> why that policy line is not read as meant yet; strict: a line that starts passing
# must leave this list (39, 40, 42 and 44 were refused here before the anchored reading, spec/anchored.py)
KNOWN: dict[tuple[str, int], str] = {
    ("40-license-audit-wiki", 25): "'mark that one package `review` and keep going' names no output field for "
                                   "the value: warned at its line, not read as a continue-with value",
    **{("43-revenue-recon-cronjob", line): "read as meant (test_foreign_specs_holdout6_yaml.py), but a `restart:` "
                                           "block is cited at its own line, one above its key" for line in (37, 53, 80)},
}


def _lines() -> list[Any]:
    cases = []
    for folder in FOLDERS:
        for step in expectation(HOLDOUT / folder)["steps"]:
            for policy in step["policies"]:
                case = (folder, step["number"], policy["line"], policy["meaning"])
                known = KNOWN.get((folder, policy["line"]))
                marks = [pytest.mark.xfail(reason=known, strict=True)] if known else []
                cases.append(pytest.param(*case, marks=marks, id=f"{folder[:2]}-step{step['number']}-l{policy['line']}"))
    return cases


_PLANS: dict[str, dict[str, Any]] = {}


def _plan(folder: str) -> dict[str, Any]:
    if folder not in _PLANS:
        _PLANS[folder] = plan_json(HOLDOUT / folder / expectation(HOLDOUT / folder)["spec"])
    return _PLANS[folder]


def _holds(policy: dict[str, Any], meaning: dict[str, Any]) -> list[str]:
    """What of `meaning` the step's policy (its own fields, or one rule of it) does not hold."""
    places = [policy, *policy["rules"]]
    missing = []
    if "timeout_s" in meaning and not any(p.get("attempt_timeout_s") == meaning["timeout_s"] for p in places):
        missing.append("timeout_s")
    retries = 0 if meaning.get("no_retry") else meaning.get("retries")
    if retries is not None and not any((p.get("retry") or {}).get("max_retries") == retries for p in places):
        missing.append("retries")
    if meaning.get("no_retry") and any((r.get("retry") or {}).get("max_retries") for r in policy["rules"]):
        missing.append("no_retry (a rule retries)")
    wait = meaning.get("wait") or {}
    if wait.get("kind") in ("list", "fixed"):
        seconds = [float(s) for s in (wait["seconds"] if wait["kind"] == "list" else [wait["seconds"]])]
        if not any((p.get("retry") or {}).get("delays_s") == seconds for p in places):
            missing.append("wait")
    fallbacks = [p["fallback"] for p in places if p.get("fallback")]
    kind = (meaning.get("on_failure") or {}).get("kind")
    if "continue_with_value" in meaning:
        if not any(f["action"] == "default" and f["value"] == meaning["continue_with_value"] for f in fallbacks):
            missing.append("continue_with_value")
    elif kind == "fallback":
        if not any(f["action"] == "skill" and f["skill"] == meaning["on_failure"]["skill"] for f in fallbacks):
            missing.append("fallback skill")
    elif kind in ("fail", "continue") and not any(f["action"] == kind for f in fallbacks):
        missing.append(f"on_failure {kind}")
    return missing


@pytest.mark.parametrize(("folder", "number", "line", "meaning"), _lines())
def test_a_sixth_holdout_policy_line_is_on_its_step_as_its_author_meant(folder: str, number: int, line: int,
                                                                         meaning: dict[str, Any]) -> None:
    plan = _plan(folder)
    step = plan["steps"][number - 1]
    assert _holds(step["policy"], meaning) == [], (step["id"], step["policy"])
    cited = {v["where"].rpartition(":")[2] for k, v in step["provenance"].items()
             if k.startswith("policy") and v.get("where")}
    assert str(line) in cited, (line, cited)


def test_the_lab_sop_s_whole_run_limit_is_the_plan_s_wall_time_cited_at_its_line() -> None:
    meant = expectation(HOLDOUT / SOP)["workflow_policies"][0]
    plan = _plan(SOP)
    assert plan["limits"]["wall_time_s"] == meant["meaning"]["timeout_s"]
    assert plan["limits_provenance"]["wall_time_s"]["where"].endswith(f":{meant['line']}")


def test_the_lab_sop_validates_and_no_policy_line_is_left_warned() -> None:
    spec = HOLDOUT / SOP / "spec.md"
    assert_validates(spec)
    report = json.loads(run("validate", str(spec), "--json").stdout)
    lines = {p["line"] for s in expectation(HOLDOUT / SOP)["steps"] for p in s["policies"]}
    policy_codes = {"spec.policy-unread", "spec.policy-partial", "spec.condition-not-read"}
    assert [w for w in report["warnings"] if w.get("line") in lines and w.get("code") in policy_codes] == []


@pytest.mark.parametrize("run_index", [0, 1], ids=["main", "bad-standard-falls-back"])
def test_the_lab_sop_runs_to_its_author_s_final_output(run_index: int, tmp_path: Path) -> None:
    """The second run's standard series is bad: the fit exits 1, and the fallback the SOP names as
    *fit-linear-robust* (no backticks: read from the catalog's names) gives the curve the run goes on with, so
    that run ends `degraded` (a fallback stood in), the first `succeeded`; both with the author's output."""
    expected = expectation(HOLDOUT / SOP)
    given = expected if run_index == 0 else expected["more_runs"][0]
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(given["inputs"]), encoding="utf-8")
    ran = run("run", str(HOLDOUT / SOP / expected["spec"]), "--input-file", str(file), "--json", "--state-dir",
              str(tmp_path / "state"))
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    result = json.loads(ran.stdout)
    assert result["status"] == ("succeeded", "degraded")[run_index]
    assert final_output(result) == given["final_output"]
