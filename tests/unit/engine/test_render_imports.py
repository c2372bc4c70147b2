"""Jinja2 is imported by the first condition or template a run evaluates, not by a run
whose bindings are pointers only (the README's main job): it is a tenth of the engine's import.

`sys.modules` is the process's: each case runs in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SEED = ROOT / "specs" / "fetch-analyze-document.md"

_CODE = """
import json, sys
from pathlib import Path
from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.engine.render import Renderer

plan = compile_spec(Path(sys.argv[1]), Settings())
renderer = Renderer(plan, {"module_name": "json"})
first = renderer.step_input(plan.steps[0], {})
before = "jinja2" in sys.modules
step = plan.steps[1].model_copy(update={"when": "inputs.module_name == 'json'"})
when = renderer.condition(step, {})
print(json.dumps([first, before, when, "jinja2" in sys.modules]))
"""


def test_a_plan_of_pointer_bindings_compiles_and_binds_without_jinja2_and_a_condition_imports_it() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLWEAVE_", "ANTHROPIC_"))}
    done = subprocess.run([sys.executable, "-c", _CODE, str(SEED)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, before, when, after = json.loads(done.stdout.strip().splitlines()[-1])
    assert first == {"module_name": "json"}
    assert before is False
    assert when is True and after is True
