"""What the foreign-corpus e2e tests share: the real `skillweave` run, expect.yaml, the plan.

A corpus is a folder of `tests/fixtures/` whose sub-folders each hold a spec written by an
outsider, its `skills/`, and `expect.yaml` saying what its author meant (the steps, their
skills, dependencies by step number, input sources in words, the run's inputs and final
output). Its test goes through the real executable and compares the plan JSON and the run
with that file. What each corpus checks, and what it lists as not there yet with the
reason (a listed failure that starts passing must leave its list), stays in its test;
the runner, the readers and the checks that do not differ between corpora live here.

A new corpus (say `foreign-specs-holdout4`) is written like this::

    from foreign_kit import FIXTURES, assert_validates, expectation, final_output, folders_of, run_to_the_end

    HOLDOUT = FIXTURES / "foreign-specs-holdout4"
    FOLDERS = folders_of(HOLDOUT)
    KNOWN: dict[str, str] = {}  # folder -> why it does not validate yet

    @pytest.mark.parametrize("folder", FOLDERS)
    def test_a_fourth_holdout_spec_validates(folder: str) -> None:
        assert_validates(HOLDOUT / folder / expectation(HOLDOUT / folder)["spec"], known=folder in KNOWN)

    @pytest.mark.parametrize("folder", [f for f in FOLDERS if f not in KNOWN])
    def test_a_fourth_holdout_spec_runs_to_its_authors_final_output(folder: str, tmp_path: Path) -> None:
        expected = expectation(HOLDOUT / folder)
        result = run_to_the_end(HOLDOUT / folder / expected["spec"], expected["inputs"], tmp_path)
        assert final_output(result) == expected["final_output"]

Its plan test reads `plan_json(spec)["steps"]` against `expected["steps"]`: dependencies
through `reduce_dependencies` on both sides, each input's source in words ("workflow input
x", "each item's field f", "step 2 output f", "all results of step 4, gathered") through
`meant_binding`, a policy's line through `provenance_lines`, a policy's meaning through
`policy_misses` (what of expect.yaml's `meaning` the step's policy does not hold). A corpus of one spec whose
tests all read its plan plans it once a module: `plan = plan_fixture(SPEC)` at module
level, then `def test_...(plan: dict[str, Any])`; being module-scoped, it keeps the
module's tests on one xdist worker (`tests/conftest.py`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))

# expect.yaml's skill_named_how -> what the plan's skill provenance note starts with
# (the first corpus and the first holdout; later corpora name their own ways)
SKILL_NAMED_HOW: dict[str, tuple[str, ...]] = {
    "bullet": ("named",),
    "yaml": ("named",),
    "table": ("named",),
    "backticks-in-sentence": ("named in backticks in the step's text",),
    "description-only": ("matched ",),
    "mcp-tool-name": ("the tool `",),
}


# commands that read and print only: run in the test's process through the same click command (0.15 s a
# call against 0.6 s for a process start and its imports; the suite makes about a thousand such calls)
IN_PROCESS = frozenset({"validate", "plan"})


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The real `skillweave` with these arguments, from the repository root; never raises on exit.
    `validate` and `plan` run in this process unless SKILLWEAVE_E2E_PROCESS=1; every other command, a
    process of its own (runs, resumes and approvals keep their real process, signals and exit)."""
    if args[:1] and args[0] in IN_PROCESS and os.environ.get("SKILLWEAVE_E2E_PROCESS") != "1":
        return _in_process(list(args), timeout)
    return subprocess.run([SKILLWEAVE, *args], capture_output=True, text=True, timeout=timeout, cwd=REPO,
                          check=False)


def run_report(spec: Path, state: Path | str, *args: str) -> tuple[int, dict[str, Any]]:
    """`skillweave run SPEC ARGS --json --state-dir STATE` for real: its exit code and its JSON report."""
    ran = run("run", str(spec), *args, "--json", "--state-dir", str(state))
    return ran.returncode, json.loads(ran.stdout)


def _in_process(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """`skillweave ARGS` through click's runner, as a process would end: an escaped exception is exit 1 with its
    traceback on stderr (what the tests that forbid tracebacks look for), a reader past `timeout` raises
    `subprocess.TimeoutExpired` (an alarm: the xdist workers run tests on their main thread)."""
    from click.testing import CliRunner

    from orchestrator.cli import cli

    def _expired(_sig: int, _frame: object) -> None:
        raise subprocess.TimeoutExpired([SKILLWEAVE, *args], timeout)

    before = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.chdir(REPO):
            got = CliRunner().invoke(cli, args, prog_name="skillweave")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    if isinstance(got.exception, subprocess.TimeoutExpired):
        raise got.exception
    stderr = got.stderr
    if got.exception is not None and not isinstance(got.exception, SystemExit) and got.exc_info is not None:
        stderr += "".join(traceback.format_exception(*got.exc_info))
    return subprocess.CompletedProcess([SKILLWEAVE, *args], got.exit_code, got.stdout, stderr)


class _WordKeys(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]  # libyaml parses, as fast as 10x
    """YAML as the authors wrote it: a mapping key stays the word written (`off:`, `no:`, `on:`), where
    YAML 1.1 makes it a bool; a value such as `runnable: no` is still one."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        for key, _value in node.value:
            if key.tag == "tag:yaml.org,2002:bool" and not key.style and key.value.lower() not in ("true", "false"):
                key.tag = "tag:yaml.org,2002:str"
        return super().construct_mapping(node, deep=deep)


_WordKeys.add_constructor("tag:yaml.org,2002:map", _WordKeys.construct_yaml_map)


def expectation(folder: Path) -> dict[str, Any]:
    """The folder's expect.yaml: what the spec's author meant."""
    data = yaml.load((folder / "expect.yaml").read_text(encoding="utf-8"), Loader=_WordKeys)
    assert isinstance(data, dict), f"{folder / 'expect.yaml'}: not a mapping"
    return data


def folders_of(corpus: Path) -> list[str]:
    """The corpus's spec folders (those with an expect.yaml), sorted."""
    return sorted(p.name for p in corpus.iterdir() if (p / "expect.yaml").is_file())


def plan_json(spec: Path, *extra: str) -> dict[str, Any]:
    """`skillweave plan SPEC --format json` (and `extra` arguments), which must succeed, parsed."""
    done = run("plan", str(spec), "--format", "json", *extra)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert isinstance(data, dict)
    return data


_PLANNED: dict[Path, dict[str, Any]] = {}


def folder_plan(corpus: Path, folder: str) -> dict[str, Any]:
    """`plan_json` of a corpus folder's spec, planned once for the test process."""
    if (corpus / folder) not in _PLANNED:
        _PLANNED[corpus / folder] = plan_json(corpus / folder / expectation(corpus / folder)["spec"])
    return _PLANNED[corpus / folder]


def plan_fixture(spec: Path) -> Callable[[], dict[str, Any]]:
    """A module-scoped fixture `plan`: the spec's plan JSON, planned once for the module.

    Bind it to the name `plan` in the test module: `plan = plan_fixture(SPEC)`.
    """

    @pytest.fixture(scope="module", name="plan")
    def plan() -> dict[str, Any]:
        return plan_json(spec)

    return plan


def line_of(where: str | None) -> int:
    """The line of a provenance `where` (`file:line`); 0 when it has none."""
    tail = (where or "").rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def reduce_dependencies(deps: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """Each step's dependencies without those another of them already depends on.

    "Depends on 3 and 4" where 4 depends on 3 orders the run as "depends on 4" does, so
    the plan and the author's expectation are compared after this reduction on both sides.
    """

    def above(sid: str, seen: set[str]) -> set[str]:
        for d in deps.get(sid, set()):
            if d not in seen:
                seen.add(d)
                above(d, seen)
        return seen

    return {sid: {d for d in ds if not any(d in above(o, set()) for o in ds if o != d)} for sid, ds in deps.items()}


def meant_binding(said: str, ids: Mapping[int, str]) -> dict[str, str]:
    """The keys of a plan input binding that an expect.yaml source in words fixes, with their values.

    `ids` maps the author's step numbers to the plan's step ids. "workflow input x" is the
    input x; "each item's field f" the item's /f; "all results of step N, gathered" all of
    N's results; any other ("step N output f") the field f of step N's output. A test
    compares these keys: `{k: binding.get(k) for k in meant} == meant`.
    """
    words = said.split()
    if said.startswith("workflow input"):
        return {"source": "input", "name": words[-1]}
    if "each item's field" in said:
        return {"source": "item", "pointer": f"/{words[-1]}"}
    if said.startswith("all results of step"):
        return {"source": "step", "step": ids[int(words[4].rstrip(","))], "pointer": ""}
    return {"source": "step", "step": ids[int(words[1])], "pointer": f"/{words[-1]}"}


def assert_validates(spec: Path, *, known: bool = False) -> None:
    """`skillweave validate SPEC --json` exits 0; a spec `known` not to validate yet (listed
    with its reason) must still exit 2 with errors: once fixed, it must leave its list."""
    result = run("validate", str(spec), "--json")
    report = json.loads(result.stdout)
    if known:
        assert result.returncode == 2 and report["errors"], "fixed: remove it from KNOWN"
        return
    assert result.returncode == 0, report["errors"]


def assert_named_steps_as_meant(steps: list[dict[str, Any]], meant: list[dict[str, Any]], *,
                                field_pointers: bool = True) -> dict[int, str]:
    """The plan's steps are the expect.yaml steps named there (`name`, `number`), in order, each
    with its skill, dependencies among those meant, and every input from the source meant
    (`meant_binding`; without `field_pointers`, "step N output f" checks the step, not f).
    The author's step numbers -> the plan's step ids."""
    assert [s["id"] for s in steps] == [m["name"] for m in meant]
    ids = {m["number"]: m["name"] for m in meant}
    for step, m in zip(steps, meant, strict=True):
        assert step["skill"] == m["skill"], m["name"]
        assert set(step["depends_on"]) <= {ids[n] for n in m["depends_on"]}, (m["name"], step["depends_on"])
        for name, said in m["inputs"].items():
            bound, wanted = step["inputs"][name], meant_binding(said, ids)
            if not field_pointers and wanted["source"] == "step" and wanted["pointer"]:
                del wanted["pointer"]
            assert {k: bound[k] for k in wanted} == wanted, name
    return ids


def provenance_lines(step: Mapping[str, Any]) -> dict[str, int]:
    """A plan step's provenance keys -> the line each was read at (0 where none is known)."""
    return {k: line_of(v["where"]) for k, v in step["provenance"].items()}


def run_to_the_end(spec: Path, inputs: Any, tmp_path: Path, *extra: str) -> dict[str, Any]:
    """`skillweave run SPEC --json` with these inputs (a file in tmp_path, the state beside it),
    which must exit 0 with status `succeeded`; its JSON report."""
    file = tmp_path / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    ran = run("run", str(spec), "--input-file", str(file), "--json", "--state-dir", str(tmp_path / "state"), *extra)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    result = json.loads(ran.stdout)
    assert isinstance(result, dict)
    assert result["status"] == "succeeded"
    return result


def last_step_with_output(result: Mapping[str, Any], *, null_is_none: bool = False) -> str:
    """The id of the last step, in plan order, that has an output in a run's JSON report
    (with `null_is_none`, an output that is null counts as none)."""
    outputs = result["outputs"]
    done = [s["step_id"] for s in result["steps"]
            if s["step_id"] in outputs and not (null_is_none and outputs[s["step_id"]] is None)]
    assert done, result
    step: str = done[-1]
    return step


def final_output(result: Mapping[str, Any], *, null_is_none: bool = False) -> Any:
    """The output of the last step, in plan order, that has one: what the author calls the final output."""
    return result["outputs"][last_step_with_output(result, null_is_none=null_is_none)]


def _went_on_with(fallback: dict[str, Any]) -> Any:
    """A default fallback's value as an expect.yaml says it: each part carried from earlier data
    (`plan.carry_ref31`) as "step N output FIELD" (with "'s ITEM" for each item's field) or "workflow input X"."""
    value = fallback.get("value")
    for c in fallback.get("carry") or ():
        if c.get("step"):
            field = c["pointer"].strip("/").replace("/", ".")
            said = f"step {c['step'].rpartition('-')[2]} output {field}" + (f"' {c['each']}s" if c.get("each") else "")
        else:
            said = f"workflow input {c.get('input')}"
        value = {**(value or {}), c["field"]: said} if c.get("field") else said
    return value


# expect.yaml's `on_silence` -> the plan approval's `on_timeout` that does it
ON_SILENCE = {"reject": "reject", "fail": "reject", "proceed": "approve", "skip": "skip"}


def policy_misses(policy: dict[str, Any], meaning: dict[str, Any]) -> list[str]:
    """What of `meaning` the step's policy (its own fields, or one rule of it) does not hold; an approval's wait
    said as a policy line (`approval_timeout_s`, `on_silence`) is the step's approval's `timeout_s` and `on_timeout`."""
    places = [policy, *policy["rules"]]
    approval = policy.get("approval") or {}
    missing = [k for k, v in (("approval_timeout_s", approval.get("timeout_s")), ("on_silence", approval.get("on_timeout")))
               if k in meaning and v != (ON_SILENCE[meaning[k]] if k == "on_silence" else float(meaning[k]))]
    retries_of = [(p.get("retry") or {}) for p in places]
    if "timeout_s" in meaning and not any(p.get("attempt_timeout_s") == meaning["timeout_s"] for p in places):
        missing.append("timeout_s")
    retries = 0 if meaning.get("no_retry") else meaning.get("retries")
    if retries is not None and not any(r.get("max_retries") == retries for r in retries_of):
        missing.append("retries")
    wait = meaning.get("wait") or {}
    if wait.get("kind") in ("list", "fixed"):
        seconds = [float(s) for s in (wait["seconds"] if wait["kind"] == "list" else [wait["seconds"]])]
        if not any(r.get("delays_s") == seconds or (r.get("multiplier") == 1.0 and [r.get("initial_s")] == seconds)
                   for r in retries_of):
            missing.append("wait")
    if wait.get("kind") == "exponential":
        start, factor = float(wait.get("start", 1)), float(wait.get("factor", 2))
        if not any((r.get("initial_s") == start and not r.get("delays_s"))
                   or _the_doubling_written_out(r.get("delays_s"), start, factor, wait.get("max")) for r in retries_of):
            missing.append("exponential wait")
        if "max" in wait and not any(r.get("max_delay_s") == float(wait["max"]) for r in retries_of):
            missing.append("backoff cap")
    if "for_up_to_s" in meaning and not any(r.get("budget_s") == float(meaning["for_up_to_s"]) for r in retries_of):
        missing.append("for_up_to_s")
    fallbacks = [p["fallback"] for p in places if p.get("fallback")]
    kind = (meaning.get("on_failure") or {}).get("kind")
    if "continue_with_value" in meaning:
        if not any(f["action"] == "default" and _went_on_with(f) == meaning["continue_with_value"] for f in fallbacks):
            missing.append("continue_with_value")
    elif kind == "fallback":
        if not any(f["action"] == "skill" and f["skill"] == meaning["on_failure"]["skill"] for f in fallbacks):
            missing.append("fallback skill")
    elif kind in ("fail", "continue") and not any(f["action"] == kind for f in fallbacks):
        missing.append(f"on_failure {kind}")
    return missing


def _the_doubling_written_out(delays: list[float] | None, start: float, factor: float, cap: Any) -> bool:
    """Whether a list of waits ("5s then 10s then 20s") is the growing wait from `start` by `factor`
    (capped at `cap`) written out: the same waits, so the same behaviour."""
    if not delays:
        return False
    grown = [start * factor ** i for i in range(len(delays))]
    return delays == [min(g, float(cap)) if cap is not None else g for g in grown]


def policy_line_cases(holdout: Path, folders: list[str], known: Mapping[tuple[str, int, int], str]) -> list[Any]:
    """One `pytest.param(folder, step number, line, meaning)` per policy line of each folder's expect.yaml;
    `known` ((folder, line, n-th policy of that line) -> why) marks a line not read as meant yet, as a strict xfail."""
    cases = []
    for folder in folders:
        for step in expectation(holdout / folder)["steps"]:
            seen: dict[int, int] = {}
            for policy in step["policies"]:
                case = (folder, step["number"], policy["line"], policy["meaning"])
                nth = seen[policy["line"]] = seen.get(policy["line"], -1) + 1
                why = known.get((folder, policy["line"], nth))
                marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
                cases.append(pytest.param(*case, marks=marks, id=f"{folder[:2]}-step{step['number']}-l{policy['line']}"))
    return cases


def run_inputs(meant: Mapping[str, Any], n: int) -> dict[str, Any]:
    """The inputs of run `n` of an expect.yaml (0: its `inputs`, n: the n-th of `more_runs`), a value
    "same" taken from the first run's, "same plus {item}" that list with the item added, and "same, but X
    has k: v" (or "X and Y both have k: v") that list with `k` set to `v` in each item naming X (or Y)."""
    given = dict(meant["inputs"] if n == 0 else meant["more_runs"][n - 1]["inputs"])
    return {k: _same_but(meant["inputs"][k], v) if v == "same" or str(v).startswith(("same plus {", "same, but ")) else v
            for k, v in given.items()}


def _same_but(first: Any, said: str) -> Any:
    """The first run's value as a later run's words change it (`run_inputs`)."""
    if said == "same":
        return first
    if m := re.fullmatch(r"same plus (\{.*\})", said):
        return [*first, yaml.safe_load(m[1])]
    m = re.fullmatch(r"same, but (\S+)(?: and (\S+) both)? ha(?:s|ve) (\w+): (.+)", said)
    assert m, f"run input {said!r}: not understood"
    named, field, value = {m[1], m[2]} - {None}, m[3], yaml.safe_load(m[4])
    return [{**item, field: value} if named & set(map(str, item.values())) else item for item in first]


def run_wanted(meant: Mapping[str, Any], n: int) -> Any:
    """The final output the author computed for run `n` of an expect.yaml (`final_output`, or
    `final_output_after_approval` where the run's approval is granted first)."""
    said = meant if n == 0 else meant["more_runs"][n - 1]
    return said["final_output"] if "final_output" in said else said["final_output_after_approval"]


class RunReports:
    """`skillweave run --json` of each (folder, run) case, made on first use under `base`; a refusal is
    `{"status": "refused", "error": ...}`."""

    def __init__(self, base: Path, spec_of: Callable[[str], Path], expect: Callable[[str], Mapping[str, Any]]) -> None:
        self._base, self._spec_of, self._expect = base, spec_of, expect
        self._made: dict[tuple[str, int], dict[str, Any]] = {}

    def __call__(self, folder: str, n: int) -> dict[str, Any]:
        if (folder, n) not in self._made:
            where = self._base / f"{folder.split('-', 1)[0]}-{n}"
            where.mkdir()
            (where / "inputs.json").write_text(json.dumps(run_inputs(self._expect(folder), n)), encoding="utf-8")
            done = run("run", str(self._spec_of(folder)), "--input-file", str(where / "inputs.json"), "--json",
                       "--state-dir", str(where / "state"))
            got = json.loads(done.stdout)
            self._made[(folder, n)] = got if "status" in got else {"status": "refused", "error": got["error"]}
        return self._made[(folder, n)]


def assert_ends_as_meant(report: Mapping[str, Any], wanted: Any, not_a_success: str | None) -> None:
    """The run ended with its author's final output, and with an honest status: `succeeded` unless
    `not_a_success` says why not, and never `succeeded` with another output."""
    ended = final_output(report) if report.get("outputs") else None
    if report["status"] == "succeeded":
        assert not_a_success is None, not_a_success
        assert ended == wanted
    assert ended == wanted, (report["status"], report.get("error"))
    assert (report["status"] == "succeeded") == (not_a_success is None), report["status"]


def output_schema_skill(root: Path, name: str, outputs: Mapping[str, str]) -> None:
    """A script skill under `root/skills/name` that declares only its output fields and their types
    (enough for `skillweave plan` to place a condition's names)."""
    folder = root / "skills" / name
    (folder / "schemas").mkdir(parents=True)
    schema = {"type": "object", "properties": {k: {"type": t} for k, t in outputs.items()}}
    (folder / "schemas" / "output.json").write_text(json.dumps(schema), encoding="utf-8")
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {name} for the tests\nmetadata:\n  skillweave.kind: script\n"
        "  skillweave.output-schema: schemas/output.json\n---\n\nDoes it.\n", encoding="utf-8")


def script_skill(root: Path, name: str, what: str, io: str, body: str) -> None:
    """A script skill under `root/skills/name`: its SKILL.md says `what` it does and its inputs and
    outputs in words (`io`), and `body` is its `scripts/main.py`."""
    folder = root / "skills" / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f'---\nname: {name}\ndescription: "{what}"\nmetadata:\n  skillweave.kind: script\n'
        f"  skillweave.entry: scripts/main.py\n---\n{io}\n", encoding="utf-8")
    (folder / "scripts" / "main.py").write_text(body, encoding="utf-8")


def write_script_skills(root: Path, skills: dict[str, tuple[str, str, str, str]]) -> None:
    """Script skills under `root / "skills"`: name -> (description, inputs in words, outputs in words, the body of a
    main.py that reads the JSON object `d` from stdin and sets `out`, printed as JSON)."""
    for name, (what, takes, gives, body) in skills.items():
        folder = root / "skills" / name
        (folder / "scripts").mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: \"{what}\"\nmetadata:\n  skillweave.kind: script\n"
            f"  skillweave.entry: scripts/main.py\n---\nInputs: {takes}.\n\nOutputs: {gives}.\n", encoding="utf-8")
        (folder / "scripts" / "main.py").write_text(
            "import json, sys\nd = json.load(sys.stdin)\n" + body + "\nprint(json.dumps(out))\n", encoding="utf-8")


_PROSE_SKILL = """---
name: {name}
description: "{name} for the {purpose}."
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
---
Inputs: {inputs}. Outputs: {outputs}.
"""


def prose_skills(root: Path, skills: Mapping[str, tuple[str, str, str]], purpose: str) -> None:
    """Script skills under `root/skills` whose SKILL.md says its inputs and outputs in prose only, as a
    stranger's skills do: name -> (inputs, outputs, the script's line after `d = json.load(sys.stdin)`)."""
    for name, (inputs, outputs, line) in skills.items():
        folder = root / "skills" / name
        (folder / "scripts").mkdir(parents=True)
        (folder / "SKILL.md").write_text(_PROSE_SKILL.format(name=name, purpose=purpose, inputs=inputs,
                                                             outputs=outputs), encoding="utf-8")
        (folder / "scripts" / "main.py").write_text(f"import json,sys\nd=json.load(sys.stdin)\n{line}\n",
                                                    encoding="utf-8")


def checked_schema(plan: Mapping[str, Any], step: Mapping[str, Any]) -> dict[str, Any]:
    """The step's output schema with the run's success checks on its output (`plan.run_checks`, evaluated
    after the run) merged in: each checked field's keywords under `properties`, its name under `required`."""
    schema = dict(step.get("output_schema") or {})
    props, required = dict(schema.get("properties") or {}), list(schema.get("required") or [])
    for check in plan.get("run_checks") or []:
        if check["step"] == step["id"]:
            for name, keywords in (check["schema"].get("properties") or {}).items():
                props[name] = {**(props.get(name) or {}), **keywords}
            required += [r for r in check["schema"].get("required") or [] if r not in required]
    return {**schema, "properties": props, "required": required}
