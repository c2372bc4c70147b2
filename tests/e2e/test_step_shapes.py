"""The five shapes of issue 22, each written as people write it, through the real CLI.

Each spec validates, plans as its author meant (asserted on `plan --format json`), shows
its readings with their lines in `plan --format text`, and runs offline:

1. steps as a numbered list: ``1. Extract: `extract-rows` (table -> rows). Retry 3x.``
2. ``Depends on: Steps 2, 4, 6 and 8`` and a join, "Step 2, Step 3 or Step 4 (whichever ran)"
3. routing written as a sentence, with a default: "`billing` goes to Step 2, ... anything
   else to Step 4"
4. ``- Skill: get_rate``, the tool an MCP skill wraps (a stdio MCP server of the test)
5. a runbook whose step sections name their skill inside a sentence

The run-time meaning of a join (which inputs a step after branches gets) belongs to the
data-flow issue: the join step here reads only the workflow input.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))


def skillweave(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SKILLWEAVE, *map(str, args)], capture_output=True, text=True, timeout=180,
                          cwd=cwd, check=False)


def script_skill(root: Path, name: str, description: str, code: str,
                 input_schema: dict[str, Any] | None = None) -> None:
    """A script skill under root/skills/: `code` reads `data` (the input) and sets `out`."""
    folder = root / "skills" / name
    (folder / "scripts").mkdir(parents=True)
    meta = "  skillweave.kind: script\n  skillweave.entry: scripts/main.py\n"
    if input_schema is not None:
        (folder / "schemas").mkdir()
        (folder / "schemas" / "input.json").write_text(json.dumps(input_schema))
        meta += "  skillweave.input-schema: schemas/input.json\n"
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\nmetadata:\n{meta}---\n"
                                     f"{description}\n")
    body = textwrap.indent(textwrap.dedent(code).strip(), "")
    (folder / "scripts" / "main.py").write_text(
        f"import json, sys\ndata = json.load(sys.stdin)\n{body}\njson.dump(out, sys.stdout)\n")


def plan_json(spec: Path) -> dict[str, Any]:
    result = skillweave("plan", spec, "--format", "json", cwd=spec.parent)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def steps_of(plan: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in plan["steps"]}


def run_json(spec: Path, *inputs: str) -> dict[str, Any]:
    args: list[str | Path] = ["run", spec, "--json", "--state-dir", spec.parent / "state"]
    for item in inputs:
        args += ["--input", item]
    result = skillweave(*args, cwd=spec.parent)
    assert result.returncode == 0, (result.stdout, result.stderr)
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def statuses(run: dict[str, Any]) -> dict[str, str]:
    return {s["step_id"]: s["status"] for s in run["steps"]}


# --- 1. a numbered list of steps --------------------------------------------------------

LIST_SPEC = """\
# Rows report

Inputs: `table` (string)

## Steps

1. Extract: `extract-rows` (table -> rows). Retry 3x.
2. Count: `count-rows` (rows -> count).
3. Report: `format-report` (count -> report). Depends on: Step 2.
"""


def test_steps_written_as_a_numbered_list_validate_plan_and_run(tmp_path: Path) -> None:
    script_skill(tmp_path, "extract-rows", "Split a CSV text into rows.",
                 "out = {'rows': [r.split(',') for r in data['table'].splitlines() if r]}")
    script_skill(tmp_path, "count-rows", "Count rows.", "out = {'count': len(data['rows'])}")
    script_skill(tmp_path, "format-report", "Write a one-line report.",
                 "out = {'report': f\"{data['count']} rows\"}")
    spec = tmp_path / "rows.md"
    spec.write_text(LIST_SPEC)

    assert skillweave("validate", spec, cwd=tmp_path).returncode == 0
    steps = steps_of(plan_json(spec))
    assert [(s["id"], s["name"], s["skill"]) for s in steps.values()] == [
        ("step-1", "Extract", "extract-rows"), ("step-2", "Count", "count-rows"), ("step-3", "Report", "format-report")]
    assert steps["step-1"]["provenance"]["read.step"]["where"] == f"{spec}:7"
    assert steps["step-1"]["provenance"]["skill"]["note"] == "named in backticks in the step's text"
    assert (steps["step-1"]["inputs"]["table"]["source"], steps["step-1"]["inputs"]["table"]["name"]) == (
        "input", "table")
    assert (steps["step-2"]["inputs"]["rows"]["source"], steps["step-2"]["inputs"]["rows"]["step"]) == ("step", "step-1")
    assert steps["step-2"]["depends_on"] == ["step-1"]
    assert steps["step-3"]["depends_on"] == ["step-2"]
    assert steps["step-3"]["provenance"]["depends_on"]["where"] == f"{spec}:9"

    text = skillweave("plan", spec, "--format", "text", cwd=tmp_path).stdout
    (line,) = [t for t in text.splitlines() if "numbered list item read as step-2 (Count)" in t]
    assert line.strip().startswith("read") and f"{spec}:8" in line

    run = run_json(spec, "table=a,1\nb,2\nc,3")
    assert run["status"] == "succeeded"
    assert run["outputs"]["step-3"] == {"report": "3 rows"}


# --- 2. dependency lists and a join ------------------------------------------------------

def fan_in_spec() -> str:
    parts = ["# Fan in\n\n## Inputs\n- seed (integer)\n\n## Workflow Steps\n"]
    for n in range(1, 9):
        parts.append(f"\n### Step {n}: Part {n}\n- Skill: `stamp`\n- Input: seed\n- Output: stamped (integer)\n"
                     "- Depends on: none\n")
    parts.append("\n### Step 9: Gather\n- Skill: `stamp`\n- Input: seed\n- Output: stamped (integer)\n"
                 "- Depends on: Steps 2, 4, 6 and 8\n")
    return "".join(parts)


def test_depends_on_a_list_of_steps_waits_for_exactly_those(tmp_path: Path) -> None:
    script_skill(tmp_path, "stamp", "Return the seed.", "out = {'stamped': data['seed']}")
    spec = tmp_path / "fan-in.md"
    spec.write_text(fan_in_spec())

    assert skillweave("validate", spec, cwd=tmp_path).returncode == 0
    steps = steps_of(plan_json(spec))
    assert steps["step-9"]["depends_on"] == ["step-2", "step-4", "step-6", "step-8"]
    assert all(steps[f"step-{n}"]["depends_on"] == [] for n in range(1, 9))  # `none`: eight roots
    assert steps["step-1"]["provenance"]["depends_on"]["note"] == "depends on nothing: a root"

    run = run_json(spec, "seed=7")
    assert run["status"] == "succeeded"
    timing = {s["step_id"]: s for s in run["steps"]}
    for n in (2, 4, 6, 8):
        assert timing["step-9"]["started_at"] >= timing[f"step-{n}"]["finished_at"]


# --- 3. routing as a sentence, 2. again: a join after the branches -----------------------

ROUTE_SPEC = """\
# Triage

## Inputs
- ticket (string)

## Workflow Steps

### Step 1: Classify
- Skill: `pick-branch`
- Input: ticket

The model picks one branch. `billing` goes to Step 2, `technical` to Step 3, anything else to Step 4.

### Step 2: Billing
- Skill: `resolve`
- Input: ticket

### Step 3: Technical
- Skill: `resolve`
- Input: ticket

### Step 4: General
- Skill: `resolve`
- Input: ticket

### Step 5: Reply
- Skill: `reply`
- Input: ticket
- Depends on: Step 2, Step 3 or Step 4 (whichever ran)
"""


def route_skills(root: Path) -> None:
    script_skill(root, "pick-branch", "Choose a branch from the ticket's first word.",
                 "out = {'branch': data['ticket'].split()[0]}")
    script_skill(root, "resolve", "Resolve a ticket.", "out = {'resolution': 'done'}")
    script_skill(root, "reply", "Write the reply.", "out = {'reply': 'Re: ' + data['ticket']}")


def test_a_routing_sentence_becomes_named_branches_with_a_default_and_a_join(tmp_path: Path) -> None:
    route_skills(tmp_path)
    spec = tmp_path / "triage.md"
    spec.write_text(ROUTE_SPEC)

    assert skillweave("validate", spec, cwd=tmp_path).returncode == 0
    steps = steps_of(plan_json(spec))
    router = steps["step-1"]
    assert router["routes"] == {"billing": "step-2", "technical": "step-3"}
    assert router["route_default"] == "step-4"
    assert router["provenance"]["routes"]["where"] == f"{spec}:12"
    assert [steps[f"step-{n}"]["depends_on"] for n in (2, 3, 4)] == [["step-1"]] * 3
    assert steps["step-5"]["depends_on"] == ["step-2", "step-3", "step-4"]
    assert steps["step-5"]["join"] == "any"
    text = skillweave("plan", spec, "--format", "text", cwd=tmp_path).stdout
    assert "route        anything else -> step-4" in text
    assert "depends on   step-2, step-3, step-4 (whichever ran)" in text

    billing = run_json(spec, "ticket=billing charged twice")
    assert statuses(billing) == {"step-1": "succeeded", "step-2": "succeeded", "step-3": "skipped",
                                 "step-4": "skipped", "step-5": "succeeded"}
    other = run_json(spec, "ticket=hello there")  # no branch named `hello`: the default route
    assert statuses(other) == {"step-1": "succeeded", "step-2": "skipped", "step-3": "skipped",
                               "step-4": "succeeded", "step-5": "succeeded"}
    assert other["outputs"]["step-5"] == {"reply": "Re: hello there"}


# --- 4. a Skill line naming the MCP tool --------------------------------------------------

FX_SERVER = """\
from mcp.server.mcpserver import MCPServer

server = MCPServer("fx", log_level="WARNING")


@server.tool(structured_output=True)
def get_rate(base: str, quote: str) -> dict[str, float]:
    \"\"\"The exchange rate from base to quote.\"\"\"
    return {"rate": 1.25 if (base, quote) == ("EUR", "USD") else 1.0}


server.run("stdio")
"""

MCP_SPEC = """\
# Convert

## Inputs
- base (string)
- quote (string)
- amount (number)

## Workflow Steps

### Step 1: Look up the rate
- Skill: get_rate
- Input: base, quote
- Output: rate (number)

### Step 2: Convert
- Skill: `convert-amount`
- Input: amount, rate
- Output: converted (number)
"""


def test_a_skill_line_naming_an_mcp_tool_binds_the_one_skill_that_wraps_it(tmp_path: Path) -> None:
    (tmp_path / "fx_server.py").write_text(FX_SERVER)
    (tmp_path / "mcp.json").write_text(json.dumps(
        {"mcpServers": {"fx": {"command": sys.executable, "args": [str(tmp_path / "fx_server.py")]}}}))
    wrapper = tmp_path / "skills" / "get-fx-rate"
    wrapper.mkdir(parents=True)
    (wrapper / "SKILL.md").write_text(
        "---\nname: get-fx-rate\ndescription: Exchange rates from the fx server.\nmetadata:\n"
        "  skillweave.kind: mcp\n  skillweave.server: fx\n  skillweave.tool: get_rate\n---\nCall get_rate.\n")
    script_skill(tmp_path, "convert-amount", "Multiply an amount by a rate.",
                 "out = {'converted': round(data['amount'] * data['rate'], 2)}")
    spec = tmp_path / "convert.md"
    spec.write_text(MCP_SPEC)

    validate = skillweave("validate", spec, cwd=tmp_path)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    step = steps_of(plan_json(spec))["step-1"]
    assert step["skill"] == "get-fx-rate"
    assert step["provenance"]["skill"] == {
        "source": "spec", "where": f"{spec}:11",
        "note": "the tool `get_rate` is wrapped by skill get-fx-rate (fx/get_rate)"}

    run = run_json(spec, "base=EUR", "quote=USD", "amount=10")
    assert run["status"] == "succeeded"
    assert run["outputs"]["step-2"] == {"converted": 12.5}


# --- 5. a runbook naming its skills in sentences ------------------------------------------

RUNBOOK_SPEC = """\
# Mirror pull

## Inputs
- package (string)
- version (string)

## Runbook

### Step 1: Pull the tarball
Pull the tarball from the primary mirror using `fetch-tarball`. Give it 60 seconds.
It gives back the `tarball`.

### Step 2: List the files
Once it is there, list what is inside with `list-files` (tarball -> `files`).

### Step 3: Publish
Publish the file list with `publish-files`. It returns the `url`.
"""


def test_a_runbook_naming_its_skill_in_a_sentence_binds_it(tmp_path: Path) -> None:
    names = {"type": "object", "properties": {"package": {"type": "string"}, "version": {"type": "string"}},
             "required": ["package", "version"]}
    script_skill(tmp_path, "fetch-tarball", "Fetch a package's tarball.",
                 "out = {'tarball': data['package'] + '-' + data['version'] + ':a.py,b.py'}", names)
    script_skill(tmp_path, "list-files", "List the files of a tarball.",
                 "out = {'files': data['tarball'].split(':')[1].split(',')}",
                 {"type": "object", "properties": {"tarball": {"type": "string"}}, "required": ["tarball"]})
    script_skill(tmp_path, "publish-files", "Publish a file list.",
                 "out = {'url': 'https://index.example/' + str(len(data['files']))}",
                 {"type": "object", "properties": {"files": {"type": "array"}}, "required": ["files"]})
    spec = tmp_path / "pull.md"
    spec.write_text(RUNBOOK_SPEC)

    validate = skillweave("validate", spec, cwd=tmp_path)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    steps = steps_of(plan_json(spec))
    assert [s["skill"] for s in steps.values()] == ["fetch-tarball", "list-files", "publish-files"]
    assert {s["provenance"]["skill"]["note"] for s in steps.values()} == {"named in backticks in the step's text"}
    assert steps["step-1"]["provenance"]["skill"]["where"] == f"{spec}:10"
    assert steps["step-2"]["depends_on"] == ["step-1"]

    run = run_json(spec, "package=leftpad", "version=1.3.0")
    assert run["status"] == "succeeded"
    assert run["outputs"]["step-3"] == {"url": "https://index.example/2"}
