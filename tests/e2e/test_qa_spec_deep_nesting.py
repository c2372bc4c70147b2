"""Inputs nested thousands deep (a `[[[[...` YAML value, a JSON Schema block, a skill's
schema file, a SKILL.md frontmatter) are refused as one `FILE:LINE: message` with exit 2,
never a RecursionError reported as an internal error (exit 1). A broken third-party skill
in a `--skills-dir` must not stop every other spec from validating."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
DEPTH = 5000

SPEC = """# Deep Workflow

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
"""


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SKILLWEAVE, *args], capture_output=True, text=True, timeout=120, cwd=cwd, check=False)


def assert_one_line_error(result: subprocess.CompletedProcess[str], prefix: str, *, stdout: bool = False) -> None:
    assert result.returncode == 2, result.stderr
    assert "internal error" not in result.stderr
    assert "Traceback" not in result.stderr
    first = (result.stdout if stdout else result.stderr).splitlines()[0]
    assert first.startswith(prefix), result.stderr
    assert "too deeply" in first


def test_deep_yaml_value_in_a_yaml_spec(tmp_path: Path) -> None:
    spec = tmp_path / "deep.yaml"
    spec.write_text("steps:\n  - id: a\n    skill: fetch-docs\n    input:\n      x: "
                    + "[" * DEPTH + "]" * DEPTH + "\n", encoding="utf-8")
    assert_one_line_error(run("validate", str(spec), cwd=tmp_path), f"{spec}:5: ")


def test_deep_json_schema_block_in_a_markdown_spec(tmp_path: Path) -> None:
    spec = tmp_path / "deep.md"
    block = '{"items":' * DEPTH + "{}" + "}" * DEPTH
    spec.write_text(SPEC + f"\n## Data Contracts\n\n### Step 1 → Step 2\n```json\n{block}\n```\n", encoding="utf-8")
    assert_one_line_error(run("validate", str(spec), cwd=tmp_path), f"{spec}:22: ")


def test_a_valid_but_deep_schema_block_is_meta_checked_without_recursion(tmp_path: Path) -> None:
    """150 levels is a legal schema; the Python `jsonschema` meta-check used to recurse out."""
    spec = tmp_path / "deepish.md"
    block = '{"items":' * 150 + "{}" + "}" * 150
    spec.write_text(SPEC + f"\n## Data Contracts\n\n### Step 1 → Step 2\n```json\n{block}\n```\n", encoding="utf-8")
    result = run("validate", str(spec), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok: 2 steps")


def test_schema_too_deep_to_plan_names_the_spec(tmp_path: Path) -> None:
    spec = tmp_path / "deep900.md"
    block = '{"items":' * 900 + "{}" + "}" * 900
    spec.write_text(SPEC + f"\n## Data Contracts\n\n### Step 1 → Step 2\n```json\n{block}\n```\n", encoding="utf-8")
    assert_one_line_error(run("validate", str(spec), cwd=tmp_path), f"{spec}")


def _skill(folder: Path, frontmatter_extra: str = "", schema: str | None = None) -> None:
    folder.mkdir(parents=True)
    meta = ""
    if schema is not None:
        (folder / "schemas").mkdir()
        (folder / "schemas" / "in.json").write_text(schema, encoding="utf-8")
        meta = "metadata:\n  skillweave.kind: script\n  skillweave.input-schema: schemas/in.json\n"
    (folder / "SKILL.md").write_text(
        f"---\nname: {folder.name}\ndescription: a test skill\n{frontmatter_extra}{meta}---\n\nDo it.\n",
        encoding="utf-8",
    )


def test_deep_frontmatter_and_schema_file_are_skill_errors(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    _skill(skills / "deep-fm", frontmatter_extra="license: " + "[" * DEPTH + "]" * DEPTH + "\n")
    _skill(skills / "deep-schema", schema='{"items":' * DEPTH + "{}" + "}" * DEPTH)
    fm = run("skills", "validate", str(skills / "deep-fm"), cwd=tmp_path)
    assert_one_line_error(fm, f"{skills / 'deep-fm' / 'SKILL.md'}:4: ", stdout=True)
    schema = run("skills", "validate", str(skills / "deep-schema"), cwd=tmp_path)
    assert schema.returncode == 2 and "internal error" not in schema.stderr
    assert f"{skills / 'deep-schema' / 'schemas' / 'in.json'}:1: the schema is nested too deeply" in schema.stdout

    # one such skill in the catalog must not break every other spec
    spec = tmp_path / "ok.md"
    spec.write_text(SPEC, encoding="utf-8")
    result = run("validate", str(spec), "--skills-dir", str(skills), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "too deeply" in result.stdout
    listed = run("skills", "list", "--skills-dir", str(skills), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr


def test_recursive_yaml_alias_in_frontmatter_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "recur"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: recur\ndescription: a\nmetadata: &m\n  x: *m\n---\nbody\n",
                                     encoding="utf-8")
    result = run("skills", "validate", str(folder), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"{folder / 'SKILL.md'}:5: invalid YAML in the frontmatter: alias *m is used inside the node &m it names "
        "(a recursive structure)"
    ]


def test_deep_saved_plan_is_a_usage_error(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text('{"spec": 1, "steps": ' + "[" * 100000 + "]" * 100000 + "}", encoding="utf-8")
    result = run("plan", str(plan), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == f"{plan}: not a skillweave plan (nested too deeply to read)"
