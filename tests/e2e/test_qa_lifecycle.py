"""QA: a run's lifecycle through real `skillweave` processes.

Approval gates (pause, approve/reject from another process, timeouts decided at
resume), convergence limits from a spec, recovery through real sandboxed
scripts (retries with backoff, on_error continue, fallbacks, compensations),
reports (md / json / html / mermaid) and resume edge cases (changed skill,
finished run, a run held by another process, state directories, another cwd).

The skills are written into each test's tmp_path, beside its spec, so the
catalog finds them as `skills/` next to the spec.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.engine_plans import read_events, sandboxes_under

pytestmark = [pytest.mark.e2e]

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))

# -- skills -------------------------------------------------------------------------

_ACT = """\
import json, os, sys, time
d = json.load(sys.stdin)
mode = d.get("mode", "ok")
attempt = int(os.environ.get("SKILLWEAVE_ATTEMPT", "1"))
if mode == "fail":
    print("qa: boom", file=sys.stderr)
    sys.exit(1)
if mode == "hang":
    while True:
        pass
if mode == "slow_until" and attempt < int(d.get("n", 2)):
    time.sleep(60)
if mode == "sleep":
    time.sleep(float(d.get("s", 1)))
if mode == "gate":  # waits (up to 60 s) for a file named open in its gate folder, which the test makes
    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(d["gate"], "open")):
        if time.monotonic() > deadline:
            print("qa: the gate never opened", file=sys.stderr)
            sys.exit(1)
        time.sleep(0.05)
step = os.environ.get("SKILLWEAVE_STEP_ID", "?")
json.dump({"value": int(d.get("value") or 0) + 1, "msg": str(d.get("msg") or "") + "|" + step}, sys.stdout)
"""
_ACT_OUT = {
    "type": "object",
    "properties": {"value": {"type": "integer"}, "msg": {"type": "string"}},
    "required": ["value", "msg"],
}
# echoes the JSON type of what it was given, so a test can see a `null` input
_ALT = """\
import json, sys
d = json.load(sys.stdin)
if not isinstance(d, dict):
    print("qa-alt got " + type(d).__name__, file=sys.stderr)
    sys.exit(1)
json.dump({"value": int(d.get("value") or 0) * 10, "msg": "alt"}, sys.stdout)
"""
_UNDO = """\
import json, sys
d = json.load(sys.stdin)
json.dump({"undone": d["step"]}, sys.stdout)
"""
_UNDO_FAIL = """\
import json, sys
d = json.load(sys.stdin)
print("undo failed for " + d["step"], file=sys.stderr)
sys.exit(1)
"""


def _skill(root: Path, name: str, code: str, *, output_schema: dict[str, Any] | None = None) -> None:
    folder = root / "skills" / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "scripts" / "main.py").write_text(code)
    extra = ""
    if output_schema is not None:
        (folder / "schemas").mkdir()
        (folder / "schemas" / "output.json").write_text(json.dumps(output_schema))
        extra = "  skillweave.output-schema: schemas/output.json\n"
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: QA skill {name}.\nmetadata:\n"
        f"  skillweave.kind: script\n  skillweave.entry: scripts/main.py\n{extra}"
        '  skillweave.timeout: "20"\n---\nQA skill.\n'
    )


def _workspace(root: Path, spec_name: str, spec: str) -> Path:
    _skill(root, "qa-act", _ACT, output_schema=_ACT_OUT)
    _skill(root, "qa-alt", _ALT, output_schema=_ACT_OUT)
    _skill(root, "qa-undo", _UNDO)
    _skill(root, "qa-undo-fail", _UNDO_FAIL)
    path = root / spec_name
    path.write_text(spec)
    return path


# -- running ------------------------------------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SKILLWEAVE_STATE", "ANTHROPIC_")) and k != "SKILLWEAVE_SKILLS_PATH"
    }
    env.update(extra)
    return env


def sw(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [SKILLWEAVE, *map(str, args)], cwd=cwd, env=env or _env(), capture_output=True, text=True,
        timeout=timeout, check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _run_id(done: subprocess.CompletedProcess[str]) -> str:
    return str(json.loads(done.stdout)["run_id"])


def _show(cwd: Path, run_id: str, *extra: str) -> dict[str, Any]:
    done = sw("runs", "show", run_id, "--format", "json", *extra, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _steps(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["step_id"]: s for s in report["steps"]}


# -- approvals ----------------------------------------------------------------------

GATE = """\
name: gate
inputs:
  start: {type: integer}
steps:
  - id: prep
    skill: qa-act
    input: {value: "{{ inputs.start }}", msg: "héllo ✓"}
    compensation: qa-undo
  - id: publish
    skill: qa-act
    depends_on: [prep]
    input: {value: "{{ steps.prep.output.value }}", msg: "{{ steps.prep.output.msg }}"}
    approval: {required: true}
  - id: after
    skill: qa-act
    depends_on: [publish]
    input: {value: "{{ steps.publish.output.value }}"}
"""


def test_a_gate_pauses_with_how_to_go_on_and_only_the_waiting_step_can_be_decided(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "gate.yaml", GATE)
    run = sw("run", spec, "--input", "start=1", cwd=tmp_path)
    assert run.returncode == 3, run.stderr
    run_id = re.search(r"run (\S+)\s+paused", run.stdout).group(1)  # type: ignore[union-attr]
    assert f"skillweave approve {run_id} publish" in run.stdout
    assert f"skillweave resume {run_id}" in run.stdout

    wrong = {
        ("prep",): "not awaiting approval (awaiting: publish)",
        ("nosuch",): "has no step 'nosuch'",
    }
    for (step,), message in wrong.items():
        done = sw("approve", run_id, step, cwd=tmp_path)
        assert done.returncode == 2 and message in done.stderr, (step, done.stderr)
    done = sw("approve", "no-such-run", "publish", cwd=tmp_path)
    assert done.returncode == 2 and "no run 'no-such-run'" in done.stderr

    comment = "ok «ünï» 🚀 | `tick` <b>"
    done = sw("approve", run_id, "publish", "--comment", comment, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"run_id": run_id, "step": "publish", "approved": True, "comment": comment}
    for again in (("publish",), ("publish", "--reject")):  # decided once: a second decision is refused
        done = sw("approve", run_id, *again, cwd=tmp_path)
        assert done.returncode == 2 and "not awaiting approval" in done.stderr

    resumed = sw("resume", run_id, "--json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outputs"]["after"]["value"] == 4

    report = _show(tmp_path, run_id)
    approval = _steps(report)["publish"]["approval"]
    assert approval is not None and comment in json.dumps(approval, ensure_ascii=False)
    md = sw("runs", "show", run_id, cwd=tmp_path).stdout
    assert "approved by cli" in md and "ok «ünï» 🚀" in md
    assert len(report["sessions"]) == 2 and report["sessions"][1]["resumed"] is True


@pytest.mark.parametrize("policy", ["reject", "approve", "skip"])
def test_a_gate_timeout_passed_while_no_process_ran_is_decided_at_resume(tmp_path: Path, policy: str) -> None:
    spec = _workspace(tmp_path, "gate.yaml", f"""\
name: gate-{policy}
steps:
  - id: prep
    skill: qa-act
    input: {{value: 1}}
    compensation: qa-undo
  - id: publish
    skill: qa-act
    depends_on: [prep]
    input: {{value: "{{{{ steps.prep.output.value }}}}"}}
    approval: {{required: true, timeout: 1s, on_timeout: {policy}}}
""")
    run = sw("run", spec, "--json", cwd=tmp_path)
    assert run.returncode == 3, run.stderr
    run_id = _run_id(run)
    time.sleep(1.5)  # the deadline passes with no process running the run
    late = sw("approve", run_id, "publish", cwd=tmp_path)
    assert late.returncode == 2 and "timed out" in late.stderr and f"skillweave resume {run_id}" in late.stderr

    resumed = sw("resume", run_id, "--json", cwd=tmp_path)
    summary = json.loads(resumed.stdout)
    steps = _steps(_show(tmp_path, run_id))
    assert "timeout" in json.dumps(steps["publish"]["approval"])
    if policy == "approve":
        assert resumed.returncode == 0 and summary["status"] == "succeeded"
        assert summary["outputs"]["publish"]["value"] == 3
    elif policy == "skip":  # silence skips the step, as its own false condition would: nothing to undo
        assert resumed.returncode == 0 and summary["status"] == "succeeded", resumed.stdout
        assert steps["publish"]["status"] == "skipped" and summary["outputs"].get("publish") is None
        assert "no approval within 1s" in json.dumps(steps["publish"])
        assert not summary.get("compensations")
    else:
        assert resumed.returncode == 1 and summary["status"] == "failed"
        assert "no decision within 1s" in summary["error"]["message"]
        assert summary["compensations"] == ["prep: finished"]  # the saga undid prep


def test_a_rejected_gate_uses_the_default_fallback_and_the_run_goes_on(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "rej.yaml", """\
name: rej
steps:
  - id: prep
    skill: qa-act
    input: {value: 1}
  - id: publish
    skill: qa-act
    depends_on: [prep]
    input: {value: "{{ steps.prep.output.value }}"}
    approval: {required: true}
    fallback: {default: {value: 99, msg: defaulted}}
  - id: after
    skill: qa-act
    depends_on: [publish]
    input: {value: "{{ steps.publish.output.value }}", msg: "{{ steps.publish.output.msg }}"}
""")
    run_id = _run_id(sw("run", spec, "--json", cwd=tmp_path))
    assert sw("approve", run_id, "publish", "--reject", "--comment", "no «way»", cwd=tmp_path).returncode == 0
    resumed = sw("resume", run_id, "--json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outputs"]["after"] == {"value": 100, "msg": "defaulted|after"}
    publish = _steps(_show(tmp_path, run_id))["publish"]
    assert publish["status"] == "defaulted"
    assert "no «way»" in json.dumps(publish["approval"], ensure_ascii=False)


def test_a_rejected_gate_hands_its_fallback_skill_the_step_input(tmp_path: Path) -> None:
    """BUG: on a rejected gate the fallback skill runs with `null` as its input
    (engine/scheduler.py execute_step passes payload None to `fallback`)."""
    spec = _workspace(tmp_path, "rejskill.yaml", """\
name: rejskill
steps:
  - id: publish
    skill: qa-act
    input: {value: 5}
    approval: {required: true}
    fallback: {skill: qa-alt}
""")
    run_id = _run_id(sw("run", spec, "--json", cwd=tmp_path))
    assert sw("approve", run_id, "publish", "--reject", cwd=tmp_path).returncode == 0
    resumed = sw("resume", run_id, "--json", cwd=tmp_path)
    summary = json.loads(resumed.stdout)
    assert "qa-alt got NoneType" not in json.dumps(summary), "the fallback skill was given null"
    assert resumed.returncode == 0 and summary["outputs"]["publish"] == {"value": 50, "msg": "alt"}


# -- recovery -----------------------------------------------------------------------

SAGA = """\
name: saga
steps:
  - id: a
    skill: qa-act
    input: {value: 1}
    compensation: qa-undo
  - id: b
    skill: qa-act
    depends_on: [a]
    input: {value: 2}
    compensation: qa-undo-fail
  - id: "c"
    skill: qa-act
    depends_on: [b]
    input: {value: 3}
    compensation: qa-undo
  - id: soft
    skill: qa-act
    depends_on: ["c"]
    input: {mode: fail}
    on_error: continue
  - id: alt
    skill: qa-act
    depends_on: ["c"]
    input: {mode: fail, value: 7}
    fallback: {skill: qa-alt}
  - id: flaky
    skill: qa-act
    depends_on: ["c"]
    input: {mode: slow_until, n: 3, value: 5}
    timeout: 1s
    retry: {max_attempts: 3, backoff: [0.5s, 1.5s]}
  - id: boom
    skill: qa-act
    depends_on: [soft, alt, flaky]
    input: {mode: fail}
"""


class _Strict(HTMLParser):
    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        else:
            self.errors.append(f"</{tag}> at {self.getpos()} inside {self.stack[-3:]}")


def test_recovery_paths_and_the_saga_through_real_scripts(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "saga.yaml", SAGA)
    run = sw("run", spec, "--json", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    summary = json.loads(run.stdout)
    run_id = summary["run_id"]
    assert summary["error"]["where"] == "boom/1"
    # compensations: reverse order of completion; the failing one is logged and the rest still run
    assert summary["compensations"] == ["c: finished", "b: failed", "a: finished"]
    assert summary["outputs"]["alt"] == {"value": 70, "msg": "alt"}  # the fallback skill, same input
    assert summary["outputs"]["flaky"] == {"value": 6, "msg": "|flaky"}  # third attempt
    assert "soft" not in summary["outputs"]

    report = _show(tmp_path, run_id)
    steps = _steps(report)
    assert steps["soft"]["status"] == "continued"
    assert [f["action"] for f in steps["alt"]["fallbacks"]] == ["skill"]
    flaky = steps["flaky"]
    assert (flaky["metrics"]["attempts"], flaky["metrics"]["retries"]) == (3, 2)
    assert [r["delay_s"] for r in flaky["retries"]] == [0.5, 1.5]
    assert {r["error_class"] for r in flaky["retries"]} == {"timeout"}
    comps = report["compensations"]
    assert [(c["step"], c["status"]) for c in comps] == [("c", "finished"), ("b", "failed"), ("a", "finished")]
    assert "undo failed for b" in comps[1]["message"]

    # the waits really happened: failure of attempt n → start of attempt n+1 ≥ its delay
    events = read_events(tmp_path / ".skillweave", run_id)
    failed = [d["ts"] for _, t, s, _, d in events if s == "flaky" and t == "attempt_failed"]
    started = [d["ts"] for _, t, s, _, d in events if s == "flaky" and t == "attempt_started"]
    assert len(failed) == 2 and len(started) == 3
    assert started[1] - failed[0] >= 0.5 - 0.01 and started[2] - failed[1] >= 1.5 - 0.01

    md = sw("runs", "show", run_id, cwd=tmp_path).stdout
    assert "classDef failed" in md and "classDef continued" in md and "classDef succeeded" in md
    assert re.search(r"class s_boom failed", md) and re.search(r"class s_soft continued", md)
    assert "## Compensations" in md and "undo failed for b" in md

    html_path = tmp_path / "r.html"
    assert sw("runs", "show", run_id, "--format", "html", "-o", html_path, cwd=tmp_path).returncode == 0
    parser = _Strict()
    parser.feed(html_path.read_text(encoding="utf-8"))
    parser.close()
    assert parser.errors == [] and parser.stack == []


def test_a_default_fallback_value_is_checked_against_the_output_contract(tmp_path: Path) -> None:
    """BUG: `fallback: {default: V}` stores V as the step's output without checking it
    against the step's output schema (engine/recovery.py `fallback`, no static check in
    plan/checks.py): a value of the wrong shape reaches the next step."""
    spec = _workspace(tmp_path, "baddef.yaml", """\
name: baddef
steps:
  - id: s1
    skill: qa-act
    input: {mode: fail}
    fallback: {default: {value: not-an-int}}
  - id: s2
    skill: qa-act
    depends_on: [s1]
    input: {value: "{{ steps.s1.output.value }}"}
""")
    checked = sw("validate", spec, cwd=tmp_path)
    if checked.returncode == 2:  # caught statically: fine
        assert "baddef.yaml:" in checked.stdout + checked.stderr
        return
    run = sw("run", spec, "--json", cwd=tmp_path)
    report = _show(tmp_path, _run_id(run))
    s1 = _steps(report)["s1"]
    assert s1["metrics"]["handoff_failed"] >= 1 or s1["violations"], "the default value was not checked"
    assert _steps(report)["s2"]["metrics"]["attempts"] == 0, "a default breaking the contract was handed on"


# -- convergence limits -------------------------------------------------------------


def test_max_total_attempts_holds_in_a_fan_out_wider_than_the_concurrency(tmp_path: Path) -> None:
    """BUG: the attempt limits are checked before the concurrency slot is taken
    (engine/recovery.py `_attempt`), so fan-out items queued on the slot all pass
    the check at 0 and the run makes 6 attempts under `max_total_attempts: 3`."""
    spec = _workspace(tmp_path, "total.yaml", """\
name: total
inputs:
  items: {type: array}
steps:
  - id: fan
    skill: qa-act
    for_each: "n in inputs.items"
    input: {value: "{{ n }}"}
limits:
  max_total_attempts: 3
  concurrency: 1
""")
    run = sw("run", spec, "--input", "items=[1,2,3,4,5,6]", "--json", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    summary = json.loads(run.stdout)
    assert summary["error"]["limit"] == "max_total_attempts"
    assert summary["totals"]["attempts"] <= 3, f"{summary['totals']['attempts']} attempts under a limit of 3"


def test_a_wall_time_limit_kills_a_looping_script_and_ends_the_run_cleanly(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "wall.yaml", """\
name: wall
steps:
  - id: prep
    skill: qa-act
    input: {value: 1}
    timeout: 1s
    compensation: qa-undo
  - id: spin
    skill: qa-act
    depends_on: [prep]
    input: {mode: hang}
    timeout: 1.5s
    retry: {max_attempts: 5, backoff: [0.1s]}
limits:
  wall_time: 3s
""")
    started = time.monotonic()
    run = sw("run", spec, "--json", cwd=tmp_path, timeout=30)
    assert time.monotonic() - started < 15
    assert run.returncode == 1, run.stderr
    summary = json.loads(run.stdout)
    assert summary["status"] == "failed" and summary["error"]["limit"] == "wall_time_s"
    assert summary["compensations"] == ["prep: finished"]
    deadline = time.monotonic() + 10
    while sandboxes_under(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sandboxes_under(tmp_path) == [], "a looping sandbox outlived its run"


def test_a_token_budget_ends_a_replayed_repair_cleanly(tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[2] / "specs" / "examples" / "repair-demo"
    if not demo.is_dir():
        pytest.skip("specs/examples/repair-demo is absent")
    import shutil

    for name in ("skills", "contacts.json", "repair-demo.replay.jsonl"):
        src = demo / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    text = (demo / "repair-demo.md").read_text(encoding="utf-8")
    (tmp_path / "tok.md").write_text(text.replace("- Wall time: 2 min", "- Wall time: 2 min\n- Token budget: 1000"))
    run = sw("run", "tok.md", "--input-file", "contacts.json", "--llm-replay", "repair-demo.replay.jsonl", "--json",
             cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    summary = json.loads(run.stdout)
    assert summary["error"]["limit"] == "max_llm_tokens" and "1000" in summary["error"]["message"]


@pytest.mark.parametrize(
    ("limits", "named"),
    [("max_regenerations_total: 1", "max_regenerations_total"), ("max_regenerations_per_step: 1", "max_regenerations_per_step")],
)
def test_a_regeneration_limit_ends_the_run_cleanly(tmp_path: Path, limits: str, named: str) -> None:
    from orchestrator.llm.fake import FakeMessagesAPI, tool_use_message

    spec = _workspace(tmp_path, "regen.yaml", f"""\
name: regen
steps:
  - id: s1
    skill: qa-act
    input: {{mode: fail}}
    regenerate: 3
limits:
  {limits}
""")
    bad = "import sys\nprint('still broken', file=sys.stderr)\nsys.exit(1)\n"
    answers = [tool_use_message("submit_script", {"summary": "try", "code": bad}, input_tokens=10, output_tokens=10)
               for _ in range(4)]
    with FakeMessagesAPI(answers) as api:  # a local stand-in for the Messages API: no key, no network
        env = _env(ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="fake-key")
        run = sw("run", spec, "--json", cwd=tmp_path, env=env)
        asked = len(api.requests)
    if named == "max_regenerations_per_step":  # 3 planned > 1 allowed: refused before anything runs
        assert run.returncode == 2 and "max_regenerations_per_step is 1" in run.stderr and asked == 0
        return
    assert run.returncode == 1, run.stderr
    summary = json.loads(run.stdout)
    assert summary["error"]["limit"] == named
    assert asked == 1 and summary["totals"]["regenerations"] == 1


# -- reports ------------------------------------------------------------------------


def test_unicode_and_markup_in_names_survive_every_report_format(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "uni.md", """\
# Ünïcode «Test» Workflow

## Intent
Odd names.

## Inputs
- value (integer): a number

## Workflow Steps

### Step 1: Prépare — «données» <script>alert(1)</script> | pipe `tick` "quote"
- Skill: `qa-act`
- Input: value
- Output: value (integer), msg (string)

### Step 2: 日本語 ステップ 🚀 & [brackets]
- Skill: `qa-act`
- Input: step-1.value
- Output: value (integer), msg (string)
""")
    run = sw("run", spec, "--input", "value=1", "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    run_id = _run_id(run)
    report = _show(tmp_path, run_id)
    assert _steps(report)["step-2"]["name"] == "日本語 ステップ 🚀 & [brackets]"
    md = sw("runs", "show", run_id, cwd=tmp_path).stdout
    assert "<script>" not in md.split("```mermaid")[0]
    html_path = tmp_path / "r.html"
    assert sw("runs", "show", run_id, "--format", "html", "-o", html_path, cwd=tmp_path).returncode == 0
    html = html_path.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html and "日本語 ステップ 🚀" in html
    parser = _Strict()
    parser.feed(html)
    parser.close()
    assert parser.errors == [] and parser.stack == []


# -- resume edge cases --------------------------------------------------------------


def test_resume_refuses_a_finished_run_and_a_changed_skill_unless_forced(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "gate.yaml", GATE)
    first = _run_id(sw("run", spec, "--input", "start=1", "--json", cwd=tmp_path))
    second = _run_id(sw("run", spec, "--input", "start=1", "--json", cwd=tmp_path))
    for run_id in (first, second):
        assert sw("approve", run_id, "publish", cwd=tmp_path).returncode == 0
    assert sw("resume", first, cwd=tmp_path).returncode == 0
    again = sw("resume", first, cwd=tmp_path)
    assert again.returncode == 2 and "already succeeded; nothing to resume" in again.stderr

    with (tmp_path / "skills" / "qa-act" / "scripts" / "main.py").open("a") as fh:
        fh.write("# changed\n")
    refused = sw("resume", second, cwd=tmp_path)
    assert refused.returncode == 2 and "changed since it started: skill qa-act" in refused.stderr
    assert sw("resume", second, "--force", cwd=tmp_path).returncode == 0


def test_resume_is_refused_while_another_process_runs_the_run(tmp_path: Path) -> None:
    # the step waits for a gate the test opens only after the refusal: it cannot end first under load
    spec = _workspace(tmp_path, "slow.yaml", """\
name: slow
inputs:
  gate: {type: string, format: path}
steps:
  - id: s1
    skill: qa-act
    input: {mode: gate, gate: "{{ inputs.gate }}"}
""")
    gate = tmp_path / "gate"
    gate.mkdir()
    proc = subprocess.Popen([SKILLWEAVE, "run", str(spec), "--input", f"gate={gate}", "--json"], cwd=tmp_path, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        state = tmp_path / ".skillweave"
        deadline = time.monotonic() + 15
        run_id = None
        while time.monotonic() < deadline:
            runs = list((state / "runs").glob("*")) if (state / "runs").is_dir() else []
            if runs and any(t == "attempt_started" for _, t, *_ in read_events(state, runs[0].name)):
                run_id = runs[0].name
                break
            time.sleep(0.1)
        assert run_id is not None, "the run never started"
        busy = sw("resume", run_id, cwd=tmp_path)
        assert busy.returncode == 2 and f"being executed by process {proc.pid}" in busy.stderr
        (gate / "open").touch()
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert json.loads(out)["status"] == "succeeded"


def test_state_dir_flag_beats_the_environment_which_beats_the_working_directory(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "gate.yaml", GATE)
    env_state, flag_state = tmp_path / "env-state", tmp_path / "flag-state"
    env = _env(SKILLWEAVE_STATE_DIR=str(env_state))
    by_env = _run_id(sw("run", spec, "--input", "start=1", "--json", cwd=tmp_path, env=env))
    by_flag = _run_id(sw("run", spec, "--input", "start=1", "--json", "--state-dir", flag_state, cwd=tmp_path, env=env))
    assert (env_state / "runs" / by_env).is_dir() and (flag_state / "runs" / by_flag).is_dir()
    assert not (tmp_path / ".skillweave").exists() and not (env_state / "runs" / by_flag).exists()
    missing = sw("approve", by_env, "publish", cwd=tmp_path)  # ./.skillweave: nothing there
    assert missing.returncode == 2 and "pass --state-dir or set SKILLWEAVE_STATE_DIR" in missing.stderr
    assert sw("approve", by_flag, "publish", "--state-dir", flag_state, cwd=tmp_path, env=env).returncode == 0
    assert sw("approve", by_env, "publish", cwd=tmp_path, env=env).returncode == 0
    assert sw("resume", by_env, cwd=tmp_path, env=env).returncode == 0
    assert sw("resume", by_flag, "--state-dir", flag_state, cwd=tmp_path, env=env).returncode == 0


def test_a_run_started_with_a_relative_spec_resumes_from_another_directory(tmp_path: Path) -> None:
    """BUG: the plan keeps the spec path as typed ("gate.yaml"); `fingerprint`
    (engine/__init__.py) re-reads it relative to the resuming process's cwd, finds
    nothing and refuses: "changed since it started: spec", though nothing changed."""
    _workspace(tmp_path, "gate.yaml", GATE)
    run_id = _run_id(sw("run", "gate.yaml", "--input", "start=1", "--json", cwd=tmp_path))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    state = tmp_path / ".skillweave"
    assert sw("approve", run_id, "publish", "--state-dir", state, cwd=elsewhere).returncode == 0
    resumed = sw("resume", run_id, "--state-dir", state, "--json", cwd=elsewhere)
    assert "changed since it started" not in resumed.stderr, resumed.stderr
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["status"] == "succeeded"
