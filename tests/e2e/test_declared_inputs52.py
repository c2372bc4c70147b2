"""Run inputs declared in a spec's own syntax (`spec.declared52`, `spec.declared_use52`) through the real `skillweave`:
a Tcl script no reader here knows (`set kennelCode [lindex $argv 0]`: the run's inputs, `kennel_code` of the skills
bound to `kennelCode`), and holdout33 201 (a GraphQL schema) with its own reader (`spec.graphql50`) turned off, so
that only the generic reading can find `input ResetKickoff { siteCode: String! ... }`. Before: the inputs were the
skills' own names (`kennel_code`, `week`; `site`, `day`) and the author's runs were refused on unknown inputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import (
    FIXTURES,
    REPO,
    assert_ends_as_meant,
    expectation,
    plan_json,
    run_inputs,
    run_to_the_end,
    run_wanted,
)

TCL = FIXTURES / "declared52" / "kennel-rounds" / "rounds.tcl"
GQL = FIXTURES / "foreign-specs-holdout33" / "201-escape-room-nightly-reset"

# `skillweave` with the GraphQL reader off: the CLI's own `main`, in a process of its own
_NO_GRAPHQL = ("import sys\nimport orchestrator.spec.graphql50 as g\n"
               "g.is_graphql = lambda text: False\ng.graphql_markdown = lambda text: None\n"
               "from orchestrator.cli import main\nsys.argv = ['skillweave', *sys.argv[1:]]\nmain()\n")


def _without_graphql(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", _NO_GRAPHQL, *args], capture_output=True, text=True, cwd=REPO,
                          env=env, timeout=300, check=False)


def test_a_tcl_script_s_argv_variables_are_the_runs_inputs() -> None:
    plan = plan_json(TCL)
    assert [(i["name"], i["required"]) for i in plan["inputs"]] == [("kennelCode", True), ("week", True)]
    first = plan["steps"][0]["inputs"]
    assert first["kennel_code"]["source"] == "input" and first["kennel_code"]["name"] == "kennelCode"
    assert first["week"]["source"] == "input" and first["week"]["name"] == "week"
    # read by the calls' reader itself since round 54 (`spec.commands54`: `set x [lindex $argv 0]`), at their lines
    assert all("rounds.tcl:" in i["where"] for i in plan["inputs"])
    assert not any("declares no workflow inputs" in w["message"] for w in plan["warnings"])
    assert not any("is declared but no step reads it" in w["message"] for w in plan["warnings"])


def test_a_tcl_script_runs_with_the_inputs_its_author_declared(tmp_path: Path) -> None:
    report = run_to_the_end(TCL, {"kennelCode": "HB-1", "week": "2027-W14"}, tmp_path)
    assert report["outputs"][report["steps"][-1]["step_id"]] == {"message": "HB-1: 36 kg of feed for 18 dogs"}


def test_201_without_its_graphql_reader_plans_the_input_type_as_its_inputs() -> None:
    spec = GQL / expectation(GQL)["spec"]
    done = _without_graphql("plan", str(spec), "--format", "json")
    assert done.returncode == 0, done.stderr[-2000:]
    plan = json.loads(done.stdout)
    assert [i["name"] for i in plan["inputs"]] == ["siteCode", "date", "closingGm"]
    bound = {s["skill"]: {k: v.get("name") for k, v in s["inputs"].items() if v["source"] == "input"}
             for s in plan["steps"]}
    assert bound["pull-day-bookings"] == {"site": "siteCode", "day": "date"}
    assert bound["rota-assign"] == {"gm": "closingGm"}
    assert bound["post-to-staff-channel"] == {"site": "siteCode", "gm": "closingGm"}
    assert any("read the declared inputs siteCode (line 9)" in w["message"] for w in plan["warnings"])


@pytest.mark.parametrize("n", [0, 1])
def test_201_without_its_graphql_reader_runs_to_its_authors_output(tmp_path: Path, n: int) -> None:
    meant = expectation(GQL)
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(run_inputs(meant, n)), encoding="utf-8")
    done = _without_graphql("run", str(GQL / meant["spec"]), "--input-file", str(file), "--json", "--state-dir",
                            str(tmp_path / "state"))
    report: dict[str, Any] = json.loads(done.stdout)
    assert_ends_as_meant(report, run_wanted(meant, n), None)
