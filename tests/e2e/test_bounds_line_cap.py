"""A 1 MiB spec that is one line, or one table cell, through the real `skillweave validate`
under a CPU limit (issue 25: parsing stays linear): it validates, with a warning at the line
("line too long to read"), and `--strict` makes that warning an error (exit 2). The limits
are resource bounds, not timings."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.spec.linecap import LINE_LIMIT
from tests.bounded import SKILLWEAVE, Outcome, run_bounded

pytestmark = [pytest.mark.e2e]

_HEAD = ("# Big\n\n## Inputs\n- module_name (string): m\n\n## Workflow Steps\n\n### Step 1: Fetch\n"
         "- Skill: `fetch-docs`\n- Input: module_name\n- Output: existing_docs\n\n")
_ROOM = (1 << 20) - 400
CASES = {  # (text, the line of the long line)
    "prose line": (_HEAD + ("If it fails, retry after 1 s, then 2 s, then escalate it to (a)   " * 20_000)[:_ROOM] + "\n",
                   13),
    "digits line": (_HEAD + "Retry after " + "1" * _ROOM + "\n", 13),
    "table cell": (_HEAD + "## Error Recovery\n\n| Step | Failure | Action |\n| --- | --- | --- |\n"
                   "| 1 | timeout | retry if " + "if " * (_ROOM // 3 - 60) + " |\n", 17),
}


def _validate(spec: Path, *extra: str) -> Outcome:
    return run_bounded([SKILLWEAVE, "validate", *extra, str(spec)], cwd=spec.parent, cpu_s=30, wall_s=120.0)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_one_mebibyte_line_validates_with_a_warning_at_the_line_and_strict_refuses_it(
        tmp_path: Path, case: str) -> None:
    text, line = CASES[case]
    spec = tmp_path / "big.md"
    spec.write_text(text, encoding="utf-8")
    assert (1 << 20) - 1_000 < spec.stat().st_size <= 1 << 20
    length = len(text.splitlines()[line - 1])
    said = f"{spec}:{line}: warning: line too long to read: {length:,} characters, limit {LINE_LIMIT:,}"
    outcome = _validate(spec)
    assert outcome.returncode == 0, outcome
    assert said in outcome.stderr.splitlines() or said in outcome.stdout.splitlines(), outcome
    strict = _validate(spec, "--strict")
    assert strict.returncode == 2, strict
    assert "line too long to read" in strict.stderr, strict
