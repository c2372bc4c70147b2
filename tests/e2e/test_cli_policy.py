"""Recovery policy as people write it, through real `skillweave` processes and real sandboxed scripts.

A step whose prose says "Retry 3 times, waiting 2s between tries" waits 2 s three times;
a step described only in sentences gets its timeout, retries and fallback from them;
`--strict` fails on a line it cannot read; `--interpret --llm-replay` has the model
read a sentence the grammar cannot, and later plans and runs use the lockfile offline.
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

from tests.e2e.engine_plans import read_events

pytestmark = [pytest.mark.e2e]

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "specs" / "examples" / "interpret"

# slow on the attempts before `n` (the step's timeout kills them), quick from attempt `n` on
_SLOW_UNTIL = """\
import json, os, sys, time
d = json.load(sys.stdin)
if int(os.environ.get("SKILLWEAVE_ATTEMPT", "1")) < int(d.get("n", 1)):
    time.sleep(60)
json.dump({"value": int(d.get("n", 0)), "msg": "done"}, sys.stdout)
"""
_OUT = {"type": "object", "properties": {"value": {"type": "integer"}, "msg": {"type": "string"}},
        "required": ["value", "msg"]}

SPEC = """\
# Flaky pair

## Workflow Steps

### Step 1: Flaky
- Skill: `slow-until`
- Input: n (integer)
- Output: value (integer), msg (string)

Give it 2 seconds. Retry 3 times, waiting 2s between tries.

### Step 2: Hopeless
- Skill: `slow-until`
- Input: n (integer)
- Depends on: none
- Output: value (integer), msg (string)

Give it 2 seconds; retry twice, 1 second apart.
If it still fails, continue with `{"value": 42, "msg": "fallback"}`.
"""


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("SKILLWEAVE_STATE", "ANTHROPIC_", "SKILLWEAVE_MODEL")) and k != "SKILLWEAVE_SKILLS_PATH"}


def sw(*args: str | Path, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([SKILLWEAVE, *map(str, args)], cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _skill(root: Path) -> None:
    folder = root / "skills" / "slow-until"
    (folder / "scripts").mkdir(parents=True)
    (folder / "schemas").mkdir()
    (folder / "scripts" / "main.py").write_text(_SLOW_UNTIL)
    (folder / "schemas" / "output.json").write_text(json.dumps(_OUT))
    (folder / "SKILL.md").write_text(
        "---\nname: slow-until\ndescription: Slow until an attempt number, then quick.\nmetadata:\n"
        "  skillweave.kind: script\n  skillweave.entry: scripts/main.py\n"
        "  skillweave.output-schema: schemas/output.json\n---\nSlow until attempt n.\n")


@pytest.fixture(scope="module")
def flaky_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """One run of SPEC: step 1 times out three times then succeeds; step 2 always times out."""
    root = tmp_path_factory.mktemp("policy-run")
    _skill(root)
    spec = root / "flaky.md"
    spec.write_text(SPEC)
    inputs = root / "inputs.json"
    inputs.write_text(json.dumps({"n": 4}))
    # step 2 reads the same `n`: 4 is more attempts than its 3, so it always times out
    run = sw("run", spec, "--input-file", inputs, "--json", cwd=root, timeout=180)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    shown = sw("runs", "show", summary["run_id"], "--format", "json", cwd=root)
    assert shown.returncode == 0, shown.stderr
    return root, summary, json.loads(shown.stdout)


@pytest.mark.slow  # three 2 s timeouts and three 2 s waits, both steps at once
def test_retry_3_times_waiting_2s_between_tries_waits_2s_three_times_in_a_run(
    flaky_run: tuple[Path, dict[str, Any], dict[str, Any]],
) -> None:
    root, summary, report = flaky_run
    step = next(s for s in report["steps"] if s["step_id"] == "step-1")
    assert (step["metrics"]["attempts"], step["metrics"]["retries"]) == (4, 3)
    assert [r["delay_s"] for r in step["retries"]] == [2.0, 2.0, 2.0]
    assert {r["error_class"] for r in step["retries"]} == {"timeout"}
    assert summary["outputs"]["step-1"] == {"value": 4, "msg": "done"}
    # the waits really happened: each failure to the next start took at least its 2 s
    events = read_events(root / ".skillweave", summary["run_id"])
    failed = [d["ts"] for _, t, s, _, d in events if s == "step-1" and t == "attempt_failed"]
    started = [d["ts"] for _, t, s, _, d in events if s == "step-1" and t == "attempt_started"]
    assert len(failed) == 3 and len(started) == 4
    assert all(started[i + 1] - failed[i] >= 2.0 - 0.01 for i in range(3))


@pytest.mark.slow
def test_a_prose_only_step_gets_its_timeout_retries_and_fallback_from_its_sentences(
    flaky_run: tuple[Path, dict[str, Any], dict[str, Any]],
) -> None:
    _, summary, report = flaky_run
    step = next(s for s in report["steps"] if s["step_id"] == "step-2")
    assert step["status"] == "defaulted"
    assert (step["metrics"]["attempts"], step["metrics"]["retries"]) == (3, 2)
    assert [r["delay_s"] for r in step["retries"]] == [1.0, 1.0]
    assert all("2s" in f["message"] for f in step["failed_attempts"])  # "Give it 2 seconds"
    assert summary["outputs"]["step-2"] == {"value": 42, "msg": "fallback"}


def test_strict_validate_and_plan_fail_on_a_line_they_cannot_read(tmp_path: Path) -> None:
    _skill(tmp_path)
    spec = tmp_path / "odd.md"
    spec.write_text(SPEC.replace("Give it 2 seconds. Retry 3 times, waiting 2s between tries.",
                                 "Let it cool off for a bit between attempts."))
    relaxed = sw("validate", spec, cwd=tmp_path)
    assert relaxed.returncode == 0, relaxed.stderr
    assert f"{spec}:10: warning: step-1: 'Let it cool off for a bit between attempts.'" in relaxed.stdout
    strict = sw("validate", spec, "--strict", cwd=tmp_path)
    assert strict.returncode == 2
    assert f"{spec}:10: step-1: 'Let it cool off for a bit between attempts.' states a policy" in strict.stderr
    assert "(--strict: every warning is an error)" in strict.stderr
    as_json = json.loads(sw("validate", spec, "--strict", "--json", cwd=tmp_path).stdout)
    assert (as_json["ok"], as_json["strict"], as_json["warnings"]) == (False, True, [])
    assert [(e["line"], e["severity"], e["code"]) for e in as_json["errors"]] == [(10, "error", "spec.policy-unread")]
    plan = sw("plan", spec, "--strict", "--format", "json", cwd=tmp_path)
    assert plan.returncode == 2 and plan.stdout == ""
    assert f"{spec}:10:" in plan.stderr
    clean = tmp_path / "clean.md"
    clean.write_text(SPEC)
    assert sw("validate", clean, "--strict", cwd=tmp_path).returncode == 0


def test_interpret_reads_what_the_grammar_cannot_and_later_plans_use_the_lockfile_offline(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE / "skills", tmp_path / "skills")
    spec = tmp_path / "mirror.md"
    shutil.copy(EXAMPLE / "mirror.md", spec)
    lock = tmp_path / "mirror.md.lock.json"
    before = sw("validate", spec, cwd=tmp_path)
    assert "mirror.md:19: warning: step-1: 'Should the mirror stumble" in before.stdout
    refused = sw("plan", spec, "--interpret", cwd=tmp_path)
    assert refused.returncode == 2 and "ANTHROPIC_API_KEY" in refused.stderr and not lock.exists()

    read = sw("plan", spec, "--interpret", "--llm-replay", EXAMPLE / "interpret.replay.jsonl", "--format", "json",
              cwd=tmp_path)
    assert read.returncode == 0, read.stderr
    step = json.loads(read.stdout)["steps"][0]
    assert step["policy"]["retry"]["max_retries"] == 2 and step["policy"]["retry"]["delays_s"] == [30.0]
    provenance = step["provenance"]["policy.retry"]
    assert (provenance["source"], provenance["where"]) == ("llm", f"{spec}:19")
    assert "Should the mirror stumble" in provenance["note"]
    entries = json.loads(lock.read_text())["entries"]
    assert [(e["kind"], e["where"], e["reading"]["retries"]) for e in entries] == [("policy", "mirror.md:19", 2)]

    again = sw("plan", spec, "--format", "json", cwd=tmp_path)  # no key, no recording
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["steps"][0]["policy"] == step["policy"]
    assert sw("validate", spec, "--strict", cwd=tmp_path).returncode == 0

    other = tmp_path / "again"
    other.mkdir()
    shutil.copytree(EXAMPLE / "skills", other / "skills")
    shutil.copy(EXAMPLE / "mirror.md", other / "mirror.md")
    checked = sw("validate", other / "mirror.md", "--interpret", "--strict", "--llm-replay",
                 EXAMPLE / "interpret.replay.jsonl", cwd=other)
    assert checked.returncode == 0, checked.stderr  # validate --interpret reads it too, and then nothing is unread
    assert (other / "mirror.md.lock.json").read_text() == lock.read_text()

    ran = sw("run", spec, "--input", "topic=json", "--json", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["outputs"]["step-1"]["page"].startswith("# json")
