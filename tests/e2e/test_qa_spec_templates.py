"""Input templates of the YAML form are checked by `skillweave validate`, as `When` is:
a Jinja syntax error, an unknown filter, an undeclared `inputs.X`, a step that is not a
dependency or an output field the producer does not have would each fail only at run
time (templates render with StrictUndefined), so validate reports them as FILE:LINE."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))

SKILL = """---
name: echo-text
description: Echoes its input as text, for template tests.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.input-schema: schemas/input.json
  skillweave.output-schema: schemas/output.json
---

Echo the input.
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    skill = tmp_path / "skills" / "echo-text"
    (skill / "schemas").mkdir(parents=True)
    (skill / "scripts").mkdir()
    (skill / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (skill / "schemas" / "input.json").write_text('{"type": "object"}', encoding="utf-8")
    (skill / "schemas" / "output.json").write_text(
        '{"type": "object", "required": ["result"], "properties": {"result": {"type": "string"}}}', encoding="utf-8")
    (skill / "scripts" / "main.py").write_text(
        "import json, sys\nprint(json.dumps({'result': json.dumps(json.load(sys.stdin))}))\n", encoding="utf-8")
    return tmp_path


def spec(folder: Path, template: str) -> Path:
    path = folder / "flow.yaml"
    path.write_text(
        "inputs:\n  name: {type: string}\n  names: {type: array}\n"
        "steps:\n  - id: first\n    skill: echo-text\n"
        "  - id: second\n    skill: echo-text\n    depends_on: [first]\n    input:\n"
        f"      text: {template}\n",
        encoding="utf-8",
    )
    return path


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SKILLWEAVE, "validate", str(path)], capture_output=True, text=True, timeout=60,
                          cwd=path.parent, check=False)


@pytest.mark.parametrize(
    ("template", "fragment"),
    [
        ('"{{ inputs.name | "', "is not valid Jinja: unexpected end of template"),
        ('"{{ inputs.name | no_such_filter }}"', "is not valid Jinja: No filter named 'no_such_filter'"),
        ('"hello {{ inputs.nope }}"', "reads inputs.nope, which is not a workflow input"),
        ('"hello {{ steps.first.output.nope }}"', "reads steps.first.output.nope, but the output of first (first) "
                                                  "has no `nope` (it has result)"),
        ('"hello {{ steps.second.output }}"', "reads steps.second, which is not among its dependencies"),
        ('"hello {{ someone }}"', "reads `someone`"),
    ],
)
def test_a_template_that_cannot_render_is_a_validate_error(folder: Path, template: str, fragment: str) -> None:
    path = spec(folder, template)
    result = validate(path)
    assert result.returncode == 2, result.stdout
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:11: second (second): input `text`: template "), first
    assert fragment in first


def test_templates_that_render_still_validate(folder: Path) -> None:
    path = spec(folder, '"{% for k in range(2) %}{{ k }}{% endfor %} {{ inputs.name | upper }} '
                        '{% set z = 1 %}{{ z }} {{ steps.first.output.result }} {{ steps[\'first\'].output }}"')
    result = validate(path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok: 2 steps")
