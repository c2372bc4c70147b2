"""Every diagnostic `validate` prints is one line, even when it quotes spec text that
spans several lines (a lazily continued bullet, a YAML block scalar) or is huge."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))

SPEC = """# Lines Workflow

## Inputs
- module_name (string): a module

## Workflow Steps

### Step 1: Fetch
- Skill: `fetch-docs`
- Input: module_name (string)
- Output: existing_docs (string), docs_found (boolean)

### Step 2: Analyze
- Skill: `analyze-module`
- Input: module_name
- Output: analysis (JSON): functions, classes
{tail}
"""


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SKILLWEAVE, "validate", str(path)], capture_output=True, text=True, timeout=60,
                          cwd=path.parent, check=False)


def diagnostics(result: subprocess.CompletedProcess[str]) -> list[str]:
    lines = [*result.stdout.splitlines(), *result.stderr.splitlines()]
    return [line for line in lines if not line.startswith(("ok: ", "failed: "))]


def test_a_continued_bullet_is_quoted_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "continued.md"
    path.write_text(SPEC.format(tail="  and more stuff here\n  a third line"), encoding="utf-8")
    result = validate(path)
    assert result.returncode == 0, result.stderr
    found = diagnostics(result)
    assert found, result.stdout
    assert all(line.startswith(f"{path}:") for line in found), found
    assert any("'classes and more stuff here a third line'" in line for line in found), found


def test_a_huge_quote_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "huge.md"
    path.write_text(SPEC.format(tail=("lorem ipsum " * 50 + "\n") * 200), encoding="utf-8")
    result = validate(path)
    assert result.returncode == 0, result.stderr
    found = diagnostics(result)
    assert found and all(line.startswith(f"{path}:") and len(line) < 600 for line in found), found


def test_a_block_scalar_template_error_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "block.yaml"
    path.write_text("inputs:\n  module_name: {type: string}\nsteps:\n  - id: a\n    skill: analyze-module\n"
                    "    input:\n      module_name: |\n        one {{ inputs.module_name }}\n"
                    "        two {{ inputs.zzz }}\n", encoding="utf-8")
    result = validate(path)
    assert result.returncode == 2
    found = diagnostics(result)
    assert len(found) == 1, found
    assert found[0].startswith(f"{path}:7: a (a): input `module_name`: template `one {{{{ inputs.module_name }}}} "
                               "two {{ inputs.zzz }}")
    assert found[0].endswith("reads inputs.zzz, which is not a workflow input")
