"""An `llm` skill step through `skillweave run`: prompt rendered from SKILL.md, answer forced
into the output schema; recorded once, then replayed in CI without a key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.llm.fake import FakeMessagesAPI, tool_use_message

pytestmark = pytest.mark.e2e

SKILL = """---
name: summarize-text
description: Summarizes a text in at most a given number of words.
metadata:
  skillweave.kind: llm
  skillweave.output-schema: schemas/output.json
---
Summarize the following text in at most {{ words }} words.

{{ text }}
"""

SPEC = """# Summarize Workflow

## Intent
Summarize a text with a prompt skill.

## Inputs
- text (string): the text
- words (integer): how many words at most

## Workflow Steps

### Step 1: Summarize
- Skill: `summarize-text`
- Input: text (string), words (integer)
- Output: summary (string)
"""


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    skill = tmp_path / "skills" / "summarize-text"
    (skill / "schemas").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL)
    (skill / "schemas" / "output.json").write_text(
        json.dumps(
            {
                "type": "object",
                "required": ["summary"],
                "properties": {"summary": {"type": "string"}},
            }
        )
    )
    path = tmp_path / "summarize.md"
    path.write_text(SPEC)
    return path


def run(
    spec: Path, state: Path, *extra: str | Path, **env: str
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_"))}
    command = [
        str(Path(sys.executable).with_name("skillweave")), "run", str(spec),
        "-i", "text=The quick brown fox jumps over the lazy dog.", "-i", "words=4",
        "--state-dir", str(state), "--json", *map(str, extra),
    ]  # fmt: skip
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**clean, **env}, check=False
    )


def test_an_llm_step_recorded_once_replays_without_a_key(spec: Path, tmp_path: Path) -> None:
    recording = tmp_path / "calls.jsonl"
    answer = tool_use_message(
        "submit_output", {"summary": "Fox jumps over dog."}, input_tokens=61, output_tokens=17
    )
    with FakeMessagesAPI([answer]) as api:
        recorded = run(
            spec, tmp_path / "s1", "--llm-record", recording,
            ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk-ci",
        )  # fmt: skip
        sent = list(api.requests)
    replayed = run(spec, tmp_path / "s2", "--llm-replay", recording)

    assert recorded.returncode == 0, recorded.stderr
    assert replayed.returncode == 0, replayed.stderr
    assert sent[0]["messages"][0]["content"][0]["text"] == (
        "Summarize the following text in at most 4 words.\n\nThe quick brown fox jumps over the lazy dog."
    )
    assert sent[0]["tool_choice"] == {"type": "tool", "name": "submit_output"}
    assert sent[0]["tools"][0]["input_schema"]["required"] == ["summary"]
    for done in (recorded, replayed):
        summary = json.loads(done.stdout)
        assert summary["outputs"] == {"step-1": {"summary": "Fox jumps over dog."}}
        assert summary["totals"]["tokens"]["input_tokens"] == 61
        assert summary["totals"]["tokens"]["output_tokens"] == 17


def test_an_answer_outside_the_output_schema_fails_the_step(spec: Path, tmp_path: Path) -> None:
    answer = tool_use_message("submit_output", {"summary": 42})
    with FakeMessagesAPI([answer]) as api:
        done = run(spec, tmp_path / "s", ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY="sk-ci")

    assert done.returncode == 1
    step = json.loads(done.stdout)["steps"][0]
    assert step["error_class"] == "code_error"
    assert "/summary" in step["message"]
