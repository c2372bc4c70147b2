"""What a spec says is what runs: data and control flow through the real `skillweave` and sandbox.

A twelve-step chain that hands `n` on (named, and by the nearest producer); item fields of a `For each` over objects, gathered into the next step; two roots at once; an
if/otherwise pair and the join after it; a conditional approval; a YAML `condition:`; a
fallback that hands on its value; a step that would starve, caught by validate; a degraded
run; a folder shown read-only to a sandboxed script, and the file it writes listed as an artifact;
an Otherwise, and a step after a conditional step, that run when that step is skipped.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from dataflow_kit import SKILLWEAVE, make_skill, run_json, skillweave, statuses, write_spec

pytestmark = pytest.mark.e2e

BUMP = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def chain_spec(sources: bool) -> str:
    """Twelve `bump` steps over `n`, which is also a workflow input: each step's source named
    (`from Step k-1` and a Data Contracts edge per hand-off), or left to the binding rules."""
    lines = ["# Count to twelve", "", "## Inputs", "- n (integer): where to start", "", "## Workflow Steps", ""]
    for k in range(1, 13):
        source = f" (integer, from Step {k - 1})" if sources and k > 1 else " (integer)" if sources else ""
        lines += [f"### Step {k}: Bump {k}", "- Skill: `bump`", f"- Input: n{source}", "- Output: n (integer)", ""]
    if sources:
        lines += ["## Data Contracts", ""]
        for k in range(1, 12):
            lines += [f"### Step {k} → Step {k + 1}", f"- Step {k} Output: n (integer)", f"- Step {k + 1} Input: n", ""]
    return "\n".join(lines)


@pytest.mark.parametrize("sources", [True, False], ids=["sources-named", "nearest-producer"])
def test_a_twelve_step_chain_over_a_name_that_is_also_a_workflow_input_ends_with_n_plus_12(
    sources: bool, tmp_path: Path,
) -> None:
    make_skill(tmp_path, "bump", input_schema=BUMP, output_schema=BUMP)
    spec = tmp_path / "spec.md"
    spec.write_text(chain_spec(sources), encoding="utf-8")
    checked = skillweave("validate", spec)
    assert checked.returncode == 0, checked.stderr
    warned = [line for line in checked.stdout.splitlines() if "is both an output of" in line]
    # named sources are explicit, no warning; without them each of steps 2-12 warns, with its line
    assert len(warned) == (0 if sources else 11), checked.stdout
    if not sources:  # at step 2's Input line, naming both sources and how to choose
        assert warned[0].startswith(f"{spec}:15: warning: step-2 (Bump 2): `n` is both an output of step-1 "
                                    "and a workflow input"), warned[0]
        assert "`n (workflow input)`" in warned[0] and "`n (from Step N)`" in warned[0]
    plan = skillweave("plan", spec, "--format", "text").stdout
    bound = [line.split("[", 1)[0].split("<-", 1)[1].strip() for line in plan.splitlines()
             if line.strip().startswith("input ")]
    assert bound == ["input n", *(f"step-{k} output /n" for k in range(1, 12))]
    rule = "explicit: steps.step-11.output.n" if sources else "nearest step: step-11 at /n"
    assert rule in plan
    code, summary, err = run_json(spec, tmp_path / "state", "n=0")
    assert code == 0, err
    assert summary["status"] == "succeeded"
    assert summary["outputs"]["step-12"] == {"n": 12}
    code, summary, err = run_json(spec, tmp_path / "state", "n=-12")
    assert code == 0 and summary["outputs"]["step-12"] == {"n": 0}, err


PEOPLE = {"type": "object", "properties": {"people": {"type": "array", "items": {
    "type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"]}}}, "required": ["people"]}
GREET_IN = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
            "required": ["name", "age"]}
GREET_OUT = {"type": "object", "properties": {"greeting": {"type": "string"}, "next_age": {"type": "integer"}},
             "required": ["greeting", "next_age"]}
GATHERED_SPEC = """
    # Greet everyone

    ## Inputs
    - roster (string): names and ages, `Ada:36,Linus:28`

    ## Workflow Steps

    ### Step 1: List people
    - Skill: `list-people`
    - Input: roster

    ### Step 2: Greet each
    - Skill: `greet`
    - For each: person in people
    - Input: name, age

    ### Step 3: Sum up
    - Skill: `summarize`
    - Input: greeting ({greeting}), next_age (list of integers), items (list)
    """


def greeting_skills(root: Path) -> None:
    make_skill(root, "list-people", output_schema=PEOPLE)
    make_skill(root, "greet", input_schema=GREET_IN, output_schema=GREET_OUT)
    make_skill(root, "summarize")


def test_a_for_each_over_objects_binds_each_items_fields_and_the_next_step_gets_them_gathered(tmp_path: Path) -> None:
    greeting_skills(tmp_path)
    spec = write_spec(tmp_path, GATHERED_SPEC.format(greeting="list of strings"))
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    greet, total = plan["steps"][1], plan["steps"][2]
    assert greet["inputs"]["name"] == {"source": "item", "name": None, "step": None, "pointer": "/name",
                                       "value": None, "template": None, "optional": False}
    assert greet["provenance"]["inputs.age"]["note"] == "for each item field: `age` of each item of people"
    assert total["inputs"]["greeting"]["gather"] is True and total["inputs"]["items"]["pointer"] == ""
    assert total["provenance"]["inputs.items"]["note"].startswith("gathered: every item output of step-2")

    code, summary, err = run_json(spec, tmp_path / "state", "roster=Ada:36,Linus:28,Grace:45")
    assert code == 0, (err, summary.get("error"))
    assert summary["status"] == "succeeded"
    assert summary["outputs"]["step-3"] == {"text": "Hello Ada; Hello Linus; Hello Grace", "ages": 112, "count": 3}


def test_a_consumer_whose_contract_refuses_the_gathered_list_is_caught_by_validate_before_anything_runs(
    tmp_path: Path,
) -> None:
    greeting_skills(tmp_path)
    spec = write_spec(tmp_path, GATHERED_SPEC.format(greeting="string"))
    checked = skillweave("validate", str(spec))
    assert checked.returncode == 2
    assert (f"{spec}:19: step-2 (Greet each) -> step-3 (Sum up): `greeting` cannot be supplied: it is array but "
            "must be string: step-2 is a For each step, so `greeting` gets a list, one per item in item order"
            in checked.stderr), checked.stderr
    code, _, err = run_json(spec, tmp_path / "state", "roster=Ada:36")
    assert code == 2 and not (tmp_path / "state" / "runs").exists(), err


def test_two_roots_run_at_the_same_time_and_the_step_after_them_waits_for_both(tmp_path: Path) -> None:
    # both root scripts wait for a `go` file the test writes only once the journal shows both
    # attempts started: run one after the other, the second would never start and the test's
    # bounded wait would fail
    for name in ("wait-for-go", "both-went"):
        make_skill(tmp_path, name)
    gate = tmp_path / "gate"
    gate.mkdir(mode=0o755)
    spec = write_spec(tmp_path, """
        # Two at once

        ## Inputs
        - gate (folder): where the go file appears

        ## Workflow Steps

        ### Step 1: Left
        - Skill: `wait-for-go`
        - Depends on: none
        - Input: gate
        - Output: step (string)

        ### Step 2: Right
        - Skill: `wait-for-go`
        - Depends on: none
        - Input: gate
        - Output: step (string)

        ### Step 3: Both
        - Skill: `both-went`
        - Input: left (from Step 1), right (from Step 2)
        """)
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    assert [s["depends_on"] for s in plan["steps"]] == [[], [], ["step-1", "step-2"]]
    state = tmp_path / "state"
    with subprocess.Popen([SKILLWEAVE, "run", str(spec), "--input", f"gate={gate}", "--json", "--state-dir",
                           str(state)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as running:
        try:
            started = wait_for(lambda: started_steps(state) >= {"step-1", "step-2"}, seconds=60)
            (gate / "go").write_text("", encoding="utf-8")
            out, err = running.communicate(timeout=120)
        finally:
            if running.poll() is None:
                running.kill()
    assert started, "both roots never had an attempt under way at the same time"
    summary = json.loads(out)
    assert running.returncode == 0, (err, summary.get("error"))
    assert summary["outputs"]["step-3"] == {"steps": ["step-1", "step-2"]}


def started_steps(state: Path) -> set[str]:
    """The steps whose attempt started, as the journal has committed them (another process's view)."""
    journal = state / "journal.db"
    if not journal.exists():
        return set()
    try:
        conn = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)
        try:
            rows = conn.execute("SELECT step FROM events WHERE type = 'attempt_started'").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return set()
    return {r[0] for r in rows}


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Poll `condition` until it holds or `seconds` pass (a bounded wait, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


IF_OTHERWISE = """
    # Pass or fail

    ## Inputs
    - points (integer)

    ## Workflow Steps

    ### Step 1: Score
    - Skill: `score`
    - Input: points
    - Output: score (integer)

    ### Step 2: Pass
    - Skill: `say-pass`
    - Only if the score is over 50
    - Output: verdict (string)

    ### Step 3: Fail
    - Skill: `say-fail`
    - Otherwise: say it failed
    - Depends on: Step 1
    - Output: verdict (string)

    ### Step 4: Announce
    - Skill: `announce`
    - Depends on: Steps 2 and 3
    - Input: verdict (string)
    """


@pytest.mark.parametrize(("points", "ran", "skipped", "line"), [
    (80, "step-2", "step-3", "verdict: pass"),
    (20, "step-3", "step-2", "verdict: fail"),
])
def test_an_if_otherwise_pair_runs_exactly_one_branch_and_the_step_after_them_runs(
    tmp_path: Path, points: int, ran: str, skipped: str, line: str,
) -> None:
    for name in ("score", "say-pass", "say-fail", "announce"):
        make_skill(tmp_path, name)
    spec = write_spec(tmp_path, IF_OTHERWISE)
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    assert plan["steps"][1]["when"] == "steps['step-1'].output.score > 50"
    assert plan["steps"][2]["when"] == "not (steps['step-1'].output.score > 50)"
    assert plan["steps"][3]["inputs"]["verdict"]["any_of"] == ["step-2", "step-3"]
    code, summary, err = run_json(spec, tmp_path / "state", f"points={points}")
    assert code == 0, (err, summary.get("error"))
    assert summary["status"] == "succeeded"
    assert statuses(summary)[ran] == "succeeded" and statuses(summary)[skipped] == "skipped"
    assert summary["outputs"]["step-4"] == {"line": line}


IF_OTHERWISE_YAML = """
    name: pass-or-fail
    inputs:
      points: {type: integer}
    steps:
      - id: score
        skill: score
        input: [points]
      - id: pass
        skill: say-pass
        when: score.score > 50
        output: {verdict: string}
      - id: fail
        skill: say-fail
        otherwise: pass
        output: {verdict: string}
      - id: announce
        skill: announce
        depends_on: [pass, fail]
        input: [verdict]
    """


@pytest.mark.parametrize("form", ["markdown", "yaml"])
def test_an_otherwise_that_waits_on_nothing_but_its_partner_runs_when_the_partner_is_skipped(
    tmp_path: Path, form: str,
) -> None:
    # markdown: step 3 follows step 2 by the step order alone; YAML: `otherwise: pass` names it
    for name in ("score", "say-pass", "say-fail", "announce"):
        make_skill(tmp_path, name)
    text = IF_OTHERWISE.replace("    - Depends on: Step 1\n", "") if form == "markdown" else IF_OTHERWISE_YAML
    spec = write_spec(tmp_path, text, name="spec.md" if form == "markdown" else "spec.yaml")
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    first, _, otherwise, _ = (s["id"] for s in plan["steps"])
    assert plan["steps"][2]["depends_on"] == [first]  # what its partner waits for, not the partner
    assert plan["steps"][2]["when"] == f"not (steps['{first}'].output.score > 50)"
    code, summary, err = run_json(spec, tmp_path / "state", "points=20")
    assert code == 0, (err, summary.get("error"))
    assert summary["status"] == "succeeded"
    assert statuses(summary)[otherwise] == "succeeded"
    assert summary["outputs"][plan["steps"][3]["id"]] == {"line": "verdict: fail"}


def test_a_step_after_a_skipped_step_in_the_step_order_alone_still_runs(tmp_path: Path) -> None:
    for name in ("score", "say-pass", "say-fail"):
        make_skill(tmp_path, name)
    spec = write_spec(tmp_path, """
        # Shout, then tidy up

        ## Inputs
        - points (integer)

        ## Workflow Steps

        ### Step 1: Score
        - Skill: `score`
        - Input: points
        - Output: score (integer)

        ### Step 2: Shout
        - Skill: `say-pass`
        - Only if the score is over 50

        ### Step 3: Tidy up
        - Skill: `say-fail`
        """)
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    assert plan["steps"][2]["depends_on"] == ["step-2", "step-1"]
    code, summary, err = run_json(spec, tmp_path / "state", "points=20")
    assert code == 0, (err, summary.get("error"))
    assert statuses(summary) == {"step-1": "succeeded", "step-2": "skipped", "step-3": "succeeded"}
    assert summary["status"] == "succeeded" and summary["outputs"]["step-3"] == {"verdict": "fail"}


def test_a_step_after_a_chain_of_skipped_conditional_steps_runs_and_after_a_skipped_first_step_does_not(
        tmp_path: Path) -> None:
    # each step follows only the one before it (no edge to every earlier step): the order goes on
    # past a step skipped by its own condition, and not past one skipped with what it waits for
    for name in ("score", "say-pass", "say-fail"):
        make_skill(tmp_path, name)
    spec = write_spec(tmp_path, """
        # Shout or not, then tidy up

        ## Inputs
        - points (integer)
        - mode (string)

        ## Workflow Steps

        ### Step 1: Score
        - Skill: `score`
        - Input: points
        - Output: score (integer)
        - Only if mode is not off

        ### Step 2: Shout
        - Skill: `say-pass`
        - Only if mode is loud

        ### Step 3: Sing
        - Skill: `say-pass`
        - Only if mode is big

        ### Step 4: Hum
        - Skill: `say-pass`
        - Only if mode is soft

        ### Step 5: Tidy up
        - Skill: `say-fail`
        """)
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    assert [(s["depends_on"], s.get("follows", [])) for s in plan["steps"]] == [
        ([], []), (["step-1"], []), (["step-2", "step-1"], ["step-2"]), (["step-3", "step-2"], ["step-3"]),
        (["step-4", "step-3"], ["step-4"])]
    code, summary, err = run_json(spec, tmp_path / "state", "points=20", "mode=quiet")
    assert code == 0, (err, summary.get("error"))
    assert statuses(summary) == {"step-1": "succeeded", "step-2": "skipped", "step-3": "skipped",
                                 "step-4": "skipped", "step-5": "succeeded"}
    code, summary, err = run_json(spec, tmp_path / "state", "points=20", "mode=off")
    assert code == 0, (err, summary.get("error"))
    assert set(statuses(summary).values()) == {"skipped"}
    assert summary["steps"][4]["message"] == "every step it depends on was skipped: it is on a branch not taken"


def test_a_conditional_approval_pauses_for_one_input_and_not_for_another(tmp_path: Path) -> None:
    make_skill(tmp_path, "book")
    spec = write_spec(tmp_path, """
        # Book it

        ## Inputs
        - amount (number)

        ## Workflow Steps

        ### Step 1: Book
        - Skill: `book`
        - Input: amount
        - Approval: required if amount > 1000; wait up to 24h, then reject
        """)
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    assert plan["steps"][0]["policy"]["approval"] == {"required": True, "timeout_s": 86400.0, "on_timeout": "reject",
                                                      "when": "inputs.amount > 1000"}
    small, summary, err = run_json(spec, tmp_path / "state", "amount=250")
    assert small == 0, err
    assert summary["status"] == "succeeded" and summary["outputs"]["step-1"]["booking_id"] == "B-250"
    assert summary["steps"][0]["approval"] is None
    big, summary, err = run_json(spec, tmp_path / "state", "amount=5000")
    assert big == 3, err
    assert summary["status"] == "paused" and summary["awaiting"] == ["step-1"]


def test_a_yaml_condition_that_is_false_skips_its_step(tmp_path: Path) -> None:
    for name in ("book", "announce"):
        make_skill(tmp_path, name)
    spec = write_spec(tmp_path, """
        name: big-only
        inputs:
          amount: {type: number}
        steps:
          - id: book
            skill: book
            input: [amount]
          - id: shout
            skill: announce
            depends_on: [book]
            condition: book.amount > 1000
            input: {verdict: book.booking_id}
        """, name="spec.yaml")
    code, summary, err = run_json(spec, tmp_path / "state", "amount=5")
    assert code == 0, err
    assert summary["status"] == "succeeded"
    assert statuses(summary) == {"book": "succeeded", "shout": "skipped"}
    shout = next(s for s in summary["steps"] if s["step_id"] == "shout")
    assert shout["message"] == "condition is false: steps['book'].output.amount > 1000"
    code, summary, err = run_json(spec, tmp_path / "state", "amount=5000")
    assert code == 0 and summary["outputs"]["shout"] == {"line": "verdict: B-5000"}, err


FALLBACK = """
    # Label a thing

    ## Workflow Steps

    ### Step 1: Classify
    - Skill: `classify`
    - Output: type (string)

    ### Step 2: Label
    - Skill: `label`
    - Input: type (string)

    ## Error Recovery Strategy

    | Step | Failure | Detection | Recovery | Fallback |
    |------|---------|-----------|----------|----------|
    | 1 | Script error | exit 1 | No retry | {fallback} |
    """


def test_a_fallback_with_a_value_hands_it_on_and_the_run_ends_degraded_with_exit_0_and_the_reason(
    tmp_path: Path,
) -> None:
    for name in ("classify", "label"):
        make_skill(tmp_path, name)
    spec = write_spec(tmp_path, FALLBACK.format(fallback='use `"unknown"`; continue'))
    plan = json.loads(skillweave("plan", spec, "--format", "json").stdout)
    (rule,) = plan["steps"][0]["policy"]["rules"]
    assert rule["fallback"]["value"] == {"type": "unknown"}
    state = tmp_path / "state"
    code, summary, err = run_json(spec, state)
    assert code == 0, (err, summary.get("error"))
    assert summary["status"] == "degraded" and summary["error"] is None
    assert statuses(summary) == {"step-1": "defaulted", "step-2": "succeeded"}
    assert summary["outputs"]["step-2"] == {"label": "type: unknown"}
    (why,) = summary["degraded"]
    assert (why["step_id"], why["fallback"]) == ("step-1", "default") and "the classifier is down" in why["reason"]
    shown = skillweave("run", spec, "--state-dir", state)
    assert shown.returncode == 0
    assert "degraded: a fallback stood in for step-1:" in shown.stdout
    assert "  step-1: default: " in shown.stdout and "the classifier is down" in shown.stdout
    report = Path(summary["report"]).read_text(encoding="utf-8")
    assert report.startswith(f"# Run {summary['run_id']}: DEGRADED")
    assert "> **Degraded**: a fallback stood in for these steps:" in report
    listed = json.loads(skillweave("runs", "--json", "--state-dir", state).stdout)
    assert {r["status"] for r in listed["runs"]} == {"degraded"} and listed["metrics"]["degraded"] == 2
    # a degraded run is finished: prune removes it like any other
    pruned = skillweave("runs", "prune", "--older-than", "0", "--status", "degraded", "--state-dir", state)
    assert pruned.returncode == 0, pruned.stderr
    assert json.loads(skillweave("runs", "--json", "--state-dir", state).stdout)["runs"] == []


def test_a_step_that_would_starve_is_reported_at_validate_time_with_the_fix(tmp_path: Path) -> None:
    make_skill(tmp_path, "classify")
    make_skill(tmp_path, "label", input_schema={"type": "object", "properties": {
        "type": {"type": "string", "enum": ["invoice", "receipt"]}}, "required": ["type"]})
    spec = write_spec(tmp_path, FALLBACK.format(fallback="continue"))
    checked = skillweave("validate", spec)
    assert checked.returncode == 2
    assert (f"{spec}:11: step-2 (Label) would starve: step-2 requires `type` from step-1, which may continue with "
            "no output when it fails (its fallback: continue), and step-2 refuses its contract's empty value "
            "there. Give the fallback a value" in checked.stderr), checked.stderr


def test_a_continue_whose_consumer_accepts_the_empty_value_hands_it_on_and_the_run_is_degraded(
    tmp_path: Path,
) -> None:
    for name in ("classify", "label"):
        make_skill(tmp_path, name)
    spec = write_spec(tmp_path, FALLBACK.format(fallback="continue"))
    code, summary, err = run_json(spec, tmp_path / "state")
    assert code == 0, (err, summary.get("error"))
    assert summary["status"] == "degraded"
    assert summary["outputs"]["step-1"] == {"type": ""} and summary["outputs"]["step-2"] == {"label": "type: "}


def test_a_folder_input_is_read_by_a_sandboxed_script_while_a_file_beside_it_stays_invisible(
    tmp_path: Path,
) -> None:
    make_skill(tmp_path, "peek", input_schema={"type": "object", "properties": {
        "folder": {"type": "string", "format": "path"}}, "required": ["folder"]})
    data = tmp_path / "data"
    (data / "in").mkdir(parents=True)
    for name, text in (("a.csv", "amount\n1\n"), ("b.csv", "amount\n2\n")):
        (data / "in" / name).write_text(text, encoding="utf-8")
        (data / "in" / name).chmod(0o644)
    (data / "in").chmod(0o755)
    (data / "secret.txt").write_text("do not show", encoding="utf-8")
    spec = write_spec(tmp_path, """
        # Peek

        ## Inputs
        - folder (path): a folder of CSV files

        ## Workflow Steps

        ### Step 1: Peek
        - Skill: `peek`
        - Input: folder
        """)
    code, summary, err = run_json(spec, tmp_path / "state", f"folder={data / 'in'}")
    if "bwrap" not in json.dumps(summary.get("steps", [])) and code != 0:
        pytest.skip(f"no bubblewrap sandbox here: {summary.get('error') or err}")
    assert code == 0, (err, summary.get("error"))
    seen = summary["outputs"]["step-1"]
    assert seen["folder"] == "/inputs/folder"
    assert seen["files"] == ["a.csv", "b.csv"] and seen["inputs"] == ["folder"]
    assert seen["beside"] in ("FileNotFoundError", "PermissionError") and seen["write"] != "wrote"
    assert summary["inputs"]["folder"] == str((data / "in").resolve())
    assert not (data / "in" / "new.csv").exists()


def test_a_file_a_script_writes_comes_back_as_an_artifact_listed_in_the_run_and_its_report(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    data = tmp_path / "data"
    data.mkdir()
    (data / "march.csv").write_text("amount\n1.25\n2.75\n", encoding="utf-8")
    for path in (tmp_path, data, data / "march.csv"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    state = tmp_path / "state"
    code, summary, err = run_json(repo / "specs" / "examples" / "csv-folder.md", state, f"folder={data}")
    assert code == 0, (err, summary.get("error"))
    written = state / "runs" / summary["run_id"] / "artifacts" / "step-1" / "totals.csv"
    assert summary["artifacts"] == [str(written)]
    assert written.read_text(encoding="utf-8").splitlines() == ["file,total", "march.csv,4.0"]
    report = json.loads(skillweave("runs", "show", summary["run_id"], "--format", "json", "--state-dir", state).stdout)
    assert report["artifacts"] == ["artifacts/step-1/totals.csv"]
    shown = skillweave("runs", "show", summary["run_id"], "--state-dir", state).stdout
    assert "## Artifacts" in shown and "- `artifacts/step-1/totals.csv`" in shown
