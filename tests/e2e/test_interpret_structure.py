"""The model reads the structure the rules cannot, through the real CLI (`plan --interpret`).

Holdout3 spec 25 (an e-mail: "First… Then for every… When all… Last…") is refused by
the rules, and spec 26 (a Mermaid chart and a steps table) runs both of its branches.
With a hand-written recording (tests/fixtures/interpret-structure), `plan --interpret
--llm-replay` gives the author's structure (expect.yaml) and writes the lockfile; later
plans use it with no key and no recording; `run` reaches the author's final output; an
edit of the spec makes the entry stale, warned at the changed line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

pytestmark = [pytest.mark.e2e]

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
REPO = Path(__file__).resolve().parents[2]
HOLDOUT = REPO / "tests" / "fixtures" / "foreign-specs-holdout3"
REPLAYS = REPO / "tests" / "fixtures" / "interpret-structure"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("SKILLWEAVE_STATE", "ANTHROPIC_", "SKILLWEAVE_MODEL")) and k != "SKILLWEAVE_SKILLS_PATH"}


def sw(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([SKILLWEAVE, *map(str, args)], cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=180, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _copy(name: str, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path / name
    shutil.copytree(HOLDOUT / name, folder)
    return folder / "spec.md", yaml.safe_load((folder / "expect.yaml").read_text(encoding="utf-8"))


def _source(binding: dict[str, Any]) -> str:
    """A plan binding in expect.yaml's words."""
    if binding["source"] == "input":
        return f"workflow input {binding['name']}"
    if binding["source"] == "item":
        return f"each item's field {binding['pointer'].lstrip('/')}"
    if binding.get("gather"):
        return f"all results of step {binding['step'].removeprefix('step-')}, gathered"
    return f"step {binding['step'].removeprefix('step-')} output {binding['pointer'].lstrip('/')}"


def _inputs_args(inputs: dict[str, Any]) -> list[str]:
    return [a for k, v in inputs.items() for a in ("--input", f"{k}={v}")]


def _ancestors(ids: set[str], before: dict[str, set[str]]) -> set[str]:
    """Every step the steps `ids` wait for, directly or not."""
    seen: set[str] = set()
    todo = [d for i in ids for d in before.get(i, ())]
    while todo:
        sid = todo.pop()
        if sid not in seen:
            seen.add(sid)
            todo.extend(before.get(sid, ()))
    return seen


def _assert_structure(plan: dict[str, Any], expect: dict[str, Any], spec: Path, *, same_app: set[str]) -> None:
    steps = plan["steps"]
    assert [s["skill"] for s in steps] == [s["skill"] for s in expect["steps"]]
    before = {s["id"]: set(s["depends_on"]) for s in steps}
    for step, want in zip(steps, expect["steps"], strict=True):
        meant = {f"step-{n}" for n in want["depends_on"]}
        # a step it also waits for is one a meant step waits for (the `app` read from step-1, not step-3: below)
        assert set(step["depends_on"]) <= meant | _ancestors(meant, before), step["id"]
        assert meant <= set(step["depends_on"]) | _ancestors(set(step["depends_on"]), before), step["id"]
        got = {name: _source(b) for name, b in step["inputs"].items()}
        wanted = dict(want["inputs"])
        for name in same_app & set(got):  # expect.yaml's notes: either step's cleaned `app` is right
            if got[name].endswith("output app"):
                wanted[name] = got[name]
        assert got == wanted, step["id"]
        assert (step["for_each"] is None) == (want["for_each"] is None), step["id"]
        assert bool(step.get("when")) == bool(want["condition"] or want["runs_when_other_condition_false"])
        for key, provenance in step["provenance"].items():
            if key in ("skill", "depends_on") or key.startswith("inputs."):
                assert provenance["source"] == "llm", (step["id"], key)
                assert provenance["where"] == f"{spec}:{step['where'].rpartition(':')[2]}"


def test_an_email_the_rules_refuse_is_read_by_the_model_once_then_planned_and_run_offline(tmp_path: Path) -> None:
    spec, expect = _copy("25-access-review", tmp_path)
    cwd = spec.parent
    lock = cwd / "spec.md.lock.json"
    # without the model, the rules' shapes find no step: the reading anchored on the skills it names is a
    # guess the spec is warned about at each step it took (`spec.anchored`)
    guessed = json.loads(sw("validate", spec, "--json", cwd=cwd).stdout)
    assert guessed["ok"] is True and [w["line"] for w in guessed["warnings"] if w["code"] == "spec.anchored"] == [
        15, 18, 24, 27]
    no_model = sw("plan", spec, "--interpret", cwd=cwd)  # the model reads what the rules read, not the guess
    assert no_model.returncode == 2 and "ANTHROPIC_API_KEY" in no_model.stderr and not lock.exists()

    read = sw("plan", spec, "--interpret", "--llm-replay", REPLAYS / "25-access-review.replay.jsonl",
              "--format", "json", cwd=cwd)
    assert read.returncode == 0, read.stderr
    plan = json.loads(read.stdout)
    _assert_structure(plan, expect, spec, same_app={"app"})
    loop = plan["steps"][1]["for_each"]
    assert (loop["source"]["step"], loop["source"]["pointer"]) == ("step-1", "/users")
    assert {i["name"] for i in plan["inputs"]} == set(expect["inputs"])
    whole = plan["limits_provenance"]["wall_time_s"]  # line 30, a paragraph the reading says is workflow-wide
    assert (plan["limits"]["wall_time_s"], whole["where"]) == (3600, f"{spec}:30")
    assert plan["steps"][3]["policy"]["attempt_timeout_s"] == 45 or plan["steps"][3]["policy"]["rules"]
    entries = json.loads(lock.read_text(encoding="utf-8"))["entries"]
    assert [(e["kind"], e["where"], len(e["reading"]["steps"])) for e in entries] == [("structure", "spec.md:1", 4)]

    again = sw("plan", spec, "--format", "json", cwd=cwd)  # no key, no recording: the lockfile
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["steps"] == plan["steps"]

    ran = sw("run", spec, *_inputs_args(expect["inputs"]), "--json", cwd=cwd)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["outputs"]["step-4"] == expect["final_output"]

    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("Last, send-review-email", "Finally, send-review-email"), encoding="utf-8")
    stale = sw("plan", spec, cwd=cwd)
    assert stale.returncode == 2  # the rules' reading again: no steps
    assert "spec.md:27: warning: the lockfile's reading of the structure" in stale.stderr + stale.stdout


def test_a_chart_and_table_spec_gets_its_branches_and_join_from_the_rules_and_runs_either_branch(
        tmp_path: Path) -> None:
    """26's table asides `*(QC passed)*` / `*(QC failed)*` and "whichever one happened" were the model's to read
    (this test replayed it); the rules read them now (`spec.h3_left31`), each said at its line, so `--interpret`
    has nothing left to ask: the plan is the rules' with or without it, and no lockfile is written."""
    spec, expect = _copy("26-elisa-plate", tmp_path)
    cwd = spec.parent
    before = sw("validate", spec, cwd=cwd)
    said = before.stdout + before.stderr
    assert "spec.md:29: warning: step-3 (Step 3): its bracket '(QC passed)' is read as its condition" in said
    assert "spec.md:33: warning: step-5 (Step 5): 'Step 5 runs after 3 or 4, whichever one happened' is read as a join" \
        in said

    plain = sw("plan", spec, "--format", "json", cwd=cwd)
    read = sw("plan", spec, "--interpret", "--llm-replay", REPLAYS / "26-elisa-plate.replay.jsonl",
              "--format", "json", cwd=cwd)
    assert plain.returncode == 0 and read.returncode == 0, plain.stderr + read.stderr
    plan = json.loads(read.stdout)
    assert plan["steps"] == json.loads(plain.stdout)["steps"]
    assert not (cwd / "spec.md.lock.json").exists()
    steps = {s["id"]: s for s in plan["steps"]}
    assert [s["skill"] for s in plan["steps"]] == [s["skill"] for s in expect["steps"]]
    assert steps["step-3"]["when"] == "steps['step-2'].output.passed == true"
    assert steps["step-4"]["when"] == "not (steps['step-2'].output.passed == true)"
    assert steps["step-5"]["join"] == "any"
    assert steps["step-3"]["provenance"]["when"]["where"] == f"{spec}:29"
    assert steps["step-3"]["policy"]["attempt_timeout_s"] == 30
    assert not [w for w in plan["warnings"] if w["code"] == "spec.condition-not-read"]

    for inputs, final in [(expect["inputs"], expect["final_output"]),
                          *((m["inputs"], m["final_output"]) for m in expect["more_runs"])]:
        ran = sw("run", spec, *_inputs_args(inputs), "--json", cwd=cwd)
        assert ran.returncode == 0, ran.stderr
        assert json.loads(ran.stdout)["outputs"]["step-5"] == final


def test_the_offline_example_plans_from_its_lockfile_and_its_recording_writes_the_same_lockfile(
        tmp_path: Path) -> None:
    example = REPO / "specs" / "examples" / "interpret-structure"
    planned = sw("plan", example / "notes.md", "--format", "json", cwd=tmp_path)
    assert planned.returncode == 0, planned.stderr
    assert [s["skill"] for s in json.loads(planned.stdout)["steps"]] == ["split-words", "measure-word", "sum-lengths"]
    shutil.copy(example / "notes.md", tmp_path / "notes.md")
    shutil.copytree(example / "skills", tmp_path / "skills")
    guess = sw("plan", tmp_path / "notes.md", cwd=tmp_path)  # no lockfile: the rules find no step, the anchored
    assert guess.returncode == 0, guess.stderr  # reading guesses them, each a warning at its line
    assert "notes.md:9: warning: step-2 (measure-word): read as a step because it names `measure-word`" in guess.stdout
    read = sw("plan", tmp_path / "notes.md", "--interpret", "--llm-replay", example / "notes.replay.jsonl",
              cwd=tmp_path)
    assert read.returncode == 0, read.stderr
    assert (tmp_path / "notes.md.lock.json").read_text() == (example / "notes.md.lock.json").read_text()
    ran = sw("run", tmp_path / "notes.md", "--input", "text=a tiny example sentence", "--json", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["outputs"]["step-3"] == {"total": 20, "longest": "sentence"}
