"""Colour through the real CLI: FORCE_COLOR colours a pipe, NO_COLOR and --no-color win, --json never."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from counter_workflow import write_workflow

pytestmark = pytest.mark.e2e

ANSI = "\x1b["


def _sw(*args: str | Path, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))
            and k not in ("NO_COLOR", "FORCE_COLOR")}
    command = [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd, env={**base, **env},
                          check=False)


def test_force_color_colours_a_pipe_and_no_color_or_the_option_turn_it_off(tmp_path: Path) -> None:
    spec = write_workflow(tmp_path, ["Happy path: Inputs: value=1; Expect: succeeded"])
    plain = _sw("run", spec, "--input", "value=1", "--state-dir", "state", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert ANSI not in plain.stdout  # a pipe: no colour by default

    forced = _sw("run", spec, "--input", "value=1", "--state-dir", "state", cwd=tmp_path, FORCE_COLOR="1")
    assert forced.returncode == 0, forced.stderr
    assert f"{ANSI}32msucceeded" in forced.stdout.splitlines()[0]

    for args, env in ((("--no-color",), {"FORCE_COLOR": "1"}), ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"})):
        off = _sw(*args, "run", spec, "--input", "value=1", "--state-dir", "state", cwd=tmp_path, **env)
        assert off.returncode == 0, off.stderr
        assert ANSI not in off.stdout and ANSI not in off.stderr

    listed = _sw("runs", "--state-dir", "state", cwd=tmp_path, FORCE_COLOR="1")
    assert f"{ANSI}32msucceeded" in listed.stdout
    as_json = _sw("run", spec, "--input", "value=1", "--json", "--state-dir", "state", cwd=tmp_path, FORCE_COLOR="1")
    assert ANSI not in as_json.stdout and json.loads(as_json.stdout)["status"] == "succeeded"
