"""`serve --help` and `install` never pay for the MCP stack: `mcp` is imported only to serve."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import contextlib, io, sys
from orchestrator.cli import cli
with contextlib.redirect_stdout(io.StringIO()):
    try:
        cli.main(sys.argv[1:], standalone_mode=False)
    except SystemExit:
        pass
print("mcp" in sys.modules)
"""


@pytest.mark.parametrize("args", [["serve", "--help"], ["install", "claude", "--help"], ["install", "--help"]])
def test_the_command_does_not_import_mcp(args: list[str]) -> None:
    result = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "False"
