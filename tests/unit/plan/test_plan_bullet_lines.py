"""A policy set by a step bullet cites that bullet's line, in markdown and YAML alike."""

from __future__ import annotations

from pathlib import Path

from orchestrator.compile import compile_spec
from orchestrator.config import Settings

MARKDOWN = """# Lines

## Intent
Show where decisions come from.

## Inputs
- module_name (string): a module

## Workflow Steps

### Step 1: Analyze
- Skill: `analyze-module`
- Input: module_name
- Output: analysis (JSON)
- Timeout: 12s
- Retries: 2
- On error: continue
"""

YAML = """name: lines
inputs:
  module_name: {type: string}
steps:
  - id: analyze
    skill: analyze-module
    input:
      module_name: "{{ inputs.module_name }}"
    timeout: 12
    retries: 2
    on_error: continue
"""


def line(where: str | None) -> int:
    assert where is not None
    return int(where.rsplit(":", 1)[1])


def test_markdown_bullets_are_cited_by_their_own_line(tmp_path: Path) -> None:
    spec = tmp_path / "lines.md"
    spec.write_text(MARKDOWN)
    step = compile_spec(spec, Settings()).steps[0]

    assert line(step.provenance["policy.attempt_timeout_s"].where) == 15
    assert line(step.provenance["policy.retry"].where) == 16
    assert line(step.provenance["policy.on_error"].where) == 17


def test_yaml_keys_are_cited_by_their_own_line(tmp_path: Path) -> None:
    spec = tmp_path / "lines.yaml"
    spec.write_text(YAML)
    step = compile_spec(spec, Settings()).steps[0]

    assert line(step.provenance["policy.attempt_timeout_s"].where) == 9
    assert line(step.provenance["policy.retry"].where) == 10
    assert line(step.provenance["policy.on_error"].where) == 11
