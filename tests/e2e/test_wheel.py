"""A wheel install, not only an editable one, carries what the installed command needs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(REPO)],
        check=True, capture_output=True, timeout=120,
    )
    (built,) = out.glob("skillweave-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def skillweave(installed: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed package first on the path; the checkout is not importable from `cwd`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")}
    env["PYTHONPATH"] = str(installed)
    return subprocess.run(
        [sys.executable, "-P", "-m", "orchestrator", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )


def test_the_wheel_carries_skills_prompts_specs_and_the_bundled_servers(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())

    for path in (
        "orchestrator/_bundled/skills/analyze-module/SKILL.md",
        "orchestrator/_bundled/skills/analyze-module/scripts/main.py",
        "orchestrator/_bundled/skills/fetch-docs/schemas/output.json",
        "orchestrator/_bundled/prompts/repair_script.md.j2",
        "orchestrator/_bundled/specs/workflow-spec.template.md",
        "orchestrator/_bundled/specs/fetch-analyze-document.md",
        "mcp_servers/docs/__main__.py",
    ):
        assert path in names, path
    assert not any("__pycache__" in name for name in names)


def test_the_installed_command_lists_its_bundled_skills_from_the_wheel(
    installed: Path, tmp_path: Path
) -> None:
    listed = skillweave(installed, "skills", "list", "--json", cwd=tmp_path)

    assert listed.returncode == 0, listed.stderr
    skills = {s["name"]: s for s in json.loads(listed.stdout)["skills"]}
    assert {"fetch-docs", "analyze-module", "generate-docs", "validate-markdown"} <= set(skills)
    assert all(
        Path(s["path"]).is_relative_to(installed) for s in skills.values() if s["origin"] == "bundled"
    )


def test_the_installed_command_runs_the_bundled_workflow_offline(
    installed: Path, tmp_path: Path
) -> None:
    spec = installed / "orchestrator" / "_bundled" / "specs" / "fetch-analyze-document.md"
    ran = skillweave(installed, "run", str(spec), "--input", "module_name=textwrap", "--json",
                     cwd=tmp_path)

    assert ran.returncode == 0, ran.stderr
    summary = json.loads(ran.stdout)
    assert summary["status"] == "succeeded"
    assert [s["status"] for s in summary["steps"]] == ["succeeded"] * 4
