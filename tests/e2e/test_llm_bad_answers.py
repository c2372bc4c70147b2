"""Answers that are not what the Messages API sends, through real `skillweave` processes.

A proxy's login page with status 200, a body cut short or an HTML error page
must end the run with one clear line naming the step and attempt: never an
internal error, never a run left `running`, never a page pasted into the report.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.llm.fake import FakeMessagesAPI, Reply, tool_use_message

pytestmark = pytest.mark.e2e

DEMO = Path(__file__).resolve().parents[2] / "specs" / "examples" / "repair-demo"
LLM_SKILL = """---
name: summarize-text
description: Summarizes a text in a few words.
metadata:
  skillweave.kind: llm
---
Summarize in a few words: {{ text }}
"""
LLM_SPEC = """# Summarize Workflow

## Intent
Summarize a text with a prompt skill.

## Inputs
- text (string): the text

## Workflow Steps

### Step 1: Summarize
- Skill: `summarize-text`
- Input: text (string)
- Output: summary (string)
"""

LOGIN_PAGE = (
    "<!DOCTYPE html>\n<html>\n<head><title>Sign in - Corporate Proxy</title></head>\n<body>\n"
    + "<p>Please sign in to continue.</p>\n" * 500
    + "</body>\n</html>\n"
)


def skillweave(*args: str | Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`skillweave ARGS` with no key, base URL, model or state dir from the outer environment."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
    command = [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**clean, **env}, check=False
    )


def run_demo(demo: Path, state: Path, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    return skillweave(
        "run", demo / "repair-demo.md", "--input-file", demo / "contacts.json", "--state-dir", state,
        *extra, **env,
    )  # fmt: skip


def html(status: int, page: str = LOGIN_PAGE) -> Reply:
    return Reply(status=status, body=page, headers={"content-type": "text/html; charset=utf-8"})


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    copy = tmp_path / "repair-demo"
    shutil.copytree(DEMO, copy)
    return copy


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    skill = tmp_path / "skills" / "summarize-text"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(LLM_SKILL)
    path = tmp_path / "summarize.md"
    path.write_text(LLM_SPEC)
    return path


def run_status(state: Path) -> list[str]:
    listed = skillweave("runs", "--state-dir", state, "--json")
    assert listed.returncode == 0, listed.stderr
    document = json.loads(listed.stdout)
    runs = document["runs"] if isinstance(document, dict) else document
    return [entry["status"] for entry in runs]


def test_a_login_page_instead_of_an_answer_fails_the_repair_cleanly(
    demo: Path, tmp_path: Path
) -> None:
    with FakeMessagesAPI([html(200), html(200)]) as api:
        done = run_demo(
            demo, tmp_path / "s", "--json", ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk"
        )

    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["status"] == "failed"
    assert summary["error"]["message"] == (
        "step step-1 failed: script exited with status 1: KeyError: 'email' (regeneration refused: "
        "the model API answered 200 with a body that is not JSON: "
        "an HTML page (text/html; charset=utf-8): Sign in - Corporate Proxy)"
    )
    assert run_status(tmp_path / "s") == ["failed"]  # not left `running`


def test_an_html_error_page_is_one_short_line_in_the_run(demo: Path, tmp_path: Path) -> None:
    with FakeMessagesAPI([html(502)] * 6) as api:
        done = run_demo(
            demo, tmp_path / "s", ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk"
        )

    assert done.returncode == 1
    assert "Please sign in" not in done.stdout + done.stderr
    error = next(line for line in done.stdout.splitlines() if line.startswith("error: "))
    assert error == (
        "error: step-1/1: step step-1 failed: script exited with status 1: KeyError: 'email' "
        "(regeneration refused: the model API failed with 502 error: an HTML page "
        "(text/html; charset=utf-8): Sign in - Corporate Proxy (after 2 retries))"
    )


def test_an_llm_step_answered_with_a_body_cut_short_fails_with_one_line(
    spec: Path, tmp_path: Path
) -> None:
    whole = json.dumps(tool_use_message("submit_output", {"summary": "Fox jumps."}))
    with FakeMessagesAPI([Reply(body=whole[:40])]) as api:
        done = skillweave(
            "run", spec, "-i", "text=The quick brown fox.", "--state-dir", tmp_path / "s", "--json",
            ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk",
        )  # fmt: skip

    assert done.returncode == 1
    assert "JSONDecodeError" not in done.stdout + done.stderr
    summary = json.loads(done.stdout)
    step = summary["steps"][0]
    assert step["error_class"] == "unrecoverable"
    assert step["message"] == (
        f"the model API answered 200 with a body that is not valid JSON: {whole[:40]}"
    )
    assert summary["error"]["where"] == "step-1/1"
