"""Commands import only what they use: no `mcp` or `anthropic` to print help, validate or plan.

Each probe is a fresh interpreter running the command, then listing which heavy
packages ended up in `sys.modules`; a regression (an import moved to a module's
top) shows here rather than as a slower start nobody measures.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SEED = ROOT / "specs" / "fetch-analyze-document.md"
HEAVY = ("mcp", "mcp_types", "anthropic", "httpx", "starlette", "uvicorn")

PROBE = """
import contextlib, io, json, sys
from orchestrator.cli import cli
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        cli.main(sys.argv[2:], standalone_mode=False)
    except SystemExit:
        pass
print(json.dumps([name for name in json.loads(sys.argv[1]) if name in sys.modules]))
"""


def imported(*args: str | Path, cwd: Path) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(HEAVY), *map(str, args)],
        capture_output=True, text=True, timeout=120, cwd=cwd,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["run", "--help"],
        ["validate", str(SEED)],
        ["plan", str(SEED)],
        ["skills", "list"],
    ],
    ids=["help", "run --help", "validate", "plan", "skills list"],
)
def test_the_command_imports_neither_mcp_nor_anthropic_nor_their_stacks(args: list[str], tmp_path: Path) -> None:
    assert imported(*args, cwd=tmp_path) == []


def test_runs_on_an_empty_state_directory_imports_no_mcp(tmp_path: Path) -> None:
    assert imported("runs", "--state-dir", tmp_path / "state", cwd=tmp_path) == []
