"""A third-party skill kind, installed from a tiny package (tests/e2e/kindpkg: the module and
its .dist-info with the `skillweave.kinds` entry point) on PYTHONPATH, through real processes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

PACKAGE = Path(__file__).parent / "kindpkg"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))

SPEC = """# Shout

## Intent
Shout a text.

## Inputs
- text (string): what to shout

## Workflow Steps

### Step 1: Shout it
- Skill: `shouter`
- Input: text (string)
- Output: text (string)
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """The package, installed as pip lays one out: its module and its .dist-info in one folder."""
    target = tmp_path / "site"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    skill = tmp_path / "skills" / "shouter"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: shouter\ndescription: Shouts the text it is given.\nmetadata:\n"
        "  skillweave.kind: shout\n  skillweave.suffix: \"!\"\n---\nShouts.\n"
    )
    path = tmp_path / "shout.md"
    path.write_text(SPEC)
    return path


def skillweave(*args: str | Path, site: Path | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SKILLWEAVE_", "PYTHONPATH"))}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run([SKILLWEAVE, *map(str, args)], capture_output=True, text=True, timeout=120, env=env,
                          check=False)


def test_skills_list_shows_the_installed_kind_and_its_skill(spec: Path, site: Path) -> None:
    done = skillweave("skills", "list", "--spec", spec, "--json", site=site)
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert {"name": "shouter", "kind": "shout"}.items() <= next(
        s for s in listed["skills"] if s["name"] == "shouter").items()
    shout = next(k for k in listed["kinds"] if k["name"] == "shout")
    assert shout["keys"] == ["suffix"]
    assert {k["name"] for k in listed["kinds"]} >= {"script", "mcp", "llm", "http", "shout"}


def test_skills_kinds_lists_the_plugin_beside_the_built_in_kinds(site: Path) -> None:
    done = skillweave("skills", "kinds", site=site)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["http", "llm", "mcp", "script", "shout"]


def test_a_step_of_the_installed_kind_runs(spec: Path, site: Path, tmp_path: Path) -> None:
    done = skillweave("run", spec, "-i", "text=hello", "--state-dir", tmp_path / "state", "--json", site=site)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["status"] == "succeeded"
    assert summary["outputs"]["step-1"] == {"text": "HELLO!"}


def test_without_the_package_the_kind_is_unknown_and_the_spec_does_not_compile(spec: Path) -> None:
    done = skillweave("validate", spec, site=None)
    assert done.returncode == 2
    assert "'skillweave.kind' 'shout' is not script, mcp, llm or http" in done.stderr
