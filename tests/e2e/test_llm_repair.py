"""The repair loop through real `skillweave` processes, the real sandbox and the real SDK.

The model is either the demo's recorded replay (no key, no network) or a
scripted stand-in for the Messages API on 127.0.0.1 (`FakeMessagesAPI`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.llm.fake import FakeMessagesAPI, error_reply, tool_use_message

pytestmark = pytest.mark.e2e

DEMO = Path(__file__).resolve().parents[2] / "specs" / "examples" / "repair-demo"
FIXED = (DEMO / "fix" / "main.py").read_text(encoding="utf-8")
ENTRY = Path("skills") / "normalize-contacts" / "scripts" / "main.py"


def skillweave(*args: str | Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`skillweave ARGS` with no key, base URL, model or state dir from the outer environment."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
    command = [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**clean, **env}, check=False
    )


def run_demo(
    demo: Path, state: Path, *extra: str | Path, **env: str
) -> subprocess.CompletedProcess[str]:
    return skillweave(
        "run", demo / "repair-demo.md", "--input-file", demo / "contacts.json", "--state-dir", state,
        *extra, **env,
    )  # fmt: skip


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A copy of the demo, so a run may record or promote into it."""
    copy = tmp_path / "repair-demo"
    shutil.copytree(DEMO, copy)
    return copy


def test_the_repair_demo_runs_offline_from_its_replay(tmp_path: Path) -> None:
    original = sha(DEMO / ENTRY)
    done = run_demo(DEMO, tmp_path / "state", "--llm-replay", DEMO / "repair-demo.replay.jsonl")

    assert done.returncode == 0, done.stderr
    assert (
        "attempt_failed           step-1#1 script exited with status 1: KeyError: 'email'"
        in done.stderr
    )
    assert "regeneration             step-1#1 new code" in done.stderr
    assert "succeeded  (contact-cleanup-with-repair)" in done.stdout
    assert '"without_email": 1' in done.stdout
    # the run's own output shows the repair: what failed, and the diff
    assert (
        "regeneration of step-1 after attempt 1 (script exited with status 1: KeyError: 'email'): new version "
        in done.stdout
    )
    assert '  -    email = record["email"].strip().lower()\n' in done.stdout
    assert "\nreport:    " in done.stdout
    diffs = list((tmp_path / "state").rglob("code/step-1/*/main.py.diff"))
    assert len(diffs) == 1
    assert (
        '+    email = (record.get("email") or "").strip().lower() or None' in diffs[0].read_text()
    )
    assert sha(DEMO / ENTRY) == original  # no --promote: the skill is left alone

    run_id = done.stdout.split()[1]
    report = skillweave("runs", "show", run_id, "--state-dir", tmp_path / "state")
    assert report.returncode == 0, report.stderr
    assert "```diff\n--- a/scripts/main.py\n+++ b/scripts/main.py" in report.stdout
    assert '-    email = record["email"].strip().lower()' in report.stdout


def test_a_recorded_run_replays_to_the_same_outputs_without_the_api(
    demo: Path, tmp_path: Path
) -> None:
    recording = tmp_path / "calls.jsonl"
    answer = tool_use_message(
        "submit_script", {"summary": "default a missing email", "code": FIXED}
    )
    with FakeMessagesAPI([answer]) as api:
        recorded = run_demo(
            demo, tmp_path / "s1", "--json", "--llm-record", recording,
            ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk-recording",
        )  # fmt: skip
        requests = list(api.requests)
    replayed = run_demo(demo, tmp_path / "s2", "--json", "--llm-replay", recording)

    assert recorded.returncode == 0, recorded.stderr
    assert replayed.returncode == 0, replayed.stderr
    assert len(requests) == 1
    assert requests[0]["system"][0]["cache_control"] == {"type": "ephemeral"}
    first, second = json.loads(recorded.stdout), json.loads(replayed.stdout)
    assert second["outputs"] == first["outputs"]
    assert second["totals"]["tokens"] == first["totals"]["tokens"] == {
        "input_tokens": 100, "output_tokens": 50, "cache_read_tokens": 0, "cache_write_tokens": 0,
    }  # fmt: skip
    assert "sk-recording" not in recording.read_text()


def test_promote_writes_the_repair_into_the_skill_only_when_asked(
    demo: Path, tmp_path: Path
) -> None:
    replay = demo / "repair-demo.replay.jsonl"
    without = run_demo(demo, tmp_path / "s1", "--llm-replay", replay)
    assert without.returncode == 0, without.stderr
    assert (demo / ENTRY).read_text() != FIXED

    promoted = run_demo(demo, tmp_path / "s2", "--llm-replay", replay, "--promote")
    assert promoted.returncode == 0, promoted.stderr
    assert (demo / ENTRY).read_text() == FIXED


def test_an_invalid_key_is_one_clear_message_without_a_traceback(
    demo: Path, tmp_path: Path
) -> None:
    with FakeMessagesAPI([error_reply("authentication_error", "invalid x-api-key")]) as api:
        done = run_demo(
            demo, tmp_path / "s", ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk-wrong"
        )
        requests = len(api.requests)
    report = skillweave("runs", "show", done.stdout.split()[1], "--state-dir", tmp_path / "s")

    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert requests == 1  # a rejected key is not asked again
    assert (
        "- unavailable: regeneration is unavailable: the API rejected the key "
        "(401 authentication_error: invalid x-api-key); check ANTHROPIC_API_KEY"
    ) in report.stdout
    assert "1 attempt, 0 retries, 0 regenerations" in done.stdout  # a rejected key spends nothing
    assert "sk-wrong" not in report.stdout


def test_without_a_key_the_run_says_regeneration_needs_one(demo: Path, tmp_path: Path) -> None:
    done = run_demo(demo, tmp_path / "s")

    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert "regeneration is unavailable: no API key: set ANTHROPIC_API_KEY (or answer from a recording)" in done.stderr


def test_a_replay_miss_names_the_step_and_the_request(demo: Path, tmp_path: Path) -> None:
    skill_md = demo / "skills" / "normalize-contacts" / "SKILL.md"
    skill_md.write_text(
        skill_md.read_text().replace("Makes contact records uniform", "Tidies contacts")
    )
    done = run_demo(demo, tmp_path / "s", "--llm-replay", demo / "repair-demo.replay.jsonl")

    report = skillweave("runs", "show", done.stdout.split()[1], "--state-dir", tmp_path / "s")

    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    replay = demo / "repair-demo.replay.jsonl"
    assert (
        f"- unavailable: regeneration is unavailable: the LLM recording {replay} has no answer for request "
        in report.stdout
    )


def test_a_script_skill_without_its_script_gets_a_first_version_from_the_model(tmp_path: Path) -> None:
    # no Error Recovery table, so no repair budget: the first version is written all the same
    skill = tmp_path / "skills" / "square"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: square\ndescription: Squares a number and prints it as JSON.\n"
        "metadata:\n  skillweave.kind: script\n---\n\nRead {\"n\": int} on stdin, print {\"square\": n*n}.\n",
        encoding="utf-8",
    )
    spec = tmp_path / "square.md"
    spec.write_text(
        "# Square Workflow\n\n## Inputs\n- n (integer): a number\n\n## Workflow Steps\n\n"
        "### Step 1: Square\n- Skill: `square`\n- Input: n\n- Output: square (integer)\n",
        encoding="utf-8",
    )
    code = "import json, sys\nn = json.load(sys.stdin)['n']\nprint(json.dumps({'square': n * n}))\n"
    answer = tool_use_message("submit_script", {"summary": "first version", "code": code})
    with FakeMessagesAPI([answer]) as api:
        done = skillweave(
            "run", spec, "--input", "n=7", "--json", "--state-dir", tmp_path / "state",
            ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk-test",
        )  # fmt: skip
        asked = list(api.requests)

    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["outputs"]["step-1"] == {"square": 49}
    assert len(asked) == 1
    assert not (skill / "scripts").exists()  # the first version stays in the run directory
