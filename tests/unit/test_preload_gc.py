"""The cyclic GC is paused while a command starts and runs again, imports frozen, before its work.

GC state is the process's: each case runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "specs" / "fetch-analyze-document.md"


def _probe(code: str, *args: str) -> object:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
    env["SKILLWEAVE_WARM"] = "0"  # the command runs in this process, not in a warm host's child
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                            timeout=120, cwd=ROOT, env=env)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_paused_gc_runs_again_with_what_was_made_meanwhile_left_out_of_its_walks() -> None:
    seen = _probe(
        "import gc, json\n"
        "from orchestrator.preload import pause_gc, resume_gc\n"
        "pause_gc(); off = gc.isenabled(); resume_gc(); on = gc.isenabled(); frozen = gc.get_freeze_count()\n"
        "resume_gc(); twice = gc.isenabled()\n"
        "print(json.dumps([off, on, frozen > 0, twice]))\n"
    )
    assert seen == [False, True, True, True]


def test_resuming_a_gc_the_command_did_not_pause_leaves_it_off() -> None:
    seen = _probe(
        "import gc, json\n"
        "from orchestrator.preload import pause_gc, resume_gc, gc_paused\n"
        "gc.disable(); pause_gc(); resume_gc(); after_resume = gc.isenabled()\n"
        "with gc_paused(): inside = gc.isenabled()\n"
        "after_block = gc.isenabled(); gc.enable()\n"
        "with gc_paused(): inside_on = gc.isenabled()\n"
        "print(json.dumps([after_resume, inside, after_block, inside_on, gc.isenabled()]))\n"
    )
    assert seen == [False, False, False, False, True]


def test_skillweave_run_has_the_gc_on_when_the_run_starts(tmp_path: Path) -> None:
    seen = _probe(
        "import gc, json, sys\n"
        "import orchestrator.cli as cli_main\n"
        "import orchestrator.cli.run_cmd as run_cmd\n"
        "def execute(*args, **kwargs):\n"
        "    print(json.dumps([gc.isenabled(), gc.get_freeze_count() > 0]), flush=True)\n"
        "    raise SystemExit(0)\n"
        "run_cmd._execute = execute\n"
        "sys.argv = ['skillweave', *sys.argv[1:]]\n"
        "try:\n"
        "    cli_main.main()\n"
        "except SystemExit:\n"
        "    pass\n",
        "run", str(SEED), "--input", "module_name=json", "--state-dir", str(tmp_path / "state"), "--json",
    )
    assert seen == [True, True]


def test_skillweave_serve_has_the_gc_on_when_it_starts_serving(tmp_path: Path) -> None:
    seen = _probe(
        "import gc, json, sys\n"
        "import anyio\n"
        "import orchestrator.cli as cli_main\n"
        "def serving(*args, **kwargs):\n"
        "    print(json.dumps([gc.isenabled(), gc.get_freeze_count() > 0]), flush=True)\n"
        "    raise SystemExit(0)\n"
        "anyio.run = serving\n"
        "sys.argv = ['skillweave', *sys.argv[1:]]\n"
        "try:\n"
        "    cli_main.main()\n"
        "except SystemExit:\n"
        "    pass\n",
        "serve", "--state-dir", str(tmp_path / "state"),
    )
    assert seen == [True, True]
