"""Fuzzing the real commands (issue 25, "Must show"): specs in markdown and YAML through
`skillweave validate`, skill folders through `skillweave skills validate` and a spec that uses
them. Each input runs in a child of the fuzz worker under 512 MiB more address space, 20 s
of CPU and 60 s of wall time. Whatever the input: exit 0 or 2, never a traceback or an
"internal error", never killed by a limit, every message line short.

The CI run is a few dozen inputs a test with a fixed seed (`derandomize`). The long run:
`make fuzz` (SKILLWEAVE_FUZZ_EXAMPLES=5000, SKILLWEAVE_FUZZ_SEED=<n> for a new draw)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, seed, settings

from tests.fuzz.conftest import MEMORY, Verdict, Worker
from tests.fuzz.hostile import MARKDOWN_SPECS, YAML_SPECS, skill_folders, write_skill

EXAMPLES = int(os.environ.get("SKILLWEAVE_FUZZ_EXAMPLES", "30"))
SEED = os.environ.get("SKILLWEAVE_FUZZ_SEED")
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=SEED is None,
                suppress_health_check=list(HealthCheck), print_blob=True)
MAX_LINE = 2_000  # characters of one line a command prints


def _seeded(test: Any) -> Any:
    return seed(int(SEED))(test) if SEED is not None else test


def bounded(verdict: Verdict) -> None:
    assert not verdict.timed_out, verdict
    assert verdict.signal is None, verdict  # SIGXCPU (the CPU limit) or SIGKILL
    assert verdict.code in (0, 2), verdict
    assert "Traceback" not in verdict.stderr and "internal error" not in verdict.stderr, verdict
    assert "FUZZ-MEMORY-ERROR" not in verdict.stderr, verdict  # it tried to go past its memory
    assert verdict.grew_mb < MEMORY >> 20, verdict
    for line in (verdict.stdout + verdict.stderr).splitlines():
        assert len(line) <= MAX_LINE, verdict


@_seeded
@FUZZ
@given(MARKDOWN_SPECS)
def test_any_markdown_spec_validates_or_is_refused_within_limits(worker: Worker, text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.md"
        spec.write_text(text, encoding="utf-8")
        bounded(worker.run("validate", spec, cwd=Path(tmp)))


@_seeded
@FUZZ
@given(YAML_SPECS)
def test_any_yaml_spec_validates_or_is_refused_within_limits(worker: Worker, text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.yaml"
        spec.write_text(text, encoding="utf-8")
        bounded(worker.run("validate", spec, cwd=Path(tmp)))


@_seeded
@FUZZ
@given(skill_folders())
def test_any_skill_folder_is_checked_or_refused_within_limits(worker: Worker, skill: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = write_skill(root, skill)
        bounded(worker.run("skills", "validate", folder, cwd=root))
        spec = root / "spec.md"
        spec.write_text("# Uses\n\n## Inputs\n- a (string): a\n\n## Workflow Steps\n\n### Step 1: One\n"
                        "- Skill: `fuzzed`\n- Input: a\n- Output: b\n", encoding="utf-8")
        bounded(worker.run("validate", spec, cwd=root))
