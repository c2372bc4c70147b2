"""The layering contract of pyproject.toml ([tool.importlinter]) holds, and catches an upward import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is not installed")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(REPO / "pyproject.toml"), "--no-cache"],
        cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "orchestrator", tmp_path / "orchestrator",
                    ignore=shutil.ignore_patterns("__pycache__", "_bundled"))
    return tmp_path


def test_the_package_keeps_its_layers(tmp_path: Path) -> None:
    done = _lint(_copy(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.mark.parametrize(
    ("module", "upward"),
    [
        ("errors.py", "orchestrator.cli"),  # a foundation importing the front end
        ("plan/build.py", "orchestrator.skills.catalog"),  # the pure builder loading the catalog
        ("engine/recovery.py", "orchestrator.compile"),  # the engine reaching for the compiler
        ("security/trust.py", "orchestrator.mcp_client.config"),  # a foundation of the effects reaching up
        ("report/detail.py", "orchestrator.journal.events"),  # the report folding the events again
        ("report/timeline_svg.py", "orchestrator.report.source"),  # a drawing reading the journal
        ("telemetry/setup.py", "orchestrator.engine.state"),  # the runners' telemetry facade reaching the engine
    ],
)
def test_an_upward_import_breaks_the_contract(tmp_path: Path, module: str, upward: str) -> None:
    root = _copy(tmp_path)
    target = root / "orchestrator" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\nimport {upward}  # injected\n", encoding="utf-8")
    done = _lint(root)
    assert done.returncode == 1, done.stdout
    assert "BROKEN" in done.stdout
    importer = "orchestrator." + module.removesuffix(".py").replace("/", ".")
    assert f"{importer} -> {upward}" in done.stdout.replace("\n", "")
